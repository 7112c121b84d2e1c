#!/bin/bash
# make bench: ternd against DPDK's l3fwd (LPM) and testpmd (io) in the same memif harness.
# One core forwards (lcore 1), tern-bench generates on the other (lcore 0); runs alternate in
# an order rotated each round, ROUNDS rounds, medians (and round-by-round ratios) reported and written to $OUT/results.json (results-1m.json with
# TABLE=1m: both routers then also hold a 1M-route BGP-shaped table, tern-bench routes; ternd
# learns it from its kernel, l3fwd from its rule file with its LPM limits raised).
# TERN_B=/path/to/ternd adds a fourth contender, "tern-b", in the same rounds: an A/B of two
# builds of ternd against each other and the references. All of ternd's threads run on the
# forwarding core, l3fwd's only busy thread's (TERND_ONE_CPU in lib.sh; 0 puts its control
# threads on the generator's core, as before 2026-11-30 session 6).
set -u
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
FLOWS=${FLOWS:-1024}
SIZE=${SIZE:-64}
OUT=${OUT:-$BUILD/bench}
TABLE=${TABLE:-1k}
# The generator: make bench passes the statically linked tern-bench (no PLT calls, no
# __tls_get_addr for every mempool access), the same for every contender.
GEN_BIN=${GEN_BIN:-$BUILD/tern-bench}
. "$ROOT/bench/lib.sh"
bench_begin bench
mkdir -p "$OUT"
hugepages_reserve 2048

# The same table for both: 1000 /27s (or 1M BGP-shaped routes) that carry no traffic, plus the
# routes in use.
ROUTES=$DIR/routes.txt
if [ "$TABLE" = 1m ]; then
	l3fwd_build big || exit 1
	"$BUILD/tern-bench" routes --count 1000000 | sort -u > "$ROUTES"
	RESULTS=$OUT/results-1m.json
else
	l3fwd_build || exit 1
	for i in $(seq 0 999); do
		echo "198.18.$((128 + i / 8)).$(((i % 8) * 32))/27"
	done > "$ROUTES"
	RESULTS=$OUT/results.json
fi
NB_ROUTES=$(($(wc -l < "$ROUTES") + 1))
{
	echo "R198.18.0.0/24 0"
	echo "R198.18.1.0/24 1"
	echo "R198.19.0.0/16 1"
	sed 's/^/R/; s/$/ 0/' "$ROUTES"
} > "$DIR/l3fwd-v4.cfg"
echo "R2001:200::/48 0" > "$DIR/l3fwd-v6.cfg"

gen() {	# DST_MAC [QUEUES] -> prints rx_pps and loss
	"$GEN_BIN" gen --eal "-l 0 $BENCH_MEM --file-prefix tern-bench-gen --log-level=*:error" \
		--port "$(memif 0 client 02:00:00:00:b0:00)" --port "$(memif 1 client 02:00:00:00:b0:01)" \
		--queues "${2:-1}" --dst-mac "$1" --flows "$FLOWS" --size "$SIZE" --duration "$DURATION" --json \
		| /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print(int(j["rx_pps"]), j["loss_percent"])'
}

run_tern() {
	memif_ports | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 1048576
	ternd_start || exit 1
	{
		echo "configure terminal"
		echo "interface m0"; echo "ip address 198.18.0.1/24"
		echo "interface m1"; echo "ip address 198.18.1.1/24"; echo "exit"
		echo "arp 198.18.0.2 02:00:00:00:b0:00 m0"
		echo "arp 198.18.1.2 02:00:00:00:b0:01 m1"
		echo "ip route 198.19.0.0/16 198.18.1.2"
		[ "$TABLE" = 1m ] || sed 's/$/ 198.18.0.2/; s/^/ip route /' "$ROUTES"
	} | tern -f - >/dev/null || { echo "tern config failed"; exit 1; }
	if [ "$TABLE" = 1m ]; then	# through the kernel, as a routing daemon would
		sed 's/^/route replace /; s/$/ via 198.18.0.2/' "$ROUTES" | ip -n "$R" -batch - || exit 1
		for _ in $(seq 600); do
			[ "$(tern --json -c "show ip route summary" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kernel_routes"])')" -ge "$NB_ROUTES" ] && break
			sleep 0.5
		done
	fi
	gen 02:00:00:00:a0:00 2	# ternd sends what its kernel emits on a second queue
	ternd_stop
}

run_tern-b() { TERND_BIN=$TERN_B run_tern; }

run_l3fwd() {
	l3fwd_start
	gen 02:00:00:00:a0:00
	kill -INT $pid; wait $pid; pid=
}

run_testpmd() {
	# testpmd leaves at end of input: give it one that never ends
	tail -f /dev/null | ip netns exec $R dpdk-testpmd -l 0,1 $MEM_ARGS --no-pci --file-prefix tern-bench-dut --log-level='*:error' \
		--vdev "$(memif 0 server 02:00:00:00:a0:00)" --vdev "$(memif 1 server 02:00:00:00:a0:01)" \
		-- --forward-mode=io --nb-cores=1 --auto-start --no-lsc-interrupt --stats-period=0 \
		> "$DIR/testpmd.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ -S "$DIR/memif1.sock" ] && break; sleep 0.1; done
	sleep 0.5
	gen 02:00:00:00:a0:00
	kill -INT $pid; wait $pid; pid=
}

# Each round starts one contender later, so none always runs first (or last);
# the ratio of two contenders is also taken round by round, from runs minutes apart at most.
DUTS=(tern ${TERN_B:+tern-b} l3fwd testpmd)
declare -A res
for r in $(seq "$ROUNDS"); do
	for k in $(seq 0 $((${#DUTS[@]} - 1))); do
		dut=${DUTS[$(((r - 1 + k) % ${#DUTS[@]}))]}
		rm -f "$DIR"/memif*.sock
		out=$(run_$dut)
		res[$dut]="${res[$dut]:-} ${out%% *}"
		printf 'round %d  %-8s %10.3f Mpps  (loss %s %%)\n' "$r" "$dut" "$(awk -v p="${out%% *}" 'BEGIN { print p / 1e6 }')" "${out##* }"
	done
done

/usr/bin/python3 - "$RESULTS" "$SIZE" "$FLOWS" "$DURATION" "$ROUNDS" "$NB_ROUTES" \
	"${res[tern]}" "${res[l3fwd]}" "${res[testpmd]}" "${res[tern-b]:-}" <<'PY'
import json, statistics, sys, platform, subprocess
out, size, flows, dur, rounds, routes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
runs = {k: [int(x) for x in v.split()] for k, v in zip(("tern", "l3fwd", "testpmd", "tern-b"), sys.argv[7:11]) if v.strip()}
med = {k: statistics.median(v) for k, v in runs.items()}
paired = lambda a, b: statistics.median(x / y for x, y in zip(runs[a], runs[b]))
best = {k: max(v) for k, v in runs.items()}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
res = {"frame_size": size, "flows": flows, "duration_s": dur, "rounds": rounds, "routes": routes,
       "cpu": cpu, "runs_pps": runs, "median_pps": med,
       "tern_vs_l3fwd": med["tern"] / med["l3fwd"], "tern_vs_testpmd": med["tern"] / med["testpmd"],
       "best_pps": best, "tern_vs_l3fwd_best": best["tern"] / best["l3fwd"],
       "tern_vs_testpmd_best": best["tern"] / best["testpmd"],
       "tern_vs_l3fwd_paired": paired("tern", "l3fwd"), "tern_vs_testpmd_paired": paired("tern", "testpmd")}
if "tern-b" in med:
    res["tern_b_vs_l3fwd"] = med["tern-b"] / med["l3fwd"]
    res["tern_b_vs_l3fwd_best"] = best["tern-b"] / best["l3fwd"]
json.dump(res, open(out, "w"), indent=2)
print(f"\n{size}-byte frames, {flows} flows, {routes} routes, {rounds} rounds of {dur:g} s, medians ({cpu}):")
for k in runs:
    print(f"  {k:8s} {med[k]/1e6:8.3f} Mpps   runs: " + " ".join(f"{x/1e6:.3f}" for x in runs[k]))
print(f"  tern / l3fwd-lpm  = {res['tern_vs_l3fwd']:.3f}")
print(f"  tern / testpmd-io = {res['tern_vs_testpmd']:.3f}")
# A VM whose memory side is shared gives every program runs on two levels; the best run of
# each is the one least disturbed, so its ratio is printed too, labelled as such.
print(f"  best runs: tern / l3fwd-lpm = {res['tern_vs_l3fwd_best']:.3f}, "
      f"tern / testpmd-io = {res['tern_vs_testpmd_best']:.3f}")
print(f"  round by round (median of each round's ratio): tern / l3fwd-lpm = {res['tern_vs_l3fwd_paired']:.3f}, "
      f"tern / testpmd-io = {res['tern_vs_testpmd_paired']:.3f}")
if "tern-b" in med:
    print(f"  tern-b / l3fwd-lpm = {res['tern_b_vs_l3fwd']:.3f} (best runs: {res['tern_b_vs_l3fwd_best']:.3f})")
print(f"results: {out}")
PY
