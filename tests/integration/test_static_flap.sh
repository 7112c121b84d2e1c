#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Static configuration outlives the links it goes through. The kernel drops the routes and
# the permanent neighbours through an interface that is shut down; ternd keeps them as
# configuration: the running-config is unchanged, a route with no next hop up is shown
# inactive, an ECMP route keeps forwarding over its members that are up, and everything goes
# back into the kernel and the FIB when the interface comes back, before and after write
# memory and a restart. A pulled cable (carrier lost, the interface still up) loses nothing.
. "$(dirname "$0")/lib.sh"
tern_test_begin static-flap
two_hosts

tern_cli -c "configure terminal" \
	-c "ip route 198.19.10.0/24 198.18.1.2" \
	-c "ip route 198.19.20.0/24 198.18.0.2" -c "ip route 198.19.20.0/24 198.18.1.2 weight 3" \
	-c "ip route 198.19.30.0/24 198.18.0.2" -c "ip route 198.19.30.0/24 198.18.1.2 200" \
	-c "ip route 198.19.40.0/24 dp1" -c "ip route 198.19.99.0/24 blackhole" \
	-c "ip route 198.19.50.0/24 198.18.1.2 dp1" \
	-c "arp 198.18.1.77 02:00:00:00:77:77 dp1" -c "end"
check "static configuration accepted" [ $? -eq 0 ]
statics() { tern_cli -c "show running-config" | grep -e '^ip route' -e '^arp'; }
statics > "$T_DIR/configured"
check "running-config holds the 9 static lines" [ "$(wc -l < "$T_DIR/configured")" = 9 ]
check "a gateway with its interface is one line" grep -qx "ip route 198.19.50.0/24 198.18.1.2 dp1" "$T_DIR/configured"

kroutes() { ip -n "$R" route show proto static; }
all_in_kernel() {
	local k
	k=$(kroutes)
	grep -q "^198.19.10.0/24 via 198.18.1.2 dev dp1" <<<"$k" &&
		grep -q "^198.19.30.0/24 via 198.18.0.2 dev dp0" <<<"$k" &&
		grep -q "^198.19.30.0/24 via 198.18.1.2 dev dp1 metric 200" <<<"$k" &&
		grep -q "^198.19.40.0/24 dev dp1" <<<"$k" &&
		grep -q "^198.19.50.0/24 via 198.18.1.2 dev dp1" <<<"$k" &&
		grep -q "^blackhole 198.19.99.0/24" <<<"$k" &&
		grep -A2 "^198.19.20.0/24" <<<"$k" | grep -q "via 198.18.1.2 dev dp1 weight 3" &&
		grep -A2 "^198.19.20.0/24" <<<"$k" | grep -q "via 198.18.0.2 dev dp0 weight 1" &&
		ip -n "$R" neigh show 198.18.1.77 | grep -q "PERMANENT"
}
fib_port() { tern_cli --json -c "show ip fib $1" | json_field 'j.get("port", j["kind"])'; }
fib_route() { tern_cli --json -c "show ip fib $1" | json_field 'j["kind"] + ": " + j["route"]'; }
wait_for "the kernel holds every static route and the ARP entry" all_in_kernel

flap_dp1() {	# WHEN: shuts dp1, checks what stays, brings it back, checks it all returns
	local when=$1
	tern_cli -c "configure terminal" -c "interface dp1" -c "shutdown" -c "end"
	wait_for "$when, dp1 shut: the kernel dropped the routes through it" \
		eval '! kroutes | grep -q "^198.19.10.0/24"'
	wait_for "$when, dp1 shut: the ECMP route is left with its dp0 member" \
		eval 'fib_route 198.19.20.1 | grep -qx "[a-z]*: via 198.18.0.2 dev dp0"'
	check "$when, dp1 shut: the running-config still holds every static line" \
		diff "$T_DIR/configured" <(statics)
	check "$when, dp1 shut: show ip route marks 198.19.10.0/24 inactive" \
		grep -q "198.19.10.0/24 .*inactive" <<<"$(tern_cli -c "show ip route 198.19.10.0/24")"
	check "$when, dp1 shut: the distance-0 route via dp0 carries 198.19.30.0/24" \
		[ "$(fib_port 198.19.30.1)" = dp0 ]
	check "$when, dp1 shut: show interfaces says it is administratively down, with its address" \
		eval 'tern_cli -c "show interfaces dp1" | grep -q "^dp1 is administratively down, link" &&
		      tern_cli --json -c "show interfaces dp1" | json_true "j[\"interfaces\"][0][\"addresses\"] == [\"198.18.1.1/24\"]"'
	check "$when, dp1 shut: show ip interface brief lists its address and states" \
		grep -q "^dp1  *198.18.1.1/24  *administratively down  *up$" <<<"$(tern_cli -c "show ip interface brief")"
	tern_cli -c "configure terminal" -c "interface dp1" -c "no shutdown" -c "end"
	wait_for "$when, dp1 back: the kernel holds every static route and the ARP entry again" all_in_kernel
	wait_for "$when, dp1 back: 198.19.10.0/24 forwards out of dp1" eval '[ "$(fib_port 198.19.10.1)" = dp1 ]'
	check "$when, dp1 back: the ECMP route has both members: $(fib_route 198.19.20.1)" \
		eval 'fib_route 198.19.20.1 | grep -q "^ecmp: .*dev dp0.*dev dp1\|^ecmp: .*dev dp1.*dev dp0"'
	check "$when, dp1 back: the ARP entry is in the FIB" [ "$(fib_kind 198.18.1.77)" = forward ]
	check "$when, dp1 back: the running-config is unchanged" diff "$T_DIR/configured" <(statics)
	wait_for "$when: the FIB equals the kernel's tables" consistent
}
flap_dp1 "configured"

out=$(tern_cli -c "configure terminal" -c "interface dp1" -c "shutdown" -c "end" -c "write memory")
check "write memory with dp1 shut: $out" grep -q "saved as version" <<<"$out"
check "what was saved holds every static line" diff "$T_DIR/configured" \
	<(tern_cli -c "show startup-config" | grep -e '^ip route' -e '^arp')
tern_cli -c "configure terminal" -c "interface dp1" -c "no shutdown" -c "end" -c "write memory" >/dev/null
stop_ternd
rehost() {	# PORT-INDEX HOST_NS ADDR/LEN GATEWAY: the new TAP moved into the host that had the old
	local port=${T_ID}h$1
	ip -n "$R" link set "$port" netns "$2"
	ip -n "$2" link set "$port" address "$(printf '02:00:00:00:00:%02x' $(($1 + 1)))"
	ip -n "$2" addr add "$3" dev "$port"
	ip -n "$2" link set "$port" up
	ip -n "$2" route add default via "$4"
	link_lamp_add "$R" "$1"
}
ip -n "$R" link del "$W0"; ip -n "$R" link del "$W1"	# the cables' stand-ins: the TAPs' names
start_ternd "$R"
rehost 0 "$H1" 198.18.0.2/24 198.18.0.1
rehost 1 "$H2" 198.18.1.2/24 198.18.1.1
wait_for "after a restart: both links up" links_up
check "after a restart: the running-config holds every static line" diff "$T_DIR/configured" <(statics)
wait_for "after a restart: the kernel holds every static route and the ARP entry" all_in_kernel
flap_dp1 "after a restart"

link_set "$R" 1 down
wait_for "cable pulled: dp1's link is down" link_is dp1 down
check "cable pulled: the running-config is unchanged" diff "$T_DIR/configured" <(statics)
link_set "$R" 1 up
wait_for "cable back: both links up" links_up
wait_for "cable back: the kernel holds every static route and the ARP entry" all_in_kernel
check "cable back: the running-config is unchanged" diff "$T_DIR/configured" <(statics)

tern_cli -c "configure terminal" -c "no ip route 198.19.30.0/24 198.18.1.2" -c "end" >/dev/null
check "no ip route without the distance finds the one configured (200)" \
	eval '! kroutes | grep -q "^198.19.30.0/24 via 198.18.1.2"'
tern_cli -c "configure terminal" -c "ip route 198.19.30.0/24 198.18.1.2 200" \
	-c "ip route 198.19.30.0/24 198.18.1.2 150" -c "end" >/dev/null
out=$(tern_cli -c "configure terminal" -c "no ip route 198.19.30.0/24 198.18.1.2" 2>&1)
check "no ip route of a gateway at two distances asks which: $out" \
	grep -q "configured at distances 200, 150: give the distance" <<<"$out"
tern_test_end
