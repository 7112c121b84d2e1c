#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Forwarding under route churn (issue: dataplane): transit at 80 % of the maximum rate while
# the kernel adds and removes CHURN routes per second (prefixes that carry no traffic, so
# every change still goes through the FIB's copy switch and grace period); loss, the churn
# achieved, what it cost ternd's control thread, and the consistency check afterwards.
# ternd forwards on CPU 1 over memif; tern-bench, the churn and ternd's control threads
# share CPU 0, as they must on a 2-core machine (the churn is pinned there: left to the
# scheduler, it took a quarter of the worker's CPU).
#
# The generator's memif rings have 16384 slots (GEN_RING_LOG2=14), a deep tester NIC's receive
# ring: sharing its CPU with the churn and ternd's control thread, it is now and then
# descheduled for a millisecond or more, and ternd's transmit ring towards it filled while
# ternd lost nothing (1024 slots: 0.02-0.04 % lost there; 4096: 32 frames in one of eight
# 10-s runs, once the generator drained its backlog; 16384: none in three).
#
#   bench/churn.sh [BUILD]     env: DURATION (10), CHURN (10000 changes/s), SHARE (80 %),
#                              GEN_RING_LOG2 (14), GEN_BIN (BUILD's tern-bench)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
DURATION=${DURATION:-10}
CHURN=${CHURN:-10000}
SHARE=${SHARE:-80}
GEN_RING_LOG2=${GEN_RING_LOG2:-14}
GEN_BIN=${GEN_BIN:-$BUILD/tern-bench}
. "$ROOT/bench/lib.sh"
bench_extra_cleanup() { [ -n "${churn_pid:-}" ] && kill "$churn_pid" 2>/dev/null; }
bench_begin churn
hugepages_reserve 1024
memif_ports | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 262144
ternd_start || exit 1
memif_forwarding_setup churn || exit 1

gen() {	# RATE -> JSON
	GEN_PORT_EXTRA=,rsize=$GEN_RING_LOG2 memif_gen --flows 1024 --duration "$1" --rate "$2" --json
}
field() { /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/task/$pid/stat"; }	# the control thread

max=$(gen 3 max | field '["rx_pps"]') || { echo "churn: the generator's flat-out trial failed"; exit 1; }
rate=$(awk -v m="$max" -v s="$SHARE" 'BEGIN { printf "%d", m * s / 100 }')
echo "flat out: $max pps; now $SHARE % of it ($rate pps) for $DURATION s with $CHURN route changes/s"

# the churn: /24s in 100.64.0.0/10 added and removed in turn, a millisecond's changes a message
ip netns exec "$R" taskset -c 0 "$BUILD/tern-bench" churn --via 198.18.1.2 --within 100.64.0.0/10 \
	--len 24 --rate "$CHURN" --seconds $((DURATION + 5)) --json > "$DIR/churn.json" &
churn_pid=$!
sleep 2	# the churn is under way before the trial
nl0=$(tern --json -c "show netlink")
tern -c "clear counters" >/dev/null
c0=$(cpu_ticks) t0=$(date +%s.%N)
out=$(gen "$DURATION" "$rate" 2>"$DIR/gen.err")
c1=$(cpu_ticks) t1=$(date +%s.%N)
nl1=$(tern --json -c "show netlink")
ifs=$(tern --json -c "show interfaces")
wait "$churn_pid" 2>/dev/null
churn_pid=
sleep 1
diffs=$(tern --json -c "show ip fib consistency" | field '["differences"]')
/usr/bin/python3 - "$out" "$nl0" "$nl1" "$diffs" "$CHURN" "$ifs" $((c1 - c0)) "$(getconf CLK_TCK)" "$t0" "$t1" "$(cat "$DIR/churn.json")" <<'PY' || { echo "churn: no result from the trial: '$out' $(cat "$DIR/gen.err")"; exit 1; }
import json, sys
r = json.loads(sys.argv[1]); n0, n1 = json.loads(sys.argv[2]), json.loads(sys.argv[3])
diffs, want, ticks, hz = sys.argv[4], int(sys.argv[5]), int(sys.argv[7]), int(sys.argv[8])
m0, m1 = json.loads(sys.argv[6])["interfaces"][:2]
secs = float(sys.argv[10]) - float(sys.argv[9])	# the generator's run, with its start and exit
changes = (n1["routes"] - n0["routes"]) / secs
batches = (n1["batches"] - n0["batches"]) / secs
print(f"transit: offered {r['tx_pps']:.0f} pps, forwarded {r['rx_pps']:.0f} pps, loss {r['loss_percent']:.4f} % "
      f"({r['tx_packets'] - min(r['rx_packets'], r['tx_packets'])} frames), latency p99 {r['latency_ns']['p99'] / 1e3:.1f} us")
print(f"where: m0 received {m0['rx_packets']}, missed {m0['rx_missed']}; m1 sent {m1['tx_packets']}, "
      f"dropped at its tx ring {m1['tx_drops']} (full: the generator not reading fast enough; or "
      f"not ready yet as it connects, for the kernel's own frames as the link comes up)")
print(f"route changes mirrored during the trial: {changes:.0f}/s (asked {want}/s), in {batches:.0f} FIB batches/s "
      f"(batch_interval_us {n1['batch_interval_us']}); ternd's control thread used {100 * ticks / hz / secs:.1f} % of a CPU")
c = json.loads(sys.argv[11] or "{}")
print(f"churn driver (tern-bench churn): {c.get('changes', 0)} changes at {c.get('rate', 0):.0f}/s, "
      f"{c.get('errors', '?')} refused by the kernel, {c.get('cpu_percent', 0):.1f} % of a CPU with the kernel's work")
print(f"consistency check afterwards: {diffs} difference(s)")
PY
