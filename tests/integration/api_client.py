#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Raw clients of ternd's API socket for the tests: pipelined, half-sent and idle requests."""
import socket
import struct
import sys
import time

MAGIC, VERSION, COMMAND, REPLY = 0x7465726E, 1, 1, 3
HDR = struct.Struct("<IIHHHHi")


def request(line, flags=0):
    body = line.encode()
    return HDR.pack(MAGIC, len(body), VERSION, COMMAND, flags, 0, 0) + body


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def read_reply(s):
    """(status, prompt, text), or None at the end of the stream."""
    hdr = recv_exact(s, HDR.size)
    if hdr is None:
        return None
    magic, length, _, kind, _, _, status = HDR.unpack(hdr)
    assert magic == MAGIC and kind == REPLY, hdr
    body = recv_exact(s, length)
    prompt, _, text = body.partition(b"\0")
    return status, prompt.decode(), text.decode()


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def latency(path, line="show version"):
    """Seconds from connecting to the reply of one request."""
    t0 = time.monotonic()
    s = connect(path)
    s.sendall(request(line))
    r = read_reply(s)
    assert r is not None and r[0] == 0, r
    return time.monotonic() - t0


if __name__ == "__main__":
    print(latency(sys.argv[1]))
