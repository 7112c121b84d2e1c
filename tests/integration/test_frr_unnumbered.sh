#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# BGP unnumbered (RFC 8950, once RFC 5549): FRR in ternd's namespace and FRR in host h2 peer
# over dp1's IPv6 link-local addresses alone, each learning the other's from its Router
# Advertisements, and exchange IPv4 routes whose next hop is the peer's link-local address
# (`198.19.20.1 via inet6 fe80::... dev dp1`). Neither side has an IPv4 route of its own to
# the other's prefixes: h1 and h2's loopback address reach each other only through those
# routes, and ternd forwards both ways (the MAC from the IPv6 neighbour), the kernel none of
# it. With net.ipv4.nexthop_compat_mode 1, then 0 (a route names only zebra's nexthop object).
. "$(dirname "$0")/lib.sh"
tern_test_begin frr-unnumbered
[ -x /usr/lib/frr/zebra ] && id frr >/dev/null 2>&1 || { echo "frr is missing; make deps installs it"; exit 1; }
two_hosts_ipv6
ip -n "$H2" addr add 198.19.20.1/32 dev lo
ip -n "$H2" route del default	# what h2 knows of 198.18.0.0/24 it learns from the router

FR=$(frr_dir frr-r) FH=$(frr_dir frr-h2)
# Each side sends Router Advertisements on the link each second, so the other learns its
# link-local address and the session opens (FRR's bgpd asks zebra for them on its own too).
cat > "$FR/zebra.conf" <<EOC
hostname r
interface dp1
 ipv6 nd ra-interval 1
 no ipv6 nd suppress-ra
EOC
cat > "$FR/bgpd.conf" <<EOC
hostname r
router bgp 65000
 bgp router-id 198.18.0.1
 no bgp ebgp-requires-policy
 neighbor dp1 interface remote-as external
 neighbor dp1 timers connect 1
 address-family ipv4 unicast
  network 198.18.0.0/24
 exit-address-family
EOC
cat > "$FH/zebra.conf" <<EOC
hostname h2
interface $W1
 ipv6 nd ra-interval 1
 no ipv6 nd suppress-ra
EOC
cat > "$FH/bgpd.conf" <<EOC
hostname h2
router bgp 65001
 bgp router-id 198.19.20.1
 no bgp ebgp-requires-policy
 neighbor $W1 interface remote-as external
 neighbor $W1 timers connect 1
 address-family ipv4 unicast
  network 198.19.20.1/32
 exit-address-family
EOC
chown frr:frr "$FR"/*.conf "$FH"/*.conf
tern_on_exit "frr_stop $FR; frr_stop $FH"

h2_ll=$(ip -n "$H2" -6 addr show dev "$W1" scope link | awk '$1 == "inet6" { sub("/.*", "", $2); print $2 }')
# the router's route to h2's prefix, and h2's to h1's, each through the other's link-local
# address; in compat mode 0 the router's route names only its nexthop object, which says it
r_route() { ip -n "$R" route show 198.19.20.1 proto bgp; }
learnt_r() {
	local nh
	nh=$(r_route | sed -n 's/.*nhid \([0-9]*\).*/\1/p')
	[ -n "$nh" ] && ip -n "$R" nexthop show id "$nh" | grep -q "via $h2_ll dev dp1"
}
learnt_h2() { ip -n "$H2" route show 198.18.0.0/24 | grep -q "via inet6 fe80::.* dev $W1 proto bgp"; }
forwards() {
	[ "$(tern_cli --json -c 'show ip fib 198.19.20.1' | json_field 'j["kind"]+" "+j["port"]+" "+j["mac"].lower()')" = \
		"forward dp1 $(host_mac "$H2" "$W1")" ]
}
gone() { [ -z "$(ip -n "$R" route show 198.19.20.1)" ] && [ "$(fib_kind 198.19.20.1)" = no-route ]; }

# h1 resolved first: a packet to an unresolved neighbour is the kernel's to forward
ip netns exec "$H1" ping -c 1 -W 2 198.18.0.1 >/dev/null
wait_for "h1 is a forward entry in the FIB" fib_is 198.18.0.2 forward

for mode in 1 0; do
	say "nexthop_compat_mode = $mode"
	ip netns exec "$R" sysctl -qw net.ipv4.nexthop_compat_mode=$mode
	frr_start "$R" "$FR" && frr_start "$H2" "$FH" || { fail "FRR did not start"; break; }
	WAIT_S=40 wait_for "mode $mode: the session comes up over link-local addresses and h2's prefix reaches the router's kernel" learnt_r
	check "mode $mode: through a nexthop object: $(ip -n "$R" route show 198.19.20.1)" \
		grep -q "nhid" <<<"$(ip -n "$R" route show 198.19.20.1)"
	WAIT_S=20 wait_for "mode $mode: and the router's prefix reaches h2's" learnt_h2
	wait_for "mode $mode: the FIB forwards 198.19.20.1 out of dp1 to h2's MAC (its IPv6 neighbour's)" forwards
	f0=$(fwd4)
	out=$(ip netns exec "$H1" ping -c 5 -i 0.2 -W 1 198.19.20.1)
	check "mode $mode: h1 reaches h2's prefix and back" grep -q " 0% packet loss" <<<"$out"
	check "mode $mode: ternd forwarded it both ways, the kernel nothing ($f0 then $(fwd4))" [ "$(fwd4)" = "$f0" ]
	check "mode $mode: the FIB equals the kernel's tables" consistent
	frr_stop "$FH"
	WAIT_S=20 wait_for "mode $mode: h2's FRR stopped: its prefix leaves the kernel and the FIB" gone
	frr_stop "$FR"
	check "mode $mode: the FIB equals the kernel's tables" consistent
done
tern_test_end
