#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# What SNMP walks cost ternd's worker. ternd forwards tern-bench's 64-byte frames between two
# memif ports at a fixed rate its worker keeps up with, the worker alone on CPU 1; the
# generator, ternd's control thread, snmpd (the AgentX master, with etc/snmp's pieces) and
# the walker share CPU 0. ternd has SUBIFS sub-interfaces, so ifXTable has as many rows
# more. Each round forwards SECONDS_EACH while snmpbulkwalk walks snmpd's own
# HOST-RESOURCES-MIB over and over (the control: CPU 0 as busy, ternd asked nothing), then as
# long while it walks ternd's whole ifXTable, and reads the worker's own account (show
# workers: the cycles of its walks that handled packets, a packet) of each. The generator's
# share of CPU 0 sets how many frames each of the worker's walks finds, and so its cycles a
# packet: hence the control. Prints each round's ratio, ifXTable / control, their median,
# the walks done and what the generator lost.
#
#   bench/snmp_cost.sh [BUILD]    env: ROUNDS (5), SECONDS_EACH (3), PPS (2000000), SUBIFS (1000)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUNDS=${ROUNDS:-5} SECS=${SECONDS_EACH:-3} PPS=${PPS:-2000000} SUBIFS=${SUBIFS:-1000}
export TERND_ONE_CPU=0
. "$ROOT/bench/lib.sh"
bench_begin snmp-cost
hugepages_reserve 768
snmpd= walker=
bench_extra_cleanup() {
	local p
	for p in $walker $snmpd; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
}

{
	sed "s|/var/agentx/master|$DIR/agentx.sock|" "$ROOT/etc/snmp/snmpd-tern.conf"
	printf '%s\n' "agentaddress udp:127.0.0.1:16100" "rocommunity public 127.0.0.1"
} > "$DIR/snmpd.conf"
mkdir -p "$DIR/snmp-state"
# shellcheck disable=SC2046
ip netns exec "$R" taskset -c 0 env SNMP_PERSISTENT_DIR="$DIR/snmp-state" snmpd -f -C -c "$DIR/snmpd.conf" \
	$(grep -o -- '-I [^ ]*' "$ROOT/etc/snmp/snmpd-tern.service.conf") -Lf "$DIR/snmpd.log" &
snmpd=$!
memif_ports | TERND_CONF_EXTRA=$'[snmp]\nagentx = '"$DIR/agentx.sock" ternd_conf "$MEM_ARGS" "m0:0 m1:0" 4096
ternd_start || exit 1
{ memif_forwarding_commands; for v in $(seq 1 "$SUBIFS"); do echo "interface m0.$v"; done; echo end; } |
	tern -f - > /dev/null || { echo "snmp-cost: configuring ternd failed"; exit 1; }
walk() {	# [OID]: ifXTable's by default
	ip netns exec "$R" taskset -c 0 env MIBS= snmpbulkwalk -v2c -c public -On -Cr50 -t 5 -r 0 \
		127.0.0.1:16100 "${1:-.1.3.6.1.2.1.31.1.1.1}"
}
HR=.1.3.6.1.2.1.25	# HOST-RESOURCES-MIB, snmpd's own
names() { walk 2>/dev/null | grep -c '^\.1\.3\.6\.1\.2\.1\.31\.1\.1\.1\.1\.'; }	# ifName's rows
for _ in $(seq 100); do [ "$(names)" -ge $((SUBIFS + 2)) ] && break; sleep 0.2; done
rows=$(names)
echo "snmp-cost: ifXTable has $rows rows (ternd's $((SUBIFS + 2)) interfaces)"
[ "$rows" -ge $((SUBIFS + 2)) ] || { echo "snmp-cost: ternd's rows did not reach snmpd"; tail -n 5 "$DIR/ternd.log"; exit 1; }

# the worker's busy cycles and packets, summed over its graph's walks
account() {
	tern --json -c "show workers" | /usr/bin/python3 -c '
import json, sys
w = json.load(sys.stdin)["workers"][0]
print(w["busy_cycles"], w["packets"])'
}
# one trial: SECS of frames; prints cycles a packet and the generator's loss (%)
trial() {
	local a b
	a=$(account)
	memif_gen --flows 1024 --rate "$PPS" --duration "$SECS" --json > "$DIR/gen.json" 2> "$DIR/gen.err" ||
		{ echo "snmp-cost: the generator failed: $(cat "$DIR/gen.err")" >&2; return 1; }
	b=$(account)
	/usr/bin/python3 -c '
import json, sys
a, b = [list(map(int, s.split())) for s in sys.argv[1:3]]
g = json.load(open(sys.argv[3]))
print("%.1f %.4f" % ((b[0] - a[0]) / max(1, b[1] - a[1]), g["loss_percent"]))' "$a" "$b" "$DIR/gen.json"
}
echo "snmp-cost: a walk of snmpd's own HOST-RESOURCES-MIB: $(walk "$HR" 2>/dev/null | wc -l) objects"
# one trial while OID is walked over and over: cycles a packet, loss, walks done
walking() {	# OID
	local t
	rm -f "$DIR/walks"
	( n=0; while walk "$1" > /dev/null 2>&1; do n=$((n + 1)); echo "$n" > "$DIR/walks"; done ) &
	walker=$!
	sleep 1	# the walk under way
	t=$(trial) || return 1
	kill "$walker" 2>/dev/null; wait "$walker" 2>/dev/null; walker=
	echo "$t $(cat "$DIR/walks" 2>/dev/null || echo 0)"
}
ratios=()
for r in $(seq 1 "$ROUNDS"); do
	read -r c_cyc c_loss c_walks < <(walking "$HR") || exit 1
	read -r i_cyc i_loss i_walks < <(walking .1.3.6.1.2.1.31.1.1.1) || exit 1
	ratio=$(awk -v c="$c_cyc" -v i="$i_cyc" 'BEGIN { printf "%.3f", i / c }')
	ratios+=("$ratio")
	echo "round $r: control $c_cyc cycles a packet (loss $c_loss %, $c_walks walks), ifXTable $i_cyc (loss $i_loss %, $i_walks walks): $ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "snmp-cost: worker cycles a packet, walking ifXTable / the control: median %s of %d rounds\n", v[int((NR + 1) / 2)], NR }'
