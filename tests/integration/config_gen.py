#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Random tern configurations for the running-config round trip.

    config_gen.py SEED

Prints configuration-mode lines (as `tern -c` arguments would carry them, one a line)
over ports dp0 (198.18.0.1/24), dp1 (198.18.1.1/24) and dp2: a hostname, descriptions,
extra addresses, MTUs, a shut port, up to 400 sub-interfaces of dp0 and dp1 (802.1Q and QinQ,
with addresses in 198.18.64.0/18, descriptions, ipv6 enable, MTUs, shut), static routes of every kind the shell takes (via a
gateway, out of an interface, blackhole, unreachable, prohibit; with and without a
distance; ECMP made of several lines, with weights) and static ARP entries, and the same
for IPv6 (ipv6 address, ipv6 route with global and link-local gateways, ipv6 neighbor),
control-plane policing classes, and access lists of both families (every kind of entry, as
the running-config spells it) bound to the ports, one binding naming a list there is not.
Every line is one ternd must accept; the same seed gives the same configuration.
"""
import ipaddress
import random
import sys


def main():
    rnd = random.Random(int(sys.argv[1]))
    out = []
    if rnd.random() < 0.7:
        out.append(f"hostname edge{rnd.randrange(100)}")
    subnets = {"dp0": [], "dp1": []}
    subnets6 = {"dp0": [], "dp1": []}
    for i, port in enumerate(("dp0", "dp1", "dp2")):
        out.append(f"interface {port}")
        if rnd.random() < 0.5:
            out.append(f"description {rnd.choice(['uplink', 'to customer', 'backplane'])} {rnd.randrange(1000)}")
        if port != "dp2":
            out.append(f"ip address 198.18.{i}.1/24")
            subnets[port].append(f"198.18.{i}")
            for k in range(rnd.randrange(3)):
                net = f"198.18.{10 + 10 * i + k}"
                out.append(f"ip address {net}.1/24")
                subnets[port].append(net)
            if rnd.random() < 0.4:
                out.append(f"mtu {rnd.choice([1280, 1400, 1450, 1496])}")
            out.append(f"ipv6 address 2001:2:0:{i + 1}::1/64")
            subnets6[port].append(f"2001:2:0:{i + 1}")
            if rnd.random() < 0.5:
                out.append(f"ipv6 address 2001:2:0:{i + 11}::1/64")
                subnets6[port].append(f"2001:2:0:{i + 11}")
        else:
            out.append("ip address 198.18.200.1/24")
            if rnd.random() < 0.5:
                out.append("shutdown")
        out.append("exit")

    # sub-interfaces of dp0 and dp1: none, a few or hundreds, 802.1Q (the name's VLAN) or
    # QinQ (encapsulation), with an address, a description, ipv6 enable, an MTU, shut
    names = {"dp0": set(), "dp1": set()}
    qinq = set()
    for k in range(rnd.choice((0, rnd.randrange(1, 40), rnd.randrange(100, 400)))):
        port = rnd.choice(("dp0", "dp1"))
        vid = rnd.randrange(2, 4095)
        while vid in names[port]:
            vid = rnd.randrange(2, 4095)
        names[port].add(vid)
        out.append(f"interface {port}.{vid}")
        pair = (port, rnd.randrange(1, 4095), rnd.randrange(1, 4095))
        if rnd.random() < 0.2 and pair not in qinq:
            qinq.add(pair)
            out.append(f"encapsulation dot1ad {pair[1]} dot1q {pair[2]}")
        if rnd.random() < 0.5:
            out.append(f"ip address 198.18.{64 + k // 64}.{(k % 64) * 4 + 1}/30")
        if rnd.random() < 0.2:
            out.append(f"description customer {rnd.randrange(10000)}")
        if rnd.random() < 0.1:
            out.append("ipv6 enable")
        if rnd.random() < 0.1:
            out.append(f"mtu {rnd.choice([1280, 1400])}")
        if rnd.random() < 0.1:
            out.append("shutdown")
        out.append("exit")

    def gateway():
        port = rnd.choice(("dp0", "dp1"))
        return f"{rnd.choice(subnets[port])}.{rnd.randrange(2, 250)}", port

    used = set()
    for _ in range(rnd.randrange(4, 14)):
        plen = rnd.choice((16, 20, 24, 28, 32))
        addr = (198 << 24) | (19 << 16) | (rnd.randrange(1 << 16) << 0)
        addr &= ~((1 << (32 - plen)) - 1) & 0xFFFFFFFF
        prefix = f"{addr >> 24}.{(addr >> 16) & 255}.{(addr >> 8) & 255}.{addr & 255}/{plen}"
        distance = rnd.choice(("", "", " 5", " 200"))
        if (prefix, distance) in used:
            continue
        used.add((prefix, distance))
        kind = rnd.choice(("gw", "gw", "if", "ecmp", "ecmp", "blackhole", "unreachable", "prohibit"))
        if kind == "gw":
            out.append(f"ip route {prefix} {gateway()[0]}{distance}")
        elif kind == "if":
            out.append(f"ip route {prefix} {rnd.choice(('dp0', 'dp1'))}{distance}")
        elif kind == "ecmp":
            hops = set()
            while len(hops) < rnd.randrange(2, 5):
                hops.add(gateway()[0] if rnd.random() < 0.85 else rnd.choice(("dp0", "dp1")))
            for hop in sorted(hops):
                weight = f" weight {rnd.randrange(2, 5)}" if rnd.random() < 0.3 else ""
                out.append(f"ip route {prefix} {hop}{distance}{weight}")
        else:
            out.append(f"ip route {prefix} {kind}{distance}")
    def gateway6():
        port = rnd.choice(("dp0", "dp1"))
        if rnd.random() < 0.3:
            return f"fe80::{rnd.randrange(2, 0xffff):x} {port}", port
        return f"{rnd.choice(subnets6[port])}::{rnd.randrange(2, 0xffff):x}", port

    for _ in range(rnd.randrange(2, 8)):
        plen = rnd.choice((32, 48, 56, 64, 128))
        words = [0x2001, 2, rnd.randrange(0x100, 0x200), rnd.randrange(1 << 16), rnd.randrange(1 << 16), 0, 0, rnd.randrange(1 << 16)]
        value = 0
        for w in words:
            value = (value << 16) | w
        value &= ~((1 << (128 - plen)) - 1)
        prefix = str(ipaddress.IPv6Network((value, plen)))
        distance = rnd.choice(("", "", " 5", " 200"))
        if (prefix, distance) in used:
            continue
        used.add((prefix, distance))
        kind = rnd.choice(("gw", "gw", "if", "ecmp", "blackhole", "unreachable", "prohibit"))
        if kind == "gw":
            out.append(f"ipv6 route {prefix} {gateway6()[0]}{distance}")
        elif kind == "if":
            out.append(f"ipv6 route {prefix} {rnd.choice(('dp0', 'dp1'))}{distance}")
        elif kind == "ecmp":
            hops = set()
            while len(hops) < rnd.randrange(2, 4):
                hops.add(gateway6()[0])
            for hop in sorted(hops):
                weight = f" weight {rnd.randrange(2, 5)}" if rnd.random() < 0.3 else ""
                out.append(f"ipv6 route {prefix} {hop}{distance}{weight}")
        else:
            out.append(f"ipv6 route {prefix} {kind}{distance}")
    hosts = set()
    for _ in range(rnd.randrange(3)):
        ip, port = gateway()
        if ip in hosts:
            continue
        hosts.add(ip)
        out.append(f"arp {ip} 02:00:5e:{rnd.randrange(256):02x}:{rnd.randrange(256):02x}:01 {port}")
    for _ in range(rnd.randrange(3)):
        port = rnd.choice(("dp0", "dp1"))
        ip = f"{rnd.choice(subnets6[port])}::{rnd.randrange(2, 0xffff):x}"
        if ip in hosts:
            continue
        hosts.add(ip)
        out.append(f"ipv6 neighbor {ip} 02:00:5e:{rnd.randrange(256):02x}:{rnd.randrange(256):02x}:02 {port}")
    if rnd.random() < 0.6:
        # control-plane policing: a rate and burst ternd.conf's defaults never have (a class set
        # back to its default is not in the running-config)
        out.append("control-plane")
        for cls in rnd.sample(["routing", "neighbour", "management", "icmp", "resolve", "other"], rnd.randrange(1, 4)):
            out.append(f"class {cls} rate {rnd.randrange(100, 99999)} burst {rnd.randrange(1, 4999)}")
        out.append("exit")
    out += access_lists(rnd)
    print("\n".join(out))


def acl_addr(rnd, v6):
    """any, host ADDRESS or PREFIX/LEN, as the running-config writes them."""
    k = rnd.randrange(3)
    if k == 0:
        return "any"
    if v6:
        a = ipaddress.IPv6Address((0x20010002 << 96) | rnd.getrandbits(80))
        if k == 1:
            return f"host {a}"
        plen = rnd.choice((48, 56, 64, 96, 127))
        return str(ipaddress.IPv6Network(f"{a}/{plen}", strict=False))
    a = ipaddress.IPv4Address((198 << 24) | (18 << 16) | rnd.getrandbits(17))
    if k == 1:
        return f"host {a}"
    return str(ipaddress.IPv4Network(f"{a}/{rnd.choice((8, 15, 16, 24, 30, 31))}", strict=False))


def acl_ports(rnd):
    k = rnd.randrange(3)
    if k == 0:
        return ""
    lo = rnd.randrange(65535)
    if k == 1:
        return f" eq {lo}"
    return f" range {lo} {rnd.randrange(lo + 1, 65536)}"


def access_lists(rnd):
    out, names = [], {4: [], 6: []}
    for i in range(rnd.randrange(4)):
        v6 = rnd.random() < 0.4
        name = rnd.choice(["edge", "in-filter", "mgmt_v", "cust.1"]) + str(i)
        names[6 if v6 else 4].append(name)
        out.append(f"{'ipv6' if v6 else 'ip'} access-list {name}")
        for seq in sorted(rnd.sample(range(1, 2000), rnd.randrange(1, 8))):
            action = rnd.choice(("permit", "deny"))
            proto = rnd.choice(("any", "tcp", "udp", "icmp", "number"))
            src, dst = acl_addr(rnd, v6), acl_addr(rnd, v6)
            log = " log" if rnd.random() < 0.2 else ""
            if proto == "any":
                line = f"{action} {'ipv6' if v6 else 'ip'} {src} {dst}"
            elif proto == "number":
                line = f"{action} {rnd.choice((0, 2, 47, 50, 89, 103, 112, 132, 255))} {src} {dst}"
            elif proto == "icmp":
                icmp = ""
                if rnd.random() < 0.6:
                    icmp = f" type {rnd.randrange(256)}"
                    if rnd.random() < 0.5:
                        icmp += f" code {rnd.randrange(256)}"
                line = f"{action} icmp {src} {dst}{icmp}"
            else:
                line = f"{action} {proto} {src}{acl_ports(rnd)} {dst}{acl_ports(rnd)}"
            out.append(f"seq {seq} {line}{log}")
        out.append("exit")
    for port in ("dp0", "dp1", "dp2"):
        lines = []
        for fam, word in ((4, "ip access-group"), (6, "ipv6 traffic-filter")):
            for d in ("in", "out"):
                if rnd.random() < 0.3:
                    pick = names[fam] + ["nosuchlist"] if names[fam] else ["nosuchlist"]
                    lines.append(f"{word} {rnd.choice(pick)} {d}")
        for word in ("ip", "ipv6"):
            if rnd.random() < 0.3:
                lines.append(f"{word} verify unicast source reachable-via {rnd.choice(['rx', 'any'])}")
        if lines:
            out += [f"interface {port}"] + lines + ["exit"]
    return out


if __name__ == "__main__":
    main()
