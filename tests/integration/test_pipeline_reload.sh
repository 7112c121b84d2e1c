#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# tern-bench pipeline loads a 100k BGP-shaped table, forwards through the graph, withdraws the
# table and loads it again as ternd loads its kernel's at start (staged, one switch, the other
# copy levelled), and checks that 64k destinations get the same next hop as before. DPDK 22.11's
# miscount of second-level groups (dataplane/fib/fib.c) made routes longer than /24 fail after the
# withdrawal, and the reload answered differently for some of them. With --vlan the frames go
# in and out tagged, through sub-interfaces, every one of them forwarded.
. "$(dirname "$0")/lib.sh"
tern_test_begin pipeline-reload

out=$("$TERN_BUILD/tern-bench" pipeline --routes 100000 --flows 65536 --seconds 0.2 --json 2>&1); rc=$?
check "tern-bench pipeline succeeds, the reloaded table answering as the first (exit $rc): $out" [ $rc -eq 0 ]
check "everything injected was forwarded" \
	json_true 'j["packets"] > 0 and j["forwarded"] == j["packets"]' <<<"$out"
check "the staged load publishes before both copies are level, each time measured" \
	json_true '0 < j["load_publish_s"] <= j["load_level_s"] and j["withdraw_s"] > 0 and j["insert_s"] > 0' <<<"$out"
# the same through 802.1Q sub-interfaces: in tagged on dp0.100, out tagged by dp1.100
out=$("$TERN_BUILD/tern-bench" pipeline --routes 1000 --seconds 0.2 --vlan 100 --json 2>&1); rc=$?
check "through sub-interfaces everything injected is forwarded (exit $rc)" \
	json_true 'j["vlan"] == 100 and j["packets"] > 0 and j["forwarded"] == j["packets"]' <<<"$out"
check "and its cycles are split between vlan_input and ip4_fast" \
	json_true 'sorted(j["node_cycles_per_packet"]) == ["ip4_fast", "vlan_input"]' <<<"$out"
tern_test_end
