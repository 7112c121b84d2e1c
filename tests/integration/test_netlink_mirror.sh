#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The kernel is the RIB: routes changed with ip (ECMP, replace, unreachable, prohibit, metrics,
# append and prepend, a table named in the configuration) change how ternd forwards real
# packets; a netlink overflow ends in a resync after which the FIB equals the kernel's tables;
# the kernel's IPv6 neighbours and addresses are mirrored beside its IPv4 ones.
. "$(dirname "$0")/lib.sh"
tern_test_begin netlink-mirror
two_hosts "$(printf '[netlink]\nrcvbuf = 4096\ntables = 100')"
ip netns exec "$H1" ping -c 1 -W 1 198.18.1.2 >/dev/null	# both neighbours resolved
ipr() { ip -n "$R" route "$@"; }
fib() { tern_cli --json -c "show ip fib $1" | json_field "$2"; }
udp_to() {	# send 200 datagrams from h1 to ADDR
	ip netns exec "$H1" /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(200):
    s.sendto(b"table", (sys.argv[1], 20000 + i))' "$1"
}

ipr add 198.19.1.0/24 nexthop via 198.18.0.2 nexthop via 198.18.1.2
check "a multipath route becomes an ECMP group" [ "$(fib 198.19.1.1 'j["kind"]')" = ecmp ]
out=$(tern_cli -c "show ip route 198.19.1.0/24")
check "show ip route lists both paths, a line each" \
	eval 'grep -q "198.19.1.0/24 .*via 198.18.0.2, dp0, weight 1" <<<"$out" && grep -q "^  \*  *via 198.18.1.2, dp1, weight 1" <<<"$out"'
t0=$(if_counter dp0 tx_packets); t1=$(if_counter dp1 tx_packets)
ip netns exec "$H1" /usr/bin/python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(400):
    s.sendto(b"ecmp", ("198.19.1.%d" % (1 + i % 200), 10000 + i))'
d0=$(( $(if_counter dp0 tx_packets) - t0 )); d1=$(( $(if_counter dp1 tx_packets) - t1 ))
say "400 flows over the group: $d0 out of dp0, $d1 out of dp1"
check "both paths carry flows" [ "$d0" -gt 100 -a "$d1" -gt 100 ]
ipr replace 198.19.1.0/24 via 198.18.1.2
check "replace: the /24 now goes to h2 only" [ "$(fib 198.19.1.1 'j["route"]')" = "via 198.18.1.2 dev dp1" ]

ipr add unreachable 198.19.2.0/24
out=$(ip netns exec "$H1" ping -c 1 -W 1 198.19.2.1)
check "unreachable route: host unreachable from the router" grep -q "From 198.18.0.1 icmp_seq=1 Destination Host Unreachable" <<<"$out"
ipr add prohibit 198.19.3.0/24
out=$(ip netns exec "$H1" ping -c 1 -W 1 198.19.3.1)
check "prohibit route: administratively prohibited" grep -qi "prohibited\|filtered" <<<"$out"
ipr add blackhole 198.19.4.0/24
check "blackhole route" [ "$(fib 198.19.4.1 'j["kind"]')" = blackhole ]

ipr add 198.19.5.0/24 via 198.18.0.2 metric 100
ipr add 198.19.5.0/24 via 198.18.1.2 metric 50
check "of two metrics the lower one is used" [ "$(fib 198.19.5.1 'j["port"]')" = dp1 ]
ipr del 198.19.5.0/24 via 198.18.1.2 metric 50
check "deleting it brings the other back" [ "$(fib 198.19.5.1 'j["port"]')" = dp0 ]
ipr del 198.19.1.0/24
check "a deleted route leaves the FIB" [ "$(fib 198.19.1.1 'j["kind"]')" = no-route ]
check "the FIB equals the kernel's tables" consistent

# several routes of one table and metric: the kernel uses its first one, and so does ternd
ipr add 198.19.6.0/24 via 198.18.0.2
ipr append 198.19.6.0/24 via 198.18.1.2
check "append: the first route stays in use" [ "$(fib 198.19.6.1 'j["port"]')" = dp0 ]
ipr del 198.19.6.0/24 via 198.18.0.2
check "deleting the first by its nexthop brings the appended one in" [ "$(fib 198.19.6.1 'j["port"]')" = dp1 ]
ipr prepend 198.19.6.0/24 via 198.18.0.2
check "prepend: the new route goes first" [ "$(fib 198.19.6.1 'j["port"]')" = dp0 ]
ipr replace blackhole 198.19.6.0/24
check "replace takes the first one's place" [ "$(fib 198.19.6.1 'j["kind"]')" = blackhole ]
check "the FIB equals the kernel's tables with routes set aside" consistent
ipr del 198.19.6.0/24
check "deleting without a nexthop removes the first; the one behind it comes in" [ "$(fib 198.19.6.1 'j["port"]')" = dp1 ]
ipr del 198.19.6.0/24

# [netlink] tables = 100: its routes are mirrored, behind main's; other tables are not
ipr add 198.19.7.0/24 via 198.18.1.2 table 100
check "a route of table 100 reaches the FIB" [ "$(fib 198.19.7.1 'j["port"]')" = dp1 ]
t1=$(if_counter dp1 tx_packets)
udp_to 198.19.7.1
check "and forwards real packets to h2" [ $(( $(if_counter dp1 tx_packets) - t1 )) -ge 200 ]
check "show ip route names the table" grep -q "198.19.7.0/24 .*via 198.18.1.2, dp1 (table 100)" <<<"$(tern_cli -c "show ip route 198.19.7.0/24")"
ipr add 198.19.7.0/24 via 198.18.0.2 metric 900
check "main's route for the same prefix is preferred, whatever its metric" [ "$(fib 198.19.7.1 'j["port"]')" = dp0 ]
check "the FIB equals the kernel's tables (main and 100)" consistent
ipr del 198.19.7.0/24 via 198.18.0.2 metric 900
check "without it, table 100's route is used again" [ "$(fib 198.19.7.1 'j["port"]')" = dp1 ]
skipped0=$(tern_cli --json -c "show netlink" | json_field 'j["routes_skipped"]')
ipr add 198.19.8.0/24 via 198.18.1.2 table 200
check "a route of table 200 (not configured) is not mirrored" [ "$(fib 198.19.8.1 'j["kind"]')" = no-route ]
check "and is counted as skipped" [ "$(tern_cli --json -c "show netlink" | json_field 'j["routes_skipped"]')" -gt "$skipped0" ]
ipr del 198.19.7.0/24 table 100
check "a deleted table 100 route leaves the FIB" [ "$(fib 198.19.7.1 'j["kind"]')" = no-route ]

# a route message forged by another process, sent to ternd's subscribed socket: the kernel
# refuses it (the socket is connected to the kernel), and the FIB never has the route
forged=$(ip netns exec "$R" /usr/bin/python3 - "$T_TERND_PID" <<'PY'
import os, re, socket, struct, sys
pid = int(sys.argv[1])
inodes = set()
for fd in os.listdir("/proc/%d/fd" % pid):
    m = re.match(r"socket:\[(\d+)\]", os.readlink("/proc/%d/fd/%s" % (pid, fd)))
    if m:
        inodes.add(int(m.group(1)))
ports = [int(f[2]) for f in (l.split() for l in open("/proc/net/netlink").read().splitlines()[1:])
         if f[1] == "0" and int(f[-1]) in inodes and int(f[3], 16) != 0]
def attr(kind, data):
    return struct.pack("HH", 4 + len(data), kind) + data
# RTM_NEWROUTE 198.19.99.0/24 via 198.18.1.2 dev dp1, table main, static, unicast
body = struct.pack("BBBBBBBBI", socket.AF_INET, 24, 0, 0, 254, 4, 0, 1, 0) + \
    attr(1, socket.inet_aton("198.19.99.0")) + attr(5, socket.inet_aton("198.18.1.2")) + \
    attr(4, struct.pack("I", socket.if_nametoindex("dp1")))
msg = struct.pack("IHHII", 16 + len(body), 24, 0x600, 1, 0) + body
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
refused = 0
for p in ports:
    try:
        s.sendto(msg, (p, 0))
    except ConnectionRefusedError:
        refused += 1
print(len(ports), refused)
PY
)
say "ternd's subscribed sockets, forged messages refused by the kernel: $forged"
check "a route message from another process is refused by the kernel" [ "${forged% *}" -ge 1 -a "${forged% *}" = "${forged#* }" ]
sleep 0.2	# what was sent has been read by now
check "and the FIB never has its route" [ "$(fib 198.19.99.1 'j["kind"]')" = no-route ]

# overflow: stop ternd, let the kernel fill its 4 KiB socket, and let it find out
kill -STOP "$T_TERND_PID"
seq 0 1999 | awk '{ printf "route add 198.19.%d.%d/30 via 198.18.1.2\n", 100 + int($1 / 64), ($1 % 64) * 4 }' > "$T_DIR/batch"
ip -n "$R" -batch "$T_DIR/batch"
ipr del 198.19.4.0/24
kill -CONT "$T_TERND_PID"
wait_for "ternd notices the overflow and resynchronises" \
	sh -c "[ \"\$($TERN -s $T_SOCK --json -c 'show netlink' | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)[\"resyncs\"])')\" -ge 1 ]"
json=$(tern_cli --json -c "show netlink")
say "netlink: $(json_field '"%d messages, %d overflows, %d resyncs, %d swept" % (j["messages"], j["overflows"], j["resyncs"], j["swept"])' <<<"$json")"
check "the FIB equals the kernel's tables after the resync" consistent
check "the 2000 routes are there" [ "$(fib 198.19.131.61 'j["prefix"]')" = 198.19.131.60/30 ]
check "the route deleted during the overflow is gone" [ "$(fib 198.19.4.1 'j["kind"]')" = no-route ]

# dp1 taken down: the kernel drops its subnet's connected and broadcast routes without a
# message (it keeps the address's local route); ternd must drop the same, and get them back
ip -n "$R" link set dp1 down
wait_for "ternd sees dp1 down" sh -c "! ip -n $R route show table local | grep -q 'broadcast 198.18.1.255'"
sleep 0.2
check "dp1 down: the FIB equals the kernel's tables (no broadcast route left behind)" consistent
check "dp1 down: its subnet's broadcast is no longer the router's" [ "$(fib 198.18.1.255 'j["kind"]')" != local ]
check "dp1 down: its address is still the router's" [ "$(fib 198.18.1.1 'j["kind"]')" = local ]
ip -n "$R" link set dp1 up
wait_for "dp1's broadcast route is back" sh -c "[ \"\$($TERN -s $T_SOCK --json -c 'show ip fib 198.18.1.255' | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)[\"kind\"])')\" = local ]"
check "dp1 up: the FIB equals the kernel's tables" consistent

# NDP's neighbours beside ARP's, in one table: one the kernel holds is shown by show ipv6
# neighbors (and not by show ip neighbors), and goes when the kernel's goes
ip -n "$R" -6 neigh add 2001:db8::5 lladdr 02:00:00:00:c0:05 dev dp0 nud permanent
nd_has() { tern_cli --json -c "show ipv6 neighbors" | json_true 'any(n["address"] == "2001:db8::5" and n["mac"].lower() == "02:00:00:00:c0:05" and n["interface"] == "dp0" and n["type"] == "static" for n in j["neighbors"])'; }
wait_for "an NDP neighbour of the kernel's is mirrored" nd_has
check_not "show ip neighbors lists only ARP's" sh -c "$TERN -s $T_SOCK -c 'show ip neighbors' | grep -q 2001:db8::5"
ip -n "$R" -6 neigh del 2001:db8::5 dev dp0
wait_for "its removal is mirrored" sh -c "! $TERN -s $T_SOCK -c 'show ipv6 neighbors' | grep -q 2001:db8::5"

# the kernel's IPv6 addresses: a global one (no DAD) shown by show ipv6 interface brief beside the
# TAP's link-local one, written by the running configuration as an IPv4 one is (the link-local
# one not: the kernel makes it), and not by the IPv4 views
ip -n "$R" -6 addr add 2001:db8:1::1/64 dev dp0 nodad
a6_has() { tern_cli --json -c "show ipv6 interface brief" | json_true 'any(i["name"] == "dp0" and "2001:db8:1::1/64" in i["addresses"] for i in j["interfaces"])'; }
wait_for "an IPv6 address of the kernel's is mirrored" a6_has
check "dp0's link-local address is listed too" sh -c "$TERN -s $T_SOCK -c 'show ipv6 interface brief' | grep '^dp0 ' | grep -q 'fe80::'"
check "the running configuration has it as ipv6 address" sh -c "$TERN -s $T_SOCK -c 'show running-config' | grep -qx ' ipv6 address 2001:db8:1::1/64'"
check_not "and no link-local address" sh -c "$TERN -s $T_SOCK -c 'show running-config' | grep -q fe80"
check_not "show ip interface brief shows IPv4's alone" sh -c "$TERN -s $T_SOCK -c 'show ip interface brief' | grep -q 2001:db8"
ip -n "$R" -6 addr del 2001:db8:1::1/64 dev dp0
wait_for "its removal is mirrored" sh -c "! $TERN -s $T_SOCK -c 'show ipv6 interface brief' | grep -q 2001:db8:1::1"
tern_test_end
