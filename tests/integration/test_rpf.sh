#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Unicast RPF through the shell with real traffic. Strict on dp0: h1's datagrams from its own
# address pass; from an address behind dp1, or with no route at all, they are dropped and
# counted as drop_rpf; from a prefix whose ECMP route has a member out of dp0 they pass. Loose:
# a source behind dp1 passes, one with no route or a blackhole route does not. IPv6 alike.
# DHCP's discover, from 0.0.0.0 to 255.255.255.255, reaches the router's kernel with strict RPF
# on. The running-config says it; values out of place are refused with a sentence; a removed
# sub-interface takes its mode with it.
. "$(dirname "$0")/lib.sh"
tern_test_begin rpf
two_hosts_ipv6 $'[metrics]\nlisten = 9101'

conf() { tern_cli -c "configure terminal" "$@" -c "end"; }
noports() { ip netns exec "$H2" awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $3 }' /proc/net/snmp; }
noports6() { ip netns exec "$H2" awk '$1 == "Udp6NoPorts" { print $2 }' /proc/net/snmp6; }
# COUNT datagrams from h1's address SRC (added to its wire for the purpose) to DST port 9,
# which h2 does not listen on: each one that arrives is counted in h2's NoPorts
send_from() {	# SRC DST COUNT
	local len=32
	[[ $1 == *:* ]] && len=128
	ip -n "$H1" addr replace "$1/$len" dev "$W0" nodad 2>/dev/null
	ip netns exec "$H1" /usr/bin/python3 -c '
import socket, sys, time
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_INET6 if ":" in dst else socket.AF_INET, socket.SOCK_DGRAM)
s.bind((src, 0))
for i in range(n):
    s.sendto(b"tern-rpf", (dst, 9))
    time.sleep(0.01)
' "$1" "$2" "$3"
	sleep 0.3
}
# whether COUNT datagrams from SRC reached h2 (pass) or none did and drop_rpf counted them (drop)
fate() {	# pass|drop SRC DST COUNT
	local n0 r0 got rpf
	if [[ $3 == *:* ]]; then n0=$(noports6); else n0=$(noports); fi
	r0=$(err_counter drop_rpf)
	send_from "$2" "$3" "$4"
	if [[ $3 == *:* ]]; then got=$(($(noports6) - n0)); else got=$(($(noports) - n0)); fi
	rpf=$(($(err_counter drop_rpf) - r0))
	if [ "$1" = pass ]; then [ "$got" = "$4" ] && [ "$rpf" = 0 ]
	else [ "$got" = 0 ] && [ "$rpf" = "$4" ]; fi || { say "$got of $4 reached h2, drop_rpf counted $rpf"; return 1; }
}
running_has() {
	tern_cli -c "show running-config" > "$T_DIR/running"
	/usr/bin/python3 -c 'import sys; sys.exit(sys.argv[1] not in open(sys.argv[2]).read())' "$1" "$T_DIR/running"
}

# h1's ARP requests carry its own address, never the one a datagram is sent from: the router's
# kernel would take that one for a neighbour on dp0, and tern for a /32 out of dp0
ip netns exec "$H1" sysctl -qw net.ipv4.conf.all.arp_announce=2 net.ipv4.conf."$W0".arp_announce=2
# a prefix over both ports (ECMP), one behind dp1 only, one that is a blackhole
ip -n "$R" route add 198.19.50.0/24 nexthop via 198.18.0.2 dev dp0 nexthop via 198.18.1.2 dev dp1
ip -n "$R" route add 198.19.60.0/24 via 198.18.1.2 dev dp1
ip -n "$R" route add blackhole 198.19.70.0/24
ip -n "$R" -6 route add 2001:2:0:50::/64 nexthop via 2001:2:0:1::2 dev dp0 nexthop via 2001:2:0:2::2 dev dp1
wait_for "the routes reach the FIB" eval \
	'tern_cli -c "show ip route 198.19.70.0/24" | grep -q blackhole &&
	 tern_cli -c "show ipv6 route 2001:2:0:50::/64" | grep -q dp1'

check "with RPF off, a source behind dp1 passes" fate pass 198.18.1.99 198.18.1.2 5
conf -c "interface dp0" -c "ip verify unicast source reachable-via rx" || fail "strict RPF was refused"
check "strict: h1's own address passes" fate pass 198.18.0.2 198.18.1.2 5
check "strict: a source behind dp1 is dropped as drop_rpf" fate drop 198.18.1.99 198.18.1.2 5
check "strict: a source with no route is dropped" fate drop 198.19.200.9 198.18.1.2 5
check "strict: a source whose ECMP route has a member out of dp0 passes" fate pass 198.19.50.9 198.18.1.2 5
check "strict: a source routed out of dp1 only is dropped" fate drop 198.19.60.9 198.18.1.2 5
check "show interfaces dp0 says it" eval \
	'tern_cli -c "show interfaces dp0" | grep -q "Unicast RPF: IPv4 rx, IPv6 off"'
check "and in JSON" [ "$(tern_cli --json -c "show interfaces dp0" | json_field 'j["interfaces"][0]["rpf_ipv4"]')" = rx ]
check "the metrics endpoint counts drop_rpf" [ "$(metric 'tern_drops_total{reason="drop_rpf"}')" = "$(err_counter drop_rpf)" ]

# DHCP from a host without an address: to the router's kernel, even with strict RPF
ip netns exec "$R" /usr/bin/python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"dp0")
s.bind(("", 67))
s.settimeout(8)
data, peer = s.recvfrom(2048)
print(peer[0], len(data))
' > "$T_DIR/dhcp" 2>&1 &
listener=$!
T_PIDS+=("$listener")
sleep 0.5
ip netns exec "$H1" /usr/bin/python3 -c '
import socket, struct, sys
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff
mac = bytes.fromhex(sys.argv[2].replace(":", ""))
bootp = struct.pack("!BBBBIHH4s4s4s4s16s", 1, 1, 6, 0, 0x7465726e, 0, 0x8000, bytes(4), bytes(4),
                    bytes(4), bytes(4), mac + bytes(10)) + bytes(192) + bytes([99, 130, 83, 99, 53, 1, 1, 255])
udp = struct.pack("!HHHH", 68, 67, 8 + len(bootp), 0) + bootp
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0, bytes(4), b"\xff" * 4)
ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
s.send(b"\xff" * 6 + mac + b"\x08\x00" + ip + udp)
' "$W0" "$(host_mac "$H1" "$W0")"
wait "$listener"
check "a DHCP discover from 0.0.0.0 reached the router's kernel: $(cat "$T_DIR/dhcp")" grep -q "^0.0.0.0 " "$T_DIR/dhcp"

conf -c "interface dp0" -c "ip verify unicast source reachable-via any" || fail "loose RPF was refused"
check "loose: a source behind dp1 passes" fate pass 198.18.1.99 198.18.1.2 5
check "loose: a source with no route is dropped" fate drop 198.19.200.9 198.18.1.2 5
check "loose: a source with a blackhole route is dropped" fate drop 198.19.70.9 198.18.1.2 5

conf -c "interface dp0" -c "ipv6 verify unicast source reachable-via rx" || fail "IPv6 strict RPF was refused"
check "IPv6 strict: h1's own address passes" fate pass 2001:2:0:1::2 2001:2:0:2::2 5
check "IPv6 strict: a source behind dp1 is dropped" fate drop 2001:2:0:2::99 2001:2:0:2::2 5
check "IPv6 strict: a source with no route is dropped" fate drop 2001:db8::9 2001:2:0:2::2 5
check "IPv6 strict: a source whose ECMP route has a member out of dp0 passes" fate pass 2001:2:0:50::9 2001:2:0:2::2 5
check "IPv6 strict: h1 and the router still resolve each other and ping" \
	ip netns exec "$H1" ping -6 -c 2 -i 0.2 -W 1 2001:2:0:1::1

check "the running-config has both" running_has \
	$' ip verify unicast source reachable-via any\n ipv6 verify unicast source reachable-via rx\n'
conf -c "interface dp0" -c "no ip verify unicast source reachable-via rx" || fail "no ... rx was refused"
check "no ... reachable-via rx leaves loose mode on" running_has ' ip verify unicast source reachable-via any'
conf -c "interface dp0" -c "no ip verify unicast source" -c "no ipv6 verify unicast source" ||
	fail "no ip verify unicast source was refused"
check "with RPF off again, a source with no route passes" fate pass 198.19.200.9 198.18.1.2 5
check "and the running-config has no verify line" eval '! grep -q verify <(tern_cli -c "show running-config")'

out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "ip verify unicast source reachable-via both" 2>&1)
check "an unknown mode is refused with a sentence naming what is allowed" \
	grep -q "Invalid input 'both' after 'reachable-via'; expected: rx, any" <<<"$out" || say "it gave: $out"
out=$(tern_cli -c "configure terminal" -c "ip verify unicast source reachable-via rx" 2>&1)
check "outside an interface it is refused" grep -q "%" <<<"$out" || say "it gave: $out"

# a removed sub-interface takes its mode with it
conf -c "interface dp0.300" -c "ip verify unicast source reachable-via rx" ||
	fail "cannot set RPF on dp0.300"
check "dp0.300's mode is in the running-config" running_has \
	$'interface dp0.300\n encapsulation dot1q 300\n ip verify unicast source reachable-via rx\n'
conf -c "no interface dp0.300" -c "interface dp0.300" || fail "cannot remake dp0.300"
check "made again, dp0.300 has no mode" running_has $'interface dp0.300\n encapsulation dot1q 300\n!\n'
conf -c "no interface dp0.300"
tern_test_end
