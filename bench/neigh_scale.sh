#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The neighbour table at scale: N permanent neighbours enter the kernel with ip -batch on
# one port's /16, and ternd mirrors each (its nexthop and its /32 adjacency). Prints the
# control thread's CPU (user+sys from /proc, ternd's main thread) from the first neighbour
# to the last mirrored, for each N in COUNTS, and the same for deleting them.
#
#   bench/neigh_scale.sh [BUILD]        COUNTS="5000 10000 20000 40000"
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
COUNTS=${COUNTS:-5000 10000 20000 40000}
. "$ROOT/bench/lib.sh"
bench_begin neigh
max=0
for n in $COUNTS; do [ "$n" -gt "$max" ] && max=$n; done
# the default table holds 65536; more needs [neighbours] max
[ "$max" -gt 60000 ] && TERND_CONF_EXTRA="[neighbours]
max = $((max + 4096))"
ternd_conf "--no-huge -m 1024" "dp0:0" 65536 <<EOC
[port dp0]
dev = net_null0
EOC
ternd_start || exit 1
tern -c "configure terminal" -c "interface dp0" -c "ip address 198.18.0.1/16" -c "end" || exit 1
neighbours() { tern --json -c "show memory" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["tables"]["neighbours"]["used"])'; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/task/$pid/stat"; }
hz=$(getconf CLK_TCK)
base=$(neighbours)
for n in $COUNTS; do
	for verb in replace del; do
		/usr/bin/python3 - "$n" "$verb" > "$DIR/batch" <<'PY'
import sys
n, verb = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    ip = f"198.18.{(i + 256) >> 8 & 255}.{(i + 256) & 255}"
    mac = "" if verb == "del" else f" lladdr 02:00:{i >> 16 & 255:02x}:{i >> 8 & 255:02x}:{i & 255:02x}:01 nud permanent"
    print(f"neigh {verb} {ip}{mac} dev dp0")
PY
		want=$((base + n))
		[ "$verb" = del ] && want=$base
		c0=$(cpu_ticks)
		ip netns exec "$R" ip -batch "$DIR/batch" || { echo "neigh: ip -batch failed"; exit 1; }
		until [ "$(neighbours)" = "$want" ]; do sleep 0.05; done
		c1=$(cpu_ticks)
		awk -v n="$n" -v v="$verb" -v t=$((c1 - c0)) -v hz="$hz" \
			'BEGIN { printf "neigh: %6d neighbours %-7s: %.2f s of control CPU (%.1f us each)\n", n, v == "del" ? "deleted" : "added", t / hz, 1e6 * t / hz / n }'
	done
done
