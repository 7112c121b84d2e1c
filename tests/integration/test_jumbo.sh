#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Jumbo frames: with [port] mtu 9000 on both TAP ports (DPDK 22.11's TAP driver says 1504 at
# most, but carries them: dataplane/workarounds/vdev_mtu.c), the kernel interfaces follow the
# ports, and 8972-byte pings with DF cross the dataplane. When the egress port is set back to
# MTU 1500, a packet without DF is handed to the kernel, which fragments it, and the sender
# of one with DF gets "fragmentation needed" naming MTU 1500 from the dataplane.
. "$(dirname "$0")/lib.sh"
tern_test_begin jumbo
PORT_EXTRA_0='mtu = 9000' PORT_EXTRA_1='mtu = 9000' two_hosts
ip -n "$H1" link set "$W0" mtu 9000
ip -n "$H2" link set "$W1" mtu 9000

kernel_mtu() { ip -n "$R" -j link show "$1" | json_field 'j[0]["mtu"]'; }
check "both ports took MTU 9000" [ "$(if_counter dp0 mtu)/$(if_counter dp1 mtu)" = 9000/9000 ]
check "their kernel interfaces have it too" [ "$(kernel_mtu dp0)/$(kernel_mtu dp1)" = 9000/9000 ]

ip netns exec "$H1" ping -c 2 -i 0.2 -W 1 198.18.1.2 >/dev/null	# resolves the neighbours
wait_for "h2 is resolved in the FIB" fib_is 198.18.1.2 forward
before=$(if_counter dp1 tx_packets); punted=$(err_counter punt_fragment)
out=$(ip netns exec "$H1" ping -c 5 -i 0.2 -W 2 -M do -s 8972 198.18.1.2)
check "8972-byte pings with DF cross the router" grep -q " 0% packet loss" <<<"$out"
check "as 9000-byte packets" grep -q "^8980 bytes from 198.18.1.2" <<<"$out"
check "the dataplane sent them on dp1" [ $(($(if_counter dp1 tx_packets) - before)) -ge 5 ]
check "none was handed to the kernel" [ "$(err_counter punt_fragment)" = "$punted" ]

tern_cli -c "configure terminal" -c "interface dp1" -c "mtu 1500" -c "end" >/dev/null
check "dp1 is set back to 1500, port and kernel" [ "$(if_counter dp1 mtu)/$(kernel_mtu dp1)" = 1500/1500 ]
ip -n "$H2" link set "$W1" mtu 1500
punted=$(err_counter punt_fragment)
out=$(ip netns exec "$H1" ping -c 3 -i 0.2 -W 2 -M dont -s 8972 198.18.1.2)
check "without DF, 8972-byte pings are fragmented on the way and answered" grep -q " 0% packet loss" <<<"$out"
check "the dataplane handed them to the kernel to fragment (punt_fragment $punted -> $(err_counter punt_fragment))" \
	[ "$(err_counter punt_fragment)" -ge $((punted + 3)) ]
sent=$(err_counter icmp_frag_needed)
out=$(ip netns exec "$H1" ping -c 2 -i 0.2 -W 1 -M do -s 8972 198.18.1.2 2>&1)
check "a 9000-byte packet with DF into dp1 gets 'fragmentation needed' with MTU 1500" \
	grep -q "From 198.18.0.1 icmp_seq=1 Frag needed and DF set (mtu = 1500)" <<<"$out"
check "from the dataplane (icmp_frag_needed $sent -> $(err_counter icmp_frag_needed))" \
	[ "$(err_counter icmp_frag_needed)" -gt "$sent" ]
out=$(ip netns exec "$H1" ping -c 3 -i 0.2 -W 2 -M do -s 1472 198.18.1.2)
check "1500-byte packets with DF still cross" grep -q " 0% packet loss" <<<"$out"
check "the FIB equals the kernel's tables" consistent
tern_test_end
