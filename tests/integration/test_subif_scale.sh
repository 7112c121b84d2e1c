#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Sub-interfaces at a provider edge's scale: 4000 sub-interfaces of dp0, the first half
# 802.1Q (dp0.V: VLAN V), the second QinQ (802.1ad 10, 802.1Q V - N / 2), each with an IPv4
# /30 and a kernel interface of its own, made from the shell, forwarded over (a sample of
# them, both ways, tagged frames from vlan_host.py), written to the store and made again by
# a restart, then removed. snmpd's walk of IF-MIB's ifXTable, ternd its subagent, lists them
# all. The shell answers for them at once, and the interface limit
# ([interfaces] max) refuses one more with a sentence and leaves nothing half made. Under
# AddressSanitizer (make asan) it makes 1000: the code they go through is the same, and the
# figures of the scale are make test's.
. "$(dirname "$0")/lib.sh"
tern_test_begin subif_scale
if [[ "${TERN_BUILD:-}" == *asan* ]]; then N=${SCALE_N:-1000}; else N=${SCALE_N:-4000}; fi
ONE_Q=$((N * 1234 / 4000)) ONE_AD=$((N * 2500 / 4000))	# an 802.1Q one and a QinQ one
SAMPLE=${SCALE_SAMPLE:-"1 2 $ONE_Q $ONE_AD $N"}
two_hosts "[metrics]
listen = 9101
[snmp]
agentx = $T_DIR/agentx.sock"
snmpd_start "$R"

addr() { local o=$(($1 * 4)); echo "198.19.$((o >> 8)).$(((o & 255) + ${2:-1}))"; }	# V [HOST]
# dp0.V's tags, as vlan_host.py writes them: V, or 10.C for the QinQ half
tags() { if [ "$1" -le $((N / 2)) ]; then echo "$1"; else echo "10.$(($1 - N / 2))"; fi; }
subif_links() { ip -n "$R" -o link show | awk -F': ' '$2 ~ /^dp0\.[0-9]+$/' | wc -l; }
subif_links_are() { [ "$(subif_links)" = "$1" ]; }	# N
# the control thread's CPU (the main thread's: the API and the metrics endpoint are its)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$T_TERND_PID/task/$T_TERND_PID/stat"; }
elapsed() { echo "$(date +%s%N) $1" | awk '{ printf "%.2f", ($1 - $2) / 1e9 }'; }

# the exception service's CPU over 3 s of an idle router, in clock ticks
exception_idle_ticks() {
	local t c0
	t=$(grep -l '^tern-exception$' /proc/"$T_TERND_PID"/task/*/comm | head -1)
	t=${t%/comm}
	c0=$(awk '{ print $14 + $15 }' "$t/stat")
	sleep 3
	echo $(($(awk '{ print $14 + $15 }' "$t/stat") - c0))
}
idle2=$(exception_idle_ticks)

{
	echo "configure terminal"
	for v in $(seq 1 $N); do
		echo "interface dp0.$v"
		[ "$v" -gt $((N / 2)) ] && echo "encapsulation dot1ad 10 dot1q $((v - N / 2))"
		echo "ip address $(addr "$v")/30"
		echo "exit"
	done
	echo "end"
} > "$T_DIR/make.txt"
t0=$(date +%s%N)
out=$(tern_cli -f "$T_DIR/make.txt" 2>&1)
check "$N sub-interfaces are made from the shell in $(elapsed "$t0") s: ${out:-no complaint}" [ -z "$out" ]
check "each has its kernel interface ($(subif_links) of them)" [ "$(subif_links)" = $N ]
check "show version counts them" json_true "j['subinterfaces'] == $N" <<<"$(tern_cli --json -c "show version")"
check "show memory counts them against [interfaces] max" json_true \
	"j['tables']['interfaces']['used'] == $((N + 2)) and j['tables']['interfaces']['limit'] == 16384" \
	<<<"$(tern_cli --json -c "show memory")"
check "and no address was refused" json_true "j['tables']['addresses']['refused'] == 0" \
	<<<"$(tern_cli --json -c "show memory")"

# Under AddressSanitizer ternd runs several times slower: its times are said, not held to.
timed() {	# DESCRIPTION COMMAND...
	if [[ "${TERN_BUILD:-}" == *asan* ]]; then
		"${@:2}" && say "ok: $1" || say "NOTE (AddressSanitizer's build, not counted): $1"
	else
		check "$@"
	fi
}
sleep 2	# the kernel's own chatter on new interfaces (IPv6 router solicitations) dies down
idle4k=$(exception_idle_ticks)
timed "the idle exception service takes $idle4k ticks of 3 s with $((N + 2)) TAPs, $idle2 with 2 (within 2x, or a tick)" \
	[ "$idle4k" -le $((2 * idle2 + 1)) ]
# the control thread's tick asks no driver a sub-interface (it took 14 % of a core when each
# sub-interface's link was asked of its TAP port's driver, twice a tick)
c0=$(cpu_ticks)
sleep 3
c=$(($(cpu_ticks) - c0))
timed "the idle control thread takes $c ticks of 3 s with $N sub-interfaces (at most 6: 2 %)" [ "$c" -le 6 ]
c0=$(cpu_ticks) t0=$(date +%s%N)
rows=$(tern_cli -c "show interfaces brief" | grep -c '^dp0\.')
ms=$((($(cpu_ticks) - c0) * 1000 / $(getconf CLK_TCK)))
check "show interfaces brief lists the $rows" [ "$rows" = $N ]
timed "and takes $(elapsed "$t0") s, ${ms} ms of the control thread's CPU (< 100)" [ "$ms" -lt 100 ]
# the exposition in pages of 1024 interfaces: every interface on exactly one page, each page
# a fraction of the whole
scrape() {	# PAGE: its text in $T_DIR/metrics.PAGE, the control thread's ms in $ms
	local c0
	c0=$(cpu_ticks)
	ip netns exec "$R" /usr/bin/python3 -c '
import sys, urllib.request
sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:9101/metrics?page=" + sys.argv[1], timeout=10).read().decode())' \
		"$1" > "$T_DIR/metrics.$1"
	ms=$((($(cpu_ticks) - c0) * 1000 / $(getconf CLK_TCK)))
}
t0=$(date +%s%N)
scrape 0
pages=$(sed -n 's/^tern_metrics_pages //p' "$T_DIR/metrics.0")
check "page 0 says there are $pages pages for $((N + 2)) interfaces" [ "$pages" = $(((N + 2 + 1023) / 1024)) ]
worst=$ms biggest=$(wc -c < "$T_DIR/metrics.0")
for p in $(seq 1 $((pages - 1))); do
	scrape "$p"
	[ "$ms" -gt "$worst" ] && worst=$ms
	[ "$(wc -c < "$T_DIR/metrics.$p")" -gt "$biggest" ] && biggest=$(wc -c < "$T_DIR/metrics.$p")
done
cat "$T_DIR"/metrics.? | grep -o '^tern_port_rx_packets_total{port="[^"]*"}' | sort > "$T_DIR/rx_series"
check "every interface's series is on one page ($(wc -l < "$T_DIR/rx_series") of $((N + 2)))" \
	eval '[ "$(wc -l < "$T_DIR/rx_series")" = $((N + 2)) ] && [ -z "$(uniq -d "$T_DIR/rx_series")" ] &&
		grep -q "dp0.$N\"" "$T_DIR/rx_series"'
timed "the $pages pages take $(elapsed "$t0") s; the largest is $biggest bytes and took ${worst} ms of the control thread's CPU (< 100)" \
	[ "$worst" -lt 100 ]
# IF-MIB: a walk of the whole ifXTable (GETBULK, 50 objects an answer). snmpd asks its
# subagent for one object at a time (net-snmp's master turns a GETBULK into a GETNEXT each
# repetition), so the walk is an AgentX exchange an object: it is timed, and ternd's share
# held to 50 us of its control thread's CPU an object.
WAIT_S=15 wait_for "ternd is snmpd's subagent" logged "connected to the AgentX master"
c0=$(cpu_ticks) t0=$(date +%s%N)
ip netns exec "$R" env MIBS= snmpbulkwalk -v2c -c public -On -Cr50 -t 5 127.0.0.1:16100 \
	1.3.6.1.2.1.31.1.1.1 > "$T_DIR/ifxtable.txt" 2>&1
walk_s=$(elapsed "$t0") ms=$((($(cpu_ticks) - c0) * 1000 / $(getconf CLK_TCK)))
objects=$(wc -l < "$T_DIR/ifxtable.txt")
names=$(grep -c '^\.1\.3\.6\.1\.2\.1\.31\.1\.1\.1\.1\.[0-9]* = STRING: "dp0\.[0-9]*"' "$T_DIR/ifxtable.txt")
check "a walk of ifXTable through snmpd has a row for each sub-interface ($names)" [ "$names" = $N ]
timed "it answers its $objects objects in $walk_s s, ${ms} ms of ternd's control thread ($((ms * 1000 / objects)) us an object, < 50)" \
	[ $((ms * 1000 / objects)) -lt 50 ]
check "show interfaces dp0.$ONE_Q finds it" json_true \
	"j['interfaces'][0]['encapsulation'] == 'dot1q $ONE_Q'" <<<"$(tern_cli --json -c "show interfaces dp0.$ONE_Q")"
check "and dp0.$N is QinQ" json_true \
	"j['interfaces'][0]['encapsulation'] == 'dot1ad 10 dot1q $((N / 2))'" <<<"$(tern_cli --json -c "show interfaces dp0.$N")"

vlan_host_start() {	# answers for the sample hosts on h1's wire
	local serve=() v
	for v in $SAMPLE; do serve+=("$(tags "$v")=$(addr "$v" 2)"); done
	ip netns exec "$H1" /usr/bin/python3 "$(dirname "$0")/vlan_host.py" serve "$W0" \
		"$(host_mac "$H1" "$W0")" "${serve[@]}" &
	T_PIDS+=("$!")
	sleep 0.5
}
vlan_host_start

forwards_sample() {	# the router's kernel resolves each sample host; h2 then reaches it through the dataplane
	local v k lost=0
	for v in $SAMPLE; do
		ip netns exec "$R" ping -c 1 -W 1 "$(addr "$v" 2)" >/dev/null || lost=$((lost + 1))
	done
	for v in $SAMPLE; do
		wait_for "the host on VLAN $v is a forward entry" fib_is "$(addr "$v" 2)" forward || lost=$((lost + 1))
	done
	ip netns exec "$H2" ping -c 1 -W 1 "$(addr 1 2)" >/dev/null	# resolves h2
	k=$(fwd4)
	for v in $SAMPLE; do
		ip netns exec "$H2" ping -c 2 -i 0.2 -W 1 "$(addr "$v" 2)" | grep -q " 0% packet loss" ||
			lost=$((lost + 1))
	done
	[ "$lost" = 0 -a "$(fwd4)" = "$k" ]
}
rx=$(if_counter "dp0.$ONE_AD" rx_packets) tx=$(if_counter "dp0.$ONE_AD" tx_packets)
check "h2 reaches the hosts on VLANs $(for v in $SAMPLE; do tags "$v"; done | xargs) through the dataplane, both ways" forwards_sample
check "dp0.$ONE_AD counts them in and out ($rx -> $(if_counter "dp0.$ONE_AD" rx_packets), $tx -> $(if_counter "dp0.$ONE_AD" tx_packets))" \
	[ "$(if_counter "dp0.$ONE_AD" rx_packets)" -ge $((rx + 2)) -a "$(if_counter "dp0.$ONE_AD" tx_packets)" -ge $((tx + 2)) ]

# a port's wire back in its host after a restart (its TAP is made anew), as make_host did
rewire() {	# PORT-INDEX HOST_NS ADDR/LEN GATEWAY HOST-NUMBER
	local port=${T_ID}h$1
	ip -n "$R" link set "$port" netns "$2"
	ip -n "$2" link set "$port" address "$(printf '02:00:00:00:00:%02x' "$5")"
	ip -n "$2" addr add "$3" dev "$port"
	ip -n "$2" link set "$port" up
	ip -n "$2" route add default via "$4"
	link_lamp_add "$R" "$1"
}
check "write memory keeps them" grep -q "saved" <<<"$(tern_cli -c "write memory")"
stop_ternd >/dev/null
wait_for "their kernel interfaces go with ternd" subif_links_are 0
ip -n "$R" link del "$W0"; ip -n "$R" link del "$W1"	# the lamps
# (polled by the last one's name: a dump of all of them every 0.1 s would take the CPU ternd
# makes them with)
t0=$(date +%s%N)
start_ternd "$R"
wait_for "after a restart dp0.$N is back" ip -n "$R" link show "dp0.$N"
up_s=$(elapsed "$t0")
check "and so are all $N kernel interfaces" subif_links_are $N
say "ternd up with its $N sub-interfaces in $up_s s: $(grep -o 'ready in .* workers and API [0-9.]* s' "$T_DIR/ternd.log")"
rewire 0 "$H1" 198.18.0.2/24 198.18.0.1 1
rewire 1 "$H2" 198.18.1.2/24 198.18.1.1 2
ports_up() { json_true "[i['link'] for i in j['interfaces'] if i['name'] in ('dp0', 'dp1')] == ['up', 'up']" \
	<<<"$(tern_cli --json -c "show interfaces brief")" && carrier dp0 LOWER_UP && carrier dp1 LOWER_UP; }
wait_for "both ports' links are up" ports_up
vlan_host_start
check "and forwards over the sample again" forwards_sample
timed "ternd was up and forwarding on them within 10 s of its start ($up_s s)" \
	awk -v s="$up_s" 'BEGIN { exit !(s <= 10) }'

{
	echo "configure terminal"
	for v in $(seq 1 $N); do echo "no interface dp0.$v"; done
	echo "end"
} > "$T_DIR/remove.txt"
t0=$(date +%s%N)
out=$(tern_cli -f "$T_DIR/remove.txt" 2>&1)
check "the $N are removed in $(elapsed "$t0") s: ${out:-no complaint}" [ -z "$out" ]
wait_for "their kernel interfaces follow, in one go at ternd's next tick" subif_links_are 0
check "show version counts none" json_true "j['subinterfaces'] == 0" <<<"$(tern_cli --json -c "show version")"

# The limit: 34 interfaces, the two ports and 32 sub-interfaces
tern_cli -c "write memory" >/dev/null
stop_ternd >/dev/null
ip -n "$R" link del "$W0"; ip -n "$R" link del "$W1"	# the lamps
write_tap_config 2 "$(printf '[interfaces]\nmax = 34')"
start_ternd "$R"
{
	echo "configure terminal"
	for v in $(seq 1 32); do echo "interface dp0.$v"; echo "exit"; done
	echo "end"
} > "$T_DIR/limit.txt"
out=$(tern_cli -f "$T_DIR/limit.txt" 2>&1)
check "with [interfaces] max = 34, 32 sub-interfaces are made: ${out:-no complaint}" [ -z "$out" ]
out=$(tern_cli -c "configure terminal" -c "interface dp0.33" 2>&1)
check "the 33rd is refused with a sentence: $out" grep -q "no room for another interface: ports and sub-interfaces are at most 34 (\[interfaces\] max)" <<<"$out"
no_link() { ! ip -n "$R" link show "$1" >/dev/null 2>&1; }	# NAME
check "and has no kernel interface" no_link dp0.33
check "show memory counts the refusal" json_true \
	"j['tables']['interfaces']['used'] == 34 and j['tables']['interfaces']['refused'] == 1" \
	<<<"$(tern_cli --json -c "show memory")"
# a kernel interface already holds the name: the TAP cannot be made, and no slot is left
tern_cli -c "configure terminal" -c "no interface dp0.32" -c "end"
wait_for "dp0.32's kernel interface goes" no_link dp0.32
ip -n "$R" link add dp0.32 type veth peer name "${T_ID}x"
out=$(tern_cli -c "configure terminal" -c "interface dp0.32" 2>&1)
check "a sub-interface whose kernel name is taken is refused: $out" grep -q "Cannot make dp0.32" <<<"$out"
check "and leaves no slot behind" json_true \
	"j['tables']['interfaces']['used'] == 33 and j['subinterfaces'] == 31" \
	<<<"$(tern_cli --json -c "show memory" -c "show version" | tr '\n' ' ' | sed 's/} {/, /')"
ip -n "$R" link del dp0.32
out=$(tern_cli -c "configure terminal" -c "interface dp0.32" -c "end" 2>&1)
check "once the name is free it is made: ${out:-no complaint}" [ -z "$out" ]
tern_test_end
