#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""An ingress access list of N entries for the memif harness, as tern's shell commands or as
DPDK l3fwd's ACL rules (its --lookup acl rule file), the same entries in both.

N - 1 entries deny TCP or UDP from prefixes of 203.0.0.0/8 (/8 to /32) to random prefixes
(/8 to /32) and destination port ranges, then one permits everything: the generator's frames
(198.18.0.0/24 to 198.19.0.0/16) meet none of the denies, so every frame is classified against
the whole list and forwarded. The same seed gives the same list.

    acl_rules.py N tern PORT...   the list "bench", bound inbound on each PORT (configuration
                                  mode first; ends in interface mode)
    acl_rules.py N l3fwd          '@' deny rules (l3fwd forwards what no '@' rule matches by
                                  its 'R' rules, which the caller adds)
"""
import ipaddress
import random
import sys


def entries(n, seed=2544):
    rnd = random.Random(seed)
    for i in range(n - 1):
        proto = rnd.choice((6, 17))
        src_len, dst_len = rnd.randint(8, 32), rnd.randint(8, 32)
        src = ipaddress.ip_network(((203 << 24) | rnd.getrandbits(24), src_len), strict=False)
        dst = ipaddress.ip_network((rnd.getrandbits(32), dst_len), strict=False)
        lo = rnd.randrange(60000)
        hi = lo + rnd.randrange(5000)
        yield i + 1, proto, src, dst, lo, hi


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("tern", "l3fwd") or not sys.argv[1].isdigit():
        sys.exit("usage: acl_rules.py N (tern PORT...|l3fwd)")
    n = int(sys.argv[1])
    if n < 1:
        sys.exit("acl_rules.py: N must be 1 or more")
    if sys.argv[2] == "l3fwd":
        for _, proto, src, dst, lo, hi in entries(n):
            print(f"@{src} {dst} 0 : 65535 {lo} : {hi} {proto}/0xff")
        return
    print("ip access-list bench")
    for seq, proto, src, dst, lo, hi in entries(n):
        name = "tcp" if proto == 6 else "udp"
        print(f"seq {seq} deny {name} {src} {dst} range {lo} {hi}")
    print(f"seq {n} permit ip any any")
    print("exit")
    for port in sys.argv[3:]:
        print(f"interface {port}")
        print("ip access-group bench in")


if __name__ == "__main__":
    main()
