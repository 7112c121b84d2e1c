#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Nobody on the API socket or the metrics endpoint can stall ternd's control thread or lock
# the operator out: the last slots are root's, idle sessions and unfinished requests end at
# their deadlines, pipelined requests are served a budget at a time, a client that reads no
# replies stops being read and is dropped, a scraper that reads slowly or sends nothing
# holds nothing up, the tools ternd runs inherit none of its descriptors, and the socket
# path is only taken over from a dead ternd's socket.
. "$(dirname "$0")/lib.sh"
tern_test_begin api_limits
export T_SOCK_MODE=0666 T_API_EXTRA=$'idle_timeout = 4\nrequest_timeout = 1\nreply_timeout = 2'

# the socket path: only a dead ternd's socket is taken over, never an operator's file
netns_add "tern-$T_ID-r"
write_tap_config 2
echo "an operator's file" > "$T_SOCK"
out=$(timeout 20 ip netns exec "tern-$T_ID-r" "$TERND" -f "$T_CONF" 2>&1); rc=$?
say "$(tail -1 <<<"$out")"
check "a regular file at the socket path stops ternd (exit $rc) with a sentence" \
	grep -q "the path exists and is not a socket; remove it or choose another path" <<<"$out"
check "and the file is left as it was" grep -q "^an operator's file$" "$T_SOCK"
rm -f "$T_SOCK"
T_NS=()
ip netns del "tern-$T_ID-r"

# small TCP send buffers in the router's namespace, so that a metrics answer (about 7 KiB)
# does not fit in what a scraper that reads nothing leaves room for
T_ROUTER_SYSCTL="net.ipv4.tcp_wmem=4096 4096 4096" two_hosts $'[metrics]\nlisten = 127.0.0.1:9102'
chmod 755 "$T_DIR"
PY=/usr/bin/python3
# a copy where the user nobody can read it, whatever the checkout's permissions
cp "$TERN_ROOT/tests/integration/api_client.py" "$T_DIR/"
export PYTHONPATH=$T_DIR

# 70 sessions of a user other than root: 60 are served, the rest told why; root still is
setpriv --reuid=65534 --regid=65534 --clear-groups $PY - "$T_SOCK" > "$T_DIR/nobody.out" <<'PY' &
import select, sys, time
from api_client import *
socks = [connect(sys.argv[1]) for _ in range(70)]
time.sleep(0.5)
ready, _, _ = select.select(socks, [], [], 0)
refused = [read_reply(s) for s in ready]
held = [s for s in socks if s not in ready]
print(len(held), len(refused), refused[0][2] if refused else "-", flush=True)
t0 = time.monotonic()
for s in held:
    s.settimeout(10)
    assert s.recv(1) == b"", "an idle session got data"
print(f"idle sessions closed after {time.monotonic() - t0:.1f} s")
PY
nobody_pid=$!
sleep 1.5
lat=$($PY "$PYTHONPATH/api_client.py" "$T_SOCK")
check "root is answered while another user holds every other slot ($lat s)" [ -n "$lat" ]
users=$(tern_cli --json -c "show users" | json_field 'len(j["users"])')
check "show users lists the 60 sessions and root's ($users)" [ "$users" = 61 ]
wait $nobody_pid
out=$(cat "$T_DIR/nobody.out")
say "$(tr '\n' ';' <<<"$out")"
check "60 of the user's 70 sessions are served" grep -q "^60 10 " <<<"$out"
check "the 10 others are told why" grep -q "ternd serves no more sessions but root's; try again later" <<<"$out"
check "idle sessions end at idle_timeout (4 s)" grep -q "idle sessions closed after [2-5]\." <<<"$out"

# a request begun and not finished
out=$($PY - "$T_SOCK" <<'PY'
import sys, time
from api_client import *
s = connect(sys.argv[1])
s.sendall(request("show version")[:10])
s.settimeout(5)
t0 = time.monotonic()
r = read_reply(s)
print(f"{time.monotonic() - t0:.1f}", r[2], s.recv(1) == b"")
PY
)
check "an unfinished request is answered with a sentence and closed after request_timeout: $out" \
	grep -q "^[12]\.[0-9] % Request unfinished after 1 s; closing the connection True" <<<"$out"

# pipelined requests: another client is served in between
out=$($PY - "$T_SOCK" <<'PY'
import sys, time, threading
from api_client import *
a = connect(sys.argv[1])
n, done = 2000, {}
def reader():
    for _ in range(n):
        assert read_reply(a)[0] == 0
    done["t"] = time.monotonic()
t0 = time.monotonic()
th = threading.Thread(target=reader)
th.start()
a.sendall(request("show memory") * n)
time.sleep(0.01)
lb = latency(sys.argv[1])
th.join()
print(f"{done['t'] - t0:.3f} {lb:.3f}")
PY
)
read -r total lat <<<"$out"
check "while one client's 2000 pipelined requests take $total s, another waits $lat s (under a fifth)" \
	$PY -c "import sys; sys.exit(0 if $lat < $total / 5 else 1)"

# a client that sends requests and reads no reply
out=$($PY - "$T_SOCK" <<'PY'
import sys, time, json
from api_client import *
a = connect(sys.argv[1])
a.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
a.setblocking(False)
try:
    a.sendall(request("show interfaces") * 20000)
except BlockingIOError:
    pass
time.sleep(1)
q = connect(sys.argv[1])
q.sendall(request("show users", 1))
users = json.loads(read_reply(q)[2])
mine = max(u["tx_queued"] for u in users["users"])
time.sleep(2.5)
q.sendall(request("show users", 1))
left = len(json.loads(read_reply(q)[2])["users"])
print(mine, users["tx_queued"], left)
PY
)
read -r mine all left <<<"$out"
check "a client that reads nothing stops being read: $mine bytes queued for it (at most 2 MiB)" \
	[ "${mine:-0}" -gt 0 ] && [ "$mine" -le $((2 << 20)) ]
check "and it is dropped after reply_timeout: $left session(s) left" [ "$left" = 1 ]

# scrapers that read nothing of their answers, then scrapers that send nothing
ip netns exec "$R" $PY - > "$T_DIR/scrapers.out" <<'PY' &
import socket, time
slow = []
for _ in range(8):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.connect(("127.0.0.1", 9102))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    slow.append(s)
time.sleep(6)
PY
scrapers=$!
sleep 0.5
lat=$(ip netns exec "$R" $PY "$PYTHONPATH/api_client.py" "$T_SOCK")
check "8 scrapers that read slowly hold up no shell request ($lat s)" \
	$PY -c "import sys; sys.exit(0 if $lat < 0.5 else 1)"
wait $scrapers
out=$(ip netns exec "$R" $PY - <<'PY'
import socket, time
def scrape():
    s = socket.create_connection(("127.0.0.1", 9102), timeout=2)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    try:
        return s.recv(12)
    except ConnectionResetError:
        return b""
idle = [socket.create_connection(("127.0.0.1", 9102)) for _ in range(16)]
time.sleep(0.2)
busy = scrape()
time.sleep(6)
print(repr(busy), repr(scrape()))
PY
)
check "16 scrapers that send nothing fill the slots ($out)" grep -q "^b'' " <<<"$out"
check "and are closed at their deadline (5 s): the next scrape is answered" \
	grep -q " b'HTTP/1.1 200'$" <<<"$out"

# the consistency check, a kernel dump and a walk of every table, is kept apart by five
# times its own cost once it costs 10 ms or more
for i in $(seq 0 19999); do echo "route add 198.19.$((i / 250)).$((i % 250))/32 via 198.18.1.2"; done |
	ip -n "$R" -batch -
mirrored() { [ "$(tern_cli --json -c "show ip route summary" | json_field 'j["kernel_routes"]')" -ge 20000 ]; }
wait_for "the 20000 routes are mirrored" mirrored
first=$(tern_cli --json -c "show ip fib consistency" | json_field 'j["differences"]')
out=$(tern_cli -c "show ip fib consistency" 2>&1); rc=$?
check "a check right after one of 20000 routes is refused with a sentence (exit $rc): $out" \
	grep -q "^% The last consistency check took 0\.[0-9]* s; the next may start in" <<<"$out"
check "the first found the FIB as the kernel has it ($first differences)" [ "$first" = 0 ]
# the wait it names is five times the check's cost: under AddressSanitizer or a loaded machine
# that is more than a second
wait_s=$(sed -n 's/.*the next may start in \([0-9.]*\) s.*/\1/p' <<<"$out")
sleep "${wait_s:-1}"; sleep 0.1
check "once the wait it named ($wait_s s) is over, it runs again" consistent

# the tools ternd runs get none of its descriptors
tern_cli -c "ping 198.18.0.2" >/dev/null &
pinger=$!
job_fds() { local p; p=$(pgrep -P "$T_TERND_PID" -x timeout) && ls "/proc/$p/fd" | sort -n | tr '\n' ' '; }
wait_for "a ping job runs" job_fds >/dev/null
fds=$(job_fds)
check "the job holds only stdin, stdout and stderr ($fds)" [ "$fds" = "0 1 2 " ]
wait $pinger

tern_test_end
