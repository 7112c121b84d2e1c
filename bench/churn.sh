#!/bin/bash
# Forwarding under route churn (issue: dataplane): transit at 80 % of the maximum rate while
# the kernel adds and removes CHURN routes per second (prefixes that carry no traffic, so
# every change still goes through the FIB's copy switch and grace period); loss, the churn
# achieved, and the consistency check afterwards. ternd forwards on lcore 1 over memif;
# tern-bench and the churn share lcore 0, as they must on a 2-core machine.
#
#   bench/churn.sh [BUILD]     env: DURATION (10), CHURN (10000 changes/s), SHARE (80 %)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
DURATION=${DURATION:-10}
CHURN=${CHURN:-10000}
SHARE=${SHARE:-80}
. "$ROOT/bench/lib.sh"
bench_extra_cleanup() { [ -n "${churn_pid:-}" ] && kill "$churn_pid" 2>/dev/null; }
bench_begin churn
hugepages_reserve 1024
memif_ports | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 262144
ternd_start || exit 1
tern -c "configure terminal" -c "interface m0" -c "ip address 198.18.0.1/24" \
	-c "interface m1" -c "ip address 198.18.1.1/24" -c "exit" \
	-c "arp 198.18.0.2 02:00:00:00:b0:00 m0" -c "arp 198.18.1.2 02:00:00:00:b0:01 m1" \
	-c "ip route 198.19.0.0/16 198.18.1.2" -c "end" >/dev/null || { echo "churn: configuring ternd failed"; exit 1; }

gen() {	# RATE -> JSON
	"$BUILD/tern-bench" gen --eal "-l 0 $BENCH_MEM --file-prefix tern-churn-gen --log-level=*:error" \
		--port "$(memif 0 client 02:00:00:00:b0:00)" --port "$(memif 1 client 02:00:00:00:b0:01)" \
		--queues 2 --dst-mac 02:00:00:00:a0:00 --flows 1024 --duration "$1" --rate "$2" --json
}
field() { /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
updates() { tern --json -c "show ip route summary" | field '["fib_updates"]' 2>/dev/null || echo 0; }

max=$(gen 3 max | field '["rx_pps"]')
rate=$(awk -v m="$max" -v s="$SHARE" 'BEGIN { printf "%d", m * s / 100 }')
echo "flat out: $max pps; now $SHARE % of it ($rate pps) for $DURATION s with $CHURN route changes/s"

# the churn: /24s in 100.64.0.0/10 added and removed in turn, paced, through one ip -batch
/usr/bin/python3 - "$CHURN" $((DURATION + 4)) <<'PY' | ip -n "$R" -force -batch - 2>/dev/null &
import sys, time
rate, secs = float(sys.argv[1]), float(sys.argv[2])
t0, n = time.monotonic(), 0
while time.monotonic() - t0 < secs:
    due = int((time.monotonic() - t0) * rate)
    while n < due:
        k = n // 2 % 16384
        op = "add" if n % 2 == 0 else "del"
        print(f"route {op} 100.{64 + k // 256}.{k % 256}.0/24 via 198.18.1.2", flush=False)
        n += 1
    sys.stdout.flush()
    time.sleep(0.001)
PY
churn_pid=$!
sleep 2	# the churn is under way before the trial
u0=$(tern --json -c "show netlink" | field '["routes"]')
tern -c "clear counters" >/dev/null
out=$(gen "$DURATION" "$rate")
u1=$(tern --json -c "show netlink" | field '["routes"]')
ifs=$(tern --json -c "show interfaces")
wait "$churn_pid" 2>/dev/null
churn_pid=
sleep 1
diffs=$(tern --json -c "show ip fib consistency" | field '["differences"]')
/usr/bin/python3 - "$out" "$u0" "$u1" "$diffs" "$CHURN" "$ifs" <<'PY'
import json, sys
r = json.loads(sys.argv[1]); u0, u1, diffs, want = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
m0, m1 = json.loads(sys.argv[6])["interfaces"][:2]
changes = (u1 - u0) / r["duration_s"]
print(f"transit: offered {r['tx_pps']:.0f} pps, forwarded {r['rx_pps']:.0f} pps, loss {r['loss_percent']:.4f} % "
      f"({r['tx_packets'] - min(r['rx_packets'], r['tx_packets'])} frames), latency p99 {r['latency_ns']['p99'] / 1e3:.1f} us")
print(f"where: m0 received {m0['rx_packets']}, missed {m0['rx_missed']}; m1 sent {m1['tx_packets']}, "
      f"dropped at its full tx ring {m1['tx_drops']} (the generator not reading fast enough)")
print(f"route changes mirrored during the trial: {changes:.0f}/s (asked {want}/s)")
print(f"consistency check afterwards: {diffs} difference(s)")
PY
