#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The exception path: the kernel answers ARP and pings for the router's own addresses through
# the TAPs, ICMP errors come from the router's address, an unresolved next hop is resolved by
# the kernel and then forwarded by the dataplane, admin down stops a port, and a ping flood at
# the router is held to its class's policer while transit forwarding goes on and BGP's packets
# to the router, another class, all reach its kernel.
. "$(dirname "$0")/lib.sh"
tern_test_begin exception-path
two_hosts "$(printf '[control-plane]\nicmp_rate = 200\nicmp_burst = 50')"

out=$(ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.18.0.1)
check "h1 pings the router's address on dp0" grep -q " 0% packet loss" <<<"$out"
out=$(ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.18.1.1)
check "h1 pings the router's address on dp1 (local delivery across ports)" grep -q " 0% packet loss" <<<"$out"
check "ARP: h1 knows the router's dp0 MAC" grep -q "198.18.0.1 dev $W0 lladdr $(port_mac dp0)" <<<"$(ip -n "$H1" neigh)"
check "ARP: the router's kernel knows h1" grep -q "198.18.0.2 dev dp0 lladdr 02:00:00:00:00:01" <<<"$(ip -n "$R" neigh)"
json=$(tern_cli --json -c "show exception")
check "punt_local and punt_arp were counted on dp0" \
	[ "$(json_field '(j["ports"][0]["punted"]["punt_local"] >= 3) and (j["ports"][0]["punted"]["punt_arp"] >= 1)' <<<"$json")" = True ]
check "the kernel's replies left through the port" [ "$(json_field 'j["ports"][0]["from_kernel"] > 0' <<<"$json")" = True ]

out=$(ip netns exec "$H1" ping -c 2 -i 0.2 -W 1 -t 1 198.18.1.2)
check "TTL 1: time exceeded from 198.18.0.1" grep -q "From 198.18.0.1 icmp_seq=1 Time to live exceeded" <<<"$out"
out=$(ip netns exec "$H1" ping -c 1 -W 1 198.19.200.1)
check "no route: net unreachable from 198.18.0.1" grep -q "From 198.18.0.1 icmp_seq=1 Destination Net Unreachable" <<<"$out"
# two probes a hop: a hop passes when either answers (one lost probe failed a CI run), and
# each hop must still answer from the router, then from h2
out=$(ip netns exec "$H1" traceroute -n -w 1 -q 2 198.18.1.2)
hops=$(awk 'NR > 1 { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/) { print $i; break } }' <<<"$out" | tr '\n' ' ')
check "traceroute shows the router then h2" [ "$hops" = "198.18.0.1 198.18.1.2 " ] || sed 's/^/    /' <<<"$out"

# unresolved next hop: a fresh neighbour is resolved by the kernel, then forwarded by the dataplane
ip -n "$H2" addr add 198.18.1.3/24 dev "$W1"
check "198.18.1.3 starts unresolved" [ "$(fib_kind 198.18.1.3)" = unresolved ]
p0=$(err_counter punt_unresolved)
out=$(ip netns exec "$H1" ping -c 1 -W 2 198.18.1.3)
check "the first ping to it succeeds through the kernel" grep -q " 0% packet loss" <<<"$out"
check "and was punted as unresolved ($p0 -> $(err_counter punt_unresolved))" [ "$(err_counter punt_unresolved)" -gt "$p0" ]
wait_for "then the kernel's neighbour entry reaches the FIB" fib_is 198.18.1.3 forward
p1=$(err_counter punt_unresolved)
ip netns exec "$H1" ping -c 5 -i 0.1 -W 1 198.18.1.3 >/dev/null
check "the rest of the flow stays in the dataplane (punt_unresolved stays $p1)" [ "$(err_counter punt_unresolved)" = "$p1" ]

# admin down on the kernel side stops forwarding on the port; up restores it
no_ping() { ! ip netns exec "$1" ping -c 1 -W 1 "$2" >/dev/null; }
ping_ok() { ip netns exec "$1" ping -c 1 -W 1 "$2" >/dev/null; }
ip -n "$R" link set dp1 down
wait_for "dp1 down stops forwarding" no_ping "$H1" 198.18.1.2
check "the routes through dp1 left the FIB with the kernel's" [ "$(fib_kind 198.18.1.2)" = no-route ]
ip -n "$R" link set dp1 up
wait_for "dp1 up restores forwarding (the kernel re-adds the connected route)" ping_ok "$H1" 198.18.1.2

# the port's link becomes the kernel interface's carrier: pull the cable, plug it back
link_set "$R" 1 down
wait_for "link down on the port: dp1 has no carrier in the kernel" carrier dp1 NO-CARRIER
check "show interfaces says down" [ "$(tern_cli --json -c 'show interfaces dp1' | json_field 'j["interfaces"][0]["link"]')" = down ]
link_set "$R" 1 up
wait_for "link up again: the carrier is back" carrier dp1 LOWER_UP
wait_for "and forwarding resumes" ping_ok "$H1" 198.18.1.2

# the kernel interface's MTU becomes the port's; too big with DF: fragmentation needed
ip -n "$R" link set dp1 mtu 1400
wait_for "ip link set dp1 mtu 1400 reaches the port" eval '[ "$(if_counter dp1 mtu)" = 1400 ]'
out=$(ip netns exec "$H1" ping -c 1 -W 1 -M do -s 1450 198.18.1.2)
check "DF and bigger than 1400: frag needed, mtu = 1400" grep -q "Frag needed and DF set (mtu = 1400)\|message too long, mtu=1400\|mtu = 1400" <<<"$out"
out=$(ip netns exec "$H1" ping -c 1 -W 2 -s 1450 198.18.1.2)
check "without DF the kernel fragments it and it arrives" grep -q " 0% packet loss" <<<"$out"
ip -n "$R" link set dp1 mtu 1500

# a ping flood at the router's own address is held to the icmp class's policer (200 pps, burst
# 50) on dp0, while TCP to port 179 (BGP's, the routing class) all reaches the router's kernel,
# which refuses each connection at once: one lost SYN would cost a second's retransmission
cls() { json_field "j['ports'][0]['classes']['$1']['$2']" <<<"$json"; }
json=$(tern_cli --json -c "show exception")
before=$(json_field 'j["ports"][0]["punted"]["punt_local"]' <<<"$json")
routing0=$(cls routing passed)
ip netns exec "$H2" ping -c 20 -i 0.05 -W 1 198.18.0.2 > "$T_DIR/transit.txt" &
transit=$!
ip netns exec "$H1" /usr/bin/python3 "$(dirname "$0")/flood.py" 198.18.0.1 60000 > "$T_DIR/flood.txt" &
flood=$!
sleep 0.1
ip netns exec "$H1" /usr/bin/python3 -c '
import socket, time
refused = 0
for _ in range(40):
    s = socket.socket()
    s.settimeout(0.5)
    try:
        s.connect(("198.18.0.1", 179))
    except ConnectionRefusedError:
        refused += 1
    except OSError:
        pass
    s.close()
    time.sleep(0.01)
print(refused)' > "$T_DIR/bgp.txt"
wait $transit $flood
read -r sent secs < "$T_DIR/flood.txt"
json=$(tern_cli --json -c "show exception")
local_n=$(( $(json_field 'j["ports"][0]["punted"]["punt_local"]' <<<"$json") - before ))
policed=$(cls icmp policed)
allowed=$(awk -v t="$secs" 'BEGIN { printf "%d", 200 * (t + 0.5) + 50 + 40 }')
say "flood: $sent echo requests in $secs s; $local_n reached the kernel (at most $allowed allowed), $policed policed"
say "meanwhile $(cat "$T_DIR/bgp.txt") of 40 connections to port 179 refused at once; routing class: $(( $(cls routing passed) - routing0 )) passed, $(cls routing policed) policed"
check "the icmp class's policer held the kernel to 200 pps + burst" [ "$local_n" -le "$allowed" ]
check "the policer counted what it dropped, under the icmp class" [ "$policed" -gt 0 ]
check "and the port's total" [ "$(json_field 'j["ports"][0]["policed"]' <<<"$json")" -ge "$policed" ]
check "no packet to port 179 was policed" [ "$(cls routing policed)" = 0 ]
check "every connection to port 179 was refused at once" [ "$(cat "$T_DIR/bgp.txt")" = 40 ]
check "transit forwarding went on during the flood" grep -q " 0% packet loss" "$T_DIR/transit.txt"
wait_for "the log says dp0 is flooded, once a second at most" \
	grep -q "dp0: [0-9]* packets for the kernel over the punt policer in the last second" "$T_DIR/ternd.log"
check "and not more than 5 times in 10 s" [ "$(grep -c "over the punt policer" "$T_DIR/ternd.log")" -le 6 ]
tern_test_end
