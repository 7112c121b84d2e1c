#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Control-plane policing from the shell: control-plane mode's class NAME rate PPS burst N
# changes a class's policer on every port while the workers run, the next flood meets the
# new rate, show control-plane and the running-config say it, no class goes back to
# ternd.conf's, and values out of range are refused with a sentence.
. "$(dirname "$0")/lib.sh"
tern_test_begin copp-shell
two_hosts
cp_json() { tern_cli --json -c "show control-plane" | json_field "j['classes']['$1']['$2']"; }
cls() { tern_cli --json -c "show exception" | json_field "j['ports'][0]['classes']['$1']['$2']"; }

check "icmp polices at ternd.conf's 1000 pps, burst 200" [ "$(cp_json icmp rate) $(cp_json icmp burst)" = "1000 200" ]
tern_cli -c "configure terminal" -c "control-plane" -c "class icmp rate 50 burst 10" -c "end" ||
	fail "class icmp rate 50 burst 10 was refused"
check "show control-plane: icmp at 50 pps, burst 10, the file's 1000 beside it" \
	[ "$(cp_json icmp rate) $(cp_json icmp burst) $(cp_json icmp file_rate)" = "50 10 1000" ]
check "the running-config has it in its control-plane section" \
	grep -qzF $'control-plane\n class icmp rate 50 burst 10\n' <(tern_cli -c "show running-config")

# a flood of pings at dp0's address meets the new rate at once
passed0=$(cls icmp passed)
ip netns exec "$H1" /usr/bin/python3 "$(dirname "$0")/flood.py" 198.18.0.1 20000 > "$T_DIR/flood.txt"
read -r sent secs < "$T_DIR/flood.txt"
passed=$(( $(cls icmp passed) - passed0 ))
allowed=$(awk -v t="$secs" 'BEGIN { printf "%d", 50 * (t + 0.5) + 10 + 5 }')
say "flood: $sent echo requests in $secs s; the icmp class passed $passed (at most $allowed at 50 pps), policed $(cls icmp policed)"
check "the icmp class held the flood to 50 pps + burst" [ "$passed" -le "$allowed" ]
check "and policed the rest" [ "$(cls icmp policed)" -gt 0 ]

tern_cli -c "configure terminal" -c "control-plane" -c "no class icmp" -c "end" || fail "no class icmp was refused"
check "no class icmp: back to 1000 pps, burst 200" [ "$(cp_json icmp rate) $(cp_json icmp burst)" = "1000 200" ]
check "and out of the running-config" eval '! tern_cli -c "show running-config" | grep -q control-plane'

refused() {	# LINE SENTENCE: refused in control-plane mode with that sentence
	local out
	out=$(tern_cli -c "configure terminal" -c "control-plane" -c "$1" 2>&1)
	[ $? -ne 0 ] && grep -qF "$2" <<<"$out" || { say "'$1' gave: $out"; return 1; }
}
check "rate 0 is refused" refused "class routing rate 0 burst 10" "Rate 0 is out of range: expected 1 to 10000000 packets a second"
check "a burst above 1000000 is refused" refused "class routing rate 10 burst 1000001" "Burst 1000001 is out of range: expected 1 to 1000000 packets"
check "an unknown class is refused" refused "class bogus rate 10 burst 10" "%"
check "and the routing class kept its rate" [ "$(cp_json routing rate) $(cp_json routing burst)" = "20000 5000" ]
tern_test_end
