#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# IPv6 as the hosts' own tools meet it through ternd's dataplane: traceroute -6 sees the
# router answer hop limit exceeded (RFC 4443 3.3), a packet larger than the egress MTU gets a
# Packet Too Big with that MTU and the sender's path MTU drops to it (RFC 8201), and a packet
# with a Hop-by-Hop Options header crosses the router when it is in transit (RFC 8200 as
# updated by RFC 9673) and goes to the kernel when it is for the router. A neighbour that moves
# to another MAC, and says so (an unsolicited Neighbour Advertisement), is followed.
. "$(dirname "$0")/lib.sh"
tern_test_begin ipv6-icmp
two_hosts_ipv6

ping6_ok() { ip netns exec "$H1" ping -6 -c 1 -W 1 2001:2:0:2::2 > /dev/null; }
WAIT_S=20 wait_for "h1 pings h2 over IPv6 through the router" ping6_ok || ipv6_state
ip netns exec "$H2" ping -6 -c 2 -i 0.2 -W 2 2001:2:0:1::2 > /dev/null
resolved() {
	[ "$(tern_cli --json -c "show ipv6 fib $1" | json_field 'j["kind"]')" = forward ]
}
wait_for "both hosts are forward entries in the FIB" eval 'resolved 2001:2:0:2::2 && resolved 2001:2:0:1::2'

# traceroute's first probes leave h1 with hop limit 1: the dataplane answers them
before=$(err_counter icmp6_time_exceeded)
out=$(ip netns exec "$H1" traceroute -6 -n -q 1 -w 2 -m 3 2001:2:0:2::2 2>&1)
check "traceroute -6: the router is the first hop, h2 the second" \
	eval '[ "$(awk '\''$1 == 1 { print $2 }'\'' <<<"$out")" = 2001:2:0:1::1 ] &&
	      [ "$(awk '\''$1 == 2 { print $2 }'\'' <<<"$out")" = 2001:2:0:2::2 ]' || echo "$out"
check "the dataplane sent the hop limit exceeded (icmp6_time_exceeded $before -> $(err_counter icmp6_time_exceeded))" \
	[ "$(err_counter icmp6_time_exceeded)" -gt "$before" ]

# the path to h2 narrows to IPv6's minimum MTU
ip -n "$R" link set dp1 mtu 1280
wait_for "dp1 takes MTU 1280" eval '[ "$(if_counter dp1 mtu)" = 1280 ]'
before=$(err_counter icmp6_packet_too_big)
out=$(ip netns exec "$H1" ping -6 -c 1 -W 2 -s 1400 -M do 2001:2:0:2::2 2>&1)
check "a 1448-byte ping gets Packet Too Big from the router, MTU 1280" \
	grep -q "From 2001:2:0:1::1 icmp_seq=1 Packet too big: mtu=1280" <<<"$out" || echo "$out"
check "counted as icmp6_packet_too_big ($before -> $(err_counter icmp6_packet_too_big))" \
	[ "$(err_counter icmp6_packet_too_big)" = $((before + 1)) ]
check "h1's path MTU to h2 is 1280 now" \
	grep -q "mtu 1280" <<<"$(ip -n "$H1" -6 route get 2001:2:0:2::2)"
out=$(ip netns exec "$H1" ping -6 -c 3 -i 0.2 -W 2 -s 1400 2001:2:0:2::2 2>&1)
check "and the same ping, fragmented by h1 to fit, reaches h2" grep -q " 0% packet loss" <<<"$out"
ip -n "$R" link set dp1 mtu 1500
wait_for "dp1 is back to MTU 1500" eval '[ "$(if_counter dp1 mtu)" = 1500 ]'

# echo requests behind a Hop-by-Hop Options header (a PadN option), built by scapy
hbh_echo() {	# DESTINATION
	ip netns exec "$H1" /usr/bin/python3 - "$W0" "$(port_mac dp0)" "$1" <<'PY' >/dev/null 2>&1
import sys
from scapy.all import Ether, IPv6, IPv6ExtHdrHopByHop, PadN, ICMPv6EchoRequest, sendp
iface, mac, dst = sys.argv[1:4]
sendp(Ether(dst=mac) / IPv6(src="2001:2:0:1::2", dst=dst) /
      IPv6ExtHdrHopByHop(options=[PadN(optdata=b"\0\0\0\0")]) / ICMPv6EchoRequest(id=0x7e6e),
      iface=iface, verbose=False)
PY
}
echos() { ip netns exec "$1" awk '$1 == "Icmp6InEchos" { print $2 }' /proc/net/snmp6; }
h2=$(echos "$H2") r=$(echos "$R") k=$(fwd6) local=$(err_counter punt_local)
hbh_echo 2001:2:0:2::2
wait_for "a Hop-by-Hop packet in transit reaches h2" eval '[ "$(echos "$H2")" -gt "$h2" ]'
check "forwarded by the dataplane, not the kernel (Ip6OutForwDatagrams $k -> $(fwd6))" [ "$(fwd6)" = "$k" ]
hbh_echo 2001:2:0:1::1
wait_for "a Hop-by-Hop packet for the router reaches its kernel" eval '[ "$(echos "$R")" -gt "$r" ]'
check "punted as addressed to the router (punt_local $local -> $(err_counter punt_local))" \
	[ "$(err_counter punt_local)" -gt "$local" ]
# h2 takes another MAC and advertises it (ndisc_notify): the router's kernel updates its
# neighbour, and the FIB entry its MAC
ip netns exec "$H2" sysctl -qw net.ipv6.conf."$W1".ndisc_notify=1
ip -n "$H2" link set "$W1" address 02:00:00:00:00:99
h2_mac() { tern_cli --json -c "show ipv6 fib 2001:2:0:2::2" | json_field 'j["mac"].lower()'; }
wait_for "h2's new MAC reaches the FIB" eval '[ "$(h2_mac)" = 02:00:00:00:00:99 ]'
k=$(fwd6)
out=$(ip netns exec "$H1" ping -6 -c 3 -i 0.2 -W 2 2001:2:0:2::2)
check "h1 reaches h2 at its new MAC through the dataplane (Ip6OutForwDatagrams $k -> $(fwd6))" \
	[ "$(grep -c " 0% packet loss" <<<"$out")" = 1 -a "$(fwd6)" = "$k" ]
tern_test_end
