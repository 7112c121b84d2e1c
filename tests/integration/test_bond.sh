#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Link aggregation without a switch: two ternds back to back over two memif links, each with
# [bond bond0] over its two ports. In 802.3ad both members reach distributing on both sides
# (LACP is DPDK's bonding driver's), the two kernels ping each other over bond0, and when one
# side shuts a member down traffic goes on over the other. The same for active-backup, whose
# backup member takes over, and balance-xor, which goes on over the member left. show
# interfaces bond0 names each member's LACP states; a VLAN sub-interface rides the bond; the
# bond takes MTU 9000 at run time and 8000-byte pings cross it; a static route through the
# bond outlives its shutdown.
. "$(dirname "$0")/lib.sh"
tern_test_begin bond

A=tern-$T_ID-a B=tern-$T_ID-b
netns_add "$A"
netns_add "$B"

# SIDE ROLE MODE: ternd.conf of one side, its two ports l0 and l1 in bond0: memif (ROLE server
# or client), or TAP (ROLE tap) whose wires the test joins with bridges
bond_conf() {
	local side=$1 role=$2 mode=$3 i
	{
		echo "[eal]"
		echo "args = --no-huge -m 512 --file-prefix ${T_ID}$side --log-level=*:notice"
		for i in 0 1; do
			echo "[port l$i]"
			if [ "$role" = tap ]; then
				echo "dev = net_tap$i,iface=${T_ID}$side$i,mac=02:00:00:00:$side$side:0$i"
			else
				echo "dev = net_memif$i,role=$role,id=0,socket=$T_DIR/l$i.sock,socket-abstract=no,mac=02:00:00:00:$side$side:0$i"
			fi
		done
		echo "[bond bond0]"
		echo "members = l0 l1"
		echo "mode = $mode"
		echo "lacp_rate = fast"
		echo "[worker 1]"
		echo "rx = bond0:0"
		echo "[mempool]"
		echo "mbufs = 8192"
		echo "[fib]"
		echo "routes = 4096"
		echo "[fib6]"
		echo "max_routes = 4096"
		echo "[exception]"
		echo "idle_sleep_max_ms = 8"
		echo "[api]"
		echo "socket = $T_DIR/$side.sock"
		echo "[store]"
		echo "db = $T_DIR/$side.db"
	} > "$T_DIR/$side.conf"
}

# SIDE: the members that carry traffic, "l0,l1"
active() { peer "$1" --json -c "show interfaces bond0" |
	json_field "','.join(m['name'] for m in j['interfaces'][0]['members'] if m['active'])"; }
distributing() { peer "$1" --json -c "show interfaces bond0" |
	json_true "all('distributing' in m['actor_state'] and 'distributing' in m['partner_state'] for m in j['interfaces'][0]['members'])"; }
some_active() { [ -n "$(active a)" ]; }
peer_errors() { peer "$1" --json -c "show errors" | json_field "j['$2']"; }	# SIDE REASON
lacp_up() { distributing a && distributing b; }
both_active() { [ "$(active a)/$(active b)" = "$1/$1" ]; }	# MEMBER: alone active on both sides
pings() { ip netns exec "$A" ping -c "$1" -i 0.2 -W 1 198.18.2.2 | grep -q " 0% packet loss"; }
bond_route() { ip -n "$A" route show 198.19.40.0/24 | grep -q "via 198.18.2.2 dev bond0"; }

# The TAP ports' cables: each side's wire i (its kernel interface, left in the side's own
# namespace, where the TAP driver reads its link state) is joined to a veth pair between
# the two namespaces by tc mirred both ways, a cable that neither learns nor filters MACs.
# A cable is pulled by taking both wires down.
tap_cables() {
	local i s ns
	for i in 0 1; do
		ip -n "$A" link add "v${T_ID}a$i" type veth peer name "v${T_ID}b$i" netns "$B"
		for s in a b; do
			ns=$A; [ $s = b ] && ns=$B
			ip -n "$ns" link set "v${T_ID}$s$i" up
			mirror "$ns" "${T_ID}$s$i" "v${T_ID}$s$i"
			mirror "$ns" "v${T_ID}$s$i" "${T_ID}$s$i"
		done
	done
}
mirror() {	# NAMESPACE FROM TO: every frame FROM receives leaves by TO
	ip netns exec "$1" tc qdisc add dev "$2" ingress
	ip netns exec "$1" tc filter add dev "$2" parent ffff: protocol all u32 match u32 0 0 \
		action mirred egress redirect dev "$3"
}
cable() {	# LINK up|down
	ip -n "$A" link set "${T_ID}a$1" "$2"
	ip -n "$B" link set "${T_ID}b$1" "$2"
}

run_mode() {	# MODE ROLE_A ROLE_B
	local mode=$1
	say "mode $mode"
	bond_conf a "$2" "$mode"
	bond_conf b "$3" "$mode"
	peer_start a "$A"
	peer_start b "$B"
	[ "$2" = tap ] && tap_cables
	peer a -c "configure terminal" -c "interface bond0" -c "ip address 198.18.2.1/24" -c "end" >/dev/null
	peer b -c "configure terminal" -c "interface bond0" -c "ip address 198.18.2.2/24" -c "end" >/dev/null
	check "$mode: bond0 has a kernel interface, its members none" \
		bash -c "ip -n $A link show bond0 >/dev/null && ! ip -n $A link show l0 2>/dev/null"
	if [ "$mode" = 802.3ad ]; then
		wait_for "802.3ad: both members distributing on both sides" lacp_up
		out=$(peer a -c "show interfaces bond0")
		check "show interfaces bond0 gives LACP states in 802.1AX's words: $(grep -m1 'l0:' <<<"$out")" \
			grep -q "l0: link up, active; actor active,.*collecting,distributing; partner active,.*collecting,distributing" <<<"$out"
		check "both members carry traffic" [ "$(active a)" = l0,l1 ]
	else
		wait_for "active-backup: one member active" some_active
	fi
	check "$mode: the two kernels ping each other over bond0" pings 5
	if [ "$mode" = 802.3ad ]; then
		peer a -c "configure terminal" -c "interface bond0" -c "ipv6 address 2001:2:0:3::1/64" -c "end" >/dev/null
		peer b -c "configure terminal" -c "interface bond0" -c "ipv6 address 2001:2:0:3::2/64" -c "end" >/dev/null
		wait_for "802.3ad: the kernels ping each other over bond0 in IPv6 (ND through both ternds)" \
			bash -c "ip netns exec $A ping -6 -c 1 -W 1 2001:2:0:3::2 >/dev/null"
		check "802.3ad: ... and go on doing so" \
			bash -c "ip netns exec $A ping -6 -c 5 -i 0.2 -W 1 2001:2:0:3::2 | grep -q ' 0% packet loss'"
		local non_ip local_ip
		non_ip=$(peer_errors b punt_non_ip) local_ip=$(peer_errors b punt_local)
		check "802.3ad: IPv6 came in on the bond through ip6_input: punt_local $local_ip, punt_non_ip $non_ip" \
			[ "$non_ip" = 0 -a "$local_ip" -ge 6 ]
	fi
	if [ "$mode" = 802.3ad ]; then
		peer a -c "configure terminal" -c "interface bond0.100" -c "ip address 198.18.3.1/24" -c "end" >/dev/null
		peer b -c "configure terminal" -c "interface bond0.100" -c "ip address 198.18.3.2/24" -c "end" >/dev/null
		check "802.3ad: and over sub-interface bond0.100 (VLAN 100 on the bond)" \
			bash -c "ip netns exec $A ping -c 3 -i 0.2 -W 1 198.18.3.2 | grep -q ' 0% packet loss'"
		# jumbo frames taken at run time: larger than the 2 KiB packet buffers, they cross the
		# bond's members as chains both ways
		local jumbo
		jumbo=$(peer a -c "configure terminal" -c "interface bond0" -c "mtu 9000" -c "end" 2>&1)
		jumbo+=$(peer b -c "configure terminal" -c "interface bond0" -c "mtu 9000" -c "end" 2>&1)
		check "802.3ad: bond0 takes MTU 9000 while ternd runs: ${jumbo:-no complaint}" [ -z "$jumbo" ]
		wait_for "802.3ad: the kernels' bond0 run at 9000" \
			bash -c "ip -n $A link show bond0 | grep -q 'mtu 9000' && ip -n $B link show bond0 | grep -q 'mtu 9000'"
		check "802.3ad: 8000-byte pings with DF cross bond0 whole, both ways" \
			bash -c "ip netns exec $A ping -c 3 -i 0.2 -W 1 -M do -s 8000 198.18.2.2 | grep -q ' 0% packet loss'"
	fi
	local was other
	was=$(active a)
	was=${was%%,*}
	other=l1; [ "$was" = l1 ] && other=l0
	if [ "$2" = tap ]; then
		cable "${was#l}" down
		wait_for "$mode: with $was's cable pulled, $other takes over on both sides" \
			both_active "$other"
	else
		peer a -c "configure terminal" -c "interface $was" -c "shutdown" -c "end" >/dev/null
		check "$mode: $was shut down on one side is out of the bond" \
			[ "$(peer a --json -c "show interfaces bond0" | json_field "[m['in_bond'] for m in j['interfaces'][0]['members'] if m['name'] == '$was'][0]")" = False ]
		wait_for "$mode: $other alone carries traffic on both sides" both_active "$other"
	fi
	check "$mode: pings go on over $other" pings 5
	o=$(peer a -c "configure terminal" -c "interface $was" -c "ip address 198.18.3.1/24" 2>&1)
	check "$mode: a member takes no address: $o" grep -q "is a member of bond bond0: configure the bond" <<<"$o"
	if [ "$2" = tap ]; then
		cable "${was#l}" up
	else
		peer a -c "configure terminal" -c "interface $was" -c "no shutdown" -c "end" >/dev/null
	fi
	# balance-xor sends on a member as soon as its side sees its cable back, which the other
	# side may not yet: the pings wait until both do (802.3ad's LACP keeps a member out until
	# both agree, and active-backup stays on the member it has)
	[ "$mode" = balance-xor ] &&
		wait_for "$mode: $was carries traffic again on both sides" both_active l0,l1
	check "$mode: and pings go on once $was is back" pings 3
	if [ "$mode" = balance-xor ]; then	# a static route through the bond outlives its shutdown
		peer a -c "configure terminal" -c "ip route 198.19.40.0/24 198.18.2.2" -c "end" >/dev/null
		check "$mode: a static route through bond0 reaches the kernel" bond_route
		peer a -c "configure terminal" -c "interface bond0" -c "shutdown" -c "end" >/dev/null
		wait_for "$mode: bond0 shut: the kernel dropped the route" eval '! bond_route'
		check "$mode: ... the running-config keeps it" grep -qx "ip route 198.19.40.0/24 198.18.2.2" \
			<<<"$(peer a -c "show running-config")"
		peer a -c "configure terminal" -c "interface bond0" -c "no shutdown" -c "end" >/dev/null
		wait_for "$mode: bond0 back: so is the route" bond_route
	fi
	peer_stop a
	peer_stop b
	rm -f "$T_DIR"/l*.sock
	[ "$2" = tap ] && ip -n "$A" link del "v${T_ID}a0" && ip -n "$A" link del "v${T_ID}a1"
	return 0
}

run_mode 802.3ad server client
# active-backup gives a member the bond's MAC, which memif cannot take: TAP ports
out=$(bond_conf a server active-backup; ip netns exec "$A" "$TERND" -f "$T_DIR/a.conf" 2>&1)
check "active-backup over memif is refused in a sentence: $(grep -m1 'bond bond0' <<<"$out")" \
	grep -q "bond bond0: active-backup gives its members the bond's MAC address, and a member's driver cannot change it" <<<"$out"
run_mode active-backup tap tap
run_mode balance-xor tap tap
tern_test_end
