#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Packet trace: `trace dp0 count N` follows the next packets from dp0 through the graph;
# show trace gives each one's path, FIB answer and fate (forwarded, dropped with its reason,
# an ICMP error sent), and a finished trace disarms itself.
. "$(dirname "$0")/lib.sh"
tern_test_begin trace
two_hosts "[fib]"
ip netns exec "$H1" ping -c 2 -i 0.2 -W 2 198.18.1.2 >/dev/null	# neighbours resolved
wait_for "h2 is a forward entry in the FIB" fib_is 198.18.1.2 forward

trace_json() { tern_cli --json -c "show trace"; }
traced() {	# FATE-PREFIX -> how many traced packets have a fate starting so
	trace_json | json_field "sum(1 for p in j['packets'] if p['fate'].startswith('$1'))"
}
armed() { [ "$(trace_json | json_field 'j["armed"]')" = True ]; }
disarmed() { ! armed; }

check "show trace before any trace says how to start one" \
	grep -q "No trace yet" <<<"$(tern_cli -c "show trace")"
# h1 sends nothing but the pings: no IPv6 (neighbour and router discovery), and the
# router's MAC fixed (no ARP refresh)
ip netns exec "$H1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
	"net.ipv6.conf.$W0.disable_ipv6=1"
ip -n "$H1" neigh replace 198.18.0.1 lladdr "$(port_mac dp0)" dev "$W0" nud permanent
check "trace dp0 count 3 is accepted" tern_cli -c "trace dp0 count 3"
ip netns exec "$H1" ping -c 3 -i 0.2 -W 2 198.18.1.2 >/dev/null
packets_traced() { [ "$(trace_json | json_field 'len(j["packets"])')" = "$1" ]; }
wait_for "three packets are traced" packets_traced 3
check "all three are the echo requests, forwarded to dp1" [ "$(traced "forwarded to dp1")" = 3 ]
json=$(trace_json)
check "each forwarded packet went rx -> eth_input -> ip4_input -> ip4_lookup -> ip4_forward -> ip_rewrite -> port_tx" \
	json_true 'all(p["path"][1:] == ["eth_input","ip4_input","ip4_lookup","ip4_forward","ip_rewrite","port_tx-1"] and p["path"][0].startswith("port_rx") for p in j["packets"] if p["fate"].startswith("forwarded"))' <<<"$json"
check "their FIB answer is forward via dp1 to h2's MAC, by its adjacency route 198.18.1.2/32" \
	[ "$(json_field '",".join(sorted({p["fib"]["kind"]+" "+p["fib"]["port"]+" "+p["fib"]["mac"].lower()+" "+p["fib"]["route_now"] for p in j["packets"] if p["fate"].startswith("forwarded")}))' <<<"$json")" = \
	  "forward dp1 $(host_mac "$H2" "$W1") 198.18.1.2/32" ]
check "source, destination and TTL are the packet's as received" \
	json_true 'all(p["src"] == "198.18.0.2" and p["dst"] == "198.18.1.2" and p["ttl"] == 64 for p in j["packets"] if p["fate"].startswith("forwarded"))' <<<"$json"
wait_for "a complete trace disarms itself" disarmed
check "the text view shows the path and the fate" \
	grep -q "fate: forwarded to dp1" <<<"$(tern_cli -c "show trace")"

tern_cli -c "configure terminal" -c "ip route 198.19.99.0/24 blackhole" -c "end"
wait_for "the blackhole route reaches the FIB" fib_is 198.19.99.1 blackhole
# a host also sends other things (IPv6 neighbour discovery, ARP): trace more than is needed
tern_cli -c "trace dp0 count 20" >/dev/null
ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.19.99.1 >/dev/null
wait_for "packets to the blackhole are traced as dropped: drop_blackhole" eval '[ "$(traced "dropped: drop_blackhole")" -ge 2 ]'

tern_cli -c "trace dp0 count 20" >/dev/null
ip netns exec "$H1" ping -c 2 -i 0.2 -t 1 -W 1 198.18.1.2 >/dev/null
wait_for "a TTL 1 packet is traced to an ICMP time exceeded sent back on dp0" eval '[ "$(traced "ICMP error sent on dp0")" -ge 1 ]'
check "its path goes through icmp_time_exceeded" \
	json_true 'any("icmp_time_exceeded" in p["path"] for p in j["packets"] if p["fate"].startswith("ICMP"))' <<<"$(trace_json)"

tern_cli -c "trace dp1 count 50" >/dev/null
check "a trace of 50 on an idle port stays armed" armed
tern_cli -c "no trace"
check "no trace disarms it" disarmed
check_not "trace of a port that does not exist is refused" tern_cli -c "trace dp9"
check "capture on a ternd without hugepages says why it cannot" \
	grep -q "Capture needs ternd on hugepages" <<<"$(tern_cli -c "capture dp0" 2>&1)"
check "a count over the buffer is refused with a sentence" \
	grep -q "A trace takes 1 to 256 packets" <<<"$(tern_cli -c "trace dp0 count 5000" 2>&1)"
ip netns exec "$H1" ping -c 3 -i 0.2 -W 2 198.18.1.2 >/dev/null
check "forwarding goes on after tracing" [ $? -eq 0 ]
tern_test_end
