#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# An IPv6 Internet table from a real routing daemon: BIRD in host h2 announces 220 000
# BGP-shaped IPv6 prefixes (tern-bench routes --ipv6) to BIRD in ternd's namespace over a BGP
# session that runs through the exception path; BIRD installs them with h2's link-local
# address as next hop, as BGP speakers do. The IPv6 FIB must hold every one, agree with the
# kernel (show ipv6 fib consistency), forward to them, and let them all go when the session
# does.
. "$(dirname "$0")/lib.sh"
tern_test_begin bird-ipv6
command -v bird >/dev/null || { echo "bird (bird2) is missing; make deps installs it"; exit 1; }
N=${TERN_BIRD6_ROUTES:-220000}
# the IPv6 FIB for a full table: its two copies and the RIB's table take about 900 MiB
# The harness's wires come up in the router's namespace with their port's MAC, so their
# link-local addresses are the TAPs' until make_host moves them: DAD on the TAPs could see
# the wires' and give IPv6 up on the TAP. The router's interfaces skip DAD here.
T_ROUTER_SYSCTL=net.ipv6.conf.default.dad_transmits=0 T_FIB6_ROUTES=262144 T_EAL_MEM="--no-huge -m 1600" two_hosts
ip -n "$R" addr add 2001:2:0:2::1/64 dev dp1 nodad
ip -n "$R" addr add fe80::1:1/64 dev dp1 nodad	# the session runs between link-local addresses
ip -n "$R" addr add 2001:2:0:1::1/64 dev dp0 nodad
ip -n "$H2" addr add 2001:2:0:2::2/64 dev "$W1" nodad
# the wire moved into h2 has no link-local address of its own
ip -n "$H2" addr add fe80::2:2/64 dev "$W1" nodad
ip -n "$H1" addr add 2001:2:0:1::2/64 dev "$W0" nodad
ip -n "$H1" -6 route add default via 2001:2:0:1::1
ip -n "$H2" -6 route add default via 2001:2:0:2::1

"$TERN_BUILD/tern-bench" routes --ipv6 --count $((N + N / 20)) | awk '!seen[$0]++' | head -n "$N" > "$T_DIR/table6"
check "the table has $N distinct prefixes" [ "$(wc -l < "$T_DIR/table6")" = "$N" ]
first=$(head -n 1 "$T_DIR/table6") last=$(tail -n 1 "$T_DIR/table6")
ip -n "$H2" addr add "${first%/*}1/128" dev lo	# h2 answers inside the first prefix
{
	echo "router id 198.18.1.2;"
	echo "protocol device { }"
	echo "protocol static announced6 {"
	echo "	ipv6;"
	awk '{ print "\troute " $1 " blackhole;" }' "$T_DIR/table6"
	echo "}"
} > "$T_DIR/bird-h2.conf"
cat >> "$T_DIR/bird-h2.conf" <<EOC
protocol bgp upstream6 {
	local fe80::2:2 as 65001;
	neighbor fe80::1:1 as 65000;
	interface "$W1";
	connect delay time 1; connect retry time 2;
	ipv6 { import none; export where proto = "announced6"; };
}
EOC
cat > "$T_DIR/bird-r.conf" <<EOC
router id 198.18.1.1;
protocol device { }
protocol kernel { ipv6 { import none; export all; }; }
protocol bgp h2 {
	local fe80::1:1 as 65000;
	neighbor fe80::2:2 as 65001;
	interface "dp1";
	connect delay time 1; connect retry time 2;
	ipv6 { import all; export none; };
}
EOC
for side in h2 r; do
	ns=$([ $side = h2 ] && echo "$H2" || echo "$R")
	ip netns exec "$ns" bird -c "$T_DIR/bird-$side.conf" -s "$T_DIR/bird-$side.ctl" -P "$T_DIR/bird-$side.pid"
	T_PIDS+=("$(cat "$T_DIR/bird-$side.pid")")
done
established() { birdc -s "$T_DIR/bird-r.ctl" show protocols h2 | grep -q Established; }
WAIT_S=30 wait_for "BGP over IPv6 comes up through the exception path" established || { tern_test_end; exit; }
kernel6() { tern_cli --json -c "show ipv6 route summary" | json_field 'j["kernel_routes"]'; }
bgp6() { [ "$(kernel6)" -ge "$N" ] 2>/dev/null; }
WAIT_S=120 wait_for "the $N routes BIRD learnt reach ternd's RIB" bgp6
json=$(tern_cli --json -c "show ipv6 route summary")
check "the IPv6 FIB holds every one, none refused: $(json_field '"%d routes, %d groups of %d, %d MiB" % (j["fib_routes"], j["fib_groups"], j["fib_groups_max"], j["fib_memory_bytes"] >> 20)' <<<"$json")" \
	json_true 'j["fib_routes"] >= '"$N"' and j.get("not_installed", 0) == 0' <<<"$json"
check "the kernel has them from BIRD via h2's link-local address" \
	grep -q "^${last%/*}/${last#*/} via fe80::.* dev dp1 proto bird" <<<"$(ip -n "$R" -6 route show "$last")"
check "the FIB forwards the last one out of dp1 to h2" \
	[ "$(tern_cli --json -c "show ipv6 fib ${last%/*}1" | json_field 'j["prefix"]+" "+j["kind"]+" "+j["port"]+" "+j["mac"].lower()')" = "$last forward dp1 $(host_mac "$H2" "$W1")" ]
out=$(ip netns exec "$H1" ping -6 -c 3 -i 0.2 -W 2 "${first%/*}1")
check "h1 reaches an address inside the first prefix through it" grep -q " 0% packet loss" <<<"$out"
out=$(tern_cli -c "show ipv6 fib consistency")
check "the IPv6 FIB is the kernel's: $(tail -n 1 <<<"$out")" grep -q " 0 difference(s)" <<<"$out"
say "ternd's control thread on the kernel's messages: $(tern_cli -c "show netlink" | grep -o 'time a message: .*')"

kill -TERM "$(cat "$T_DIR/bird-r.pid")"
gone6() { [ "$(kernel6)" -lt 100 ] 2>/dev/null; }
WAIT_S=120 wait_for "BIRD stopping withdraws its routes: they leave the RIB" gone6
check "and the FIB" [ "$(tern_cli --json -c "show ipv6 route summary" | json_field 'j["fib_routes"]')" -lt 100 ]
check "no route is left to the last prefix" [ "$(tern_cli --json -c "show ipv6 fib ${last%/*}1" | json_field 'j["prefix"]')" = none/0 ]
tern_test_end
