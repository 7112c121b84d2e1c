#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# tern-bench compare, the generator make bench runs: it takes its routers in turn, holding the
# others stopped, and leaves each process as it found it; bench.sh with two ternds gets a rate
# for each in every round.
. "$(dirname "$0")/lib.sh"
tern_test_begin bench-compare
BENCH=$TERN_BUILD/tern-bench

# Two "routers" on net_null ports that receive nothing (no-rx): links are up, nothing comes
# back, so no slice has a result.
# The processes are sleeps: one found running, one found stopped.
sleep 300 & RUNNING=$!
sleep 300 & STOPPED=$!
T_PIDS+=("$RUNNING" "$STOPPED")
kill -STOP "$STOPPED"
state() { awk '{ print $3 }' "/proc/$1/stat"; }
null_compare() {	# PID_A PID_B [more options]
	local a=$1 b=$2
	shift 2
	"$BENCH" compare --eal "--no-huge -m 256 --file-prefix $T_ID --log-level=*:error" \
		--dut a --pid "$a" --dst-mac 02:00:00:00:a0:00 --port net_null0,no-rx=1 --port net_null1,no-rx=1 \
		--dut b --pid "$b" --dst-mac 02:00:00:00:a0:01 --port net_null2,no-rx=1 --port net_null3,no-rx=1 "$@"
}
null_compare "$RUNNING" "$STOPPED" --rounds 2 --slice 0.05 --warmup 0 --json \
	> "$T_DIR/null.json" 2> "$T_DIR/null.log"
rc=$?
sed 's/^/    /' "$T_DIR/null.log" | tail -n 4
check "a run over ports that bring nothing back completes" [ $rc -eq 0 ]
check "each slice says why it has no result, and the JSON has none" bash -c "
	[ \$(grep -c 'no result: it forwarded nothing' '$T_DIR/null.log') -eq 4 ] &&
	/usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert [d[\"name\"] for d in j[\"duts\"]] == [\"a\", \"b\"], j
assert all(d[\"rx_pps\"] == [None, None] for d in j[\"duts\"]), j
assert j[\"rounds\"] == 2 and j[\"slice_s\"] == 0.05, j' '$T_DIR/null.json'"
check "the process found running is running again" [ "$(state "$RUNNING")" != T ]
check "the process found stopped is stopped again" [ "$(state "$STOPPED")" = T ]

GONE=$(sh -c 'echo $$')	# a pid that has just ended
null_compare "$RUNNING" "$GONE" --rounds 1 > /dev/null 2> "$T_DIR/gone.log"
rc=$?
check "a router whose process is gone is refused in one sentence" bash -c "
	[ $rc -ne 0 ] && grep -q '^tern-bench: b: process $GONE is not running$' '$T_DIR/gone.log'"
check "and the other is left running" [ "$(state "$RUNNING")" != T ]
check_not "one router is not a comparison" "$BENCH" compare --dut a --port p0 --port p1 --dst-mac 02:00:00:00:a0:00
check "a router with one port is refused by name" bash -c "
	'$BENCH' compare --dut a --port p0 --dut b --port p1 --port p2 2>&1 | grep -q '^tern-bench: a: two --port each$'"
check "a name that would break the JSON is refused" bash -c "
	'$BENCH' compare --dut 'a\"b' 2>&1 | grep -q '^tern-bench: --dut .a\"b.: expected a name'"
check "a port before any --dut is refused" bash -c "
	'$BENCH' compare --port p0 2>&1 | grep -q 'follow the --dut they belong to'"

# bench.sh with two ternds (the same build), three short rounds: a rate for each in every one,
# and each one's own account of its worker's load.
CONTENDERS="tern tern-b" TERN_B=$TERN_BUILD/ternd ROUNDS=3 DURATION=0.3 OUT=$T_DIR/out \
	"$TERN_ROOT/bench/bench.sh" "$TERN_BUILD" > "$T_DIR/bench.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/bench.log" | tail -n 6
check "bench.sh with tern and tern-b completes" [ $rc -eq 0 ]
check "each forwarded in all three rounds, and the round-by-round ratio is there" /usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert sorted(j["runs_pps"]) == ["tern", "tern-b"], j
assert all(len(v) == 3 and min(v) > 10000 for v in j["runs_pps"].values()), j["runs_pps"]
assert j["no_result"] == {"tern": 0, "tern-b": 0}, j
assert 0.2 < j["tern_b_vs_tern_paired"] < 5, j' "$T_DIR/out/results.json"
check "each ternd gave the load of its worker and its rate in busy walks" /usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["worker_load"]
assert sorted(j) == ["tern", "tern-b"], j
for w in j.values():
    assert 0 < w["load_pct"] <= 100 and w["busy_cycles_per_packet"] > 10, j
    assert w["busy_walk_pps"] > 10000, j' "$T_DIR/out/results.json"
check "bench.sh left no namespace behind" bash -c "! ip netns list | grep -q '^tern-bench-r'"
check "bench.sh left no ternd behind" bash -c "! pgrep -f 'tern-bench-.*/ternd[.]conf' >/dev/null"
tern_test_end
