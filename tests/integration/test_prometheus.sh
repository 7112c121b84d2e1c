#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Debian's Prometheus server scrapes ternd's metrics endpoint in ternd's namespace, every
# second: the target is up; while h1 pings h2 through the dataplane at 500 packets a second,
# rate() of dp0's receive counter matches ping's own rate within 5 %; dp1 shut down reads
# admin down, and with its cable pulled, link down, and both come back. The example alerting
# rules (etc/prometheus/tern-alerts.yml) pass promtool's check and their own tests.
. "$(dirname "$0")/lib.sh"
tern_test_begin prometheus
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RULES=$ROOT/etc/prometheus/tern-alerts.yml

out=$(promtool check rules "$RULES" 2>&1)
check "promtool accepts the example alerting rules: $(grep -o 'SUCCESS.*' <<<"$out")" \
	grep -q "SUCCESS: 5 rules found" <<<"$out"
out=$(cd "$(dirname "$0")" && promtool test rules tern-alerts.test.yml 2>&1)
check "each rule fires where it should and not elsewhere (promtool test rules)" \
	grep -q "SUCCESS" <<<"$out" || echo "$out"

two_hosts "[metrics]
listen = 9101"
cat > "$T_DIR/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $RULES
scrape_configs:
  - job_name: tern
    static_configs:
      - targets: ['127.0.0.1:9101']
EOF
check "promtool accepts the test's configuration" \
	bash -c "promtool check config '$T_DIR/prometheus.yml' >/dev/null 2>&1"
ip netns exec "$R" prometheus --config.file="$T_DIR/prometheus.yml" \
	--storage.tsdb.path="$T_DIR/tsdb" --web.listen-address=127.0.0.1:9090 \
	--log.level=warn > "$T_DIR/prometheus.log" 2>&1 &
T_PIDS+=("$!")

prom() {	# QUERY [TIME]: the first result's value, or nothing
	ip netns exec "$R" /usr/bin/python3 - "$@" <<'PY'
import json, sys, urllib.parse, urllib.request
q = {"query": sys.argv[1]}
if len(sys.argv) > 2:
    q["time"] = sys.argv[2]
try:
    r = json.load(urllib.request.urlopen("http://127.0.0.1:9090/api/v1/query?" + urllib.parse.urlencode(q), timeout=5))
    print(r["data"]["result"][0]["value"][1])
except Exception:
    pass
PY
}
prom_is() { [ "$(prom "$1")" = "$2" ]; }	# QUERY VALUE
WAIT_S=30 wait_for "Prometheus scrapes ternd: up{job=\"tern\"} is 1" prom_is 'up{job="tern"}' 1

# 500 echo requests a second for 12 s, in on dp0 and forwarded out of dp1
ip netns exec "$H1" ping -c 1 -W 2 198.18.1.2 >/dev/null	# the neighbours resolved first
t0=$(date +%s.%N)
ip netns exec "$H1" ping -q -i 0.002 -c 6000 -W 1 198.18.1.2 > "$T_DIR/ping.txt" 2>&1
t1=$(date +%s.%N)
sent=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' "$T_DIR/ping.txt")
ms=$(sed -n 's/.* time \([0-9]*\)ms$/\1/p' "$T_DIR/ping.txt")
check "h1 sent $sent echo requests in $ms ms, all answered" grep -q " 0% packet loss" "$T_DIR/ping.txt"
sleep 2	# the scrape after the last of them
# the rate over the 8 s in the middle of the run, where every second had its 500
mid=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (a + b) / 2 + 4 }')
got=$(prom 'rate(tern_port_rx_packets_total{port="dp0"}[8s])' "$mid")
want=$(awk -v n="$sent" -v ms="$ms" 'BEGIN { printf "%.1f", n * 1000 / ms }')
check "rate() of dp0's receive counter is ${got:-nothing} packets/s, ping's $want (within 5 %)" \
	awk -v g="${got:-0}" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.05 * w) }'

tern_cli -c "configure terminal" -c "interface dp1" -c "shutdown" -c "end" >/dev/null
wait_for "dp1 shut down: tern_port_admin_up{port=\"dp1\"} is 0" prom_is 'tern_port_admin_up{port="dp1"}' 0
tern_cli -c "configure terminal" -c "interface dp1" -c "no shutdown" -c "end" >/dev/null
wait_for "and 1 again after no shutdown" prom_is 'tern_port_admin_up{port="dp1"}' 1
link_set "$R" 1 down
wait_for "dp1's cable pulled: tern_port_link_up{port=\"dp1\"} is 0" prom_is 'tern_port_link_up{port="dp1"}' 0
check "dp0's link stays up" prom_is 'tern_port_link_up{port="dp0"}' 1
link_set "$R" 1 up
wait_for "and 1 again with the cable back" prom_is 'tern_port_link_up{port="dp1"}' 1
check "Prometheus logged no error" bash -c "! grep -i 'level=error' '$T_DIR/prometheus.log'"
tern_test_end
