#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Soak (not in CI): MINUTES at 90 % of the measured maximum rate through ternd over memif while
# 1000 routes per second change and a spare port flaps every 10 s. Reports loss, ternd's memory
# over time (sampled every SAMPLE seconds into MEMLOG, default $DIR/memory.csv: resident memory,
# malloc's and rte_malloc's bytes in use) with the growth in each half of the run, whether the FIB
# still equals the kernel, and whether the counters add up.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
MINUTES=${MINUTES:-10}
SAMPLE=${SAMPLE:-30}
churn= flap= sampler=
. "$ROOT/bench/lib.sh"
bench_extra_cleanup() {
	[ -n "$churn" ] && kill "$churn" 2>/dev/null
	[ -n "$flap" ] && kill "$flap" 2>/dev/null
	[ -n "$sampler" ] && kill "$sampler" 2>/dev/null
}
bench_begin soak
hugepages_reserve 1024
ternd_conf "$MEM_ARGS" "m0:0 m1:0 spare:0" 1048576 <<EOC
$(memif_ports)
[port spare]
dev = net_null2
EOC
ternd_start || exit 1
memif_forwarding_setup soak "interface spare" "ip address 198.18.9.1/24" || exit 1
gen() {	# RATE DURATION
	memif_gen --flows 1024 --rate "$1" --duration "$2" --json
}
jf() { /usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }
max=$(gen max 5 | jf 'int(j["rx_pps"])')
rate=$((max * 9 / 10))
MEMLOG=${MEMLOG:-$DIR/memory.csv}
memory_sample() {
	tern --json -c "show memory" | jf '"%d,%d,%d,%d" % (j["process"]["rss_kb"], j["process"]["heap_in_use"], j["process"]["dpdk_in_use"], j["tables"]["routes"]["used"])'
}
echo "soak: ${MINUTES} min at $rate pps (90 % of $max), 1000 route changes/s, a port flapping every 10 s"
echo "seconds,rss_kb,heap_in_use,dpdk_in_use,routes" > "$MEMLOG"
( t0=$(date +%s); while :; do
	echo "$(($(date +%s) - t0)),$(memory_sample)" >> "$MEMLOG"; sleep "$SAMPLE"
done ) &
sampler=$!

# 1000 route changes a second in 198.19.128.0/17 (more specific than the /16 in use: traffic unaffected)
( i=0; while :; do
	for k in $(seq 0 499); do echo "route replace 198.19.$((128 + (i + k) % 128)).$(( (k % 64) * 4 ))/30 via 198.18.1.2"; done > "$DIR/add"
	sed 's/replace/del/; s/ via.*//' "$DIR/add" > "$DIR/del"
	ip -n $R -force -batch "$DIR/add" 2>/dev/null; ip -n $R -force -batch "$DIR/del" 2>/dev/null
	i=$((i + 500)); sleep 1
done ) &
churn=$!
( while :; do sleep 5; ip -n $R link set spare down; sleep 5; ip -n $R link set spare up; done ) &
flap=$!
out=$(gen "$rate" $((MINUTES * 60)))
kill $churn $flap $sampler 2>/dev/null; wait $churn $flap $sampler 2>/dev/null; churn= flap= sampler=
ip -n $R link set spare up
sleep 1
echo "$((MINUTES * 60 + 1)),$(memory_sample)" >> "$MEMLOG"
diffs=$(tern --json -c "show ip fib consistency" | jf 'j["differences"]')
echo "$out" | jf '"  sent %d, received %d, loss %.4f %%, latency p99 %.1f us" % (j["tx_packets"], j["rx_packets"], j["loss_percent"], j["latency_ns"]["p99"] / 1e3)'
/usr/bin/python3 - "$MEMLOG" <<'EOP'
import csv, sys
rows = [{k: int(v) for k, v in r.items()} for r in csv.DictReader(open(sys.argv[1]))]
first, mid, last = rows[0], rows[len(rows) // 2], rows[-1]
def growth(a, b, key, div):
	return (b[key] - a[key]) / div
print("  memory, %d samples (%s):" % (len(rows), sys.argv[1]))
for key, name, div, unit in (("rss_kb", "resident", 1, "kB"), ("heap_in_use", "malloc in use", 1024, "kB"),
			     ("dpdk_in_use", "rte_malloc in use", 1024, "kB")):
	print("    %-18s %10.0f %s at start, %+8.0f in the first half, %+8.0f in the second half (peak %.0f)" %
	      (name, first[key] / div, unit, growth(first, mid, key, div), growth(mid, last, key, div),
	       max(r[key] for r in rows) / div))
EOP
echo "  FIB vs kernel after the churn: $diffs difference(s)"
tern --json -c "show counters" | jf '"  m0 received %d, m1 sent %d, dropped on tx %d" % (j["ports"][0]["rx_packets"], j["ports"][1]["tx_packets"], j["ports"][1]["tx_dropped"])'
tern -c "show netlink" | sed 's/^/  /'
