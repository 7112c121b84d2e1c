#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The control thread's time to follow one kernel nexthop object's replacement under many
# routes: ROUTES (100000) BGP-shaped routes through `ip nexthop` object 100, then the object
# replaced by another gateway, with net.ipv4.nexthop_compat_mode 0 (the kernel says nothing
# of the routes) and 1 (it sends each route again). The time is the sum of show netlink's
# cost_ns (every stage, parsing to the FIB's other copy) over the replacement; the check is
# that the FIB answers with the new gateway's neighbour for a route's address.
#
#   bench/nexthop_replace.sh [BUILD]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUTES=${ROUTES:-100000}
. "$ROOT/bench/lib.sh"
bench_begin nexthop-replace
hugepages_reserve 1024

printf '[port n0]\ndev = net_null0\n[port n1]\ndev = net_null1\n' |
	ternd_conf "$MEM_ARGS" "n0:0 n1:0" $((ROUTES * 2 + 65536))
ternd_start || exit 1
tern -c "configure terminal" -c "interface n1" -c "ip address 198.18.1.1/24" -c "end" >/dev/null
for g in 2 3; do
	ip -n "$R" neigh replace 198.18.1.$g lladdr 02:00:00:00:b1:0$g dev n1 nud permanent
done
json() { tern --json -c "$1" | /usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); print($2)"; }
cost() { json "show netlink" 'int(sum(j["cost_ns"].values()))'; }
"$BUILD/tern-bench" routes --count "$ROUTES" | sort -u > "$DIR/routes.txt"
ROUTES=$(wc -l < "$DIR/routes.txt")
first=$(head -n 1 "$DIR/routes.txt" | cut -d/ -f1)

for mode in 0 1; do
	ip netns exec "$R" sysctl -qw net.ipv4.nexthop_compat_mode=$mode
	ip -n "$R" nexthop add id 100 via 198.18.1.2 dev n1
	sed 's/^/route add /; s/$/ nhid 100/' "$DIR/routes.txt" | ip -n "$R" -batch - || exit 1
	for _ in $(seq 600); do
		[ "$(json "show netlink" 'j["nexthop_routes"]')" -ge "$ROUTES" ] && break
		sleep 0.2
	done
	before=$(json "show ip fib $first" 'j["kind"]')
	sleep 1
	c0=$(cost)
	t0=$(date +%s.%N)
	ip -n "$R" nexthop replace id 100 via 198.18.1.3 dev n1
	for _ in $(seq 600); do
		[ "$(json "show netlink" 'j["backlog_bytes"]')" = 0 ] &&
			json "show ip fib $first" 'j.get("mac", "")' | grep -qi "02:00:00:00:b1:03" && break
		sleep 0.05
	done
	t1=$(date +%s.%N)
	sleep 1
	c1=$(cost)
	echo "compat mode $mode: $ROUTES routes through object 100 ($first: $before); replaced: the control thread spent $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }') ms on it; the FIB answered with the new gateway $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s later; in place: $(json "show netlink" 'j["nexthops_replaced_in_place"]')"
	ip -n "$R" nexthop del id 100
	for _ in $(seq 600); do
		[ "$(json "show netlink" 'j["nexthop_routes"]')" = 0 ] && break
		sleep 0.2
	done
done
echo "consistency: $(json "show ip fib consistency" 'j["differences"]') differences"
