#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Jumbo frames over memif: two ternds joined by one memif link, [port] mtu = 9000 on both
# (DPDK 22.11's memif driver says 1518 at most, but carries them:
# dataplane/workarounds/vdev_mtu.c). Their kernel interfaces take MTU 9000 and 8972-byte
# pings with DF cross the link both ways, each frame one buffer; MTU 9300 is refused.
. "$(dirname "$0")/lib.sh"
tern_test_begin jumbo-memif

A=tern-$T_ID-a B=tern-$T_ID-b
netns_add "$A"
netns_add "$B"

side_conf() {	# SIDE ROLE
	cat > "$T_DIR/$1.conf" <<CONF
[eal]
args = --no-huge -m 512 --file-prefix ${T_ID}$1 --log-level=*:notice
[port m0]
dev = net_memif0,role=$2,id=0,socket=$T_DIR/m0.sock,socket-abstract=no,mac=02:00:00:00:$1$1:00
mtu = 9000
[worker 1]
rx = m0:0
[mempool]
mbufs = 4096
[fib]
routes = 4096
[fib6]
max_routes = 4096
[exception]
idle_sleep_max_ms = 8
[api]
socket = $T_DIR/$1.sock
[store]
db = $T_DIR/$1.db
CONF
}
kernel_mtu() { ip -n "$1" -j link show m0 | json_field 'j[0]["mtu"]'; }

side_conf a server
side_conf b client
peer_start a "$A"
peer_start b "$B"
peer a -c "configure terminal" -c "interface m0" -c "ip address 198.18.4.1/24" -c "end" >/dev/null
peer b -c "configure terminal" -c "interface m0" -c "ip address 198.18.4.2/24" -c "end" >/dev/null
check "both memif ports took MTU 9000, and their kernel interfaces" \
	[ "$(peer a --json -c 'show interfaces m0' | json_field "j['interfaces'][0]['mtu']")/$(kernel_mtu "$A")/$(kernel_mtu "$B")" = 9000/9000/9000 ]
out=$(ip netns exec "$A" ping -c 5 -i 0.2 -W 2 -M do -s 8972 198.18.4.2)
check "8972-byte pings with DF cross the memif link and come back" grep -q " 0% packet loss" <<<"$out"
check "as 9000-byte packets" grep -q "^8980 bytes from 198.18.4.2" <<<"$out"
out=$(ip netns exec "$B" ping -c 3 -i 0.2 -W 2 -M do -s 8972 198.18.4.1)
check "and the other way" grep -q " 0% packet loss" <<<"$out"
o=$(peer a -c "configure terminal" -c "interface m0" -c "mtu 9300" 2>&1)
check "MTU 9300 is refused with the range: $o" grep -q "MTU 9300 is out of range: expected 68 to 9216" <<<"$o"
tern_test_end
