#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# [exception] idle_sleep_max_ms: an idle exception service spaces its polls of the workers'
# punt rings up to the bound (8 ms here), so it wakes far less often than at the default
# 1 ms (about 900 times a second), and what the workers punt still reaches the kernel.
. "$(dirname "$0")/lib.sh"
tern_test_begin exception-idle
two_hosts $'[exception]\nidle_sleep_max_ms = 8'

thread_switches() {	# the exception service thread's context switches so far
	local t
	for t in /proc/"$T_TERND_PID"/task/*; do
		[ "$(cat "$t/comm")" = tern-exception ] || continue
		awk '/^(voluntary|nonvoluntary)_ctxt_switches/ { n += $2 } END { print n }' "$t/status"
		return
	done
	echo missing
}

# First h1 resolves the router's MAC, so the timed pings measure the exception path and not
# an ARP exchange (an ARP answer lost is asked again only after a second).
router_answers() { ip netns exec "$H1" ping -c 1 -W 1 198.18.0.1 >/dev/null; }
wait_for "h1 reaches the router" router_answers
out=$(ip netns exec "$H1" ping -c 5 -i 0.3 -W 1 198.18.0.1)
check "h1 pings the router's address: the punts reach the kernel" grep -q " 0% packet loss" <<<"$out"
max=$(sed -n 's|^rtt .* = [0-9.]*/[0-9.]*/\([0-9.]*\)/.*|\1|p' <<<"$out")
check "each reply within 100 ms (max $max ms; the bound is 8 ms, plus scheduling)" \
	awk -v m="${max:-1000}" 'BEGIN { exit !(m < 100) }'

sleep 1	# idle: the sleeps grow to the bound
a=$(thread_switches)
sleep 2
b=$(thread_switches)
check "the exception service thread is there" [ "$a" != missing ]
# at 8 ms about 250 in 2 s (and whatever the TAPs bring); at 1 ms it would be about 1800
check "idle, it woke $((b - a)) times in 2 s: fewer than 700" [ $((b - a)) -lt 700 ]
tern_test_end
