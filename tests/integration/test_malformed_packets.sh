#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Malformed and martian packets, IPv4 and IPv6, from a host: each is dropped and counted under
# its reason (or punted, or answered per RFC 1812 and RFC 4443), nothing invalid is forwarded,
# ternd stays up; a valid packet arrives with every byte as it should be (MACs rewritten, TTL - 1,
# checksum patched, rest intact), and so do valid IPv6 packets with unusual extension headers.
. "$(dirname "$0")/lib.sh"
tern_test_begin malformed
two_hosts_ipv6
ip netns exec "$H1" ping -c 2 -i 0.2 -W 2 198.18.1.2 >/dev/null	# resolve both sides first
ip netns exec "$H1" ping -6 -c 2 -i 0.2 -W 2 2001:2:0:2::2 >/dev/null
# an unresolved neighbour would send the TTL-1 cases to the kernel instead of icmp_time_exceeded
wait_for "h2 is a forward entry in the FIB" fib_is 198.18.1.2 forward
wait_for "h1 is a forward entry in the FIB" fib_is 198.18.0.2 forward
wait_for "h2 is a forward entry in the IPv6 FIB" fib6_is 2001:2:0:2::2 forward
wait_for "h1 is a forward entry in the IPv6 FIB" fib6_is 2001:2:0:1::2 forward
ip netns exec "$H2" tcpdump -i "$W1" -w "$T_DIR/h2.pcap" -U -n "udp or (ip[9] = 17) or ip6" >/dev/null 2>&1 &
T_PIDS+=($!)
sleep 1
before=$(tern_cli --json -c "show errors")
ip netns exec "$H1" /usr/bin/python3 "$(dirname "$0")/malformed.py" "$W0" "$(port_mac dp0)" "$(host_mac "$H1" "$W0")" > "$T_DIR/sent.json"
sleep 1
kill -INT "${T_PIDS[-1]}"; sleep 0.5
after=$(tern_cli --json -c "show errors")
check "ternd is still up" sh -c "$TERN -s $T_SOCK -c 'show version' >/dev/null"

/usr/bin/python3 - "$T_DIR/sent.json" "$before" "$after" <<'PY'
import json, sys
sent = json.load(open(sys.argv[1]))
before, after = json.loads(sys.argv[2]), json.loads(sys.argv[3])
want = {}
for name, reason in sent["cases"]:
    want[reason] = want.get(reason, 0) + 1
bad = 0
for reason, n in sorted(want.items()):
    got = after[reason] - before[reason]
    ok = got >= n if reason.startswith(("punt_", "icmp_")) else got == n
    print("  %s: %-22s %d expected, %d counted" % ("ok" if ok else "FAIL", reason, n, got))
    bad += not ok
sys.exit(1 if bad else 0)
PY
check "every malformed case was counted under its reason" [ $? -eq 0 ]

/usr/bin/python3 - "$T_DIR/h2.pcap" "$T_DIR/sent.json" "$(port_mac dp1)" "$(host_mac "$H2" "$W1")" <<'PY'
import json, struct, sys
pcap, sent = open(sys.argv[1], "rb").read(), json.load(open(sys.argv[2]))
out_src, out_dst = bytes.fromhex(sys.argv[3].replace(":", "")), bytes.fromhex(sys.argv[4].replace(":", ""))
valid = bytes.fromhex(sent["valid"])
frames, off = [], 24
while off + 16 <= len(pcap):
    incl = struct.unpack_from("<I", pcap, off + 8)[0]
    frames.append(pcap[off + 16:off + 16 + incl]); off += 16 + incl
ours = [f for f in frames if b"tern-" in f]
bad = [f for f in ours if b"tern-malformed" in f and f[14 + 9] == 17 and f[14 + 8] not in (0, 1)]
print("  %d of our frames reached h2: %s" % (len(ours), ", ".join(sorted({("valid" if b"tern-valid" in f else "malformed") for f in ours}))))
got = [f for f in ours if b"tern-valid" in f]
assert len(got) == 1, "the valid frame did not arrive exactly once"
f = got[0]
exp = bytearray(valid)
exp[0:6], exp[6:12] = out_dst, out_src
exp[14 + 8] -= 1                                   # TTL
hdr = bytes(exp[14:34]); hdr = hdr[:10] + b"\0\0" + hdr[12:]
s = sum(struct.unpack("!10H", hdr)); s = (s >> 16) + (s & 0xffff); s += s >> 16
exp[24:26] = struct.pack("!H", ~s & 0xffff)
assert bytes(f) == bytes(exp), "valid frame differs:\n got %s\nwant %s" % (f.hex(), bytes(exp).hex())
# the only malformed frames allowed through are those the kernel handled (IP options)
others = [g for g in ours if b"tern-malformed" in g and g[14] != 0x46]
assert not others, "invalid frames were forwarded: %s" % [g.hex() for g in others]
for name, sent_hex in sent["forwarded"]:
    exp = bytearray(bytes.fromhex(sent_hex))
    exp[0:6], exp[6:12] = out_dst, out_src
    exp[14 + 7] -= 1                               # hop limit
    n = sum(1 for g in ours if bytes(g) == bytes(exp))
    assert n == 1, "%s: arrived %d times as expected, want once (%d of ours)" % (name, n, len(ours))
print("  ok: the valid frames arrived byte for byte as expected; nothing invalid was forwarded")
PY
check "output bytes exact and nothing invalid forwarded" [ $? -eq 0 ]
tern_test_end
