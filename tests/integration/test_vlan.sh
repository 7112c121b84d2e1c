#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 802.1Q and 802.1ad sub-interfaces made from the shell. The host on dp0's wire answers on
# VLAN 100 and on QinQ 10.20 (vlan_host.py: the kernel here has no 8021q module); each
# sub-interface has a kernel interface of its own name carrying its frames untagged. The
# router's kernel reaches the VLAN hosts through them, the dataplane forwards between a
# VLAN and the untagged host on dp1 both ways, an unknown VLAN is a counted drop, a
# priority-tagged frame is an untagged one, bad sub-interfaces are refused with a sentence,
# and write memory keeps them across a restart. IPv6 crosses a sub-interface too: the router's
# kernel resolves the VLAN host by Neighbour Discovery on it and the dataplane forwards.
. "$(dirname "$0")/lib.sh"
tern_test_begin vlan
two_hosts_ipv6

out=$(tern_cli -c "configure terminal" -c "interface dp0.100" -c "ip address 198.18.100.1/24" \
	-c "ipv6 address 2001:2:0:100::1/64" -c "exit" \
	-c "interface dp0.1020" -c "encapsulation dot1ad 10 dot1q 20" -c "ip address 198.18.101.1/24" -c "end" 2>&1)
check "sub-interfaces dp0.100 and dp0.1020 are made: $out" [ -z "$out" ]
has_addr() { ip -n "$R" -o addr show dev "$1" to "$2" | grep -q .; }	# IFACE ADDR
check "each has a kernel interface of its name" ip -n "$R" link show dp0.1020 >/dev/null
check "with its address" has_addr dp0.100 198.18.100.1
# a sub-interface's kernel interface gets an IPv6 link-local address with its first IPv6
# address, from the shell or from the kernel's side, and none before
link_local() { ip -n "$R" -6 -o addr show dev "$1" scope link | grep -q "inet6 fe80::"; }	# IFACE
wait_for "dp0.100 has an IPv6 link-local address beside its IPv6 address" link_local dp0.100
check "dp0.1020, IPv4 only, has none" eval '! link_local dp0.1020'
ip -n "$R" addr add 2001:2:0:101::1/64 dev dp0.1020 nodad
wait_for "an IPv6 address added in the kernel gives dp0.1020 one" link_local dp0.1020
ip -n "$R" addr del 2001:2:0:101::1/64 dev dp0.1020
check "show version counts the ports and the sub-interfaces apart" json_true \
	'j["ports"] == 2 and j["subinterfaces"] == 2' <<<"$(tern_cli --json -c "show version")"
json=$(tern_cli --json -c "show interfaces dp0.1020")
check "show interfaces names its port and tags" json_true \
	'j["interfaces"][0]["parent"] == "dp0" and j["interfaces"][0]["encapsulation"] == "dot1ad 10 dot1q 20"' <<<"$json"

hmac=$(host_mac "$H1" "$W0")
ip netns exec "$H1" /usr/bin/python3 "$(dirname "$0")/vlan_host.py" serve "$W0" "$hmac" \
	100=198.18.100.2 10.20=198.18.101.2 100=2001:2:0:100::2 &
VLAN_HOST=$!
T_PIDS+=("$VLAN_HOST")
sleep 0.5

out=$(ip netns exec "$R" ping -c 3 -i 0.2 -W 1 198.18.100.2)
check "the router's kernel pings the host on VLAN 100" grep -q " 0% packet loss" <<<"$out"
out=$(ip netns exec "$R" ping -c 3 -i 0.2 -W 1 198.18.101.2)
check "and on QinQ 10.20" grep -q " 0% packet loss" <<<"$out"

wait_for "the VLAN hosts are resolved in the FIB" \
	[ "$(fib_kind 198.18.100.2)/$(fib_kind 198.18.101.2)" = forward/forward ]
ip netns exec "$H2" ping -c 2 -i 0.2 -W 1 198.18.100.2 >/dev/null	# resolves h2
wait_for "h2 is resolved in the FIB" fib_is 198.18.1.2 forward
rx=$(if_counter dp0.100 rx_packets); tx=$(if_counter dp0.100 tx_packets)
out=$(ip netns exec "$H2" ping -c 5 -i 0.2 -W 1 198.18.100.2)
check "h2 pings the VLAN 100 host through the dataplane" grep -q " 0% packet loss" <<<"$out"
check "dp0.100 counts them in and out ($rx -> $(if_counter dp0.100 rx_packets), $tx -> $(if_counter dp0.100 tx_packets))" \
	[ "$(if_counter dp0.100 rx_packets)" -ge $((rx + 5)) -a "$(if_counter dp0.100 tx_packets)" -ge $((tx + 5)) ]
out=$(ip netns exec "$H2" ping -c 5 -i 0.2 -W 1 198.18.101.2)
check "and the QinQ host" grep -q " 0% packet loss" <<<"$out"
check "the VLAN hosts' replies reach h2 without a tag" grep -q "bytes from 198.18.101.2" <<<"$out"

out=$(ip netns exec "$R" ping -6 -c 3 -i 0.2 -W 1 2001:2:0:100::2)
check "the router's kernel pings the VLAN 100 host over IPv6, resolved by ND on dp0.100" \
	grep -q " 0% packet loss" <<<"$out"
v6_resolved() { [ "$(tern_cli --json -c "show ipv6 fib $1" | json_field 'j["kind"]+" "+j["port"]')" = "forward $2" ]; }
wait_for "the VLAN host's IPv6 address is a forward entry out of dp0.100" v6_resolved 2001:2:0:100::2 dp0.100
ip netns exec "$H2" ping -6 -c 2 -i 0.2 -W 1 2001:2:0:100::2 >/dev/null	# resolves h2
wait_for "and h2's, out of dp1" v6_resolved 2001:2:0:2::2 dp1
rx=$(if_counter dp0.100 rx_packets) k=$(fwd6)
out=$(ip netns exec "$H2" ping -6 -c 5 -i 0.2 -W 1 2001:2:0:100::2)
check "h2 pings the VLAN 100 host over IPv6 through the dataplane (Ip6OutForwDatagrams $k -> $(fwd6))" \
	[ "$(grep -c " 0% packet loss" <<<"$out")" = 1 -a "$(fwd6)" = "$k" ]
check "dp0.100 counts the replies in ($rx -> $(if_counter dp0.100 rx_packets))" \
	[ "$(if_counter dp0.100 rx_packets)" -ge $((rx + 5)) ]

kmtu() { ip -n "$R" -j link show "$1" | json_field 'j[0]["mtu"]'; }
mtus() { echo "$(if_counter dp0.100 mtu)/$(kmtu dp0.100)/$(if_counter dp0.1020 mtu)/$(kmtu dp0.1020)"; }
subif_mtu_lines() { tern_cli -c "show running-config" | awk '/^interface / { i = $2 ~ /\./ ? $2 : "" } /^ mtu/ && i { print i $0 }'; }
tern_cli -c "configure terminal" -c "interface dp0.100" -c "mtu 1400" -c "end" >/dev/null
tern_cli -c "configure terminal" -c "interface dp0" -c "mtu 1300" -c "end" >/dev/null
check "dp0 set to MTU 1300 takes its sub-interfaces down with it, kernel interfaces too: $(mtus)" \
	[ "$(mtus)" = 1300/1300/1300/1300 ]
check "show interfaces gives dp0.100's configured MTU beside the one it runs" \
	grep -q "MTU 1300, (configured 1400, above its port's)" <<<"$(tern_cli -c "show interfaces dp0.100")"
check "the running-config keeps what was configured: $(subif_mtu_lines | tr '\n' ';')" \
	[ "$(subif_mtu_lines)" = "dp0.100 mtu 1400" ]
tern_cli -c "configure terminal" -c "interface dp0" -c "no mtu" -c "end" >/dev/null
check "dp0 back to 1500: dp0.100 goes back to its 1400, dp0.1020 to 1500: $(mtus)" \
	[ "$(mtus)" = 1400/1400/1500/1500 ]
check "and the running-config still holds only dp0.100's mtu 1400" [ "$(subif_mtu_lines)" = "dp0.100 mtu 1400" ]
o=$(tern_cli -c "configure terminal" -c "interface dp0.1020" -c "mtu 1600" -c "end" 2>&1)
check "a sub-interface configured above its port's runs at its port's: $o $(mtus)" \
	[ -z "$o" ] && [ "$(mtus)" = 1400/1400/1500/1500 ]
tern_cli -c "configure terminal" -c "interface dp0.100" -c "no mtu" -c "exit" \
	-c "interface dp0.1020" -c "no mtu" -c "end" >/dev/null
check "no mtu: both follow their port again, no mtu line: $(mtus)" \
	[ "$(mtus)/$(subif_mtu_lines)" = 1500/1500/1500/1500/ ]

dmac=$(port_mac dp0)
drops=$(err_counter drop_unknown_vlan)
check_not "a frame on VLAN 300 gets no answer" ip netns exec "$H1" /usr/bin/python3 \
	"$(dirname "$0")/vlan_host.py" probe "$W0" "$hmac" "$dmac" 300 198.18.0.2 198.18.0.1
check "it is counted as drop_unknown_vlan ($drops -> $(err_counter drop_unknown_vlan))" \
	[ "$(err_counter drop_unknown_vlan)" -gt "$drops" ]
check "a packet from VLAN 100 whose TTL runs out gets time exceeded from dp0.100's address, tagged 100" \
	ip netns exec "$H1" /usr/bin/python3 "$(dirname "$0")/vlan_host.py" probe "$W0" "$hmac" "$dmac" \
	100 198.18.100.2 198.18.1.2 1 198.18.100.1
check "a priority-tagged (VLAN 0) ping to dp0 is answered as an untagged one" ip netns exec "$H1" \
	/usr/bin/python3 "$(dirname "$0")/vlan_host.py" probe "$W0" "$hmac" "$dmac" 0 198.18.0.2 198.18.0.1

refused() {	# LINE EXPECTED
	local o
	o=$(tern_cli -c "configure terminal" -c "$1" 2>&1)
	check "'$1' is refused: $o" grep -qF "$2" <<<"$o"
}
refused "interface dp0.0" "VLAN id 0 is out of range: expected 1 to 4094"
refused "interface dp0.4095" "VLAN id 4095 is out of range: expected 1 to 4094"
refused "interface dp0.abc" "VLAN id 'abc' is not a number: expected 1 to 4094"
refused "interface dp7.100" "Cannot make dp7.100: dp7 is not a port (ports: dp0, dp1)"
o=$(tern_cli -c "configure terminal" -c "interface dp1.200" -c "encapsulation dot1q 0" 2>&1)
check "encapsulation dot1q 0 is refused: $o" grep -qF "VLAN id 0 is out of range: expected 1 to 4094" <<<"$o"
o=$(tern_cli -c "configure terminal" -c "interface dp0.200" -c "encapsulation dot1q 100" 2>&1)
check "a VLAN id taken on the port is refused: $o" grep -qF "dp0 already has dot1q 100 (sub-interface dp0.100)" <<<"$o"
o=$(tern_cli -c "configure terminal" -c "no interface dp1" 2>&1)
check "a port cannot be removed: $o" grep -qF "dp1 is a port of ternd.conf: only sub-interfaces can be removed" <<<"$o"
o=$(tern_cli -c "configure terminal" -c "no interface dp0.200" -c "no interface dp1.200" 2>&1)
check "sub-interfaces are removed: $o" [ -z "$o" ]
wait_for "with their kernel interfaces (removed in one go at ternd's next tick)" \
	eval '! ip -n "$R" link show dp0.200 >/dev/null 2>&1'

out=$(tern_cli -c "write memory")
check "write memory: $out" grep -q "saved as version" <<<"$out"
kill "$VLAN_HOST"
stop_ternd
# the lamps (lib.sh) hold the wires' names that the TAP ports take again
ip -n "$R" link del "$W0"; ip -n "$R" link del "$W1"
start_ternd "$R"
run=$(tern_cli -c "show running-config")
check "after a restart dp0.1020 is back with its tags" \
	[ "$(sed -n '/^interface dp0.1020$/{n;p}' <<<"$run")" = " encapsulation dot1ad 10 dot1q 20" ]
check "and dp0.100's kernel interface has its address" has_addr dp0.100 198.18.100.1
wait_for "and its IPv6 link-local address" link_local dp0.100
check "dp0.1020, without an IPv6 address now, has none after the restart" eval '! link_local dp0.1020'
# ipv6 enable: a link-local address alone, for a protocol that speaks from it
out=$(tern_cli -c "configure terminal" -c "interface dp0.1020" -c "ipv6 enable" -c "end" 2>&1)
check "ipv6 enable on dp0.1020: ${out:-no complaint}" [ -z "$out" ]
wait_for "gives it an IPv6 link-local address" link_local dp0.1020
check "which the running-config keeps" grep -qx " ipv6 enable" <<<"$(tern_cli -c "show running-config" |
	sed -n '/^interface dp0.1020$/,/^!/p')"
out=$(tern_cli -c "configure terminal" -c "interface dp0.1020" -c "no ipv6 enable" -c "end" 2>&1)
wait_for "no ipv6 enable takes it away again: ${out:-no complaint}" eval '! link_local dp0.1020'
check "and out of the running-config" eval '! tern_cli -c "show running-config" | grep -q "ipv6 enable"'
tern_cli -c "configure terminal" -c "interface dp0.100" -c "no ipv6 enable" -c "end" >/dev/null
check "dp0.100 keeps its link-local address beside its IPv6 address" link_local dp0.100
out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "ipv6 enable" -c "end" 2>&1)
check "a port refuses it: $out" grep -q "from the start" <<<"$out"
check "the restart's log gives dp0.1020's configured tags" \
	grep -q "dp0.1020: encapsulation dot1ad 10 dot1q 20" "$T_DIR/ternd.log"
# a static route through a sub-interface outlives its shutdown
tern_cli -c "configure terminal" -c "ip route 198.19.100.0/24 198.18.100.2" -c "end"
kroute() { ip -n "$R" route show 198.19.100.0/24 | grep -q "via 198.18.100.2 dev dp0.100"; }
check "a static route through dp0.100 reaches the kernel" kroute
tern_cli -c "configure terminal" -c "interface dp0.100" -c "shutdown" -c "end"
wait_for "dp0.100 shut: the kernel dropped the route" eval '! kroute'
check "... the running-config keeps it" grep -qx "ip route 198.19.100.0/24 198.18.100.2" \
	<<<"$(tern_cli -c "show running-config")"
tern_cli -c "configure terminal" -c "interface dp0.100" -c "no shutdown" -c "end"
wait_for "dp0.100 back: so is the route" kroute
tern_cli -c "configure terminal" -c "no ip route 198.19.100.0/24 198.18.100.2" -c "end"
tern_test_end
