#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# IPv6 configured from the shell, as FRR's words say it: ipv6 address, ipv6 route (via a global
# gateway, a link-local one on its interface, out of an interface, blackhole), ipv6 neighbor.
# Each reaches the kernel and the FIB, is written by show running-config, outlives a link flap,
# and goes with its no form.
. "$(dirname "$0")/lib.sh"
tern_test_begin ipv6-static
# The harness's wires come up in the router's namespace with their port's MAC, so their
# link-local addresses are the TAPs' until make_host moves them: DAD on the TAPs could see
# the wires' and give IPv6 up on the TAP. The router's interfaces skip DAD here.
T_ROUTER_SYSCTL=net.ipv6.conf.default.dad_transmits=0 two_hosts
ip -n "$H1" addr add 2001:2:0:1::2/64 dev "$W0" nodad
ip -n "$H2" addr add 2001:2:0:2::2/64 dev "$W1" nodad
ip -n "$H2" addr add fe80::2:2/64 dev "$W1" nodad
ip -n "$H1" -6 route add default via 2001:2:0:1::1
ip -n "$H2" -6 route add default via 2001:2:0:2::1
ip -n "$H2" addr add 2001:2:0:100::7/128 dev lo
ip -n "$H2" addr add 2001:2:0:200::9/128 dev lo
fib6() { tern_cli --json -c "show ipv6 fib $1" | json_field "$2"; }

out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "ipv6 address 2001:2:0:1::1/64" -c "exit" \
	-c "interface dp1" -c "ipv6 address 2001:2:0:2::1/64" -c "end" 2>&1)
check "ipv6 address is taken on both interfaces ($out)" [ -z "$out" ]
check "the kernel has them" grep -q "inet6 2001:2:0:1::1/64" <<<"$(ip -n "$R" -6 addr show dev dp0)"
out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "ipv6 address fe80::1/64" 2>&1)
check "a link-local address is refused with a sentence: $out" grep -q "is not a global or unique-local unicast address" <<<"$out"
ping6_ok() { ip netns exec "$H1" ping -6 -c 1 -W 1 2001:2:0:2::2 > /dev/null; }
WAIT_S=20 wait_for "h1 reaches h2" ping6_ok || ipv6_state

tern_cli -c "configure terminal" -c "ipv6 route 2001:2:0:100::/56 2001:2:0:2::2" \
	-c "ipv6 route 2001:2:0:99::/64 blackhole" -c "end"
check "the kernel holds the static routes" \
	grep -q "2001:2:0:100::/56 via 2001:2:0:2::2 dev dp1 proto static" <<<"$(ip -n "$R" -6 route)"
out=$(tern_cli -c "configure terminal" -c "ipv6 route 2001:2:0:200::/56 fe80::2:2" 2>&1)
check "a link-local gateway without its interface is refused: $out" grep -q "is link-local: name the interface it is on" <<<"$out"
out=$(tern_cli -c "configure terminal" -c "ipv6 route 2001:2:0:200::/56 2001:2:0:77::1" 2>&1)
check "a gateway on no connected subnet is refused: $out" grep -q "on no connected subnet" <<<"$out"
tern_cli -c "configure terminal" -c "ipv6 route 2001:2:0:200::/56 fe80::2:2 dp1" -c "end"
ip netns exec "$H1" ping -6 -c 2 -i 0.2 -W 1 2001:2:0:100::7 > /dev/null
ip netns exec "$R" ping -6 -c 1 -W 1 fe80::2:2%dp1 > /dev/null
wait_for "the static routes forward" \
	[ "$(fib6 2001:2:0:100::7 'j["kind"]') $(fib6 2001:2:0:200::9 'j["kind"]') $(fib6 2001:2:0:99::1 'j["kind"]')" = "forward forward blackhole" ]
out=$(ip netns exec "$H1" ping -6 -c 3 -i 0.2 -W 2 2001:2:0:200::9)
check "h1 reaches an address behind the link-local gateway" grep -q " 0% packet loss" <<<"$out"

tern_cli -c "configure terminal" -c "ipv6 neighbor 2001:2:0:2::77 02:00:00:00:77:77 dp1" -c "end"
check "a static IPv6 neighbour reaches the FIB" [ "$(fib6 2001:2:0:2::77 'j["kind"]+" "+j["mac"].lower()')" = "forward 02:00:00:00:77:77" ]
check "and the kernel holds it as permanent" grep -q "2001:2:0:2::77 dev dp1 lladdr 02:00:00:00:77:77 PERMANENT" <<<"$(ip -n "$R" -6 neigh)"

rc=$(tern_cli -c "show running-config")
for line in " ipv6 address 2001:2:0:1::1/64" "ipv6 route 2001:2:0:99::/64 blackhole" \
	"ipv6 route 2001:2:0:100::/56 2001:2:0:2::2" "ipv6 route 2001:2:0:200::/56 fe80::2:2 dp1" \
	"ipv6 neighbor 2001:2:0:2::77 02:00:00:00:77:77 dp1"; do
	check "show running-config: '$line'" grep -qxF "$line" <<<"$rc"
done

# a link flap: the kernel forgets the routes and the neighbour through dp1; ternd writes them again
link_set "$R" 1 down
wait_for "dp1's link goes down" link_is dp1 down
ip -n "$R" link set dp1 down; ip -n "$R" link set dp1 up
link_set "$R" 1 up
kernel_has() { ip -n "$R" -6 "$1" | grep -q "$2"; }	# route|neigh TEXT
wait_for "after a flap of dp1 the static routes are back in the kernel" \
	kernel_has route "2001:2:0:200::/56 via fe80::2:2 dev dp1 proto static"
wait_for "and the static neighbour" kernel_has neigh "2001:2:0:2::77 dev dp1 lladdr 02:00:00:00:77:77 PERMANENT"
check "dp1 kept its IPv6 address through the flap" grep -q "inet6 2001:2:0:2::1/64" <<<"$(ip -n "$R" -6 addr show dev dp1)"
wait_for "so the route via its global gateway is back too" \
	kernel_has route "2001:2:0:100::/56 via 2001:2:0:2::2 dev dp1 proto static"

tern_cli -c "configure terminal" -c "no ipv6 route 2001:2:0:100::/56" -c "no ipv6 neighbor 2001:2:0:2::77" \
	-c "interface dp0" -c "no ipv6 address 2001:2:0:1::1/64" -c "end"
check "no ipv6 route takes the route out of the kernel" \
	bash -c "! ip -n $R -6 route | grep -q 2001:2:0:100::/56"
check "no ipv6 neighbor takes the neighbour" bash -c "! ip -n $R -6 neigh | grep -q 2001:2:0:2::77"
check "no ipv6 address takes the address" bash -c "! ip -n $R -6 addr show dev dp0 | grep -q 2001:2:0:1::1"
check "none of them is in the running-config any more" \
	bash -c "! $TERN -s $T_SOCK -c 'show running-config' | grep -q -e 2001:2:0:100:: -e 2001:2:0:2::77 -e 2001:2:0:1::1"
tern_test_end
