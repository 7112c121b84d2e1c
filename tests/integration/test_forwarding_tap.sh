#!/bin/bash
# Two hosts in their own namespaces behind two TAP ports ping each other through ternd:
# the dataplane forwards (its counters grow, TTL drops by one), and the FIB answers as configured.
. "$(dirname "$0")/lib.sh"
tern_test_begin forwarding-tap

R=tern-$T_ID-r H1=tern-$T_ID-h1 H2=tern-$T_ID-h2
P0=dp0 P1=dp1 W0=${T_ID}h0 W1=${T_ID}h1
netns_add "$R"
write_tap_config 2
start_ternd "$R"
mac0=$(port_mac "$P0"); mac1=$(port_mac "$P1")
make_host "$R" 0 "$H1" 198.18.0.2/24 198.18.0.1
make_host "$R" 1 "$H2" 198.18.1.2/24 198.18.1.1
hmac1=$(host_mac "$H1" "$W0"); hmac2=$(host_mac "$H2" "$W1")
say "h1 198.18.0.2 ($hmac1) -- $P0 ($mac0) [ternd] $P1 ($mac1) -- h2 198.18.1.2 ($hmac2)"
# no exception path yet: the hosts know the router's MACs statically
ip -n "$H1" neigh replace 198.18.0.1 lladdr "$mac0" dev "$W0" nud permanent
ip -n "$H2" neigh replace 198.18.1.1 lladdr "$mac1" dev "$W1" nud permanent

tern_cli -c "configure terminal" \
	-c "interface $P0" -c "ip address 198.18.0.1/24" -c "exit" \
	-c "interface $P1" -c "ip address 198.18.1.1/24" -c "exit" \
	-c "arp 198.18.0.2 $hmac1 $P0" -c "arp 198.18.1.2 $hmac2 $P1" \
	-c "ip route 198.19.0.0/16 198.18.1.2" -c "ip route 198.19.99.0/24 blackhole" -c "end"
check "configuration accepted" [ $? -eq 0 ]

before=$(tern_cli --json -c "show interfaces $P1" | json_field 'j["interfaces"][0]["tx_packets"]')
out=$(ip netns exec "$H1" ping -c 5 -i 0.2 -W 2 198.18.1.2)
check "h1 pings h2 through the router" grep -q " 0% packet loss" <<<"$out"
check "the reply crossed one router (ttl=63)" grep -q "ttl=63" <<<"$out"
after=$(tern_cli --json -c "show interfaces $P1" | json_field 'j["interfaces"][0]["tx_packets"]')
check "the dataplane sent the 5 echo requests on $P1 ($before -> $after)" [ $((after - before)) -ge 5 ]

json=$(tern_cli --json -c "show ip fib 198.19.5.5")
check "show ip fib: 198.19.5.5 -> 198.19.0.0/16 forward via $P1 to $hmac2" \
	[ "$(json_field 'j["prefix"]+" "+j["kind"]+" "+j["port"]+" "+j["mac"].lower()' <<<"$json")" = "198.19.0.0/16 forward $P1 $hmac2" ]
json=$(tern_cli --json -c "show ip fib 198.19.99.1")
check "show ip fib: the blackhole /24 wins over the /16" \
	[ "$(json_field 'j["prefix"]+" "+j["kind"]' <<<"$json")" = "198.19.99.0/24 blackhole" ]

drops=$(tern_cli --json -c "show errors" | json_field 'j["drop_blackhole"]')
ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.19.99.1 >/dev/null
now=$(tern_cli --json -c "show errors" | json_field 'j["drop_blackhole"]')
check "packets to the blackhole are counted as drop_blackhole ($drops -> $now)" [ $((now - drops)) -eq 3 ]

tern_cli -c "configure terminal" -c "no ip route 198.19.99.0/24" -c "no arp 198.18.1.2"
json=$(tern_cli --json -c "show ip fib 198.18.1.2")
check "after 'no arp' the neighbour is unresolved again" \
	[ "$(json_field 'j["kind"]' <<<"$json")" = "unresolved" ]
out=$(tern_cli -c "configure terminal" -c "ip route 198.20.0.1/16 198.18.1.2" 2>&1)
check "a prefix with host bits is refused: $out" grep -q "has host bits set; did you mean 198.20.0.0/16" <<<"$out"
out=$(tern_cli -c "configure terminal" -c "ip route 198.20.0.0/16 203.0.113.1" 2>&1)
check "an unreachable gateway is refused: $out" grep -q "on no connected subnet" <<<"$out"
tern_test_end
