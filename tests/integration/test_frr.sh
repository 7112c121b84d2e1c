#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# FRR on the kernel side: zebra and bgpd in ternd's namespace peer over BGP with BIRD in host
# h2, with net.ipv4.nexthop_compat_mode 1 and then 0. zebra installs routes through kernel
# nexthop objects (a route then names only its object in mode 0); ternd must forward them
# all the same, follow a withdrawal, and agree with the kernel.
. "$(dirname "$0")/lib.sh"
tern_test_begin frr
command -v bird >/dev/null || { echo "bird (bird2) is missing; make deps installs it"; exit 1; }
[ -x /usr/lib/frr/zebra ] && id frr >/dev/null 2>&1 || { echo "frr is missing; make deps installs it"; exit 1; }
two_hosts
ip -n "$H2" addr add 198.19.10.1/32 dev lo

bird_upstream_start

F=$(frr_dir frr)
cat > "$F/zebra.conf" <<EOC
hostname r
EOC
cat > "$F/bgpd.conf" <<EOC
hostname r
router bgp 65000
 bgp router-id 198.18.1.1
 no bgp ebgp-requires-policy
 neighbor 198.18.1.2 remote-as 65001
 neighbor 198.18.1.2 timers connect 1
EOC
chown frr:frr "$F"/*.conf
tern_on_exit "frr_stop $F"
origin() { ip -n "$R" route show 198.19.10.0/24; }
forwards() { [ "$(tern_cli --json -c 'show ip fib 198.19.10.1' | json_field 'j["kind"]+" "+j["port"]')" = "forward dp1" ]; }
gone() { [ -z "$(origin)" ] && [ "$(fib_kind 198.19.10.1)" = no-route ]; }
learnt() { origin | grep -q "proto bgp"; }

for mode in 1 0; do
	say "nexthop_compat_mode = $mode"
	ip netns exec "$R" sysctl -qw net.ipv4.nexthop_compat_mode=$mode
	frr_start "$R" "$F" || { fail "FRR did not start"; break; }
	WAIT_S=30 wait_for "mode $mode: BGP comes up and zebra installs the routes" learnt
	check "mode $mode: zebra installed them through a nexthop object: $(origin)" grep -q "nhid" <<<"$(origin)"
	wait_for "mode $mode: the FIB forwards 198.19.10.1 out of dp1" forwards
	out=$(ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.19.10.1)
	check "mode $mode: h1 reaches the announced prefix" grep -q " 0% packet loss" <<<"$out"
	check "mode $mode: the FIB equals the kernel's tables" consistent
	birdc -s "$T_DIR/bird-h2.ctl" disable announced >/dev/null
	wait_for "mode $mode: a withdrawn route leaves the FIB" gone
	birdc -s "$T_DIR/bird-h2.ctl" enable announced >/dev/null
	wait_for "mode $mode: announced again, it comes back" forwards
	frr_stop "$F"
	wait_for "mode $mode: FRR stopped, its routes are gone" gone
	check "mode $mode: the FIB equals the kernel's tables" consistent
done
tern_test_end
