#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Routes through the kernel's nexthop objects (ip nexthop; what FRR's zebra installs), with
# net.ipv4.nexthop_compat_mode 1 and 0. In mode 0 a route names only its object (RTA_NH_ID),
# and the kernel says nothing of the routes when the object is replaced or removed: the FIB
# must follow all the same. h2 owns 198.19.20.1 and 198.19.21.1; h1 reaches them through
# routes on objects: one hop, then a blackhole, then a group whose member goes.
. "$(dirname "$0")/lib.sh"
tern_test_begin nexthop-objects
two_hosts
ip -n "$H2" addr add 198.19.20.1/32 dev lo
ip -n "$H2" addr add 198.19.21.1/32 dev lo

is() { [ "$(fib_kind "$1")" = "$2" ]; }	# ADDRESS KIND
reaches() { ip netns exec "$H1" ping -c 2 -i 0.2 -W 1 "$1" | grep -q " 0% packet loss"; }
nh() { ip -n "$R" nexthop "$@"; }
route() { ip -n "$R" route "$@"; }

ip netns exec "$H1" ping -c 1 -W 1 198.18.1.2 >/dev/null	# resolves h2 in the kernel
for mode in 1 0; do
	say "nexthop_compat_mode = $mode"
	ip netns exec "$R" sysctl -qw net.ipv4.nexthop_compat_mode=$mode
	nh add id 100 via 198.18.1.2 dev dp1
	route add 198.19.20.0/24 nhid 100
	wait_for "mode $mode: a route on object 100 (via h2) forwards" is 198.19.20.1 forward
	check "mode $mode: h1 reaches 198.19.20.1 through it" reaches 198.19.20.1
	inplace=$(tern_cli --json -c "show netlink" | json_field 'j["nexthops_replaced_in_place"]')
	nh replace id 100 blackhole
	wait_for "mode $mode: object 100 replaced by a blackhole: the route follows" is 198.19.20.1 blackhole
	check "mode $mode: by one change of the nexthop the route shares, not of the route" \
		[ "$(tern_cli --json -c "show netlink" | json_field 'j["nexthops_replaced_in_place"]')" -gt "$inplace" ]
	check "mode $mode: and its traffic is dropped" bash -c "! ip netns exec $H1 ping -c 1 -W 1 198.19.20.1 >/dev/null"
	nh replace id 100 via 198.18.1.2 dev dp1
	nh add id 101 via 198.18.0.2 dev dp0
	nh add id 200 group 100/101,3
	route add 198.19.21.0/24 nhid 200
	wait_for "mode $mode: a route on group 200 (100, and 101 weight 3) is ECMP" is 198.19.21.1 ecmp
	check "mode $mode: ternd agrees with the kernel" consistent
	nh del id 101
	wait_for "mode $mode: 101 removed, the group's route goes on over 100 alone" reaches 198.19.21.1
	check "mode $mode: ternd agrees with the kernel" consistent
	nh del id 200
	wait_for "mode $mode: the group removed, its route is gone with it" is 198.19.21.1 no-route
	nh del id 100
	wait_for "mode $mode: object 100 removed, its route is gone with it" is 198.19.20.1 no-route
	check "mode $mode: ternd agrees with the kernel" consistent
	# dp1 down: the kernel removes the objects on it, and their routes, in silence
	nh add id 102 via 198.18.1.2 dev dp1
	route add 198.19.22.0/24 nhid 102
	wait_for "mode $mode: a route on object 102 (via dp1) forwards" is 198.19.22.1 forward
	ip -n "$R" link set dp1 down
	wait_for "mode $mode: dp1 down, the object and its route are gone" is 198.19.22.1 no-route
	check "mode $mode: the object is gone from ternd too" \
		[ "$(tern_cli --json -c "show netlink" | json_field 'j["nexthop_routes"]')" = 0 ]
	ip -n "$R" link set dp1 up
	wait_for "dp1 back up" links_up
	check "mode $mode: ternd agrees with the kernel" consistent
	ip netns exec "$H1" ping -c 1 -W 1 198.18.1.2 >/dev/null	# h2 resolved again
done
check "show ip fib consistency finds nothing to say" consistent
tern_test_end
