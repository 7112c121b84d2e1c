#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A real routing daemon on the kernel side: BIRD in ternd's namespace peers over BGP with BIRD
# in host h2, the session running through the exception path. Learnt routes are forwarded by
# the dataplane; withdrawn ones stop being forwarded; a BIRD restart leaves nothing stale.
. "$(dirname "$0")/lib.sh"
tern_test_begin routing-daemon
command -v bird >/dev/null || { echo "bird (bird2) is missing; make deps installs it"; exit 1; }
two_hosts
ip -n "$H2" addr add 198.19.10.1/32 dev lo	# h2 answers for an address in the prefix it announces

cat > "$T_DIR/bird-r.conf" <<EOC
router id 198.18.1.1;
protocol device { }
protocol kernel { ipv4 { import none; export all; }; }
protocol bgp h2 {
	local 198.18.1.1 as 65000;
	neighbor 198.18.1.2 as 65001;
	connect delay time 1; connect retry time 2;
	ipv4 { import all; export none; };
}
EOC
bird_start() {	# NS NAME
	ip netns exec "$1" bird -c "$T_DIR/bird-$2.conf" -s "$T_DIR/bird-$2.ctl" -P "$T_DIR/bird-$2.pid"
	T_PIDS+=("$(cat "$T_DIR/bird-$2.pid")")
}
birdc_() { birdc -s "$T_DIR/bird-$1.ctl" "${@:2}"; }
route_origin() { tern_cli --json -c "show ip route $1" | json_field 'j["routes"][0]["origin"] if j.get("routes") else "none"'; }	# none: an error, no route
learnt() { [ "$(route_origin 198.19.10.0/24)" = bird ]; }
gone() { [ "$(route_origin 198.19.10.0/24)" = none ] && [ "$(fib_kind 198.19.10.1)" = no-route ]; }

bird_start "$R" r
bird_upstream_start
wait_for "BGP comes up through the exception path" sh -c "birdc -s $T_DIR/bird-r.ctl show protocols h2 | grep -q Established"
wait_for "the routes BIRD learnt reach ternd's FIB" learnt
check "the kernel has them from BIRD" grep -q "198.19.10.0/24 via 198.18.1.2 dev dp1 proto bird" <<<"$(ip -n "$R" route)"
check "the FIB forwards 198.19.10.1 out of dp1" [ "$(tern_cli --json -c 'show ip fib 198.19.10.1' | json_field 'j["kind"]+" "+j["port"]')" = "forward dp1" ]
before=$(if_counter dp1 tx_packets)
out=$(ip netns exec "$H1" ping -c 5 -i 0.1 -W 1 198.19.10.1)
check "h1 reaches the announced prefix" grep -q " 0% packet loss" <<<"$out"
check "through the dataplane ($before -> $(if_counter dp1 tx_packets))" [ $(( $(if_counter dp1 tx_packets) - before )) -ge 5 ]
check "the FIB equals the kernel's tables" consistent

birdc_ h2 disable announced >/dev/null
wait_for "a withdrawn route leaves the FIB" gone
out=$(ip netns exec "$H1" ping -c 1 -W 1 198.19.10.1)
check "and is no longer forwarded: $(grep -o 'Destination Net Unreachable' <<<"$out")" grep -q "Destination Net Unreachable" <<<"$out"
birdc_ h2 enable announced >/dev/null
wait_for "announced again, it comes back" learnt

# BIRD restarts on the router: its routes go with it, and come back with it
kill -TERM "$(cat "$T_DIR/bird-r.pid")"
wait_for "BIRD stopping withdraws its routes from the kernel and the FIB" gone
bird_start "$R" r
wait_for "BIRD back: the routes are re-learnt" learnt
check "none stale: the FIB equals the kernel's tables" consistent
check "both prefixes are there" [ "$(route_origin 198.19.11.0/24)" = bird ]
tern_test_end
