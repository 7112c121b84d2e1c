#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# [port] tap_persist = yes: the port's exception interface outlives ternd, with its address,
# neighbours and the kernel's routes through it; the next ternd takes it over and its FIB is
# complete from the first dump, with what changed while it started (its route dump is asked for
# before EAL starts: controlplane/mirror/netlink_prefetch.c). Without it the interface goes
# when ternd does.
. "$(dirname "$0")/lib.sh"
tern_test_begin tap-persist
R=tern-$T_ID-r
netns_add "$R"
# a port keeps its MAC across restarts (as a NIC does): a new one would flush dp1's neighbours
PORT_EXTRA_1='tap_persist = yes\nmac = 02:00:00:00:a0:01' write_tap_config 2
start_ternd "$R"

ip -n "$R" addr add 198.18.1.1/24 dev dp1
ip -n "$R" neigh replace 198.18.1.2 lladdr 02:00:00:00:00:99 dev dp1 nud permanent
ip -n "$R" route add 198.19.0.0/16 via 198.18.1.2 dev dp1
wait_for "the kernel's route reaches the FIB" fib_is 198.19.0.1 forward
# 20 000 more, so the next start's route dump spans about forty reads: more than the ring of
# buffers the read-ahead dump cycles through while ternd's workers have not started
for i in $(seq 0 19999); do
	echo "route add 198.19.$((128 + i / 256)).$((i % 256))/32 via 198.18.1.2"
done | ip -n "$R" -batch -
wait_for "the 20 000 host routes reach the FIB" fib_is 198.19.206.31 forward
stop_ternd
check "after ternd stops, the persistent dp1 is still there" ip -n "$R" link show dp1
check "with the kernel's route through it" grep -q "198.19.0.0/16 via 198.18.1.2 dev dp1" <<<"$(ip -n "$R" route)"
check "and its permanent neighbour" grep -q "198.18.1.2 dev dp1 lladdr 02:00:00:00:00:99 PERMANENT" <<<"$(ip -n "$R" neigh)"
check "the ordinary dp0 went with ternd" bash -c "! ip -n $R link show dp0 2>/dev/null"

# routes change while the new ternd starts: before its route dump, during it, after it
for i in $(seq 0 4999); do
	echo "route add 198.19.$((224 + i / 256)).$((i % 256))/32 via 198.18.1.2"
done > "$T_DIR/during"
(sleep 0.1; ip -n "$R" -batch "$T_DIR/during") &
changes=$!
start_ternd "$R"
wait "$changes"
wait_for "a new ternd takes dp1 over and its FIB has the route from the first dump" \
	[ "$(fib_kind 198.19.0.1)" = forward ]
wait_for "the FIB equals the kernel, with the 5000 routes added while ternd started" consistent
check "the last of them is in the FIB" [ "$(fib_kind 198.19.243.135)" = forward ]
check "ternd says how long its last stop took" \
	grep -q "ready in .*; the last stop took [0-9.]* s and began [0-9.]* s ago" "$T_DIR/ternd.log"
check "the first dump brought all 20 001 routes through dp1, and the 5000 added meanwhile" \
	[ "$(tern_cli --json -c "show ip route summary" | json_field 'j["by_type"]["gateway"]')" -ge 25001 ]
grep -h "kernel tables read" "$T_DIR/ternd.log" | sed 's/^/  (/; s/$/)/'
check "dp1 carries the port's MAC again" [ "$(ip -n "$R" -j link show dp1 | json_field 'j[0]["address"]')" = "$(port_mac dp1)" ]
stop_ternd

PORT_EXTRA_1='tap_persist = no\nmac = 02:00:00:00:a0:01' write_tap_config 2
start_ternd "$R"
wait_for "tap_persist = no takes the interface over as well" fib_is 198.19.0.1 forward
stop_ternd
check "and then it goes with ternd" bash -c "! ip -n $R link show dp1 2>/dev/null"
tern_test_end
