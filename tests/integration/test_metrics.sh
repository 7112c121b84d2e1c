#!/bin/bash
# The metrics endpoint: with [metrics] listen = 9101, ternd serves OpenMetrics text on
# 127.0.0.1:9101 in its namespace (not on the ports' addresses); the exposition parses and
# follows traffic; other paths and methods get 404 and 405; a bad listen value is refused.
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
metric() {	# NAME{LABELS} -> value
	http "$R" http://127.0.0.1:9101/metrics | grep -F "$1 " | awk '{ print $NF }'
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
check "the drop counter matches show errors" \
	[ "$(metric 'tern_drops_total{reason="drop_other_host"}')" = "$(err_counter drop_other_host)" ]
check "HEAD /metrics answers 200" grep -q "^200 " <<<"$(http "$R" http://127.0.0.1:9101/metrics HEAD)"
check "another path answers 404" grep -q "^404 " <<<"$(http "$R" http://127.0.0.1:9101/)"
check "another method answers 405" grep -q "^405 " <<<"$(http "$R" http://127.0.0.1:9101/metrics POST)"
garbage=$(printf 'NONSENSE\r\n\r\n' | ip netns exec "$R" timeout 3 /usr/bin/python3 -c 'import socket,sys; s=socket.create_connection(("127.0.0.1",9101)); s.sendall(sys.stdin.buffer.read()); print(s.recv(100).decode())')
check "garbage gets 400" grep -q '400 Bad Request' <<<"$garbage"
check "and ternd stays up" kill -0 "$T_TERND_PID"
not_from_h1() { ! http "$H1" http://198.18.0.1:9101/metrics | grep -q '^200'; }
check "the endpoint is not reachable from a host on a port (loopback only)" not_from_h1
answers() { tern_cli -c "show version" >/dev/null; }
check "tern still answers" answers
stop_ternd

write_tap_config 1 "[metrics]
listen = 127.0.0.1:99999"
out=$("$TERND" --check-config -f "$T_CONF" 2>&1)
check "a port out of range is refused with one sentence" grep -q "\[metrics\] listen = '127.0.0.1:99999': expected PORT or ADDRESS:PORT" <<<"$out"
tern_test_end
