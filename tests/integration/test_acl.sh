#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Access lists through the shell with real traffic: an IPv4 list on dp0's ingress passes,
# denies and counts by protocol, port and prefix (the implicit deny too), logs an entry that
# says log, and keeps its counts across a change; a list on dp1's egress denies pings out;
# an IPv6 list filters and still lets the neighbours resolve each other; the running-config
# says it all; values out of range are refused with a sentence; a list too big for the
# classifier's memory is refused and the old one stays; a removed sub-interface takes its
# bindings with it.
. "$(dirname "$0")/lib.sh"
tern_test_begin acl
two_hosts_ipv6 $'[acl]\nmemory_mb = 1\n[metrics]\nlisten = 9101'

# UDP datagrams from h1 (h2 listens on none of these ports: each one that arrives is counted
# in h2's NoPorts)
udp() {	# DST PORT COUNT
	ip netns exec "$H1" bash -c "for i in \$(seq $3); do echo x > /dev/udp/$1/$2; done" 2>/dev/null
	sleep 0.3
}
noports() { ip netns exec "$H2" awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $3 }' /proc/net/snmp; }
noports6() { ip netns exec "$H2" awk '$1 == "Udp6NoPorts" { print $2 }' /proc/net/snmp6; }
matches() {	# FAMILY NAME SEQ-INDEX|implicit_deny
	local j
	if [ "$3" = implicit_deny ]; then j="j['access_lists'][0]['implicit_deny']"
	else j="j['access_lists'][0]['entries'][$3]['matches']"; fi
	tern_cli --json -c "show $1 access-list $2" | json_field "$j"
}
conf() { tern_cli -c "configure terminal" "$@" -c "end"; }
# whether the running-config holds TEXT, lines and all (grep -F would take each line alone)
running_has() {
	tern_cli -c "show running-config" > "$T_DIR/running"
	/usr/bin/python3 -c 'import sys; sys.exit(sys.argv[1] not in open(sys.argv[2]).read())' "$1" "$T_DIR/running"
}
pings() { ip netns exec "$1" ping -c 3 -i 0.2 -W 1 "$2" >/dev/null 2>&1; }	# NS DST

conf -c "ip access-list edge" -c "seq 10 permit icmp any any" \
	-c "seq 20 deny udp any host 198.18.1.2 eq 9 log" \
	-c "seq 30 permit udp 198.18.0.0/24 any range 1000 2000" -c "exit" \
	-c "interface dp0" -c "ip access-group edge in" || fail "the list was refused"
check "h1 pings h2 through the list (seq 10)" pings "$H1" 198.18.1.2
check "seq 10 counted the echo requests" [ "$(matches ip edge 0)" -ge 3 ]

n0=$(noports) d0=$(err_counter drop_acl)
udp 198.18.1.2 9 5
check "UDP to port 9 is denied: none reached h2" [ "$(noports)" = "$n0" ]
check "seq 20 counted 5" [ "$(matches ip edge 1)" = 5 ]
check "show errors counts them as drop_acl" [ $(($(err_counter drop_acl) - d0)) = 5 ]
wait_for "the log has a sample of seq 20" grep -q \
	"access list edge entry 20 denied protocol 17 198.18.0.2 port [0-9]* -> 198.18.1.2 port 9, dp0 in" \
	"$T_DIR/ternd.log"

n0=$(noports)
udp 198.18.1.2 1500 5
check "UDP to port 1500 is permitted (seq 30): 5 reached h2" [ $(($(noports) - n0)) = 5 ]
check "seq 30 counted 5" [ "$(matches ip edge 2)" = 5 ]
n0=$(noports)
udp 198.18.1.2 3000 4
check "UDP to port 3000 meets the implicit deny" [ "$(noports)" = "$n0" ]
check "the implicit deny counted 4" [ "$(matches ip edge implicit_deny)" = 4 ]
check "the metrics endpoint has each entry's matches" \
	[ "$(metric 'tern_acl_matches_total{family="ip",acl="edge",seq="20"}') $(metric 'tern_acl_matches_total{family="ip",acl="edge",seq="implicit_deny"}')" = "5 4" ]
check "a ping to the router is filtered too (seq 10 counts it)" \
	eval 'm=$(matches ip edge 0); pings "$H1" 198.18.0.1 && [ "$(matches ip edge 0)" -ge $((m + 3)) ]'

# a change compiles a new list; its entries keep their counts
m10=$(matches ip edge 0)
conf -c "ip access-list edge" -c "seq 20 permit udp any host 198.18.1.2 eq 9" || fail "the change was refused"
n0=$(noports)
udp 198.18.1.2 9 3
check "after the change, UDP to port 9 passes" [ $(($(noports) - n0)) = 3 ]
check "seq 10 kept its $m10 matches across the change" [ "$(matches ip edge 0)" -ge "$m10" ]
check "seq 20 counts on from 5" [ "$(matches ip edge 1)" = 8 ]
tern_cli -c "clear ip access-list counters edge" || fail "clear was refused"
check "clear ip access-list counters zeroes them" \
	[ "$(matches ip edge 0) $(matches ip edge 1) $(matches ip edge implicit_deny)" = "0 0 0" ]

# egress: no echo request out of dp1
conf -c "ip access-list noping" -c "seq 10 deny icmp any host 198.18.1.2 type 8 code 0" \
	-c "seq 20 permit ip any any" -c "exit" -c "interface dp1" -c "ip access-group noping out" ||
	fail "the egress list was refused"
check_not "with noping out of dp1, h1 cannot ping h2" pings "$H1" 198.18.1.2
check "noping's seq 10 counted the echo requests" [ "$(matches ip noping 0)" -ge 3 ]
n0=$(noports)
udp 198.18.1.2 1500 2
check "UDP still passes both lists" [ $(($(noports) - n0)) = 2 ]
conf -c "interface dp1" -c "no ip access-group noping out"
check "unbound, the pings pass again" pings "$H1" 198.18.1.2

# IPv6: echo and UDP 1500 only; neighbour discovery still works
conf -c "ipv6 access-list v6" -c "permit icmp any any type 128" \
	-c "permit udp 2001:2:0:1::/64 any eq 1500" -c "exit" \
	-c "interface dp0" -c "ipv6 traffic-filter v6 in" || fail "the IPv6 list was refused"
check "h1 pings h2 over IPv6 through the list" pings "$H1" 2001:2:0:2::2
n0=$(noports6)
udp 2001:2:0:2::2 1500 3
udp 2001:2:0:2::2 9 3
check "UDP over IPv6 to 1500 passes and to 9 does not" [ $(($(noports6) - n0)) = 3 ]
check "the entries without seq got 10 and 20" running_has \
	$'ipv6 access-list v6\n seq 10 permit icmp any any type 128\n seq 20 permit udp 2001:2:0:1::/64 any eq 1500\n!\n'
check "the running-config has the IPv4 lists" running_has \
	$'ip access-list edge\n seq 10 permit icmp any any\n seq 20 permit udp any host 198.18.1.2 eq 9\n seq 30 permit udp 198.18.0.0/24 any range 1000 2000\n!\nip access-list noping\n seq 10 deny icmp any host 198.18.1.2 type 8 code 0\n seq 20 permit ip any any\n!\n'
ip -n "$H1" neigh flush all
ip -n "$R" neigh flush dev dp0
check "with both neighbour caches flushed, h1 and the router resolve each other again" \
	pings "$H1" 2001:2:0:2::2
check "show ipv6 access-list counts the implicit deny" [ "$(matches ipv6 v6 implicit_deny)" -ge 3 ]

check "the running-config binds the lists" running_has \
	$'interface dp0\n ip address 198.18.0.1/24\n ipv6 address 2001:2:0:1::1/64\n ip access-group edge in\n ipv6 traffic-filter v6 in\n!\n'

refused() {	# MODE-LINE LINE SENTENCE: LINE refused in that mode with that sentence
	local out
	out=$(tern_cli -c "configure terminal" -c "$1" -c "$2" 2>&1)
	[ $? -ne 0 ] && grep -qF "$3" <<<"$out" || { say "'$2' gave: $out"; return 1; }
}
check "seq 0 is refused" refused "ip access-list edge" "seq 0 permit ip any any" \
	"Sequence number 0 is out of range: expected 1 to 2147483647"
check "port 70000 is refused" refused "ip access-list edge" "seq 40 permit tcp any any eq 70000" \
	"Port 70000 is out of range: expected 0 to 65535"
check "an empty range is refused" refused "ip access-list edge" "seq 40 permit tcp any range 20 10 any" \
	"Port range 20 10 is empty"
check "protocol 256 is refused" refused "ip access-list edge" "seq 40 deny 256 any any" \
	"Protocol 256 is out of range: expected 0 to 255"
check "a prefix with host bits is refused" refused "ip access-list edge" "seq 40 deny ip 198.18.0.1/24 any" \
	"Prefix 198.18.0.1/24 has host bits set"
check "a bad name is refused" refused "interface dp0" "ip access-list a/b" "access list name 'a/b' is not valid"
check "the list kept its entries" [ "$(tern_cli --json -c "show ip access-list edge" |
	json_field "len(j['access_lists'][0]['entries'])")" = 3 ]

# a list too big for [acl] memory_mb = 1: made unbound (nothing to compile yet), refused when
# bound, and the one bound stays
/usr/bin/python3 - "$T_DIR/big" <<'EOF'
import random, sys
r = random.Random(7)
with open(sys.argv[1], "w") as f:
    for i in range(1, 2401):
        s = "%d.%d.0.0/%d" % (r.randint(1, 223), r.randint(0, 255), 16)
        d = "%d.%d.%d.0/%d" % (r.randint(1, 223), r.randint(0, 255), r.randint(0, 255), 24)
        lo = r.randint(0, 1000)
        f.write("seq %d permit tcp %s range %d %d %s range %d %d\n" % (
            i + 100, s, lo, lo + r.randint(0, 5000), d, lo, lo + r.randint(0, 3000)))
EOF
{ echo "configure terminal"; echo "ip access-list huge"; cat "$T_DIR/big"; } > "$T_DIR/big.cmds"
tern_cli -f "$T_DIR/big.cmds" >/dev/null 2>&1 || fail "the unbound list's entries were refused"
out=$(tern_cli -c "configure terminal" -c "interface dp0" -c "ip access-group huge in" 2>&1)
check "a list past [acl] memory_mb is refused with a sentence" \
	grep -q "does not fit the classifier's 1 MiB (\[acl\] memory_mb).*dp0 keeps what it had" <<<"$out" ||
	say "it gave: $(grep '%' <<<"$out" | head -n 2)"
check "dp0 keeps the list it had" eval \
	'tern_cli -c "show running-config" | grep -q "^ ip access-group edge in"'
n0=$(noports)
udp 198.18.1.2 3000 2
check "and the list bound still denies what it denied" [ "$(noports)" = "$n0" ]
check "ternd still answers" tern_cli -c "show version"

# a removed sub-interface takes its bindings with it
conf -c "interface dp0.300" -c "ip access-group edge out" || fail "cannot bind on dp0.300"
check "dp0.300's binding is in the running-config" running_has \
	$'interface dp0.300\n encapsulation dot1q 300\n ip access-group edge out\n'
conf -c "no interface dp0.300" -c "interface dp0.300" || fail "cannot remake dp0.300"
check "made again, dp0.300 has no list" running_has $'interface dp0.300\n encapsulation dot1q 300\n!\n'
conf -c "no interface dp0.300"

conf -c "no ip access-list huge" -c "no ip access-list edge" || fail "no ip access-list was refused"
n0=$(noports)
udp 198.18.1.2 3000 2
check "with its list removed, the binding filters nothing" [ $(($(noports) - n0)) = 2 ]
tern_test_end
