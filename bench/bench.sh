#!/bin/bash
# make bench: ternd against DPDK's l3fwd (LPM) and testpmd (io) in the same memif harness.
# One core forwards (CPU 1), tern-bench generates on the other (CPU 0).
#
# Each contender starts once, with its table and memif sockets of its own, and is held
# stopped (SIGSTOP) while another is on trial. Trials then follow each other a generator's
# start-up apart (about 2 s), not a router's start and, with TABLE=1m, a table load (a
# minute) apart: this VM's speed drifts between two levels over tens of seconds, for every
# program alike, and trials taken close together meet the same level, so each round's
# ratios compare like with like. Each round runs every contender once, starting one
# contender later each round; ROUNDS rounds. Medians, best runs and the median of the
# rounds' ratios are printed and written to $OUT/results.json (results-1m.json with
# TABLE=1m: both routers then also hold a 1M-route BGP-shaped table from tern-bench routes;
# ternd learns it from its kernel, l3fwd from its rule file with its LPM limits raised).
#
# TERN_B=/path/to/ternd adds a fourth contender, "tern-b", in a namespace of its own: an A/B
# of two builds of ternd against each other and the references. All of ternd's threads run
# on the forwarding core, l3fwd's only busy thread's (TERND_ONE_CPU in lib.sh).
# DPDK 22.11's memif PMD can fault when a peer leaves (controlplane/port_unmap_guard.c guards
# ternd; l3fwd and testpmd have no guard): a contender found dead before its trial is started
# again, and the restart is printed and counted in the results.
set -u
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUNDS=${ROUNDS:-9}
DURATION=${DURATION:-3}
FLOWS=${FLOWS:-1024}
SIZE=${SIZE:-64}
OUT=${OUT:-$BUILD/bench}
TABLE=${TABLE:-1k}
# The generator: make bench passes the statically linked tern-bench (no PLT calls, no
# __tls_get_addr for every mempool access), the same for every contender.
GEN_BIN=${GEN_BIN:-$BUILD/tern-bench}
. "$ROOT/bench/lib.sh"
bench_begin bench
TOP=$DIR
mkdir -p "$OUT" "$TOP/l3fwd" "$TOP/testpmd"
# all contenders at once (1 GiB each, ternd more with a 1M-route FIB) and the generator
hugepages_reserve 3072

# The same table for both: 1000 /27s (or 1M BGP-shaped routes) that carry no traffic, plus the
# routes in use.
ROUTES=$TOP/routes.txt
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
} > "$TOP/l3fwd/l3fwd-v4.cfg"
echo "R2001:200::/48 0" > "$TOP/l3fwd/l3fwd-v6.cfg"

declare -A dpid restarts
# ternd sends what its kernel emits on a second queue
declare -A QUEUES=([tern]=2 [tern-b]=2 [l3fwd]=1 [testpmd]=1)

gen() {	# DST_MAC QUEUES -> prints rx_pps and loss
	"$GEN_BIN" gen --eal "-l 0 $BENCH_MEM --file-prefix tern-bench-gen --log-level=*:error" \
		--port "$(memif 0 client 02:00:00:00:b0:00)" --port "$(memif 1 client 02:00:00:00:b0:01)" \
		--queues "$2" --dst-mac "$1" --flows "$FLOWS" --size "$SIZE" --duration "$DURATION" --json \
		| /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print(int(j["rx_pps"]), j["loss_percent"])' \
		2>/dev/null
}

start_ternd() {	# NAME NAMESPACE: a ternd with the table, its pid in dpid[NAME]
	local DIR=$TOP/$1 R=$2 DUT_PREFIX=tern-bench-dut-$1
	mkdir -p "$DIR"
	rm -f "$DIR"/memif*.sock	# left by one that died
	memif_ports | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 1048576
	ternd_start || return 1
	dpid[$1]=$pid
	pid=
	{
		echo "configure terminal"
		echo "interface m0"; echo "ip address 198.18.0.1/24"
		echo "interface m1"; echo "ip address 198.18.1.1/24"; echo "exit"
		echo "arp 198.18.0.2 02:00:00:00:b0:00 m0"
		echo "arp 198.18.1.2 02:00:00:00:b0:01 m1"
		echo "ip route 198.19.0.0/16 198.18.1.2"
		[ "$TABLE" = 1m ] || sed 's/$/ 198.18.0.2/; s/^/ip route /' "$ROUTES"
	} | tern -f - >/dev/null || { echo "$1: configuring ternd failed"; return 1; }
	if [ "$TABLE" = 1m ]; then	# through the kernel, as a routing daemon would
		sed 's/^/route replace /; s/$/ via 198.18.0.2/' "$ROUTES" | ip -n "$R" -batch - || return 1
		for _ in $(seq 600); do
			[ "$(tern --json -c "show ip route summary" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kernel_routes"])')" -ge "$NB_ROUTES" ] && return 0
			sleep 0.5
		done
		echo "$1: ternd did not learn the table from its kernel"; return 1
	fi
}

start_tern() { start_ternd tern "$R"; }

start_tern-b() {
	ip netns add "$R-b" 2>/dev/null && ip -n "$R-b" link set lo up
	TERND_BIN=$TERN_B start_ternd tern-b "$R-b"
}

start_l3fwd() {
	local DIR=$TOP/l3fwd DUT_PREFIX=tern-bench-dut-l3fwd
	rm -f "$DIR"/memif*.sock
	l3fwd_start
	dpid[l3fwd]=$pid
	pid=
	grep -q "entering main loop" "$DIR/l3fwd.log" || { echo "l3fwd did not start:"; tail -n 5 "$DIR/l3fwd.log"; return 1; }
}

start_testpmd() {
	local DIR=$TOP/testpmd
	rm -f "$DIR"/memif*.sock
	# testpmd leaves at end of input: give it one that never ends
	tail -f /dev/null | ip netns exec "$R" dpdk-testpmd -l 0,1 $MEM_ARGS --no-pci \
		--file-prefix tern-bench-dut-testpmd --log-level='*:error' \
		--vdev "$(memif 0 server 02:00:00:00:a0:00)" --vdev "$(memif 1 server 02:00:00:00:a0:01)" \
		-- --forward-mode=io --nb-cores=1 --auto-start --no-lsc-interrupt --stats-period=0 \
		> "$DIR/testpmd.log" 2>&1 &
	dpid[testpmd]=$!
	for _ in $(seq 100); do [ -S "$DIR/memif1.sock" ] && break; sleep 0.1; done
	sleep 0.5
	[ -S "$DIR/memif1.sock" ] || { echo "testpmd did not start:"; tail -n 5 "$DIR/testpmd.log"; return 1; }
}

alive() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${s#Z}" = "$s" ]; }

stop_dut() {	# NAME: let it go on, ask it to leave, wait up to 10 s
	local p=${dpid[$1]:-}
	unset "dpid[$1]"
	[ -n "$p" ] || return 0
	kill -CONT "$p" 2>/dev/null
	kill -TERM "$p" 2>/dev/null
	for _ in $(seq 100); do alive "$p" || break; sleep 0.1; done
	kill -KILL "$p" 2>/dev/null
	wait "$p" 2>/dev/null
}

bench_extra_cleanup() {
	local d
	for d in "${!dpid[@]}"; do stop_dut "$d"; done
	ip netns del "$BENCH_NETNS-b" 2>/dev/null
}

trial() {	# NAME -> prints rx_pps and loss (nothing if the generator failed)
	local DIR=$TOP/$1
	kill -CONT "${dpid[$1]}"
	gen 02:00:00:00:a0:00 "${QUEUES[$1]}"
	kill -STOP "${dpid[$1]}" 2>/dev/null
}

DUTS=(tern ${TERN_B:+tern-b} l3fwd testpmd)
for dut in "${DUTS[@]}"; do
	t0=$(date +%s.%N)
	"start_$dut" || exit 1
	kill -STOP "${dpid[$dut]}"
	printf '%-8s ready in %s s\n' "$dut" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
done

# res[NAME]: "round:pps" for each trial that gave a result
declare -A res
for r in $(seq "$ROUNDS"); do
	for k in $(seq 0 $((${#DUTS[@]} - 1))); do
		dut=${DUTS[$(((r - 1 + k) % ${#DUTS[@]}))]}
		if ! alive "${dpid[$dut]}"; then
			wait "${dpid[$dut]}"
			echo "round $r: $dut had died (exit status $?); starting it again"
			restarts[$dut]=$((${restarts[$dut]:-0} + 1))
			"start_$dut" || exit 1
		fi
		out=$(trial "$dut")
		# (one that died as the generator left had answered: its result stands)
		if [ -z "$out" ] || [ "${out%% *}" = 0 ]; then
			echo "round $r: $dut forwarded nothing$(alive "${dpid[$dut]}" || echo ": it died")"
			continue
		fi
		res[$dut]="${res[$dut]:-} $r:${out%% *}"
		printf 'round %d  %-8s %10.3f Mpps  (loss %s %%)\n' "$r" "$dut" "$(awk -v p="${out%% *}" 'BEGIN { print p / 1e6 }')" "${out##* }"
	done
done
for dut in "${DUTS[@]}"; do stop_dut "$dut"; done
restarts_json=$(for d in "${!restarts[@]}"; do printf '"%s": %d\n' "$d" "${restarts[$d]}"; done | paste -sd, -)

/usr/bin/python3 - "$RESULTS" "$SIZE" "$FLOWS" "$DURATION" "$ROUNDS" "$NB_ROUTES" "{$restarts_json}" \
	"${res[tern]:-}" "${res[l3fwd]:-}" "${res[testpmd]:-}" "${res[tern-b]:-}" <<'PY'
import json, statistics, sys
out, size, flows, dur, rounds, routes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
restarts = json.loads(sys.argv[7])
# each contender's runs by round; a round it gave no result in is left out of its pairs
by_round = {k: dict((int(r), int(p)) for r, p in (x.split(":") for x in v.split()))
            for k, v in zip(("tern", "l3fwd", "testpmd", "tern-b"), sys.argv[8:12]) if v.strip()}
for k in ("tern", "l3fwd", "testpmd"):
    if k not in by_round:
        sys.exit(f"bench: {k} gave no result in any round")
runs = {k: [v[r] for r in sorted(v)] for k, v in by_round.items()}
med = {k: statistics.median(v) for k, v in runs.items()}
best = {k: max(v) for k, v in runs.items()}
def paired(a, b):
    both = sorted(set(by_round[a]) & set(by_round[b]))
    return statistics.median(by_round[a][r] / by_round[b][r] for r in both)
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
res = {"frame_size": size, "flows": flows, "duration_s": dur, "rounds": rounds, "routes": routes,
       "cpu": cpu, "harness": "all contenders started once; the idle ones held stopped",
       "restarts": restarts, "runs_pps": runs, "median_pps": med,
       "tern_vs_l3fwd": med["tern"] / med["l3fwd"], "tern_vs_testpmd": med["tern"] / med["testpmd"],
       "best_pps": best, "tern_vs_l3fwd_best": best["tern"] / best["l3fwd"],
       "tern_vs_testpmd_best": best["tern"] / best["testpmd"],
       "tern_vs_l3fwd_paired": paired("tern", "l3fwd"), "tern_vs_testpmd_paired": paired("tern", "testpmd")}
# This VM runs every program at one of two speeds, changing over seconds to minutes. Where the
# runs of all contenders together fall in two groups (split at their widest gap, the groups'
# medians 1.5 times apart or more), each level's medians are compared too: runs at one level
# met the same machine.
pooled = sorted(x for v in runs.values() for x in v)
if len(pooled) >= 4:
    _, i = max((pooled[j + 1] / pooled[j], j) for j in range(len(pooled) - 1))
    cut = (pooled[i] + pooled[i + 1]) / 2
    if statistics.median(pooled[i + 1:]) >= 1.5 * statistics.median(pooled[:i + 1]):
        res["levels"] = {"cut_pps": cut}
        for name, above in (("fast", True), ("slow", False)):
            lv = {k: [x for x in v if (x >= cut) == above] for k, v in runs.items()}
            lv = {k: v for k, v in lv.items() if v}
            res["levels"][name] = {"median_pps": {k: statistics.median(v) for k, v in lv.items()},
                                   "runs": {k: len(v) for k, v in lv.items()}}
            if "tern" in lv and "l3fwd" in lv:
                res["levels"][name]["tern_vs_l3fwd"] = statistics.median(lv["tern"]) / statistics.median(lv["l3fwd"])
if "tern-b" in med:
    res["tern_b_vs_l3fwd"] = med["tern-b"] / med["l3fwd"]
    res["tern_b_vs_l3fwd_best"] = best["tern-b"] / best["l3fwd"]
    res["tern_b_vs_l3fwd_paired"] = paired("tern-b", "l3fwd")
    res["tern_b_vs_tern_paired"] = paired("tern-b", "tern")
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
    print(f"  tern-b / l3fwd-lpm = {res['tern_b_vs_l3fwd']:.3f} (best runs: {res['tern_b_vs_l3fwd_best']:.3f}, "
          f"round by round: {res['tern_b_vs_l3fwd_paired']:.3f}); tern-b / tern round by round: "
          f"{res['tern_b_vs_tern_paired']:.3f}")
if "levels" in res:
    print(f"  by level (runs split at {res['levels']['cut_pps']/1e6:.1f} Mpps, their widest gap):")
    for name in ("fast", "slow"):
        lv = res["levels"][name]
        line = ", ".join(f"{k} {lv['median_pps'][k]/1e6:.3f} ({lv['runs'][k]} runs)" for k in lv["median_pps"])
        ratio = f": tern / l3fwd-lpm = {lv['tern_vs_l3fwd']:.3f}" if "tern_vs_l3fwd" in lv else ""
        print(f"    {name}: {line}{ratio}")
if restarts:
    print("  started again after dying: " + ", ".join(f"{k} {v}x" for k, v in restarts.items()))
print(f"results: {out}")
PY
