#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# What is down carries no traffic. 1000 ECMP routes over h1 (dp0) and h2 (dp1) and a route via
# h2 alone; dp1's cable is pulled (its link goes down, its interface stays up, the kernel
# keeps its routes): within a tick of the control loop nothing more leaves by dp1, the ECMP
# routes' flows all go by dp0, the route via dp1 alone answers ICMP host unreachable
# (counted), and show ip route says which link is down. With the cable back, dp1 carries
# its share again.
. "$(dirname "$0")/lib.sh"
tern_test_begin link-down
two_hosts

for i in $(seq 0 999); do
	echo "route add 198.19.$((i / 256)).$((i % 256))/32 proto static nexthop via 198.18.0.2 nexthop via 198.18.1.2"
done > "$T_DIR/batch"
echo "route add 198.19.100.0/24 via 198.18.1.2 proto static" >> "$T_DIR/batch"
ip -n "$R" -batch "$T_DIR/batch"
ip netns exec "$H1" ping -c 1 -W 1 198.18.0.1 >/dev/null
ip netns exec "$H2" ping -c 1 -W 1 198.18.1.1 >/dev/null
ip -n "$R" neigh replace 198.18.0.2 lladdr "$(host_mac "$H1" "$W0")" nud permanent dev dp0
ip -n "$R" neigh replace 198.18.1.2 lladdr "$(host_mac "$H2" "$W1")" nud permanent dev dp1
wait_for "the 1000 ECMP routes reach the FIB" eval '[ "$(fib_kind 198.19.3.231)" = ecmp ]'
wait_for "the route via h2 forwards" eval '[ "$(fib_kind 198.19.100.1)" = forward ]'

# 2000 UDP datagrams from h1, two to each of the 1000 destinations, ports varying
blast() {
	ip netns exec "$H1" /usr/bin/python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for k in range(2000):
    i = k % 1000
    s.sendto(b"x" * 18, ("198.19.%d.%d" % (i // 256, i % 256), 10000 + k))
'
}
tx() { if_counter "$1" tx_packets; }
a0=$(tx dp0) a1=$(tx dp1)
blast
sleep 0.3
b0=$(tx dp0) b1=$(tx dp1)
say "both links up: dp0 sent $((b0 - a0)), dp1 $((b1 - a1))"
check "both links up: the flows spread over dp0 and dp1" [ $((b0 - a0)) -ge 500 ] && [ $((b1 - a1)) -ge 500 ]

link_set "$R" 1 down
sleep 0.2	# two ticks of the control loop
a0=$(tx dp0) a1=$(tx dp1)
blast
sleep 0.3
b0=$(tx dp0) b1=$(tx dp1)
say "dp1's cable pulled: dp0 sent $((b0 - a0)), dp1 $((b1 - a1))"
check "dp1's cable pulled: nothing leaves by dp1" [ "$b1" = "$a1" ]
check "and every flow goes by dp0" [ $((b0 - a0)) -ge 2000 ]
check "the kernel keeps the routes (linkdown)" grep -q "198.19.100.0/24 via 198.18.1.2 dev dp1 .*linkdown" <<<"$(ip -n "$R" route)"
icmp=$(err_counter icmp_nexthop_down)
out=$(ip netns exec "$H1" ping -c 2 -i 0.2 -W 1 198.19.100.1 2>&1)
check "a route via dp1 alone answers ICMP host unreachable: $(grep -m1 Unreachable <<<"$out")" \
	grep -q "From 198.18.0.1 .*Destination Host Unreachable" <<<"$out"
check "counted as icmp_nexthop_down ($icmp -> $(err_counter icmp_nexthop_down))" \
	[ "$(err_counter icmp_nexthop_down)" -ge $((icmp + 2)) ]
check "show ip route says the link is down" \
	grep -q "198.19.100.0/24 .*link down: dp1" <<<"$(tern_cli -c "show ip route 198.19.100.0/24")"

link_set "$R" 1 up
wait_for "cable back: both links up" links_up
check "the log says a link went down, with ternd's own prefix only" \
	eval 'grep -q "^ternd: dp1: link down" "$T_DIR/ternd.log" && ! grep -q "USER1:" "$T_DIR/ternd.log"'
a0=$(tx dp0) a1=$(tx dp1)
blast
sleep 0.3
b1=$(tx dp1)
check "cable back: dp1 carries its share again ($((b1 - a1)))" [ $((b1 - a1)) -ge 500 ]
check "and show ip route no longer says so" \
	eval '! tern_cli -c "show ip route 198.19.100.0/24" | grep -q "link down"'
tern_test_end
