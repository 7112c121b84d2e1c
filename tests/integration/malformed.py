#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Sends one frame per case out of IFACE to the router (DST_MAC), then a valid one; prints the
cases as JSON so the shell test knows what to expect. Frames are built by hand where scapy would
fix them up."""
import json
import socket
import struct
import sys

iface, dst_mac, src_mac = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", "")), bytes.fromhex(sys.argv[3].replace(":", ""))


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def ip(src="198.18.0.2", dst="198.18.1.2", ttl=64, proto=17, payload=b"\0" * 8 + b"tern-malformed", ihl=5,
       tl=None, version=4, bad_sum=False, frag=0, opts=b""):
    tl = 4 * ihl + len(payload) if tl is None else tl
    h = struct.pack("!BBHHHBBH4s4s", (version << 4) | ihl, 0, tl, 0x1234, frag, ttl, proto, 0,
                    socket.inet_aton(src), socket.inet_aton(dst)) + opts
    c = csum(h)
    if bad_sum:
        c ^= 0x5555
    return h[:10] + struct.pack("!H", c) + h[12:] + payload


def eth(payload, etype=0x0800, dst=None):
    return (dst or dst_mac) + src_mac + struct.pack("!H", etype) + payload


def ip6(src="2001:2:0:1::2", dst="2001:2:0:2::2", hlim=64, payload=b"\0" * 8 + b"tern-malformed",
        plen=None, version=6, nh=17):
    plen = len(payload) if plen is None else plen
    return (struct.pack("!IHBB", version << 28, plen, nh, hlim) + socket.inet_pton(socket.AF_INET6, src) +
            socket.inet_pton(socket.AF_INET6, dst) + payload)


def ext(nh, body=b"", length=None):
    """An extension header (Hop-by-Hop, Routing, Destination Options) naming nh next, its
    length field as given or as body makes it (padded to 8-byte units)."""
    body += b"\0" * (-(2 + len(body)) % 8)
    return struct.pack("!BB", nh, (2 + len(body)) // 8 - 1 if length is None else length) + body


def frag(nh, offset=0, more=False):
    return struct.pack("!BBHI", nh, 0, offset << 3 | more, 0x7e57)


UDP6 = b"\0" * 8 + b"tern-malformed"


def eth6(payload, dst=None):
    return eth(payload, 0x86DD, dst)


BROADCAST, MULTICAST = b"\xff" * 6, bytes.fromhex("01005e000001")


cases = [
    ("ip_truncated", "drop_ip_truncated", eth(ip()[:12])),
    ("ihl_below_5", "drop_ip_ihl", eth(ip(ihl=4, tl=40))),
    ("version_6", "drop_ip_version", eth(ip(version=6))),
    ("length_past_frame", "drop_ip_length", eth(ip(tl=1400))),
    ("length_below_header", "drop_ip_length", eth(ip(tl=16))),
    ("bad_checksum", "drop_ip_checksum", eth(ip(bad_sum=True))),
    ("bad_checksum_to_router", "drop_ip_checksum", eth(ip(dst="198.18.0.1", bad_sum=True))),
    ("ttl_0", "icmp_time_exceeded", eth(ip(ttl=0))),
    ("ttl_1", "icmp_time_exceeded", eth(ip(ttl=1))),
    ("src_0_8", "drop_martian_src", eth(ip(src="0.1.2.3"))),
    ("src_127_8", "drop_martian_src", eth(ip(src="127.0.0.1"))),
    ("src_multicast", "drop_martian_src", eth(ip(src="224.0.0.5"))),
    ("src_240_4", "drop_martian_src", eth(ip(src="240.0.0.1"))),
    ("src_broadcast", "drop_martian_src", eth(ip(src="255.255.255.255"))),
    ("dst_0_8", "drop_martian_dst", eth(ip(dst="0.0.0.9"))),
    ("dst_127_8", "drop_martian_dst", eth(ip(dst="127.0.0.9"))),
    ("dst_broadcast", "punt_mcast", eth(ip(dst="255.255.255.255"))),
    ("ip_options", "punt_ip_options", eth(ip(ihl=6, opts=b"\x01\x01\x01\x00"))),
    ("later_fragment_ttl_1", "drop_icmp_suppressed", eth(ip(ttl=1, frag=0x0010))),
    # RFC 1812 5.3.4: a link-layer broadcast or multicast is not forwarded, nor answered
    # with an ICMP error (4.3.2.7)
    ("l2_broadcast_unicast_ip", "drop_l2_mcast", eth(ip(), dst=BROADCAST)),
    ("l2_multicast_unicast_ip", "drop_l2_mcast", eth(ip(), dst=MULTICAST)),
    ("l2_broadcast_ttl_1", "drop_l2_mcast", eth(ip(ttl=1), dst=BROADCAST)),
    ("l2_broadcast_no_route", "drop_l2_mcast", eth(ip(dst="203.0.113.9"), dst=BROADCAST)),
    # IPv6 (RFC 8200, RFC 4291's scopes): each drop has its reason
    ("ip6_truncated", "drop_ip6_truncated", eth6(ip6()[:30])),
    ("ip6_version_4", "drop_ip6_version", eth6(ip6(version=4))),
    ("ip6_payload_past_frame", "drop_ip6_length", eth6(ip6(plen=1400))),
    ("ip6_payload_0", "drop_ip6_length", eth6(ip6(plen=0))),
    ("ip6_src_multicast", "drop_ip6_martian_src", eth6(ip6(src="ff02::1"))),
    ("ip6_src_loopback", "drop_ip6_martian_src", eth6(ip6(src="::1"))),
    ("ip6_src_unspecified", "drop_ip6_martian_src", eth6(ip6(src="::"))),
    ("ip6_dst_unspecified", "drop_ip6_martian_dst", eth6(ip6(dst="::"))),
    ("ip6_dst_loopback", "drop_ip6_martian_dst", eth6(ip6(dst="::1"))),
    ("ip6_dst_interface_local", "drop_ip6_martian_dst", eth6(ip6(dst="ff01::1"))),
    ("ip6_link_local_src", "drop_ip6_link_local", eth6(ip6(src="fe80::2"))),
    ("ip6_link_local_dst", "drop_ip6_link_local", eth6(ip6(dst="fe80::99"))),
    ("ip6_l2_broadcast", "drop_l2_mcast", eth6(ip6(), dst=BROADCAST)),
    ("ip6_hop_limit_0", "icmp6_time_exceeded", eth6(ip6(hlim=0))),
    ("ip6_hop_limit_1", "icmp6_time_exceeded", eth6(ip6(hlim=1))),
    # extension headers (RFC 8200 §4, RFC 7112): a chain that runs past the datagram, a first
    # fragment that does not hold it all, more headers than any valid datagram has
    ("ip6_hop_by_hop_past_datagram", "drop_ip6_header_chain", eth6(ip6(nh=0, payload=ext(17, length=20) + UDP6))),
    ("ip6_hop_by_hop_to_router_past_datagram", "drop_ip6_header_chain",
     eth6(ip6(dst="2001:2:0:1::1", nh=0, payload=ext(17, length=20) + UDP6))),
    ("ip6_chain_past_datagram", "drop_ip6_header_chain",
     eth6(ip6(nh=60, payload=ext(60) + ext(43, b"\0\0\0\0\0\0") + ext(17, length=30) + UDP6))),
    ("ip6_first_fragment_without_chain", "drop_ip6_header_chain",
     eth6(ip6(nh=44, payload=frag(60, 0, True) + struct.pack("!BB", 17, 200) + b"tern-malformed"))),
    ("ip6_nine_extension_headers", "drop_ip6_header_chain",
     eth6(ip6(nh=60, payload=ext(60) * 8 + ext(17) + UDP6))),
]
# Unusual but valid: forwarded, each arrives once with its hop limit one less (RFC 5095: only a
# datagram's destination acts on a Routing Header type 0; routers forward fragments whole)
forwarded = [
    ("ip6_routing_type_0", eth6(ip6(nh=43, payload=ext(17, b"\0\x01\0\0\0\0" + socket.inet_pton(socket.AF_INET6, "2001:2:0:2::9")) + b"\0" * 8 + b"tern-unusual-rh0"))),
    ("ip6_later_fragment", eth6(ip6(nh=44, payload=frag(17, 185, True) + b"tern-unusual-fragment!!!"))),
    ("ip6_first_fragment", eth6(ip6(nh=44, payload=frag(17, 0, True) + b"\0" * 8 + b"tern-unusual-first-frag"))),
    ("ip6_eight_extension_headers", eth6(ip6(nh=60, payload=ext(60) * 7 + ext(17) + b"\0" * 8 + b"tern-unusual-eight"))),
]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((iface, 0))
for name, reason, frame in cases:
    s.send(frame)
for name, frame in forwarded:
    s.send(frame)
valid = eth(ip(payload=b"\0" * 8 + b"tern-valid-frame-1234"))
s.send(valid)
json.dump({"cases": [[n, r] for n, r, _ in cases], "valid": valid.hex(),
           "forwarded": [[n, f.hex()] for n, f in forwarded]}, sys.stdout)
