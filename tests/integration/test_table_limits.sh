#!/bin/bash
# Tables have limits: with [fib] routes = 1024, a kernel table of 1500 more routes fills the
# FIB. The rest are refused, counted (show netlink, metrics) and logged a few times, not
# 500; ternd keeps forwarding; once routes go away, new ones are mirrored again.
. "$(dirname "$0")/lib.sh"
tern_test_begin table-limits
T_FIB_ROUTES=1024 two_hosts
ip netns exec "$H1" ping -c 2 -i 0.2 -W 2 198.18.1.2 >/dev/null

nl() { tern_cli --json -c "show netlink" | json_field "j['$1']"; }
routes() {	# add|del COUNT
	for i in $(seq 0 $(($2 - 1))); do
		echo "route $1 198.19.$((i / 256)).$((i % 256))/32 via 198.18.1.2"
	done | ip -n "$R" -batch -
}
routes add 1500
wait_for "routes beyond the FIB's capacity are refused and counted" [ "$(nl routes_refused)" -ge 476 ]
refused=$(nl routes_refused)
say "refused: $refused of 1500"
check "ternd stays up" kill -0 "$T_TERND_PID"
pings() { ip netns exec "$H1" ping -c 3 -i 0.2 -W 2 198.18.1.2 >/dev/null; }
check "forwarding goes on" pings
logged=$(grep -c "cannot mirror route" "$T_DIR/ternd.log")
check "the refusals are logged a few times, not once each ($logged lines)" [ "$logged" -ge 1 -a "$logged" -le 10 ]
check "the consistency check lists what the FIB lacks" \
	[ "$(tern_cli --json -c "show ip fib consistency" | json_field 'j["differences"]')" -ge "$refused" ]

routes del 1500
wait_for "with the routes gone, the kernel and the FIB agree again" consistent
routes add 10
wait_for "new routes are mirrored again" [ "$(fib_kind 198.19.0.9)" = forward ]
check "and nothing more was refused" [ "$(nl routes_refused)" = "$refused" ]
wait_for "the FIB equals the kernel" consistent
tern_test_end
