#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The real tern shell in a pseudo-terminal (tmux): TAB completion, '?' help, abbreviations,
# modes in the prompt, history across sessions.
. "$(dirname "$0")/lib.sh"
tern_test_begin shell-pty
R=tern-$T_ID-r S=tern-$T_ID
netns_add "$R"
write_tap_config 2
start_ternd "$R"
command -v tmux >/dev/null || { echo "tmux is missing (make deps installs it)"; exit 1; }
tern_on_exit 'tmux kill-session -t "$S" 2>/dev/null'

screen() { tmux capture-pane -p -t "$S"; }	# (tmux drops trailing spaces)
# keys: literal text, then key names (Tab, Enter, Up, C-u); tmux would read "end" as the End key
keys() { tmux send-keys -t "$S" -l "$1"; shift; [ $# -gt 0 ] && tmux send-keys -t "$S" "$@"; sleep 0.3; }
shows() { screen | grep -q -- "$1"; }
shell() { tmux new-session -d -s "$S" -x 160 -y 50 "env HOME=$T_DIR TERM=xterm $TERN -s $T_SOCK"; sleep 0.5; }

shell
check "the prompt is tern#" shows "^tern#$"
keys "sh" Tab
check "TAB completes 'sh' to 'show'" shows "^tern# show$"
keys "ver" Tab Enter
check "'show ver' TAB Enter runs show version" shows "^tern 0.1.0, an IPv4 router"
keys "show ip ?"
check "'?' lists what may follow 'show ip'" shows "route .*The routing table\|route$"
check "... with help text" shows "neighbors .*Neighbour (ARP) table"
check "... and keeps the line" shows "^tern# show ip$"
keys "" C-u; keys "?"
check "'?' at the start: a keyword that leads on has help of its own" shows "^  show  *Show the router's state"
check "... every one of them" eval '! screen | grep -E "^  [a-z-]+ *$"'
keys "" C-u; keys "show ?"
check "'show ?': ip has help of its own" shows "^  ip  *IPv4: routes, the FIB, neighbours"
keys "" C-u; keys "conf t" Enter
keys "ip route 198.19.0.0/16 198.18.0.2 ?"
check "a value says its range and what it is" shows "<0-4294967295> .*Administrative distance"
check "... the weight too" shows "^  weight"
keys "" C-u; keys "end" Enter
keys "" C-u; keys "conf t" Enter
check "configure terminal: the prompt says config" shows "^tern(config)#$"
keys "int dp" Tab Tab
check "TAB offers the live interface names" shows "dp0 .*dp1\|dp0  *dp1"
keys "1" Enter
check "interface mode: the prompt says config-if" shows "^tern(config-if)#$"
keys "e" Enter
check "an ambiguous prefix lists the candidates" shows "Ambiguous command: 'e' could be: exit, end"
keys "end" Enter
check "end returns to the exec prompt" shows "^tern#$"
keys "sh ip rou | count" Enter
check "abbreviated 'sh ip rou' with '| count' prints a number" shows "^[0-9][0-9]*$"
keys "exit" Enter
sleep 0.3
check "exit leaves the shell and history is written" grep -q "sh ip rou | count" "$T_DIR/.tern_history"
tmux kill-session -t "$S" 2>/dev/null
shell
keys "" Up Up
check "history comes back in a new session" shows "^tern# sh ip rou | count$\|^tern# exit$"

# ternd restarts under an open shell: the next command finds the connection gone (a write to
# it fails with EPIPE, which once killed tern silently), and the shell says so and connects
# to the new ternd
keys "" C-u; keys "conf t" Enter
stop_ternd
start_ternd "$R"
keys "show version" Enter
sleep 0.5
check "the shell says it lost the connection" shows "lost the connection to ternd at"
check "and that it is connected again" shows "connected to ternd again, in a new session"
check "at the exec prompt of the new session" eval 'screen | grep -v "^$" | tail -1 | grep -q "^tern#$"'
keys "show ver" Enter
check "and commands work again" eval '[ "$(screen | grep -c "^tern 0.1.0, an IPv4 router")" -ge 1 ]'
tern_test_end
