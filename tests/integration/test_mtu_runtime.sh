#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# An MTU larger than ternd's packet buffers, taken while it runs: the ports start at 1500 with
# 2 KiB buffers (no [port] mtu), and take MTU 9000 from the shell and from the kernel. Frames
# longer than a buffer then come in and go out as chains of them: 8972-byte pings with DF
# cross the dataplane, the router's kernel answers 8000-byte pings (the exception path both
# ways in chains), and with the egress port back at 1500 the dataplane sends "fragmentation
# needed" about a chained frame. A sub-interface takes its port's larger MTU too.
. "$(dirname "$0")/lib.sh"
tern_test_begin mtu-runtime
# two_hosts, with the MTUs changed before the ports' wires move into the hosts: the TAP
# driver sets the MTU of its wire, which must still be in ternd's namespace then
R=tern-$T_ID-r H1=tern-$T_ID-h1 H2=tern-$T_ID-h2
W0=${T_ID}h0 W1=${T_ID}h1
netns_add "$R"
write_tap_config 2
start_ternd "$R"
kernel_mtu() { ip -n "$R" -j link show "$1" | json_field 'j[0]["mtu"]'; }
out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "ip address 198.18.0.1/24" -c "mtu 9000" \
	-c "interface dp1" -c "ip address 198.18.1.1/24" -c "end" 2>&1)
check "dp0 takes MTU 9000 from the shell, with 2 KiB packet buffers: ${out:-no complaint}" [ -z "$out" ]
ip -n "$R" link set dp1 mtu 9000
wait_for "dp1 takes MTU 9000 from its kernel interface" eval '[ "$(if_counter dp1 mtu)" = 9000 ]'
check "both ports and their kernel interfaces run at 9000" \
	[ "$(if_counter dp0 mtu)/$(if_counter dp1 mtu)/$(kernel_mtu dp0)/$(kernel_mtu dp1)" = 9000/9000/9000/9000 ]
make_host "$R" 0 "$H1" 198.18.0.2/24 198.18.0.1
make_host "$R" 1 "$H2" 198.18.1.2/24 198.18.1.1
wait_for "both ports' links are up" links_up
ip -n "$H1" link set "$W0" mtu 9000
ip -n "$H2" link set "$W1" mtu 9000

ip netns exec "$H1" ping -c 2 -i 0.2 -W 1 198.18.1.2 >/dev/null	# resolves the neighbours
wait_for "h2 is resolved in the FIB" fib_is 198.18.1.2 forward
before=$(if_counter dp1 tx_packets) punted=$(err_counter punt_fragment) k=$(fwd4)
out=$(ip netns exec "$H1" ping -c 5 -i 0.2 -W 2 -M do -s 8972 198.18.1.2)
check "8972-byte pings with DF cross the router" grep -q " 0% packet loss" <<<"$out"
check "as 9000-byte packets" grep -q "^8980 bytes from 198.18.1.2" <<<"$out"
check "through the dataplane: dp1 sent them, the kernel forwarded none" \
	[ $(($(if_counter dp1 tx_packets) - before)) -ge 5 -a "$(err_counter punt_fragment)" = "$punted" -a "$(fwd4)" = "$k" ]
out=$(ip netns exec "$H1" ping -c 3 -i 0.2 -W 2 -M do -s 8000 198.18.0.1)
check "the router's kernel answers 8000-byte pings (to the kernel and back in chains)" \
	grep -q " 0% packet loss" <<<"$out"

tern_cli -c "configure terminal" -c "interface dp1" -c "mtu 1500" -c "end" >/dev/null
check "dp1 is set back to 1500, port and kernel" [ "$(if_counter dp1 mtu)/$(kernel_mtu dp1)" = 1500/1500 ]
sent=$(err_counter icmp_frag_needed)
out=$(ip netns exec "$H1" ping -c 1 -W 2 -M do -s 4000 198.18.1.2 2>&1)
check "a 4028-byte packet with DF gets fragmentation needed naming MTU 1500: $(head -c 120 <<<"$out" | tr '\n' ' ')" \
	grep -qi "mtu = 1500\|message too long, mtu=1500\|Frag needed" <<<"$out"
check "sent by the dataplane (icmp_frag_needed $sent -> $(err_counter icmp_frag_needed))" \
	[ "$(err_counter icmp_frag_needed)" -gt "$sent" ]

out=$(tern_cli -c "configure terminal" -c "interface dp0.100" -c "mtu 9000" -c "end" 2>&1)
check "a sub-interface of dp0 takes MTU 9000 too: ${out:-no complaint}" \
	[ -z "$out" -a "$(if_counter dp0.100 mtu)" = 9000 ]
out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "mtu 9300" 2>&1)
check "an MTU above the most ternd takes is still refused with a sentence: $out" grep -q "out of range: expected 68 to 9216" <<<"$out"
tern_test_end
