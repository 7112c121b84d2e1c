#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# An MTU the port refuses is never recorded: ternd keeps the port's MTU, sets the kernel
# interface back to it, says so in the log and in show interfaces, and the shell refuses it
# with the driver's range. A frame from the kernel longer than the port's MTU allows is a
# counted drop, never cut short. (ternd takes MTUs up to 9216 on a TAP port, beyond what its
# packet buffers hold in chains of them: test_mtu_runtime.)
. "$(dirname "$0")/lib.sh"
tern_test_begin mtu-refused
two_hosts

ping_ok() { ip netns exec "$1" ping -c 1 -W 1 "$2" >/dev/null; }
kernel_mtu() { ip -n "$R" -j link show "$1" | json_field 'j[0]["mtu"]'; }

ip -n "$R" link set dp1 mtu 9300
wait_for "the kernel interface dp1 is set back to the port's MTU" eval '[ "$(kernel_mtu dp1)" = 1500 ]'
check "the port keeps MTU 1500" [ "$(if_counter dp1 mtu)" = 1500 ]
check "show interfaces --json names the refused MTU" [ "$(if_counter dp1 mtu_refused)" = 9300 ]
check "show interfaces says it in words" \
	grep -q "MTU 9300 was refused by the port (see the log); it keeps MTU 1500" <<<"$(tern_cli -c 'show interfaces dp1')"
check "the log says why and what was done" \
	grep -q "dp1: the port refuses MTU 9300: its driver (net_tap) takes MTU [0-9]* to 9216; it keeps MTU 1500 and its kernel interface is set back to it" "$T_DIR/ternd.log"
check "1500-byte frames with DF still cross the router" \
	grep -q " 0% packet loss" <<<"$(ip netns exec "$H1" ping -c 2 -i 0.2 -W 1 -M do -s 1472 198.18.1.2)"

out=$(tern_cli -c "configure terminal" -c "interface dp1" -c "mtu 9300" 2>&1)
check "the shell refuses MTU 9300 with the range: $out" grep -q "MTU 9300 is out of range: expected 68 to 9216" <<<"$out"
check "and leaves the kernel interface as it was" [ "$(kernel_mtu dp1)" = 1500 ]
tern_cli -c "configure terminal" -c "interface dp1" -c "mtu 1400" -c "end" >/dev/null
check "an MTU the port takes reaches both the port and the kernel" \
	[ "$(if_counter dp1 mtu)/$(kernel_mtu dp1)/$(if_counter dp1 mtu_refused)" = 1400/1400/0 ]
tern_cli -c "configure terminal" -c "interface dp1" -c "no mtu" -c "end" >/dev/null
check "no mtu gives back the configuration file's" [ "$(if_counter dp1 mtu)/$(kernel_mtu dp1)" = 1500/1500 ]

# A frame longer than the port's MTU allows: raise the kernel interface's MTU and send 4000
# bytes on it before ternd sets it back.
ip netns exec "$R" /usr/bin/python3 - <<'PY'
import fcntl, socket, struct, time
SIOCSIFMTU = 0x8922
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("dp1", 0))
frame = b"\xff" * 6 + s.getsockname()[4] + b"\x08\x00" + bytes(3986)
for _ in range(20):
    fcntl.ioctl(s, SIOCSIFMTU, struct.pack("16si", b"dp1", 9000))
    try:
        s.send(frame)
    except OSError:
        pass
    time.sleep(0.05)
PY
json=$(tern_cli --json -c "show exception")
check "frames longer than the port's MTU allows were counted as dropped" \
	json_true '[p for p in j["ports"] if p["port"] == "dp1"][0]["from_kernel_too_long"] >= 1' <<<"$json"
wait_for "dp1 is back at MTU 1500 in the kernel" eval '[ "$(kernel_mtu dp1)" = 1500 ]'
check "and ternd still forwards" ping_ok "$H1" 198.18.1.2
tern_test_end
