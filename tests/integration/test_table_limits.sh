#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Tables have limits: with [fib] routes = 1024, a kernel table of 1500 more routes fills the
# FIB. The rest are refused, counted (show netlink, metrics) and logged a few times, not
# 500; ternd keeps forwarding; once routes go away, new ones are mirrored again. The
# neighbour table takes [neighbours] max (1024 here) and refuses the rest the same way.
. "$(dirname "$0")/lib.sh"
tern_test_begin table-limits
T_FIB_ROUTES=2048 two_hosts "[neighbours]
max = 1024"
ip netns exec "$H1" ping -c 2 -i 0.2 -W 2 198.18.1.2 >/dev/null

nl() { tern_cli --json -c "show netlink" | json_field "j['$1']"; }
routes() {	# add|del COUNT
	for i in $(seq 0 $(($2 - 1))); do
		echo "route $1 198.19.$((i / 256)).$((i % 256))/32 via 198.18.1.2"
	done | ip -n "$R" -batch -
}
routes add 2600
wait_for "routes beyond the FIB's capacity are refused and counted" eval '[ "$(nl routes_refused)" -ge 500 ]'
refused=$(nl routes_refused)
say "refused: $refused of 2600"
check "ternd stays up" kill -0 "$T_TERND_PID"
pings() { ip netns exec "$H1" ping -c 3 -i 0.2 -W 2 198.18.1.2 >/dev/null; }
check "forwarding goes on" pings
logged=$(grep -c "cannot mirror route" "$T_DIR/ternd.log")
check "the refusals are logged a few times, not once each ($logged lines)" [ "$logged" -ge 1 -a "$logged" -le 10 ]
check "the consistency check lists what the FIB lacks" \
	[ "$(tern_cli --json -c "show ip fib consistency" | json_field 'j["differences"]')" -ge "$refused" ]

routes del 2600
wait_for "with the routes gone, the kernel and the FIB agree again" consistent
routes add 10
wait_for "new routes are mirrored again" fib_is 198.19.0.9 forward
check "and nothing more was refused" [ "$(nl routes_refused)" = "$refused" ]
wait_for "the FIB equals the kernel" consistent

# 1100 permanent neighbours on dp1's /24 and another /22 (each also a /32 adjacency)
tern_cli -c "configure terminal" -c "interface dp1" -c "ip address 198.18.4.1/22" -c "end" >/dev/null
for i in $(seq 0 1099); do
	printf 'neigh replace 198.18.%d.%d lladdr 02:00:5e:00:%02x:%02x dev dp1 nud permanent\n' \
		$((4 + i / 250)) $((2 + i % 250)) $((i / 256)) $((i % 256))
done | ip -n "$R" -batch -
table() { tern_cli --json -c "show memory" | json_field "j['tables']['neighbours']['$1']"; }
wait_for "the neighbour table fills to its limit and refuses the rest" eval '[ "$(table refused)" -ge 76 ]'
check "show memory: 1024 used of 1024" [ "$(table used)/$(table limit)" = 1024/1024 ]
check "and says the limit comes from [neighbours] max" grep -q "^neighbours .*\[neighbours\] max" <<<"$(tern_cli -c 'show memory')"
check "ternd still forwards" pings
tern_test_end
