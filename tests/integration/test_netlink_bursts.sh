#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# [netlink] batch_interval_max_us: while kernel changes keep coming, the waits between batches
# double up to the maximum, so a long burst goes in as a few large batches, however slowly the
# kernel takes it (a loaded machine); a quiet spell brings the wait back to batch_interval_us;
# at 0 there is never a wait.
. "$(dirname "$0")/lib.sh"
tern_test_begin netlink-bursts
two_hosts $'[netlink]\nbatch_interval_us = 2000\nbatch_interval_max_us = 32000\n[metrics]\nlisten = 9101'

# 6000 /32 routes fed to one ip -batch 20 each 2 ms or so: a stream that lasts far longer
# than the first waits whatever the machine's speed, and slow, as a loaded machine makes one:
# about 20 changes in each 2 ms wait
paced() {	# OP
	/usr/bin/python3 -c '
import sys, time
for c in range(300):
    for i in range(c * 20, c * 20 + 20):
        print("route %s 198.19.%d.%d/32 via 198.18.1.2" % (sys.argv[1], i // 256, i % 256))
    sys.stdout.flush()
    time.sleep(0.002)' "$1" | ip -n "$R" -batch -
}

r0=$(kernel_routes) b0=$(metric tern_netlink_batches_total)
t0=$(date +%s%N)
paced add
t1=$(date +%s%N)	# the kernel has them all
wait_for "the 6000 routes reach the FIB" kernel_routes_are $((r0 + 6000))
b1=$(metric tern_netlink_batches_total)
ms=$(( (t1 - t0) / 1000000 ))
say "6000 routes in a stream of $ms ms reached the FIB in $((b1 - b0)) batches"
# 2 ms apart throughout would take one batch per 2 ms or so of the stream (300 and up). Grown
# to 32 ms, the waits take a few batches to get there (2 + 4 + 8 + 16 ms), then about one per
# 32 ms of the stream however slowly it comes (under AddressSanitizer, or with every core busy
# with something else, the batches' own work between them adds some): fewer than one per 8 ms
# says they grew.
most=$((6 + ms / 8))
check "the waits grew: $((b1 - b0)) batches, $most or fewer" [ $((b1 - b0)) -le $most ]
out=$(tern_cli --json -c "show netlink")
check "show netlink gives the largest wait" [ "$(json_field 'j["batch_interval_max_us"]' <<<"$out")" = 32000 ]

# a single change after the stream: its batch is small, so the next wait is the least again
ip -n "$R" route add 198.19.100.1/32 via 198.18.1.2
wait_for "the single route reaches the FIB" kernel_routes_are $((r0 + 6001))
sleep 0.1
ip -n "$R" route add 198.19.100.2/32 via 198.18.1.2
wait_for "and the next" kernel_routes_are $((r0 + 6002))
check "the wait is back to 2000 us" [ "$(tern_cli --json -c "show netlink" | json_field 'j["batch_spacing_us"]')" = 2000 ]

paced del
ip -n "$R" route del 198.19.100.1/32
ip -n "$R" route del 198.19.100.2/32
wait_for "the stream's withdrawal reaches the FIB" kernel_routes_are "$r0"
check "the FIB equals the kernel's tables" consistent

# with batch_interval_us at 0 each read goes in as it comes, however long the burst
stop_ternd
ip -n "$R" link del "$W0"; ip -n "$R" link del "$W1"	# the cables' stand-ins: the TAPs' names
write_tap_config 2 $'[netlink]\nbatch_interval_us = 0\nbatch_interval_max_us = 32000'
start_ternd "$R"
out=$(tern_cli --json -c "show netlink")
check "no wait at all: show netlink's largest is 0" [ "$(json_field 'j["batch_interval_max_us"]' <<<"$out")" = 0 ]
tern_test_end
