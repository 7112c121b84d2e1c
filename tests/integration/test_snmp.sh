#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ternd as an AgentX subagent of Debian's snmpd, in ternd's namespace, snmpd set up by tern's
# etc/snmp pieces (so it leaves ifTable, ifXTable, ipAddressTable and inetCidrRouteNumber to
# ternd). ternd starts before snmpd and connects when it comes. Each port, the bond, its
# members and a sub-interface have their rows, by the ifindex of their kernel interface (a
# member's 1000000000 plus its slot). ipAddressTable has the interfaces' addresses of both
# families with those ifIndexes, and inetCidrRouteNumber the RIB's routes. After h1 sends N
# echo requests to h2 (every neighbour static, so that nothing else is unicast) and B to the
# broadcast address, ifHCInUcastPkts of dp0 and ifHCOutUcastPkts of dp1 have grown by exactly
# N and ifHCInBroadcastPkts of dp0 by B; clear counters sets none back. dp1 shut reads
# down(2) and a linkDown notification for it reaches snmptrapd; no shutdown, linkUp. snmpd
# restarted: ternd connects again and serves its rows.
. "$(dirname "$0")/lib.sh"
tern_test_begin snmp

IF=1.3.6.1.2.1.2.2.1 IFX=1.3.6.1.2.1.31.1.1.1
AGENTX=$T_DIR/agentx.sock
T_RX_EXTRA=" bond0:0" two_hosts "[port m0]
dev = net_tap2,iface=${T_ID}m0
[port m1]
dev = net_tap3,iface=${T_ID}m1
[bond bond0]
members = m0 m1
mode = active-backup
[snmp]
agentx = $AGENTX"

check "with no snmpd yet, ternd says it will connect when there is one" \
	logged "no AgentX master at $AGENTX yet"
snmpd_start "$R"
echo "disableAuthorization yes" > "$T_DIR/snmptrapd.conf"
ip netns exec "$R" env SNMP_PERSISTENT_DIR="$T_DIR/snmp-state" snmptrapd -f -C -On \
	-c "$T_DIR/snmptrapd.conf" -Lf "$T_DIR/traps.log" -p "$T_DIR/snmptrapd.pid" \
	udp:127.0.0.1:16200 &
T_PIDS+=("$!")
WAIT_S=15 wait_for "ternd connects to snmpd as a subagent" \
	logged "connected to the AgentX master at $AGENTX"

get() { ip netns exec "$R" snmpget -v2c -c public -On -Oqv -t 2 -r 0 127.0.0.1:16100 "$1" 2>&1; }	# OID
ifindex() { ip -n "$R" -o link show "$1" | cut -d: -f1; }	# NAME
is() { [ "$(get "$1")" = "$2" ]; }	# OID VALUE
DP0=$(ifindex dp0) DP1=$(ifindex dp1) BOND=$(ifindex bond0)
check "dp0's row: ifName dp0, ifType ethernetCsmacd(6), ifOperStatus up(1)" \
	bash -c "[ \"\$(echo \$(for o in $IFX.1.$DP0 $IF.3.$DP0 $IF.8.$DP0; do ip netns exec $R snmpget -v2c -c public -On -Oqv 127.0.0.1:16100 \$o; done))\" = '\"dp0\" 6 1' ]"
mac=$(ip -n "$R" -o link show dp0 | sed -n 's/.*link\/ether \([0-9a-f:]*\) .*/\1/p')
got=$(get "$IF.6.$DP0" | tr -d '"' | tr ' ' ':' | tr 'A-F' 'a-f' | sed 's/:$//')
check "dp0's ifPhysAddress is its MAC ($got, $mac)" [ "$got" = "$mac" ]
check "bond0's row: ifType ieee8023adLag(161)" is "$IF.3.$BOND" 161
members=$(ip netns exec "$R" snmpwalk -v2c -c public -On 127.0.0.1:16100 "$IFX.1" |
	sed -n 's/^\.[0-9.]*\.\(1[0-9]\{9\}\) = STRING: "\(.*\)"$/\1=\2/p' | tr '\n' ' ')
check "its members have rows of their own, past 1000000000: $members" \
	bash -c "grep -q '=m0 ' <<<'$members' && grep -q '=m1 ' <<<'$members'"
tern_cli -c "configure terminal" -c "interface dp0.100" -c "end" >/dev/null
wait_for "dp0.100's kernel interface is made" bash -c "ip -n $R link show dp0.100 >/dev/null 2>&1"
SUB=$(ifindex dp0.100)
WAIT_S=3 wait_for "sub-interface dp0.100 has its row: ifType l2vlan(135)" is "$IF.3.$SUB" 135
check "and its ifName" is "$IFX.1.$SUB" '"dp0.100"'

# IP-MIB: the interfaces' addresses of both families, and the RIB's routes
IPA=1.3.6.1.2.1.4.34.1
ip -n "$R" addr add 2001:2:0:2::1/64 dev dp1 nodad
v6=2.16.32.1.0.2.0.0.0.2.0.0.0.0.0.0.0.1	# 2001:2:0:2::1
check "ipAddressIfIndex of 198.18.0.1 is dp0's ifIndex" is "$IPA.3.1.4.198.18.0.1" "$DP0"
WAIT_S=3 wait_for "ipAddressIfIndex of 2001:2:0:2::1 is dp1's ifIndex" is "$IPA.3.$v6" "$DP1"
check "and it is a unicast address, preferred" bash -c "[ \"\$(echo \$(for c in 4 7; do ip netns exec $R snmpget -v2c -c public -On -Oqv 127.0.0.1:16100 $IPA.\$c.$v6; done))\" = '1 1' ]"
routes() {	# the kernel's routes the RIB holds, both families, in use or set aside
	tern_cli --json -c "show ip route summary" | json_field "j['kernel_routes'] + j['alternates']"
	tern_cli --json -c "show ipv6 route summary" | json_field "j['kernel_routes'] + j['alternates']"
}
# the kernel is still adding 2001:2:0:2::1's routes: the two agree once it is done
routes_agree() { is 1.3.6.1.2.1.4.24.6.0 "$(($(routes | paste -sd+)))"; }
WAIT_S=3 wait_for "inetCidrRouteNumber is the RIB's routes" routes_agree
say "ok: inetCidrRouteNumber is the RIB's $(($(routes | paste -sd+))) routes"

# every neighbour static: the hosts' of the router, the router's of the hosts
for n in 0 1; do
	h=H$((n + 1)); w=W$n
	ip -n "${!h}" neigh replace "198.18.$n.1" lladdr "$(ip -n "$R" -o link show dp$n |
		sed -n 's/.*link\/ether \([0-9a-f:]*\) .*/\1/p')" dev "${!w}" nud permanent
	ip -n "$R" neigh replace "198.18.$n.2" lladdr "$(ip -n "${!h}" -o link show "${!w}" |
		sed -n 's/.*link\/ether \([0-9a-f:]*\) .*/\1/p')" dev "dp$n" nud permanent
done
sleep 0.5
in0=$(get "$IFX.7.$DP0") out1=$(get "$IFX.11.$DP1") b0=$(get "$IFX.9.$DP0")
N=500 B=20
ip netns exec "$H1" ping -q -i 0.002 -c $N -W 1 198.18.1.2 > "$T_DIR/ping.txt" 2>&1
check "h1's $N echo requests all answered" grep -q " 0% packet loss" "$T_DIR/ping.txt"
# and B to the subnet's broadcast address (ff:ff:ff:ff:ff:ff), which the router ignores
ip netns exec "$H1" ping -q -b -i 0.01 -c $B -W 1 198.18.0.255 >/dev/null 2>&1
# a reading can find a group frame on its way counted in its group and not yet in the
# packets: unicast then waits for the next reading to be right
grew_by() { [ $(($(get "$1") - $2)) -eq "$3" ]; }	# OID BEFORE BY
WAIT_S=3 wait_for "ifHCInUcastPkts of dp0 grew by $N (from $in0)" grew_by "$IFX.7.$DP0" "$in0" $N ||
	say "  it reads $(get "$IFX.7.$DP0")"
WAIT_S=3 wait_for "ifHCOutUcastPkts of dp1 grew by $N (from $out1)" grew_by "$IFX.11.$DP1" "$out1" $N ||
	say "  it reads $(get "$IFX.11.$DP1"); dp1 sent $(get "$IFX.12.$DP1") multicast, $(get "$IFX.13.$DP1") broadcast"
WAIT_S=3 wait_for "ifHCInBroadcastPkts of dp0 grew by $B (from $b0)" grew_by "$IFX.9.$DP0" "$b0" $B ||
	say "  it reads $(get "$IFX.9.$DP0")"
say "ok: ifHCInUcastPkts of dp0 and ifHCOutUcastPkts of dp1 grew by $N, ifHCInBroadcastPkts of dp0 by $B"
oct=$(get "$IFX.6.$DP0")
tern_cli -c "clear counters" >/dev/null
octb=$(get "$IFX.6.$DP0")
check "clear counters: ifHCInOctets of dp0 does not go back ($oct, then $octb)" [ "$octb" -ge "$oct" ]

tern_cli -c "configure terminal" -c "interface dp1" -c "shutdown" -c "end" >/dev/null
wait_for "dp1 shut: ifAdminStatus down(2)" is "$IF.7.$DP1" 2
check "and ifOperStatus down(2)" is "$IF.8.$DP1" 2
trap_for() { grep -A3 "1.3.6.1.6.3.1.1.5.$1" "$T_DIR/traps.log" | grep -q "$IF.1.$2 = INTEGER: $2"; }	# 3|4 IFINDEX
wait_for "a linkDown notification for dp1 (ifIndex $DP1) reached snmptrapd" trap_for 3 "$DP1"
tern_cli -c "configure terminal" -c "interface dp1" -c "no shutdown" -c "end" >/dev/null
wait_for "no shutdown: ifOperStatus up(1)" is "$IF.8.$DP1" 1
wait_for "and a linkUp notification for it" trap_for 4 "$DP1"

kill "$SNMPD"; wait "$SNMPD" 2>/dev/null
wait_for "snmpd stopped: ternd says it lost the master" logged "lost the AgentX master"
snmpd_start "$R"
WAIT_S=15 wait_for "snmpd back: ternd connects again and dp0's row is there" is "$IFX.1.$DP0" '"dp0"'
check "ternd's log has no net-snmp warning" bash -c "! grep -q 'net-snmp:' '$T_DIR/ternd.log'" ||
	grep 'net-snmp:' "$T_DIR/ternd.log" | head -5
tern_test_end
