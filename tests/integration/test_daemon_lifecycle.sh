#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ternd starts in its own namespace on two TAP ports, answers the shell with real data,
# refuses garbage on its socket, serves at most 64 sessions, closes clients whose unread
# replies pass [api] reply_queue_max (each) or reply_queue_total (all together), and on
# SIGTERM stops cleanly: exit 0, socket and TAPs gone.
. "$(dirname "$0")/lib.sh"
tern_test_begin lifecycle

R=tern-$T_ID-r
netns_add "$R"
T_API_EXTRA=$'reply_queue_max = 1048576\nreply_queue_total = 2097152' write_tap_config 2
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
check "show interfaces NAME shows one port" [ "$(grep -c ' is up, link [a-z]*, driver' <<<"$out")" = 1 ]
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

# 64 sessions at most: root's 64th is served, the 65th is told why, and once they go,
# sessions are served again
cp "$TERN_ROOT/tests/integration/api_client.py" "$T_DIR/"
out=$(PYTHONPATH=$T_DIR /usr/bin/python3 - "$T_SOCK" <<'PY'
import sys
from api_client import *
held = []
for i in range(64):
    s = connect(sys.argv[1])
    s.sendall(request("show version"))
    r = read_reply(s)
    if r is None or r[0] != 0:
        print(f"session {i + 1} was not served: {r}")
        sys.exit(1)
    held.append(s)
s = connect(sys.argv[1])
s.settimeout(5)
try:
    s.sendall(request("show version"))
except BrokenPipeError:
    pass	# ternd may have refused and closed before the request: its sentence is waiting
r = read_reply(s)
print(f"64 served; the 65th: {r[2].strip() if r else 'closed without a word'}")
PY
)
check "$out" grep -q "^64 served; the 65th: % ternd already serves its most sessions; try again later" <<<"$out"
users_are() { [ "$(tern_cli --json -c 'show users' | json_field 'len(j["users"])')" = "$1" ]; }
wait_for "the 64 sessions are gone once their clients are" users_are 1

# Clients that send requests with 160 KB replies each (show ip route of 4000 routes) and read nothing: one with 16 passes
# reply_queue_max (1 MiB) and is closed; then eight with 4 each stay under it, but together
# pass reply_queue_total (2 MiB): the first is kept, and those past the total are closed.
for i in $(seq 0 3999); do echo "route add blackhole 198.19.$((i / 256)).$((i % 256))/32"; done | ip -n "$R" -batch -
out=$(PYTHONPATH=$T_DIR /usr/bin/python3 - "$T_SOCK" <<'PY'
import socket, sys, time
from api_client import *
def flood(n):
    s = connect(sys.argv[1])
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(request("show ip route") * n)
    return s
def closed(s):
    """Whether ternd closed s: what it sent is read and thrown away until the end."""
    s.settimeout(2)
    try:
        while s.recv(1 << 20):
            pass
        return True
    except socket.timeout:
        return False
a = flood(16)
time.sleep(1)
print("alone:", "closed" if closed(a) else "kept")
group = []
for i in range(8):
    group.append(flood(4))
    time.sleep(0.3)
# only now read: the verdicts were made while all of them held their replies
states = ["closed" if closed(s) else "kept" for s in group]
print("eight:", " ".join(states))
PY
)
check "a client past reply_queue_max is closed ($(head -n 1 <<<"$out"))" grep -q "^alone: closed" <<<"$out"
check "past reply_queue_total the first is kept and the later closed ($(tail -n 1 <<<"$out"))" \
	grep -q "^eight: kept .*closed" <<<"$out"
check "the log says why" grep -q "reads no replies (.* bytes queued, .* for all clients); closing it" "$T_DIR/ternd.log"
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
