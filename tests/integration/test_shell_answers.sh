#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The shell answers as tern(8) says and an FRR user expects: every error in --json is an object
# on standard output with a non-zero exit, a lookup that finds nothing exits non-zero, show ip
# route takes an address (longest match) and gives next hops as objects with their weights,
# show and write work in configuration mode without do, and '| begin' starts the output at a
# line.
. "$(dirname "$0")/lib.sh"
tern_test_begin shell-answers
R=tern-$T_ID-r
netns_add "$R"
write_tap_config 2
start_ternd "$R"
tern_cli -c "configure terminal" -c "interface dp0" -c "ip address 198.18.0.1/24" -c "exit" \
	-c "interface dp1" -c "ip address 198.18.1.1/24" -c "exit" \
	-c "ip route 198.19.0.0/16 198.18.0.2" -c "ip route 198.19.0.0/16 198.18.1.2 weight 3" -c "end"

out=$(tern_cli --json -c "bogus" 2>"$T_DIR/err"); rc=$?
check "--json: a line the grammar refuses is an error object on stdout: $out" \
	json_true '"error" in j and "bogus" in j["error"]' <<<"$out"
check "... nothing on stderr, and a non-zero exit ($rc)" [ ! -s "$T_DIR/err" ] && [ $rc -ne 0 ]
out=$(tern_cli --json -c "configure terminal" -c "interface dp0" -c "mtu 5" 2>"$T_DIR/err"); rc=$?
check "--json: a command's error is an error object on stdout too: $out" \
	json_true '"error" in j and "out of range" in j["error"]' <<<"$(tail -1 <<<"$out")"
check "... with a non-zero exit ($rc)" [ $rc -ne 0 ] && [ ! -s "$T_DIR/err" ]

out=$(tern_cli -c "show ip route 198.20.0.0/24" 2>&1); rc=$?
check "a prefix with no route: says so and exits non-zero ($rc): $out" \
	[ $rc -ne 0 ] && grep -q "No route for 198.20.0.0/24" <<<"$out"
out=$(tern_cli --json -c "show ip route 198.20.0.0/24"); rc=$?
check "... and in JSON ($rc): $out" [ $rc -ne 0 ] && json_true '"error" in j' <<<"$out"
out=$(tern_cli -c "show ip route 198.19.77.5")
check "show ip route ADDRESS: the longest match: $out" grep -q "198.19.0.0/16" <<<"$out"
out=$(tern_cli -c "show ip route 203.0.113.9" 2>&1); rc=$?
check "an address with no route: says so and exits non-zero ($rc): $out" \
	[ $rc -ne 0 ] && grep -q "No route to 203.0.113.9" <<<"$out"
out=$(tern_cli --json -c "show ip route 198.19.0.0/16")
check "next hops in JSON: objects with gateway, interface and weight: $out" json_true \
	'sorted((h["gateway"], h["interface"], h["weight"]) for h in j["routes"][0]["nexthops"]) == [("198.18.0.2", "dp0", 1), ("198.18.1.2", "dp1", 3)]' <<<"$out"

tern_cli -c "configure terminal" -c "ip route 198.19.0.0/16 198.18.1.9 200" \
	-c "arp 198.18.1.77 02:00:00:00:77:77 dp1" -c "end"
out=$(tern_cli -c "show ip route")
check "show ip route as FRR prints it: a legend of codes" grep -q "^Codes: K - kernel, C - connected" <<<"$out"
check "... the selected route in the FIB, [distance/metric], a line and a weight for each next hop" \
	eval 'grep -q "^S>\* 198.19.0.0/16 \[0/0\] via 198.18.0.2, dp0, weight 1$" <<<"$out" &&
	      grep -q "^  \*  *via 198.18.1.2, dp1, weight 3$" <<<"$out"'
check "... the backup at distance 200, neither selected nor in the FIB" \
	grep -q "^S   198.19.0.0/16 \[200/0\] via 198.18.1.9, dp1$" <<<"$out"
check "... a connected route" grep -q "^C>\* 198.18.0.0/24 \[0/0\] is directly connected, dp0$" <<<"$out"
check "... and no neighbour's host route (show ip neighbors has them)" \
	eval '! grep -q "198.18.1.77" <<<"$out" && ! tern_cli --json -c "show ip route" | grep -q "198.18.1.77" &&
	      tern_cli -c "show ip neighbors" | grep -q "198.18.1.77"'
check "JSON: selected and installed for each route" json_true \
	'sorted((r["metric"], r["selected"], r["installed"]) for r in j["routes"]) == [(0, True, True), (200, False, False)]' \
	<<<"$(tern_cli --json -c "show ip route 198.19.0.0/16")"
out=$(tern_cli -c "configure terminal" -c "ip route 198.19.60.0/24 198.18.1.2 dp0" 2>&1)
check "a gateway named with an interface must be on its subnet: $out" \
	grep -q "Gateway 198.18.1.2 is not on a subnet of dp0" <<<"$out"
tern_cli -c "configure terminal" -c "ip route 198.19.70.0/24 198.18.0.2 weight 5" -c "end"
check "a weight on a lone next hop is kept, not dropped" \
	grep -qx "ip route 198.19.70.0/24 198.18.0.2 weight 5" <<<"$(tern_cli -c "show running-config")"
tern_cli -c "configure terminal" -c "ip route 198.19.70.0/24 198.18.1.2" -c "end"
check "... and is its share once a second next hop makes a group" \
	grep -q "via 198.18.0.2 dev dp0 weight 5" <<<"$(ip -n "$R" route show 198.19.70.0/24)"
out=$(tern_cli -c "configure terminal" -c "show version" 2>&1)
check "show in configuration mode, without do: $(head -1 <<<"$out")" grep -q "^tern 0.1.0" <<<"$out"
out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "write memory" 2>&1)
check "write memory in interface mode, without do: $out" grep -q "saved as version" <<<"$out"
out=$(tern_cli -c "show running-config | begin interface dp1")
check "| begin: the output starts at the first line that has the word: $(head -1 <<<"$out")" \
	[ "$(head -1 <<<"$out")" = "interface dp1" ]
check "... and goes on to the end" [ "$(tail -1 <<<"$out")" = end ]
tern_test_end
