#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Two hosts with IPv6 addresses ping each other through ternd. The kernel's IPv6 routes,
# addresses and NDP neighbours are mirrored, and the dataplane forwards: the kernel's own
# forwarding counter in the router's namespace (Ip6OutForwDatagrams) stays where it was while
# the pings cross, the hop limit drops by one, and the FIB answers as the kernel's routes say.
. "$(dirname "$0")/lib.sh"
tern_test_begin ipv6-forwarding
two_hosts_ipv6

wait_for "the kernel's IPv6 connected routes reach the RIB" \
	grep -q "2001:2:0:2::/64" <<<"$(tern_cli -c "show ipv6 route" 2>&1)"
out=$(tern_cli -c "show ipv6 route")
check "show ipv6 route: the connected /64 of dp1" grep -Eq "^C>\* 2001:2:0:2::/64 .*is directly connected, dp1" <<<"$out"
check "show ipv6 route: the router's own address is local" grep -Eq "^L>\* 2001:2:0:2::1/128 " <<<"$out"

# the first exchange resolves the neighbours (through the kernel); then the dataplane forwards
ping6_ok() { ip netns exec "$H1" ping -6 -c 1 -W 1 2001:2:0:2::2 > /dev/null; }
WAIT_S=20 wait_for "h1 pings h2 over IPv6 through the router" ping6_ok || ipv6_state
ip netns exec "$H2" ping -6 -c 2 -i 0.2 -W 2 2001:2:0:1::2 > /dev/null
wait_for "the NDP neighbours reach the FIB as forward entries" \
	[ "$(tern_cli --json -c "show ipv6 fib 2001:2:0:2::2" | json_field 'j["kind"]')" = forward ]
json=$(tern_cli --json -c "show ipv6 fib 2001:2:0:2::2")
check "show ipv6 fib: h2 is its neighbour's host route, out of dp1 to h2's MAC" \
	[ "$(json_field 'j["prefix"]+" "+j["port"]+" "+j["mac"].lower()' <<<"$json")" = "2001:2:0:2::2/128 dp1 $(host_mac "$H2" "$W1")" ]

before=$(fwd6); tx=$(if_counter dp1 tx_packets); punted=$(err_counter punt_unresolved)
out=$(ip netns exec "$H1" ping -6 -c 20 -i 0.05 -W 2 2001:2:0:2::2)
after=$(fwd6); tx2=$(if_counter dp1 tx_packets); punted2=$(err_counter punt_unresolved)
check "20 more IPv6 pings succeed" grep -q " 0% packet loss" <<<"$out"
check "the replies crossed one router (ttl=63: the hop limit)" grep -q "ttl=63" <<<"$out"
check "the dataplane sent them on dp1 ($tx -> $tx2)" [ $((tx2 - tx)) -ge 20 ]
check "the kernel forwarded none of them (Ip6OutForwDatagrams $before -> $after)" [ "$before" = "$after" ]
check "none went to the kernel as unresolved (punt_unresolved $punted -> $punted2)" [ "$punted" = "$punted2" ]
out=$(ip netns exec "$H2" ping -6 -c 10 -i 0.05 -W 2 2001:2:0:1::2)
check "and back the other way, h2 to h1 ($(fwd6) forwarded by the kernel)" \
	[ "$(grep -c ' 0% packet loss' <<<"$out")" = 1 -a "$(fwd6)" = "$after" ]

# a kernel route through a gateway on dp1, then its withdrawal
ip -n "$R" -6 route add 2001:2:0:100::/56 via 2001:2:0:2::2
wait_for "a kernel route via a global gateway reaches the FIB" \
	[ "$(tern_cli --json -c "show ipv6 fib 2001:2:0:100::7" | json_field 'j["prefix"]+" "+j["kind"]')" = "2001:2:0:100::/56 forward" ]
ip -n "$H2" addr add 2001:2:0:100::7/128 dev lo
before=$(fwd6)
out=$(ip netns exec "$H1" ping -6 -c 5 -i 0.1 -W 2 2001:2:0:100::7)
check "h1 reaches an address behind h2 through it, forwarded by the dataplane" \
	[ "$(grep -c ' 0% packet loss' <<<"$out")" = 1 -a "$(fwd6)" = "$before" ]
ip -n "$R" -6 route del 2001:2:0:100::/56
wait_for "the withdrawn route leaves the FIB" \
	[ "$(tern_cli --json -c "show ipv6 fib 2001:2:0:100::7" | json_field 'j["prefix"]')" = "none/0" ]

# another interface holding dp1's link-local address has its own local route; when it goes,
# the address is still the router's on dp1 (else neighbour advertisements to it are dropped)
ll1=$(ip -n "$R" -6 -o addr show dev dp1 scope link | awk '{ sub("/.*", "", $4); print $4 }')
ip -n "$R" link add "${T_ID}x" type veth peer name "${T_ID}y"
ip -n "$R" link set "${T_ID}x" up
ip -n "$R" addr add "$ll1/64" dev "${T_ID}x" nodad
wait_for "the kernel holds $ll1 on both" \
	[ "$(ip -n "$R" -6 route show table local "$ll1" | grep -c "^local")" = 2 ]
ip -n "$R" link del "${T_ID}x"
wait_for "the other interface's local route leaves the kernel" \
	[ "$(ip -n "$R" -6 route show table local "$ll1" | grep -c "^local")" = 1 ]
check "dp1's link-local address ($ll1) stays local in the FIB" \
	[ "$(tern_cli --json -c "show ipv6 fib $ll1" | json_field 'j["kind"]')" = local ]

# a link-local gateway (what BGP speakers install) resolves on its interface
h2ll=fe80::2:2
ip -n "$H2" addr add $h2ll/64 dev "$W1" nodad
ip -n "$R" -6 route add 2001:2:0:200::/56 via "$h2ll" dev dp1
ip -n "$H2" addr add 2001:2:0:200::9/128 dev lo
ip netns exec "$R" ping -6 -c 1 -W 2 "$h2ll%dp1" > /dev/null
wait_for "a route via h2's link-local address ($h2ll) forwards out of dp1" \
	[ "$(tern_cli --json -c "show ipv6 fib 2001:2:0:200::9" | json_field 'j["kind"]+" "+j["port"]')" = "forward dp1" ] || ipv6_state
before=$(fwd6)
out=$(ip netns exec "$H1" ping -6 -c 5 -i 0.1 -W 2 2001:2:0:200::9)
check "h1 reaches it through the dataplane" \
	[ "$(grep -c ' 0% packet loss' <<<"$out")" = 1 -a "$(fwd6)" = "$before" ]
check "show ipv6 route names the link-local gateway" \
	grep -q "2001:2:0:200::/56 .*via $h2ll, dp1" <<<"$(tern_cli -c "show ipv6 route")"

# the kernel's IPv6 ECMP: an append brings the whole set of hops, a deletion may name one
hops6() { tern_cli --json -c "show ipv6 route 2001:2:0:300::/56" | json_field 'sorted(h["gateway"] for h in j["routes"][0]["nexthops"]) if j.get("routes") else "none"'; }
hops6_are() { [ "$(hops6)" = "$1" ]; }
ip -n "$R" -6 route add 2001:2:0:300::/56 via 2001:2:0:2::2 dev dp1
ip -n "$R" -6 route append 2001:2:0:300::/56 via $h2ll dev dp1
wait_for "an appended hop joins the route as ECMP" hops6_are "['2001:2:0:2::2', '$h2ll']"
consistent6() { [ "$(tern_cli --json -c "show ipv6 fib consistency" | json_field 'j["differences"]')" = 0 ]; }
check "show ipv6 fib consistency: the FIB is the kernel's, ECMP and all" consistent6 ||
	{ tern_cli -c "show ipv6 fib consistency"; ip -n "$R" -6 route show 2001:2:0:300::/56; }
ip -n "$R" -6 route del 2001:2:0:300::/56 via 2001:2:0:2::2 dev dp1
wait_for "a hop deleted alone leaves the other" hops6_are "['$h2ll']"
check "which forwards" [ "$(tern_cli --json -c "show ipv6 fib 2001:2:0:300::1" | json_field 'j["kind"]')" = forward ]
ip -n "$R" -6 route del 2001:2:0:300::/56
wait_for "the last hop deleted takes the route" hops6_are none

# routes through kernel nexthop objects with IPv6 gateways (FRR's zebra installs these): the
# object replaced in place takes its routes with it
ip -n "$R" nexthop add id 60 via 2001:2:0:2::2 dev dp1
ip -n "$R" -6 route add 2001:2:0:400::/56 nhid 60
ip -n "$R" route add 198.19.8.0/24 nhid 60
wait_for "IPv6 and IPv4 routes through an IPv6 nexthop object forward out of dp1" \
	[ "$(tern_cli --json -c "show ipv6 fib 2001:2:0:400::1" | json_field 'j["kind"]+" "+j["port"]') $(fib_kind 198.19.8.1)" = "forward dp1 forward" ]
ip -n "$R" nexthop replace id 60 via $h2ll dev dp1
gw_of() { tern_cli --json -c "show ipv6 route 2001:2:0:400::/56" | json_field 'j["routes"][0]["nexthops"][0]["gateway"]'; }
wait_for "the object replaced, its routes follow it to $h2ll" eval '[ "$(gw_of)" = "$h2ll" ]'
ip -n "$R" nexthop del id 60
wait_for "the object removed, its routes go with it" \
	[ "$(tern_cli --json -c "show ipv6 fib 2001:2:0:400::1" | json_field 'j["prefix"]') $(fib_kind 198.19.8.1)" = "none/0 no-route" ]

# IPv4 routes through an IPv6 next hop (RFC 8950), as FRR's BGP unnumbered installs them
ip -n "$H2" addr add 198.19.7.7/32 dev lo
ip -n "$R" route add 198.19.7.0/24 via inet6 "$h2ll" dev dp1
wait_for "an IPv4 route via an IPv6 gateway forwards out of dp1" \
	[ "$(tern_cli --json -c "show ip fib 198.19.7.7" | json_field 'j["kind"]+" "+j["port"]+" "+j["mac"].lower()')" = "forward dp1 $(host_mac "$H2" "$W1")" ]
out=$(ip netns exec "$H1" ping -c 5 -i 0.1 -W 2 198.19.7.7)
check "h1 reaches 198.19.7.7 over it" grep -q " 0% packet loss" <<<"$out"
check "show ip route names the IPv6 gateway" grep -q "198.19.7.0/24 .*via $h2ll, dp1" <<<"$(tern_cli -c "show ip route")"

wait_for "show ip fib consistency finds nothing amiss (RFC 8950 routes too)" consistent
sleep 0.5	# the checks are spaced by five times their cost
out=$(tern_cli -c "show ipv6 fib consistency")
check "and its IPv6 twin: $(tail -n 1 <<<"$out")" grep -q "kernel routes compared: 0 difference(s)" <<<"$out" ||
	echo "$out"
json=$(tern_cli --json -c "show ipv6 route summary")
check "show ipv6 route summary counts the kernel's routes apart from IPv4's" \
	json_true 'j["kernel_routes"] >= 4 and j["fib_routes"] >= 4' <<<"$json"
check "the IPv4 summary does not count them" \
	[ "$(tern_cli --json -c "show ip route summary" | json_field 'j["kernel_routes"]')" -lt 12 ]
tern_test_end
