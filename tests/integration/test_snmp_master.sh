#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# An AgentX master that misbehaves cannot crash or stall ternd's subagent: one that accepts
# and never answers holds the control thread at most 200 ms an attempt (the shell keeps
# answering within half a second throughout), and one that sends malformed PDUs (cut short,
# lengths past their bytes, unknown types and varbinds, random bytes) between well-formed
# Gets has the Gets answered and ternd running (tests/integration/agentx_master.py).
. "$(dirname "$0")/lib.sh"
tern_test_begin snmp_master
MASTER=$(dirname "$0")/agentx_master.py
two_hosts "[snmp]
agentx = $T_DIR/agentx.sock"

# the slowest of the shell's answers over SECONDS, in ms
slowest_answer() {	# SECONDS
	local end=$(($(date +%s) + $1)) worst=0 t0 ms
	while [ "$(date +%s)" -lt "$end" ]; do
		t0=$(date +%s%N)
		tern_cli -c "show version" >/dev/null || { echo 99999; return; }
		ms=$((($(date +%s%N) - t0) / 1000000))
		[ "$ms" -gt "$worst" ] && worst=$ms
		sleep 0.05
	done
	echo "$worst"
}

# the master in MODE for SECONDS: what it printed in $got, the shell's slowest answer meanwhile
# in $worst
master_run() {	# MODE SECONDS
	ip netns exec "$R" /usr/bin/python3 "$MASTER" "$1" "$T_DIR/agentx.sock" "$2" > "$T_DIR/$1.txt" &
	T_PIDS+=("$!")
	worst=$(slowest_answer $(($2 - 1)))
	wait "${T_PIDS[-1]}" 2>/dev/null
	got=$(cat "$T_DIR/$1.txt")
}

master_run silent 7
check "a master that never answers ($got from ternd): the shell's slowest answer meanwhile took $worst ms (< 500)" \
	bash -c "[[ '$got' =~ ^accepted\ ([0-9]+) ]] && [ \${BASH_REMATCH[1]} -ge 1 ] && [ $worst -lt 500 ]"
check "ternd is still running" kill -0 "$T_TERND_PID"

master_run hostile 12
check "a master that sends malformed PDUs: ternd $got (it came back after them and answered)" \
	bash -c "[[ '$got' =~ ^answered\ ([0-9]+)\ of\ [0-9]+\ gets\ over\ ([0-9]+) ]] && [ \${BASH_REMATCH[1]} -ge 2 ] && [ \${BASH_REMATCH[2]} -ge 2 ]"
check "the shell's slowest answer meanwhile took $worst ms (< 500)" [ "$worst" -lt 500 ]
check "ternd is still running" kill -0 "$T_TERND_PID"
check "and still forwards" bash -c "ip netns exec $H1 ping -c 1 -W 2 198.18.1.2 >/dev/null"
say "(net-snmp's complaints in ternd's log: $(grep -c 'net-snmp:' "$T_DIR/ternd.log"))"
tern_test_end
