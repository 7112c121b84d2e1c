#!/bin/bash
# Seeing packets and state without a debugger: dpdk-dumpcap attaches to a running ternd and
# captures forwarded packets; dpdk-telemetry.py reads ternd's own /tern commands; log levels
# change at run time.
. "$(dirname "$0")/lib.sh"
tern_test_begin observability
# secondary processes (dumpcap) share ternd's memory
two_hosts_on_hugepages

ip netns exec "$H1" ping -c 1 -W 1 198.18.1.2 >/dev/null
ip netns exec "$H1" ping -c 40 -i 0.05 -W 1 198.18.1.2 >/dev/null &
T_PIDS+=($!)
timeout 20 dpdk-dumpcap --file-prefix="$T_ID" -i 1 -c 10 -w "$T_DIR/dp1.pcapng" > "$T_DIR/dumpcap.log" 2>&1
check "dpdk-dumpcap attached to ternd and captured 10 packets on dp1" [ $? -eq 0 ] ||
	tail -n 5 "$T_DIR/dumpcap.log"
out=$(tcpdump -n -r "$T_DIR/dp1.pcapng" 2>/dev/null)
check "the capture holds the forwarded echo requests to h2" grep -q "198.18.0.2 > 198.18.1.2: ICMP echo request" <<<"$out"

# the same through tern's own front end
ip netns exec "$H1" ping -c 40 -i 0.05 -W 1 198.18.1.2 >/dev/null &
T_PIDS+=($!)
out=$(tern_cli -c "capture dp1 count 6 file $T_DIR/front.pcapng" 2>&1)
check "tern's capture runs dpdk-dumpcap on dp1 and reports what it took ($(grep -o "Packets received/dropped.*" <<<"$out"))" \
	grep -q "Packets received/dropped on interface 'net_tap1': [0-9]*/0" <<<"$out"
front=$(tcpdump -n -r "$T_DIR/front.pcapng" 2>/dev/null)
check "its file holds at least the 6 packets asked for ($(wc -l <<<"$front"))" [ "$(wc -l <<<"$front")" -ge 6 ]
check "among them the forwarded echo requests" grep -q "198.18.0.2 > 198.18.1.2: ICMP echo request" <<<"$front"
check "a relative capture file is refused with a sentence" \
	grep -q "The capture file must be an absolute path" <<<"$(tern_cli -c "capture dp1 file x.pcap" 2>&1)"

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
