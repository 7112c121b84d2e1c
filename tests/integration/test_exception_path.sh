#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The exception path: the kernel answers ARP and pings for the router's own addresses through
# the TAPs, ICMP errors come from the router's address, an unresolved next hop is resolved by
# the kernel and then forwarded by the dataplane, admin down stops a port, and a flood at the
# router is held to the policer's rate while transit forwarding goes on.
. "$(dirname "$0")/lib.sh"
tern_test_begin exception-path
PORT_EXTRA_0='punt_rate = 200\npunt_burst = 50'
two_hosts

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

# a flood at the router's own address is held to the policer (200 pps, burst 50) on dp0
before=$(tern_cli --json -c "show exception" | json_field 'j["ports"][0]["punted"]["punt_local"]')
ip netns exec "$H2" ping -c 20 -i 0.05 -W 1 198.18.0.2 > "$T_DIR/transit.txt" &
transit=$!
read -r sent secs < <(ip netns exec "$H1" /usr/bin/python3 "$(dirname "$0")/flood.py" 198.18.0.1 20000)
wait $transit
json=$(tern_cli --json -c "show exception")
local_n=$(( $(json_field 'j["ports"][0]["punted"]["punt_local"]' <<<"$json") - before ))
policed=$(json_field 'j["ports"][0]["policed"]' <<<"$json")
allowed=$(awk -v t="$secs" 'BEGIN { printf "%d", 200 * (t + 0.5) + 50 }')
say "flood: $sent echo requests in $secs s; $local_n reached the kernel (at most $allowed allowed), $policed policed"
check "the policer held the kernel to 200 pps + burst" [ "$local_n" -le "$allowed" ]
check "the policer counted what it dropped" [ "$policed" -gt 0 ]
check "transit forwarding went on during the flood" grep -q " 0% packet loss" "$T_DIR/transit.txt"
wait_for "the log says dp0 is flooded, once a second at most" \
	grep -q "dp0: [0-9]* packets for the kernel over the punt policer in the last second" "$T_DIR/ternd.log"
check "and not more than 5 times in 10 s" [ "$(grep -c "over the punt policer" "$T_DIR/ternd.log")" -le 6 ]
tern_test_end
