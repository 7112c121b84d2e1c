#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Sends COUNT ICMP echo requests to ADDR as fast as a raw socket allows; prints the seconds taken."""
import socket
import struct
import sys
import time


def checksum(data):
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def main():
    addr, count = sys.argv[1], int(sys.argv[2])
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    sock.setblocking(False)
    payload = b"tern-flood" + bytes(22)
    start = time.monotonic()
    sent = 0
    for seq in range(count):
        hdr = struct.pack("!BBHHH", 8, 0, 0, 0x7465, seq & 0xffff)
        pkt = struct.pack("!BBHHH", 8, 0, checksum(hdr + payload), 0x7465, seq & 0xffff) + payload
        try:
            sock.sendto(pkt, (addr, 0))
            sent += 1
        except BlockingIOError:
            time.sleep(0.0005)
    print("%d %.3f" % (sent, time.monotonic() - start))


main()
