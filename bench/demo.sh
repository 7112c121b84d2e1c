#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# `make run`: ternd in its own namespace with two memif ports wired to tern-bench and two TAP
# ports whose kernel sides are hosts in their own namespaces; traffic through it; a report.
# Everything it makes (namespaces, hugepages, processes, files) is undone when it ends.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${TERN_BUILD:-$ROOT/build}
DURATION=${DURATION:-5}
H1=tern-demo-h1 H2=tern-demo-h2
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}	# all of ternd on its worker's CPU: lib.sh
. "$ROOT/bench/lib.sh"
bench_extra_cleanup() { ip netns del $H1 2>/dev/null; ip netns del $H2 2>/dev/null; }
bench_begin demo
bench_extra_cleanup
hugepages_reserve 1024
ternd_conf "$MEM_ARGS" "m0:0 m1:0 t0:0 t1:0" 1048576 <<EOC
$(memif_ports)
[port t0]
dev = net_tap0,iface=tern-w0
[port t1]
dev = net_tap1,iface=tern-w1
EOC
echo "starting ternd in namespace $R (config: $DIR/ternd.conf)"
ternd_start || exit 1

# Two hosts behind the TAP ports: each port's wire (tern-wN, the TAP PMD's kernel side)
# moves into the host's namespace. The TAP PMD reads its link state by that name in
# ternd's namespace, so a veth of the same name stays behind to stand for the cable.
for i in 1 2; do
	h=$([ $i = 1 ] && echo $H1 || echo $H2) w=tern-w$((i - 1))
	ip netns add $h && ip -n $h link set lo up
	ip -n $R link set $w netns $h
	ip -n $h link set $w address 02:00:00:00:c0:0$i
	ip -n $h addr add 198.18.$((i + 1)).2/24 dev $w
	ip -n $h link set $w up
	ip -n $h route add default via 198.18.$((i + 1)).1
	ip -n $R link add $w type veth peer name tern-l$((i - 1))
	ip -n $R link set tern-l$((i - 1)) up && ip -n $R link set $w up
done

tern -c "configure terminal" -c "hostname demo" \
	-c "interface m0" -c "ip address 198.18.0.1/24" -c "description tern-bench sends here" \
	-c "interface m1" -c "ip address 198.18.1.1/24" -c "description tern-bench receives here" \
	-c "interface t0" -c "ip address 198.18.2.1/24" -c "description host h1" \
	-c "interface t1" -c "ip address 198.18.3.1/24" -c "description host h2" -c "exit" \
	-c "arp 198.18.1.2 02:00:00:00:b0:01 m1" -c "ip route 198.19.0.0/16 198.18.1.2" -c "end" || exit 1

echo
echo "== host h1 (198.18.2.2) pings host h2 (198.18.3.2) through ternd"
ip netns exec $H1 ping -c 3 -i 0.2 198.18.3.2 | sed 's/^/   /'

echo
echo "== tern-bench: 64-byte frames, 1024 flows into m0, routed to 198.19.0.0/16 out of m1, ${DURATION} s"
memif_gen --flows 1024 --duration "$DURATION" | sed 's/^/   /'

echo
echo "== demo# show interfaces brief"
tern -c "show interfaces brief" | sed 's/^/   /'
echo
echo "== demo# show errors | exclude ' 0  '"
tern -c "show errors" | awk 'NR == 1 || $2 != 0' | sed 's/^/   /'
echo
echo "== demo# show workers   (where the worker's cycles went, by stage)"
tern -c "show workers" | sed 's/^/   /'
echo
echo "== demo# show ip route"
tern -c "show ip route" | grep -v ' 127\.' | sed 's/^/   /'
echo
echo "stopping ternd; namespaces, TAPs and hugepages are put back as they were"
