#!/bin/bash
# Soak (not in CI): MINUTES at 90 % of the measured maximum rate through ternd over memif while
# 1000 routes per second change and a spare port flaps every 10 s. Reports loss, ternd's memory
# at start and end, whether the FIB still equals the kernel, and whether the counters add up.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
MINUTES=${MINUTES:-10}
churn= flap=
. "$ROOT/bench/lib.sh"
bench_extra_cleanup() {
	[ -n "$churn" ] && kill "$churn" 2>/dev/null
	[ -n "$flap" ] && kill "$flap" 2>/dev/null
}
bench_begin soak
hugepages_reserve 1024
ternd_conf "$MEM_ARGS" "m0:0 m1:0 spare:0" 1048576 <<EOC
$(memif_ports)
[port spare]
dev = net_null2
EOC
ternd_start || exit 1
tern -c "configure terminal" -c "interface m0" -c "ip address 198.18.0.1/24" \
	-c "interface m1" -c "ip address 198.18.1.1/24" -c "interface spare" -c "ip address 198.18.9.1/24" -c "exit" \
	-c "arp 198.18.1.2 02:00:00:00:b0:01 m1" -c "ip route 198.19.0.0/16 198.18.1.2" -c "end" >/dev/null || exit 1
gen() {	# RATE DURATION
	"$BUILD/tern-bench" gen --eal "-l 0 $BENCH_MEM --file-prefix tern-soak-gen --log-level=*:error" \
		--port "$(memif 0 client 02:00:00:00:b0:00)" --port "$(memif 1 client 02:00:00:00:b0:01)" \
		--queues 2 --dst-mac 02:00:00:00:a0:00 --flows 1024 --rate "$1" --duration "$2" --json
}
jf() { /usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }
max=$(gen max 5 | jf 'int(j["rx_pps"])')
rate=$((max * 9 / 10))
rss0=$(awk '/VmRSS/ { print $2 }' /proc/$pid/status)
echo "soak: ${MINUTES} min at $rate pps (90 % of $max), 1000 route changes/s, a port flapping every 10 s"

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
kill $churn $flap 2>/dev/null; wait $churn $flap 2>/dev/null; churn= flap=
ip -n $R link set spare up
sleep 1
rss1=$(awk '/VmRSS/ { print $2 }' /proc/$pid/status)
diffs=$(tern --json -c "show ip fib consistency" | jf 'j["differences"]')
echo "$out" | jf '"  sent %d, received %d, loss %.4f %%, latency p99 %.1f us" % (j["tx_packets"], j["rx_packets"], j["loss_percent"], j["latency_ns"]["p99"] / 1e3)'
echo "  ternd resident memory: ${rss0} kB at start, ${rss1} kB at the end"
echo "  FIB vs kernel after the churn: $diffs difference(s)"
tern --json -c "show counters" | jf '"  m0 received %d, m1 sent %d, dropped on tx %d" % (j["ports"][0]["rx_packets"], j["ports"][1]["tx_packets"], j["ports"][1]["tx_dropped"])'
tern -c "show netlink" | sed 's/^/  /'
