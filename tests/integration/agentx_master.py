#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""An AgentX master (RFC 2741) that misbehaves, for ternd's subagent to meet.

  agentx_master.py silent SOCKET SECONDS
      accepts every connection and never answers anything; prints "accepted N connections"
  agentx_master.py hostile SOCKET SECONDS
      answers the subagent's Open and registrations as a master would, then sends it
      malformed PDUs (cut short, lengths past their bytes, unknown types, OIDs of too many
      sub-identifiers, varbinds of unknown types) between well-formed Gets, and prints
      "answered N of M gets" for the Gets the subagent answered
  agentx_master.py seeds DIR
      writes well-formed PDUs of each kind into DIR (the fuzz target's seed corpus)
"""
import os
import random
import select
import socket
import struct
import sys
import time

from api_client import recv_exact  # this directory's: n bytes from a socket, None at its end

OPEN, CLOSE, REGISTER, UNREGISTER, GET, GETNEXT, GETBULK = 1, 2, 3, 4, 5, 6, 7
NOTIFY, PING, RESPONSE = 12, 13, 18
NBO = 0x10  # network byte order
IF_NAME = (1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 1)


def oid(subids, include=0):
    subids = list(subids)
    prefix = 0
    if len(subids) >= 5 and subids[:4] == [1, 3, 6, 1] and 0 < subids[4] < 256:
        prefix, subids = subids[4], subids[5:]
    return struct.pack("!BBBB", len(subids), prefix, include, 0) + b"".join(
        struct.pack("!I", s) for s in subids)


def octets(b):
    return struct.pack("!I", len(b)) + b + b"\0" * (-len(b) % 4)


def pdu(kind, payload, session=1, transaction=1, packet=1, flags=NBO):
    return struct.pack("!BBBBIIII", 1, kind, flags, 0, session, transaction, packet,
                       len(payload)) + payload


def search_range(start, end=()):
    return oid(start) + oid(end)


def header(p):
    """version, type, flags, session, transaction, packet and payload length of PDU p, in the
    byte order its flags say"""
    order = "!" if p[2] & NBO else "<"
    v, kind, flags, _, session, transaction, packet, length = struct.unpack(
        order + "BBBBIIII", p[:20])
    return kind, flags, session, transaction, packet, length


def response(to, error=0):
    """A Response to PDU to (the session its Open gets is 7)."""
    _, _, session, transaction, packet, _ = header(to)
    return pdu(RESPONSE, struct.pack("!IHH", 0, error, 0), session or 7, transaction, packet)


def well_formed():
    """One of each kind a master sends, and a few it receives."""
    return {
        "get": pdu(GET, search_range(IF_NAME + (1,))),
        "getnext": pdu(GETNEXT, search_range(IF_NAME)),
        "getbulk": pdu(GETBULK, struct.pack("!HH", 0, 10) + search_range(IF_NAME)),
        "ping": pdu(PING, b""),
        "open": pdu(OPEN, struct.pack("!B3x", 5) + oid((1, 3, 6, 1, 4, 1, 8072)) +
                    octets(b"ternd")),
        "register": pdu(REGISTER, struct.pack("!BBBB", 5, 127, 0, 0) +
                        oid((1, 3, 6, 1, 2, 1, 2, 2))),
        "response": pdu(RESPONSE, struct.pack("!IHH", 0, 0, 0) +
                        struct.pack("!HH", 4, 0) + oid(IF_NAME + (1,)) + octets(b"dp0")),
        "notify": pdu(NOTIFY, struct.pack("!HH", 6, 0) + oid((1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0)) +
                      oid((1, 3, 6, 1, 6, 3, 1, 1, 5, 3))),
    }


def malformed(rng):
    """PDUs a parser must refuse or survive."""
    get = well_formed()["get"]
    bad = [
        get[:12],                                           # cut inside the header
        get[:20] + get[20:27],                              # payload shorter than it says
        pdu(GET, b"\xff" * 8),                              # an OID of 255 sub-identifiers
        pdu(99, b"\0" * 16),                                # no such PDU type
        pdu(GET, search_range(IF_NAME))[:20] + b"\x80" * 40,
        struct.pack("!BBBBIIII", 1, GET, NBO, 0, 1, 1, 1, 0x7fffffff),  # a length past all
        pdu(GET, search_range(IF_NAME), flags=0),           # little-endian lengths of big
        pdu(RESPONSE, struct.pack("!IHH", 0, 0, 0) + struct.pack("!HH", 0x99, 0) +
            oid(IF_NAME)),                                   # a varbind of no known type
        pdu(GETBULK, struct.pack("!HH", 0xffff, 0xffff) + search_range(IF_NAME)),
        bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 64))),
    ]
    return bad


def read_exact(conn, n):
    b = recv_exact(conn, n)
    if b is None:
        raise EOFError
    return b


def read_pdu(conn, timeout):
    conn.settimeout(timeout)
    head = read_exact(conn, 20)
    return head + read_exact(conn, header(head)[5])


def listener(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(8)
    return s


def silent(path, seconds):
    s = listener(path)
    held = []
    accepted = 0
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([s] + held, [], [], 0.1)
        for c in r:
            if c is s:
                held.append(s.accept()[0])
                accepted += 1
            elif not c.recv(4096):
                held.remove(c)
                c.close()
    print("accepted %d connections" % accepted)


def ask(conn, packet):
    """Sends a Get of ifName.1; True when its Response comes (other PDUs are answered)."""
    conn.sendall(pdu(GET, search_range(IF_NAME + (1,)), session=7, packet=packet))
    try:
        while True:
            p = read_pdu(conn, 1)
            if p[1] == RESPONSE and header(p)[4] == packet:
                return True
            if p[1] != RESPONSE:
                conn.sendall(response(p))
    except (socket.timeout, EOFError, ConnectionError):
        return False


def hostile(path, seconds):
    s = listener(path)
    rng = random.Random(1)
    gets = answered = connections = 0
    end = time.time() + seconds
    while time.time() < end:
        s.settimeout(max(0.1, end - time.time()))
        try:
            conn = s.accept()[0]
        except socket.timeout:
            break
        connections += 1
        try:
            # the Open, then its registrations, each answered
            conn.sendall(response(read_pdu(conn, 2)))
            while True:
                try:
                    p = read_pdu(conn, 0.3)
                except socket.timeout:
                    break
                conn.sendall(response(p))
            gets += 1
            answered += ask(conn, 100)
            if connections == 1:
                # every malformed PDU at once, then a Get: answered, or the session dropped
                # and the subagent connects again
                for bad in malformed(rng):
                    conn.sendall(bad)
                gets += 1
                answered += ask(conn, 101)
            while time.time() < end and ask(conn, 102 + gets):
                gets += 1
                answered += 1
                time.sleep(0.2)
        except (EOFError, ConnectionError, socket.timeout):
            pass
        conn.close()
    print("answered %d of %d gets over %d connections" % (answered, gets, connections))


def seeds(directory):
    os.makedirs(directory, exist_ok=True)
    for name, b in well_formed().items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    if sys.argv[1] == "seeds":
        seeds(sys.argv[2])
    elif sys.argv[1] == "silent":
        silent(sys.argv[2], float(sys.argv[3]))
    else:
        hostile(sys.argv[2], float(sys.argv[3]))
