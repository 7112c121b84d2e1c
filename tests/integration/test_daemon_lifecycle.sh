#!/bin/bash
# ternd starts in its own namespace on two TAP ports, answers the shell with real data,
# refuses garbage on its socket, and on SIGTERM stops cleanly: exit 0, socket and TAPs gone.
. "$(dirname "$0")/lib.sh"
tern_test_begin lifecycle

R=tern-$T_ID-r
netns_add "$R"
write_tap_config 2
start_ternd "$R"
say "ternd runs in namespace $R with ports dp0, dp1"

out=$(tern_cli -c "show version")
check "show version names tern and DPDK: $(head -1 <<<"$out")" grep -q "^tern .* DPDK 22.11" <<<"$out"
json=$(tern_cli --json -c "show interfaces")
check "show interfaces lists both ports" \
	[ "$(json_field 'len(j["interfaces"])' <<<"$json")" = 2 ]
check "interfaces carry driver, MAC, link and MTU" \
	[ "$(json_field '" ".join(str(i[k]) for i in j["interfaces"] for k in ("driver","link","mtu"))' <<<"$json")" = "net_tap up 1500 net_tap up 1500" ]
mac=$(json_field 'j["interfaces"][0]["mac"].lower()' <<<"$json")
kmac=$(ip -n "$R" -j link show dp0 | json_field 'j[0]["address"]')
kmtu=$(ip -n "$R" -j link show dp0 | json_field 'j[0]["mtu"]')
check "each port has its own MAC ($mac)" [ -n "$mac" ]
check "the exception interface dp0 exists with the port's MAC ($kmac) and MTU ($kmtu)" \
	[ "$kmac" = "$mac" ] && [ "$kmtu" = 1500 ]
out=$(tern_cli -c "show interfaces dp1")
check "show interfaces NAME shows one port" [ "$(grep -c ' is up, driver' <<<"$out")" = 1 ]
out=$(tern_cli -c "show interfaces brief" -c "show workers" -c "show errors")
check "brief, workers and errors answer" grep -q "icmp_time_exceeded" <<<"$out"

# garbage on the socket: the daemon answers with an error and stays up
/usr/bin/python3 - "$T_SOCK" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b"\xde\xad\xbe\xef" * 16); s.settimeout(5)
data = s.recv(4096)
assert b"Malformed message" in data, data
PY
check "garbage on the socket gets an error" [ $? -eq 0 ]
/usr/bin/python3 - "$T_SOCK" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])  # a client that never reads or writes
s2 = socket.socket(socket.AF_UNIX); s2.connect(sys.argv[1]); s2.close()
PY
out=$(tern_cli -c "show version")
check "ternd still answers after bad clients" grep -q "^tern " <<<"$out"
out=$(tern_cli -c "show nonsense" 2>&1); rc=$?
check "a bad command exits non-zero with one sentence: $out" [ $rc -ne 0 ]

stop_ternd; rc=$?
check "SIGTERM: ternd exits 0 (got $rc)" [ $rc -eq 0 ]
check "the socket is removed" [ ! -e "$T_SOCK" ]
tap_gone() { ! ip -n "$R" link show "$1" >/dev/null 2>&1; }
check "the exception interfaces are removed" tap_gone dp0
check "the ports' TAP devices are removed" tap_gone "${T_ID}h0"
tern_test_end
