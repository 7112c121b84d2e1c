#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# sFlow from the workers, received by real collectors (tests/fixtures/sflow_run.sh): ternd
# forwards 2.2M IPv4 frames of tern-bench's between two memif ports, then 200 000 IPv6 ones,
# sampling 1 in 1000 on m0 with
# counters every second, and sends the datagrams to a collector namespace where pmacct's
# sfacctd and tshark both decode them. Both collectors' estimates (samples x rate) are within
# 10 % of what was forwarded; tshark reads every sample ternd sent, from the agent address,
# with the interfaces, next hop and prefix lengths the FIB forwards by; the last counter
# sample of m0 matches show interfaces. Settings out of range and a fifth collector are
# refused with a sentence; collectors the router has no route to (IPv4 and IPv6) cost a
# counted send error and nothing else. The metrics endpoint counts the samples and datagrams.
. "$(dirname "$0")/lib.sh"
tern_test_begin sflow
OUT=$T_DIR/sflow
"$TERN_ROOT/tests/fixtures/sflow_run.sh" "$TERN_BUILD" "$OUT" 1000 1100000 2 > "$T_DIR/run.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/run.log" | tail -n 5
check "the run went through (exit $rc)" [ $rc -eq 0 ]
val() { sed -n "s/^$1=//p" "$T_DIR/run.log"; }
check "ternd is still up after it" [ "$(val ternd_alive)" = yes ]

fwd=$(json_field 'j["rx_packets"]' < "$OUT/gen.json" 2>/dev/null)
check "tern-bench's frames came back forwarded: ${fwd:-none} of 2 200 000 (at least 2 000 000)" \
	[ "${fwd:-0}" -ge 2000000 ]
within10() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d <= 0.1 * w) }'; }

# sfacctd: flows by interface, sampling rate and EtherType, not renormalized: its packets
# are samples
est=$(/usr/bin/python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j.get("event_type") == "purge" and j.get("etype") == "800":
        n += j["packets"] * j["sampling_rate"]
print(n)' "$OUT/flows.json" 2>/dev/null)
check "sfacctd's estimate of IPv4, ${est:-nothing} frames, is within 10 % of the $fwd forwarded" \
	within10 "${est:-0}" "$fwd"

# tshark: every sample ternd counted, as sent; the IPv4 run's, then 200 000 IPv6 frames' (2001:2:0:1::/64
# through 2001:2:0:ff::2)
sent4=$(json_field 'j["flow_samples"]' < "$OUT/show_sflow.json")
sent=$(json_field 'j["flow_samples"]' < "$OUT/show_sflow6.json")
got=$(grep -c "sFlow sample type: Expanded flow sample (3)" "$OUT/sflow.txt")
check "tshark decoded $got flow samples, all $sent ternd sent" [ "$got" = "$sent" ]
check "tshark's estimate of IPv4, $((sent4 * 1000)) frames, is within 10 % of the $fwd forwarded" \
	within10 $((sent4 * 1000)) "$fwd"
one() { grep "$1" "$OUT/sflow.txt" | sort -u; }	# the one form a field takes in every sample
count() { grep -c "^ *$1\$" "$OUT/sflow.txt"; }		# samples with that line
check "every datagram names the agent address 198.18.5.1" [ "$(one "Agent address:")" = "    Agent address: 198.18.5.1" ]
check "every sample is 1 in 1000" [ "$(one "Sampling rate:")" = "        Sampling rate: 1 out of 1000 packets" ]
check "in by m0 (ifIndex $(val ifindex_m0), its kernel interface's)" \
	[ "$(one "Input interface value:")" = "        Input interface value: $(val ifindex_m0)" ]
check "out by m1 (ifIndex $(val ifindex_m1))" \
	[ "$(one "Output interface value:")" = "        Output interface value: $(val ifindex_m1)" ]
check "IPv4's $sent4: next hop 198.18.1.2, the route 198.19.0.0/16's" [ "$(count "Next hop: 198.18.1.2")" = "$sent4" ]
check "destination prefix length 16" [ "$(count "Next hop destination mask: 16")" = "$sent4" ]
check "each holds the frame's header (60 bytes of a 64-byte frame less its CRC)" \
	[ "$(count "Sampled header length: 60")" = "$sent4" ]
sent6=$((sent - sent4))
check "IPv6's $sent6 (about 200): next hop 2001:2:0:ff::2, prefix length 64, 78 bytes of header" \
	[ "$sent6" -ge 100 ] && [ "$(count "Next hop: 2001:2:0:ff::2")" = "$sent6" ] &&
	[ "$(count "Next hop destination mask: 64")" = "$sent6" ] && [ "$(count "Sampled header length: 78")" = "$sent6" ]
check "no sample was lost in the workers' rings" \
	json_true 'j["interfaces"][0]["drops"] == 0 and j["interfaces"][0]["samples"] > 0' < "$OUT/show_sflow6.json"

# counter samples, m0's last against show interfaces
rx=$(json_field '[i for i in j["interfaces"] if i["name"] == "m0"][0]["rx_packets"]' < "$OUT/show_interfaces.json")
last=$(grep "Input Packets:" "$OUT/sflow.txt" | tail -n 1 | awk '{ print $3 }')
check "m0's last counter sample reads $last packets in, as show interfaces ($rx)" [ "$last" = "$rx" ]
csf=$(/usr/bin/python3 -c '
import json, sys
last = None
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j.get("ifIndex") == int(sys.argv[2]):
        last = j["ifInUcastPkts"]
print(last)' "$OUT/counters.json" "$(val ifindex_m0)" 2>/dev/null)
check "and so does sfacctd's ($csf)" [ "$csf" = "$rx" ]

refused() { grep -q "$1" "$OUT/refused.txt"; }
check "a sample rate of 0 is refused" refused "Sample rate 0 is out of range: expected 1 to 16777215"
check "and one of 16777216" refused "Sample rate 16777216 is out of range"
check "a polling interval of 0 is refused" refused "Polling interval 0 is out of range: expected 1 to 3600 seconds"
check "a collector's port of 70000 is refused" refused "Port 70000 is out of range: expected 1 to 65535"
check "a fifth collector is refused" refused "tern sends to 4 sFlow collectors at most: remove one first"
check "the running configuration holds the agent, the four collectors, the interval and m0's rate" \
	bash -c "grep -c '^sflow agent-address 198.18.5.1\$\|^sflow collector 198.18.5.2\$\|^sflow collector 198.18.7.1\$\|^sflow collector 2001:2:ffff::1 port 6400\$\|^sflow collector 198.18.5.2 port 9995\$\|^sflow polling-interval 1\$\|^ sflow sample-rate 1000\$' '$OUT/running_config.txt' | grep -qx 7"
after() { json_field "[c for c in j['collectors'] if c['address'] == '$1' and c['port'] == $2][0]['$3']" < "$OUT/show_sflow_after.json"; }
check "the collector with no route (198.18.7.1) costs send errors ($(after 198.18.7.1 6343 send_errors)) and nothing else" \
	[ "$(after 198.18.7.1 6343 send_errors)" -ge 1 ] && [ "$(after 198.18.7.1 6343 datagrams)" = 0 ]
check "and so does the IPv6 one ($(after 2001:2:ffff::1 6400 send_errors))" \
	[ "$(after 2001:2:ffff::1 6400 send_errors)" -ge 1 ]
check "while the reachable ones are sent to without error" \
	[ "$(after 198.18.5.2 6343 send_errors)" = 0 ] && [ "$(after 198.18.5.2 9995 datagrams)" -ge 1 ]
metric() { sed -n "s/^$1 //p" "$OUT/metrics.txt"; }	# NAME{LABELS}: its value
taken=$(json_field 'j["interfaces"][0]["samples"]' < "$OUT/show_sflow_after.json")
check "the metrics endpoint counts m0's samples as show sflow does ($taken)" \
	[ "$(metric 'tern_sflow_samples_total{port="m0",fate="taken"}')" = "$taken" ]
failed=$(metric 'tern_sflow_datagrams_total{collector="198.18.7.1",udp_port="6343",fate="failed"}')
check "and the failed datagrams of the collector with no route (${failed:-none})" [ "${failed:-0}" -ge 1 ]
tern_test_end
