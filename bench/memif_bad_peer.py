#!/usr/bin/python3
"""A memif client whose memory a server must not trust.

It speaks the memif control protocol (version 2.0, DPDK's drivers/net/memif/memif.h) on a
server's socket: INIT, region 0 as a memfd of its rings only, one ring each way, CONNECT.

    memif_bad_peer.py SOCKET [SIZE]      the region announced at SIZE bytes (256 MiB), more
                                         than the file holds, as DPDK 22.11's own zero-copy
                                         client did by mistake (dataplane/memseg_fd_guard.c)
    memif_bad_peer.py --shrink SOCKET    the region announced at its size, in a memfd not
                                         sealed against shrinking, cut to nothing once the
                                         server has connected

A server that maps such a region dies of SIGBUS at its next read of the rings; ternd must
refuse the connection and stay up. Prints what the server answered to CONNECT (CONNECTED
or DISCONNECT and its reason) and exits 0 when it refused, 1 when it accepted, 2 on a
protocol error.
"""
import time
import array
import os
import socket
import struct
import sys

MSG_LEN = 128
ACK, HELLO, INIT, ADD_REGION, ADD_RING, CONNECT, CONNECTED, DISCONNECT = 1, 2, 3, 4, 5, 6, 7, 8
VERSION = 2 << 8
COOKIE = 0x3E31F20
RING_FLAG_C2S = 1
LOG2_RING = 10
RING_BYTES = 128 + 16 * (1 << LOG2_RING)	# head and tail cache lines, then the descriptors


def send(sock, mtype, body=b"", fd=None):
    msg = struct.pack("<H", mtype) + body
    msg += bytes(MSG_LEN - len(msg))
    anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))] if fd is not None else []
    sock.sendmsg([msg], anc)


def receive(sock):
    data = sock.recv(MSG_LEN)
    if len(data) != MSG_LEN:
        raise EOFError("the server closed the connection")
    mtype = struct.unpack_from("<H", data)[0]
    if mtype == DISCONNECT:
        code = struct.unpack_from("<I", data, 2)[0]
        reason = data[6:102].split(b"\0")[0].decode(errors="replace")
        return mtype, f"DISCONNECT (code {code}): {reason}"
    return mtype, {ACK: "ACK", HELLO: "HELLO", CONNECTED: "CONNECTED"}.get(mtype, f"type {mtype}")


def expect(sock, mtype, step):
    got, text = receive(sock)
    if got != mtype:
        print(f"memif-bad-peer: {step}: the server answered {text}")
        sys.exit(2)


def rings_memfd():
    """Two rings, each with its cookie, in a memfd of exactly their size (never sealed)."""
    fd = os.memfd_create("memif_region_0", 0)
    os.ftruncate(fd, 2 * RING_BYTES)
    for i in range(2):
        os.pwrite(fd, struct.pack("<IHH", COOKIE, 0, 0), i * RING_BYTES)
    return fd


def main():
    args = sys.argv[1:]
    shrink = bool(args) and args[0] == "--shrink"
    if shrink:
        args = args[1:]
    if len(args) not in (1, 2) or (shrink and len(args) != 1):
        print("usage: memif_bad_peer.py SOCKET [SIZE] | --shrink SOCKET", file=sys.stderr)
        sys.exit(2)
    size = 2 * RING_BYTES if shrink else int(args[1]) if len(args) == 2 else 256 << 20
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    sock.settimeout(10)
    sock.connect(args[0])
    expect(sock, HELLO, "hello")
    name = b"memif-bad-peer".ljust(32, b"\0")
    send(sock, INIT, struct.pack("<HIB", VERSION, 0, 0) + bytes(24) + name)
    expect(sock, ACK, "init")
    region = rings_memfd()
    send(sock, ADD_REGION, struct.pack("<HQ", 0, size), region)
    expect(sock, ACK, "add region")
    for index, flags in ((0, RING_FLAG_C2S), (0, 0)):
        offset = 0 if flags else RING_BYTES
        send(sock, ADD_RING, struct.pack("<HHHIBH", flags, index, 0, offset, LOG2_RING, 0),
             os.eventfd(0))
        expect(sock, ACK, "add ring")
    send(sock, CONNECT, name)
    try:
        got, text = receive(sock)
    except (EOFError, ConnectionResetError):
        got, text = DISCONNECT, "the connection closed"
    if shrink:
        if got == CONNECTED:
            os.ftruncate(region, 0)
            time.sleep(1)	# the server's worker polls the rings it can no longer read
        print(f"memif-bad-peer: a {size}-byte region in an unsealed file, cut once connected: {text}")
    else:
        print(f"memif-bad-peer: a {2 * RING_BYTES}-byte file announced as {size} bytes: {text}")
    sys.exit(0 if got != CONNECTED else 1)


if __name__ == "__main__":
    main()
