#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The metrics endpoint: with [metrics] listen = 9101, ternd serves OpenMetrics text on
# 127.0.0.1:9101 in its namespace (not on the ports' addresses); the exposition parses and
# follows traffic; other paths and methods get 404 and 405; a request over 4 KiB gets 431;
# 16 scrapers at once are served and a 17th is turned away; one that stalls is closed at its
# 5 s deadline while others are served; a bad listen value is refused.
. "$(dirname "$0")/lib.sh"
tern_test_begin metrics
two_hosts "[metrics]
listen = 9101"

http() {	# NAMESPACE URL [METHOD] -> "STATUS\nBODY"
	ip netns exec "$1" /usr/bin/python3 - "$2" "${3:-GET}" <<'PY'
import sys, urllib.request, urllib.error
try:
    r = urllib.request.urlopen(urllib.request.Request(sys.argv[1], method=sys.argv[2]), timeout=3)
    print(r.status, r.headers.get("Content-Type")); sys.stdout.write(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code, e.headers.get("Content-Type")); sys.stdout.write(e.read().decode())
except Exception as e:
    print("error", e)
PY
}

# A strict reading of the OpenMetrics text format: families declared before their samples,
# counter samples end in _total, info samples in _info, labels quoted, a final # EOF.
check_openmetrics() {	# FILE
	/usr/bin/python3 - "$1" <<'PY'

import re, sys
text = open(sys.argv[1]).read()
lines = text.split("\n")
assert lines[-1] == "" and lines[-2] == "# EOF", "no final # EOF"
types, seen, done, current = {}, set(), set(), None
name_re = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
sample = re.compile(r"^(" + name_re + r")(\{(" + name_re + r"=\"(\\.|[^\"\\])*\")(,(" + name_re + r"=\"(\\.|[^\"\\])*\"))*\})? (-?[0-9.eE+]+)$")
for l in lines[:-2]:
    if l.startswith("# TYPE "):
        _, _, name, t = l.split(" ", 3)
        assert name not in types, "family declared twice: " + name
        if current:
            done.add(current)
        current = name
        assert t in ("counter", "gauge", "info"), l
        types[name] = t
    elif l.startswith("# HELP "):
        assert l.split(" ")[2] in types, "HELP before TYPE: " + l
    else:
        m = sample.match(l)
        assert m, "not a sample: " + l
        n = m.group(1)
        fam = n[:-6] if n.endswith("_total") else n[:-5] if n.endswith("_info") else n
        assert fam in types, "sample of no family: " + l
        assert fam == current and fam not in done, "samples of a family not together: " + l
        t = types[fam]
        assert (t == "counter") == n.endswith("_total"), "counter suffix: " + l
        assert (t == "info") == n.endswith("_info"), "info suffix: " + l
        assert (n + (m.group(2) or "")) not in seen, "duplicate sample: " + l
        seen.add(n + (m.group(2) or ""))
print(len(types), "families,", len(seen), "samples")
PY
}

out=$(http "$R" http://127.0.0.1:9101/metrics)
check "GET /metrics answers 200 with the OpenMetrics content type" \
	grep -q "^200 application/openmetrics-text; version=1.0.0" <<<"$out"
tail -n +2 <<<"$out" > "$T_DIR/metrics.txt"
check "the exposition is valid OpenMetrics text ($(check_openmetrics "$T_DIR/metrics.txt" 2>&1 | tail -1))" \
	check_openmetrics "$T_DIR/metrics.txt"
for m in tern_port_rx_packets_total tern_worker_cycles_total tern_drops_total tern_punts_total \
	tern_routes tern_fib_memory_bytes tern_netlink_backlog_bytes tern_port_punt_policed_total; do
	check "it exports $m" grep -q "^$m" <<<"$out"
done
before=$(metric 'tern_port_rx_packets_total{port="dp0"}')
ip netns exec "$H1" ping -c 5 -i 0.1 -W 2 198.18.1.2 >/dev/null
after=$(metric 'tern_port_rx_packets_total{port="dp0"}')
check "dp0's receive counter follows 5 pings ($before -> $after)" [ $((after - before)) -ge 5 ]
# frames for another host's MAC, dropped as drop_other_host: the counter is not zero
ip netns exec "$H1" /usr/bin/python3 - "$W0" <<'PY'
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
for _ in range(7):
    s.send(b"\x02\x00\x00\x00\xee\xee" + s.getsockname()[4] + b"\x08\x00" + bytes(46))
PY
wait_for "frames for another host are counted" eval '[ "$(err_counter drop_other_host)" -ge 7 ]'
check "the drop counter matches show errors ($(err_counter drop_other_host))" \
	[ "$(metric 'tern_drops_total{reason="drop_other_host"}')" = "$(err_counter drop_other_host)" ]
check "HEAD /metrics answers 200" grep -q "^200 " <<<"$(http "$R" http://127.0.0.1:9101/metrics HEAD)"
check "page 0 says the exposition is one page" grep -q '^tern_metrics_pages 1$' <<<"$out"
page1=$(http "$R" "http://127.0.0.1:9101/metrics?page=1")
tail -n +2 <<<"$page1" > "$T_DIR/page1.txt"
check "page 1, past the last, is valid and holds no interface's series" \
	eval 'check_openmetrics "$T_DIR/page1.txt" && ! grep -q "^tern_port_rx_packets_total" "$T_DIR/page1.txt"'
check "a page that is not a number answers 400" \
	grep -q "^400 " <<<"$(http "$R" "http://127.0.0.1:9101/metrics?page=one")"
check "another path answers 404" grep -q "^404 " <<<"$(http "$R" http://127.0.0.1:9101/)"
check "another method answers 405" grep -q "^405 " <<<"$(http "$R" http://127.0.0.1:9101/metrics POST)"
garbage=$(printf 'NONSENSE\r\n\r\n' | ip netns exec "$R" timeout 3 /usr/bin/python3 -c 'import socket,sys; s=socket.create_connection(("127.0.0.1",9101)); s.sendall(sys.stdin.buffer.read()); print(s.recv(100).decode())')
check "garbage gets 400" grep -q '400 Bad Request' <<<"$garbage"
check "and ternd stays up" kill -0 "$T_TERND_PID"
not_from_h1() { ! http "$H1" http://198.18.0.1:9101/metrics | grep -q '^200'; }
check "the endpoint is not reachable from a host on a port (loopback only)" not_from_h1
# the positive control: a listener on every address of ternd's namespace is reachable so
ip netns exec "$R" /usr/bin/python3 -c 'import socket; s=socket.create_server(("0.0.0.0", 9102)); c,_=s.accept(); c.sendall(b"here\n")' &
T_PIDS+=($!)
sleep 0.3
check "while a listener on 0.0.0.0:9102 in ternd's namespace is reachable from it" \
	grep -q here <<<"$(ip netns exec "$H1" timeout 3 /usr/bin/python3 -c 'import socket; print(socket.create_connection(("198.18.0.1", 9102), timeout=2).recv(10).decode())')"

# the request limit: 4 KiB of header at most (with a positive control just under it)
header() {	# BYTES -> the status line for a request with a header of about that size
	ip netns exec "$R" timeout 5 /usr/bin/python3 - "$1" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", 9101), timeout=3)
s.sendall(b"GET /metrics HTTP/1.1\r\nX-Pad: " + b"a" * int(sys.argv[1]) + b"\r\n\r\n")
print(s.recv(64).split(b"\r\n")[0].decode())
PY
}
check "a 3000-byte request is answered ($(header 3000))" grep -q "^HTTP/1.[01] 200" <<<"$(header 3000)"
check "a 5000-byte one gets 431 ($(header 5000))" grep -q "^HTTP/1.[01] 431" <<<"$(header 5000)"

# 16 scrapers at once: all served once they ask; a 17th, while 16 are connected, is not
out=$(ip netns exec "$R" timeout 20 /usr/bin/python3 - <<'PY'
import socket, time
held = [socket.create_connection(("127.0.0.1", 9101), timeout=3) for _ in range(16)]
time.sleep(0.3)
extra = socket.create_connection(("127.0.0.1", 9101), timeout=3)
try:
    extra.sendall(b"GET /metrics HTTP/1.1\r\n\r\n")
    turned_away = extra.recv(64) == b""
except OSError:
    turned_away = True
served = 0
for s in held:
    s.sendall(b"GET /metrics HTTP/1.1\r\n\r\n")
    data = b""
    while True:
        chunk = s.recv(1 << 16)
        if not chunk:
            break
        data += chunk
    served += data.startswith(b"HTTP/1.1 200") and data.endswith(b"# EOF\n")
print(f"{served} of 16 served whole; the 17th {'turned away' if turned_away else 'served'}")
PY
)
check "$out" grep -q "^16 of 16 served whole; the 17th turned away" <<<"$out"

# A scraper that stalls (half a request, then nothing) holds its slot until its 5 s deadline
# and no longer; meanwhile others are served. (A reply of some 8 KiB fits in the socket's
# buffers, so one that reads nothing costs ternd no wait at all.)
out=$(ip netns exec "$R" timeout 30 /usr/bin/python3 - <<'PY'
import socket, time
stall = socket.create_connection(("127.0.0.1", 9101))
stall.sendall(b"GET /metr")
t0 = time.monotonic()
s = socket.create_connection(("127.0.0.1", 9101), timeout=3)
s.sendall(b"GET /metrics HTTP/1.1\r\n\r\n")
other = b""
while (chunk := s.recv(1 << 16)):
    other += chunk
t_other = time.monotonic() - t0
stall.settimeout(10)
try:
    end = stall.recv(64)
except OSError:
    end = b"?"
t_stall = time.monotonic() - t0
print(f"another served whole in {t_other:.2f} s: {other.endswith(b'# EOF' + bytes([10]))}; "
      f"the stalled one closed after {t_stall:.1f} s{' without a reply' if end == b'' else ': ' + repr(end)}")
PY
)
check "$out" grep -q "^another served whole in 0\.[0-9]* s: True; the stalled one closed after [56]\.[0-9] s without a reply" <<<"$out"
answers() { tern_cli -c "show version" >/dev/null; }
check "tern still answers" answers
stop_ternd

write_tap_config 1 "[metrics]
listen = 127.0.0.1:99999"
out=$("$TERND" --check-config -f "$T_CONF" 2>&1)
check "a port out of range is refused with one sentence" grep -q "\[metrics\] listen = '127.0.0.1:99999': expected PORT or ADDRESS:PORT" <<<"$out"
tern_test_end
