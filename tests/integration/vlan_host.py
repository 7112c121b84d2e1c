#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""A host on tagged VLANs, where the kernel has no 8021q module: answers ARP, IPv6 Neighbour
Solicitations and ICMP and ICMPv6 echo for its addresses on each VLAN, or sends one echo
request and waits for the reply.

  vlan_host.py serve IFACE MAC VLAN=ADDR...     VLAN: 100 (802.1Q) or 10.20 (802.1ad 10, 802.1Q 20);
                                                ADDR: IPv4 or IPv6
  vlan_host.py probe IFACE MAC DST_MAC VLAN SRC DST [TTL FROM]
      VLAN: as above, 0 (priority-tagged) or none; with TTL, the answer awaited is an ICMP time
      exceeded from FROM on the same VLAN

The kernel takes a frame's outer tag off before a packet socket sees it (PACKET_AUXDATA gives it
back); frames are sent with their tags in their bytes."""
import select
import socket
import struct
import sys
import time

SOL_PACKET, PACKET_AUXDATA = 263, 8
TP_STATUS_VLAN_VALID, TP_STATUS_VLAN_TPID_VALID = 0x10, 0x40
ETH_P_ALL, ETH_P_ARP, ETH_P_IP, ETH_P_8021Q, ETH_P_8021AD = 0x0003, 0x0806, 0x0800, 0x8100, 0x88a8
ETH_P_IPV6 = 0x86dd


def mac_bytes(m):
    return bytes.fromhex(m.replace(":", ""))


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def tags(vlan):
    """The tag bytes for a VLAN as written on the command line."""
    if vlan == "none":
        return b""
    if "." in vlan:
        s, c = (int(x) for x in vlan.split("."))
        return struct.pack("!HHHH", ETH_P_8021AD, s, ETH_P_8021Q, c)
    return struct.pack("!HH", ETH_P_8021Q, int(vlan))


def frame(dst, src, vlan, etype, payload):
    return dst + src + tags(vlan) + struct.pack("!H", etype) + payload


def ipv4(src, dst, proto, payload, ttl=64):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0x4321, 0, ttl, proto, 0,
                    socket.inet_aton(src), socket.inet_aton(dst))
    return h[:10] + struct.pack("!H", csum(h)) + h[12:] + payload


def icmp(type_, ident, seq, data):
    h = struct.pack("!BBHHH", type_, 0, 0, ident, seq) + data
    return h[:2] + struct.pack("!H", csum(h)) + h[4:]


def ipv6_icmp(src, dst, body):
    """An IPv6 header and an ICMPv6 message (its checksum over RFC 8200's pseudo-header)."""
    pseudo = src + dst + struct.pack("!IxxxB", len(body), 58)
    body = body[:2] + struct.pack("!H", csum(pseudo + body[:2] + b"\0\0" + body[4:])) + body[4:]
    return struct.pack("!IHBB", 6 << 28, len(body), 58, 255) + src + dst + body


def answer_ipv6(s, me, vlan, src_mac, p, addrs):
    """A Neighbour Advertisement for a Solicitation of one of our addresses, an echo reply for
    an echo request to one."""
    if len(p) < 48 or p[6] != 58:
        return
    src, dst, ic = p[8:24], p[24:40], p[40:40 + struct.unpack("!H", p[4:6])[0]]
    if ic[0] == 135 and len(ic) >= 24 and (vlan, ic[8:24]) in addrs:
        target = ic[8:24]
        # solicited, override; the target's link-layer address as its option
        na = struct.pack("!BBHI", 136, 0, 0, 0x60000000) + target + struct.pack("!BB", 2, 1) + me
        to = src if src != bytes(16) else socket.inet_pton(socket.AF_INET6, "ff02::1")
        s.send(frame(src_mac, me, vlan, ETH_P_IPV6, ipv6_icmp(target, to, na)))
    elif ic[0] == 128 and len(ic) >= 8 and (vlan, dst) in addrs:
        s.send(frame(src_mac, me, vlan, ETH_P_IPV6, ipv6_icmp(dst, src, b"\x81" + ic[1:])))


def open_socket(iface):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
    s.bind((iface, 0))
    return s


def receive(s):
    """One frame: (its VLAN as the command line writes it, the frame after its tags)."""
    data, anc, _, _ = s.recvmsg(65536, socket.CMSG_SPACE(32))
    vlan = "none"
    for level, kind, value in anc:
        if level == SOL_PACKET and kind == PACKET_AUXDATA and len(value) >= 20:
            status, _, _, _, _, tci, tpid = struct.unpack("IIIHHHH", value[:20])
            if status & TP_STATUS_VLAN_VALID or tci:
                if not status & TP_STATUS_VLAN_TPID_VALID:
                    tpid = ETH_P_8021Q
                vlan = str(tci & 0xfff) if tpid == ETH_P_8021Q else "ad%u" % (tci & 0xfff)
    body = data[12:]
    # what the kernel left: a second tag (802.1ad's inner one), or a tag it did not take off
    while len(body) >= 6 and struct.unpack("!H", body[:2])[0] in (ETH_P_8021Q, ETH_P_8021AD):
        tpid, tci = struct.unpack("!HH", body[:4])
        tag = str(tci & 0xfff) if tpid == ETH_P_8021Q else "ad%u" % (tci & 0xfff)
        vlan = tag if vlan == "none" else vlan + "." + tag
        body = body[4:]
    if vlan.startswith("ad") and "." in vlan:
        vlan = vlan[2:]
    return vlan, data[:12], body


def serve(iface, mac, entries):
    me = mac_bytes(mac)
    addrs = {}
    for e in entries:
        vlan, addr = e.split("=")
        addrs[(vlan, socket.inet_pton(socket.AF_INET6 if ":" in addr else socket.AF_INET, addr))] = vlan
    s = open_socket(iface)
    while True:
        vlan, macs, body = receive(s)
        etype, payload = struct.unpack("!H", body[:2])[0], body[2:]
        src = macs[6:12]
        if src == me:
            continue
        if etype == ETH_P_ARP and len(payload) >= 28:
            op, sha, spa, tpa = struct.unpack("!H", payload[6:8])[0], payload[8:14], payload[14:18], payload[24:28]
            if op == 1 and (vlan, tpa) in addrs:
                arp = struct.pack("!HHBBH6s4s6s4s", 1, ETH_P_IP, 6, 4, 2, me, tpa, sha, spa)
                s.send(frame(src, me, vlan, ETH_P_ARP, arp))
        elif etype == ETH_P_IP and len(payload) >= 28 and payload[9] == 1:
            ihl = (payload[0] & 0xf) * 4
            dst, ip_src = payload[16:20], payload[12:16]
            tl = struct.unpack("!H", payload[2:4])[0]
            ic = payload[ihl:tl]
            if (vlan, dst) in addrs and len(ic) >= 8 and ic[0] == 8:
                ident, seq = struct.unpack("!HH", ic[4:8])
                reply = ipv4(socket.inet_ntoa(dst), socket.inet_ntoa(ip_src), 1, icmp(0, ident, seq, ic[8:]))
                s.send(frame(src, me, vlan, ETH_P_IP, reply))
        elif etype == ETH_P_IPV6:
            answer_ipv6(s, me, vlan, src, payload, addrs)


def probe(iface, mac, dst_mac, vlan, src, dst, ttl=64, sender=None):
    me = mac_bytes(mac)
    s = open_socket(iface)
    ident = 0x7e57
    s.send(frame(mac_bytes(dst_mac), me, vlan, ETH_P_IP,
                 ipv4(src, dst, 1, icmp(8, ident, 1, b"tern-vlan-probe"), int(ttl))))
    # the echo reply from dst, or with a TTL given the time exceeded from sender, on our VLAN
    want_src, want_type = socket.inet_aton(sender or dst), 11 if sender else 0
    want_vlan = "none" if vlan in ("0", "none") else vlan
    end = time.time() + 2
    while time.time() < end:
        if not select.select([s], [], [], max(0.0, end - time.time()))[0]:
            break
        got_vlan, _, body = receive(s)
        etype, p = struct.unpack("!H", body[:2])[0], body[2:]
        if etype != ETH_P_IP or len(p) < 28 or p[9] != 1 or p[12:16] != want_src or p[20] != want_type:
            continue
        if sender is None and struct.unpack("!H", p[24:26])[0] != ident:
            continue
        return 0 if got_vlan == want_vlan else 2
    return 1


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(probe(*sys.argv[2:]))
