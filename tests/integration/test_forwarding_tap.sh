#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Two hosts in their own namespaces ping each other through ternd. The kernel resolves the
# neighbours through the exception path; from then on the dataplane forwards (its counters
# grow, TTL drops by one) and the FIB answers as the kernel's routes say.
. "$(dirname "$0")/lib.sh"
tern_test_begin forwarding-tap
two_hosts

out=$(ip netns exec "$H1" ping -c 5 -i 0.2 -W 2 198.18.1.2)
check "h1 pings h2 through the router" grep -q " 0% packet loss" <<<"$out"
check "the replies crossed one router (ttl=63)" grep -q "ttl=63" <<<"$out"
hmac1=$(host_mac "$H1" "$W0"); hmac2=$(host_mac "$H2" "$W1")
wait_for "the kernel's neighbours reach the FIB as forward entries" \
	[ "$(fib_kind 198.18.1.2)" = forward ]
before=$(if_counter dp1 tx_packets); punted=$(err_counter punt_unresolved)
out=$(ip netns exec "$H1" ping -c 20 -i 0.05 -W 2 198.18.1.2)
after=$(if_counter dp1 tx_packets); punted2=$(err_counter punt_unresolved)
check "20 more pings succeed" grep -q " 0% packet loss" <<<"$out"
check "the dataplane sent them on dp1 ($before -> $after)" [ $((after - before)) -ge 20 ]
check "none of them went through the kernel (punt_unresolved $punted -> $punted2)" [ "$punted" = "$punted2" ]

tern_cli -c "configure terminal" -c "ip route 198.19.0.0/16 198.18.1.2" -c "ip route 198.19.99.0/24 blackhole" -c "end"
check "static routes accepted" [ $? -eq 0 ]
json=$(tern_cli --json -c "show ip fib 198.19.5.5")
check "show ip fib: 198.19.5.5 -> 198.19.0.0/16 forward via dp1 to h2 ($hmac2)" \
	[ "$(json_field 'j["prefix"]+" "+j["kind"]+" "+j["port"]+" "+j["mac"].lower()' <<<"$json")" = "198.19.0.0/16 forward dp1 $hmac2" ]
check "the kernel has the static route" grep -q "198.19.0.0/16 via 198.18.1.2 dev dp1 proto static" <<<"$(ip -n "$R" route)"
json=$(tern_cli --json -c "show ip fib 198.19.99.1")
check "show ip fib: the blackhole /24 wins over the /16" \
	[ "$(json_field 'j["prefix"]+" "+j["kind"]' <<<"$json")" = "198.19.99.0/24 blackhole" ]
drops=$(err_counter drop_blackhole)
ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.19.99.1 >/dev/null
check "packets to the blackhole are counted as drop_blackhole ($drops -> $(err_counter drop_blackhole))" \
	[ $(($(err_counter drop_blackhole) - drops)) -eq 3 ]

tern_cli -c "configure terminal" -c "arp 198.18.1.77 02:00:00:00:77:77 dp1" -c "end"
check "a static ARP entry reaches the FIB" [ "$(fib_kind 198.18.1.77)" = forward ]
check "and the kernel holds it as permanent" grep -q "198.18.1.77 dev dp1 lladdr 02:00:00:00:77:77 PERMANENT" <<<"$(ip -n "$R" neigh)"
tern_cli -c "configure terminal" -c "no arp 198.18.1.77" -c "no ip route 198.19.99.0/24" -c "end"
check "after 'no arp' the address is unresolved again" [ "$(fib_kind 198.18.1.77)" = unresolved ]
check "after 'no ip route' the /16 answers again" [ "$(tern_cli --json -c "show ip fib 198.19.99.1" | json_field 'j["prefix"]')" = 198.19.0.0/16 ]
out=$(tern_cli -c "configure terminal" -c "ip route 198.19.0.1/16 198.18.1.2" 2>&1)
check "a prefix with host bits is refused: $out" grep -q "has host bits set; did you mean 198.19.0.0/16" <<<"$out"
out=$(tern_cli -c "configure terminal" -c "ip route 198.19.0.0/16 198.19.250.1" 2>&1)
check "a gateway on no connected subnet is refused: $out" grep -q "on no connected subnet" <<<"$out"
out=$(tern_cli -c "ping 198.18.1.2")
check "ping from the router: $(grep -o '[0-9]* received' <<<"$out")" grep -q "5 received" <<<"$out"
out=$(tern_cli -c "configure terminal" -c "do traceroute 198.18.1.2")
check "traceroute from the router (do, in config mode)" grep -q "^ 1  198.18.1.2" <<<"$out"
out=$(tern_cli -c "ping 198.19.250.250" 2>&1); rc=$?
check "a failed ping says so and fails (exit $rc)" [ $rc -ne 0 ]
tern_cli -c "configure terminal" -c "ip route 198.19.60.0/24 198.18.1.2 20" -c "end"
check "a distance becomes the kernel's metric" grep -q "198.19.60.0/24 via 198.18.1.2 dev dp1 proto static metric 20" <<<"$(ip -n "$R" route)"
check "and shows in the running-config" grep -q "^ip route 198.19.60.0/24 198.18.1.2 20$" <<<"$(tern_cli -c "show running-config")"
json=$(tern_cli --json -c "show counters")
check "show counters: dp0 received and dp1 sent the transit pings" [ "$(json_field 'j["ports"][0]["rx_packets"] >= 25 and j["ports"][1]["tx_packets"] >= 20' <<<"$json")" = True ]
out=$(tern_cli -c "clear counters dp1")
check "clear counters dp1 says what it clears and what it does not: $out" \
	grep -q "Cleared the counters of dp1 (show interfaces, show counters, show exception); show errors" <<<"$out"
json=$(tern_cli --json -c "show counters")
check "dp1's counters start again from zero, dp0's go on" json_true \
	'j["ports"][1]["tx_packets"] < 5 and j["ports"][1]["punted"] < 5 and j["ports"][0]["rx_packets"] >= 25' <<<"$json"
check "and so do dp1's exception-path counters" json_true \
	'[p for p in j["ports"] if p["port"] == "dp1"][0]["from_kernel"] < 5' <<<"$(tern_cli --json -c "show exception")"
check "the FIB equals the kernel's tables" consistent
tern_test_end
