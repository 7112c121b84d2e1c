#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# An RFC 2544 run over memif: the device under test (DUT=tern, the default, or DUT=l3fwd)
# forwards on lcore 1 in its own namespace; `tern-bench rfc2544` generates on lcore 0.
#
#   bench/rfc2544.sh BUILD OUTDIR [tern-bench rfc2544 options]   (default: --quick)
#
# The DUT routes 198.19.0.0/16 out of m1 and 198.19.128.0/17 out of m0 (the other direction,
# BIDIR=1), with static ARP for the generator's MACs: the setup docs/rfc2544.md describes for
# an external generator. IPV6=1 sends IPv6/UDP frames (--ipv6): the DUT routes 2001:2:0:1::/64
# out of m1 and 2001:2:0:2::/64 out of m0 (l3fwd too). Everything it makes
# (namespace, hugepages, processes) is undone when it ends; OUTDIR keeps the report.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUTDIR=${2:?usage: bench/rfc2544.sh BUILD OUTDIR [options]}
shift 2
[ $# -gt 0 ] || set -- --quick
DUT=${DUT:-tern}
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}	# all of ternd on its worker's CPU: lib.sh
. "$ROOT/bench/lib.sh"
bench_begin "rfc2544-$DUT"
hugepages_reserve 1024
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
extra=()

case $DUT in
tern)
	memif_ports | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 65536
	ternd_start || exit 1
	memif_forwarding_setup rfc2544 "hostname rfc2544-dut" \
		"interface m0" "description generator sends here" \
		"interface m1" "description generator receives here" "exit" \
		"ip route 198.19.128.0/17 198.18.0.2" || exit 1
	tern -c "clear counters" >/dev/null
	# the DUT's own account goes in the report
	extra=(--tern-socket "$DIR/ternd.sock")
	;;
l3fwd)
	l3fwd_build || exit 1
	printf 'R198.18.0.0/24 0\nR198.18.1.0/24 1\nR198.19.0.0/16 1\nR198.19.128.0/17 0\n' > "$DIR/l3fwd-v4.cfg"
	printf 'R2001:2:0:1::/64 1\nR2001:2:0:2::/64 0\n' > "$DIR/l3fwd-v6.cfg"
	l3fwd_start
	;;
*)
	echo "rfc2544: DUT=$DUT: expected tern or l3fwd"; exit 2 ;;
esac

[ "${BIDIR:-0}" = 1 ] && extra+=(--bidirectional --dst-mac2 02:00:00:00:a0:01)
[ "${IPV6:-0}" = 1 ] && extra+=(--ipv6)
echo "RFC 2544 of $DUT over memif; report in $OUTDIR"
"$BUILD/tern-bench" rfc2544 --eal "-l 0 $BENCH_MEM --file-prefix tern-$BENCH_NAME-gen --log-level=*:error" \
	--port "$(memif 0 client 02:00:00:00:b0:00)" --port "$(memif 1 client 02:00:00:00:b0:01)" \
	--dst-mac 02:00:00:00:a0:00 --out "$OUTDIR" "${extra[@]}" "$@"
