#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Seeing packets and state without a debugger: dpdk-dumpcap attaches to a running ternd and
# captures forwarded packets; dpdk-telemetry.py reads ternd's own /tern commands; log levels
# change at run time.
. "$(dirname "$0")/lib.sh"
tern_test_begin observability
# secondary processes (dumpcap) share ternd's memory
two_hosts_on_hugepages "[capture]
dir = $T_DIR/captures"

# h1 pings h2 through the router 20 times a second while a capture starts (dumpcap's EAL start
# can take seconds on a loaded machine) until it is over
pings_meanwhile() {
	ip netns exec "$H1" ping -c 400 -i 0.05 -W 1 198.18.1.2 >/dev/null &
	pinger=$!
	T_PIDS+=($pinger)
}
ip netns exec "$H1" ping -c 1 -W 1 198.18.1.2 >/dev/null
pings_meanwhile
timeout 20 dpdk-dumpcap --file-prefix="$T_ID" -i 1 -c 10 -w "$T_DIR/dp1.pcapng" > "$T_DIR/dumpcap.log" 2>&1
check "dpdk-dumpcap attached to ternd and captured 10 packets on dp1" [ $? -eq 0 ] ||
	tail -n 5 "$T_DIR/dumpcap.log"
kill "$pinger"
out=$(tcpdump -n -r "$T_DIR/dp1.pcapng" 2>/dev/null)
check "the capture holds the forwarded echo requests to h2" grep -q "198.18.0.2 > 198.18.1.2: ICMP echo request" <<<"$out"

# the same through tern's own front end, once ternd has run past 7.4 s: DPDK 22.11 stamped
# captured packets with a time that overflowed after 2^64 / 10^9 TSC cycles (a date in 2251)
up=$(tern_cli --json -c "show version" | json_field 'j["uptime_s"]')
[ "$up" -lt 10 ] && sleep $((10 - up))
pings_meanwhile
out=$(tern_cli -c "capture dp1 count 6 file front.pcapng" 2>&1)
kill "$pinger"
check "tern's capture runs dpdk-dumpcap on dp1 and reports what it took ($(grep -o "Packets received/dropped.*" <<<"$out"))" \
	grep -q "Packets received/dropped on interface 'net_tap1': [0-9]*/0" <<<"$out"
check "and names its file in [capture] dir" grep -qx "Capture file: $T_DIR/captures/front.pcapng" <<<"$out"
check "and says nothing else than the capture's file and counts: $out" \
	eval '! grep -q -e "not driven by the primary" -e "^EAL:" -e "promiscuous" -e "/dev/fd/" <<<"$out"'
front=$(tcpdump -n -r "$T_DIR/captures/front.pcapng" 2>/dev/null)
check "its file holds at least the 6 packets asked for ($(wc -l <<<"$front"))" [ "$(wc -l <<<"$front")" -ge 6 ]
check "among them the forwarded echo requests" grep -q "198.18.0.2 > 198.18.1.2: ICMP echo request" <<<"$front"
first=$(tcpdump -tt -n -r "$T_DIR/captures/front.pcapng" 2>/dev/null | head -1 | cut -d. -f1)
check "each packet has the time it was captured ($first, now $(date +%s))" \
	[ $(( $(date +%s) - first )) -ge 0 ] && [ $(( $(date +%s) - first )) -lt 120 ]
check "the file is root's, readable by its group only" [ "$(stat -c %U:%a "$T_DIR/captures/front.pcapng")" = root:640 ]
out=$(tern_cli -c "capture dp1 count 1 file $T_DIR/captures/front.pcapng" 2>&1)
check "an existing file is never written over: $out" grep -q "front.pcapng exists already; give another name" <<<"$out"
ln -s /etc/passwd "$T_DIR/captures/link.pcapng"
out=$(tern_cli -c "capture dp1 count 1 file link.pcapng" 2>&1)
check "nor a link followed: $out" grep -q "link.pcapng exists already" <<<"$out"
check "and what the link points to is untouched" grep -q "^root:" /etc/passwd
out=$(tern_cli -c "capture dp1 count 1 file /etc/tern-capture.pcapng" 2>&1)
check "a path outside [capture] dir is refused with a sentence: $out" \
	grep -q "Captures are written into $T_DIR/captures only (\[capture\] dir): give a file name" <<<"$out"
check "and nothing is made there" [ ! -e /etc/tern-capture.pcapng ]
out=$(tern_cli -c "capture dp1 count 1 file ..pcapng" 2>&1)
check "a name starting with a dot is refused: $out" grep -q "expected 1 to 64 letters, digits" <<<"$out"
pings_meanwhile
out=$(tern_cli -c "capture dp1 count 2" 2>&1)
kill "$pinger" 2>/dev/null
default=$(sed -n 's/^Capture file: //p' <<<"$out")
check "without a name the file is named for the port, the time and a random part ($default)" \
	grep -Eq "^$T_DIR/captures/dp1-[0-9]{8}-[0-9]{6}-[0-9a-f]{8}\.pcapng$" <<<"$default"

out=$(timeout 20 dpdk-proc-info --file-prefix="$T_ID" --no-pci --log-level='*:error' -- --stats 2>&1)
check "dpdk-proc-info attaches as a secondary process and reads both ports' stats" \
	[ "$(grep -c "NIC statistics for port" <<<"$out")" -eq 2 ] || tail -n 5 <<<"$out"

out=$(echo "/tern/errors" | timeout 10 dpdk-telemetry.py -f "$T_ID" 2>&1)
check "dpdk-telemetry.py reads /tern/errors" grep -q '"drop_blackhole"' <<<"$out"
out=$(echo "/ethdev/stats,1" | timeout 10 dpdk-telemetry.py -f "$T_ID" 2>&1)
check "and the stock ethdev stats" grep -q '"opackets"' <<<"$out"
out=$(echo "/tern/fib" | timeout 10 dpdk-telemetry.py -f "$T_ID" 2>&1)
check "and /tern/fib" grep -q '"updates"' <<<"$out"

tern_cli -c "debug netlink"
check "debug netlink: show logging says debug" grep -q "^netlink *debug" <<<"$(tern_cli -c "show logging")"
ip -n "$R" route add 198.19.77.0/24 via 198.18.1.2
wait_for "the change is logged" grep -q "netlink: new route" "$T_DIR/ternd.log"
tern_cli -c "no debug netlink"
check "no debug netlink: back to info" grep -q "^netlink *info" <<<"$(tern_cli -c "show logging")"
tern_test_end
