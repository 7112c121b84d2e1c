#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# [netlink] batch_interval_us: kernel changes that come one request at a time reach the FIB in
# batches at least that far apart, each change still arrives with no request to ternd, and an
# API request sees every change the kernel announced before it.
. "$(dirname "$0")/lib.sh"
tern_test_begin netlink-batches
two_hosts $'[netlink]\nbatch_interval_us = 100000\n[metrics]\nlisten = 9101'

burst() {	# OP FIRST COUNT: one ip request a route, as fast as ip sends them
	for i in $(seq "$2" $(($2 + $3 - 1))); do
		echo "route $1 198.19.$((i / 256)).$((i % 256))/32 via 198.18.1.2"
	done | ip -n "$R" -batch -
}

r0=$(kernel_routes) b0=$(metric tern_netlink_batches_total)
t0=$(date +%s%N)
burst add 0 400
wait_for "the 400 routes reach the FIB with no request to ternd" kernel_routes_are $((r0 + 400))
t1=$(date +%s%N)
b1=$(metric tern_netlink_batches_total)
ms=$(( (t1 - t0) / 1000000 ))
say "400 routes added one request each: in the FIB after $ms ms, in $((b1 - b0)) batches"
check "the batches were at least 100 ms apart" [ $((b1 - b0)) -le $((ms / 100 + 2)) ]

shell_routes() { tern_cli --json -c "show ip route summary" | json_field 'j["kernel_routes"]'; }
burst del 0 200
check "right after 200 deletes, the shell sees 200 routes fewer" [ "$(shell_routes)" = $((r0 + 200)) ]
check "and the dataplane forwards none of them" [ "$(fib_kind 198.19.0.199)" = no-route ]
check "but still the rest" [ "$(fib_kind 198.19.0.200)" != no-route ]
burst del 200 200
check "the FIB equals the kernel's tables" consistent
out=$(tern_cli -c "show netlink")
check "show netlink gives the interval" grep -q "at least 100000 us apart" <<<"$out"
tern_test_end
