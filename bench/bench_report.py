#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""make bench's summary: tern-bench compare's rates by round, as medians, best runs and the
median of each round's own ratio, printed and written to a results file.

usage: bench_report.py COMPARE_JSON RESULTS_JSON NB_ROUTES[,NB_ROUTES6] [NAME=SHOW_WORKERS_JSON...]

NB_ROUTES6: the IPv6 contenders' table, where it is not the IPv4 one's size.

A ternd's `show workers` at the end of the run gives its own account of its trials: the
share of its worker's cycles spent in walks that handled packets (the load) and the packets
it forwarded in them, so what it forwards a second of such walks, whatever pace the
generator kept.
"""
import json
import statistics
import sys

src, out = sys.argv[1], sys.argv[2]
routes, _, routes6 = sys.argv[3].partition(",")
routes, routes6 = int(routes), int(routes6) if routes6 else None
workers = dict(a.split("=", 1) for a in sys.argv[4:])
cmp = json.load(open(src))
# each contender's runs by round; a round it gave no result in is left out of its pairs
by_round = {d["name"]: {r: p for r, p in enumerate(d["rx_pps"], 1) if p}
            for d in cmp["duts"]}
missing = [k for k, v in by_round.items() if not v]
if missing:
    sys.exit(f"bench: {', '.join(missing)} gave no result in any round")
runs = {k: [v[r] for r in sorted(v)] for k, v in by_round.items()}
med = {k: statistics.median(v) for k, v in runs.items()}
best = {k: max(v) for k, v in runs.items()}


def paired(a, b):
    both = sorted(set(by_round[a]) & set(by_round[b]))
    return statistics.median(by_round[a][r] / by_round[b][r] for r in both) if both else None


# contenders sent IPv6, and at which size (the generator's IPv6 frames are 82 bytes at least)
ipv6 = {d["name"]: d["frame_size"] for d in cmp["duts"] if d.get("ipv6")}
cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
            if line.startswith("model name")), "?")
res = {"frame_size": cmp["frame_size"], "flows": cmp["flows"], "duration_s": cmp["slice_s"],
       "rounds": cmp["rounds"], "routes": routes, "cpu": cpu,
       **({"routes_ipv6": routes6} if routes6 is not None else {}),
       "harness": "one generator for all contenders, each in turn for a slice, the others held stopped",
       "ipv6_frame_size": ipv6,
       "no_result": {k: cmp["rounds"] - len(v) for k, v in runs.items()},
       "runs_pps": runs, "median_pps": med, "best_pps": best}
# tern and tern-b against each reference, tern-b against tern, tern forwarding tagged frames
# between sub-interfaces (tern-vlan) against tern untagged, and with 4000 sub-interfaces, the
# frames spread over them (tern-vlan4k), against tern-vlan's one; tern with its access lists against
# tern without and against l3fwd's ACL mode (and that against l3fwd's LPM), tern with strict
# unicast RPF (tern-rpf) against tern without, tern sampling for sFlow 1 in 10 000 and 1 in 100
# (tern-sflow, tern-sflow100) against tern without, and IPv6 (tern6, l3fwd6) against l3fwd's IPv6
# and each one's IPv4
pairs = [p for p in (("tern", "l3fwd"), ("tern", "testpmd"), ("tern-b", "l3fwd"),
                     ("tern-b", "testpmd"), ("tern-b", "tern"), ("tern-vlan", "tern"),
                     ("tern-vlan4k", "tern-vlan"),
                     ("tern-acl", "tern"), ("tern-acl", "l3fwd-acl"), ("l3fwd-acl", "l3fwd"),
                     ("tern-rpf", "tern"), ("tern-sflow", "tern"), ("tern-sflow100", "tern"),
                     ("tern6", "l3fwd6"), ("tern6", "tern"), ("l3fwd6", "l3fwd"))
         if p[0] in med and p[1] in med]
for a, b in pairs:
    key = f"{a.replace('-', '_')}_vs_{b}"
    res[key] = med[a] / med[b]
    res[key + "_best"] = best[a] / best[b]
    res[key + "_paired"] = paired(a, b)
# This VM runs every program at one of two speeds, changing over seconds to minutes. Where the
# runs of all contenders together fall in two groups (split at their widest gap, the groups'
# medians 1.5 times apart or more), each level's medians are compared too: runs at one level
# met the same machine.
pooled = sorted(x for v in runs.values() for x in v)
if len(pooled) >= 4:
    _, i = max((pooled[j + 1] / pooled[j], j) for j in range(len(pooled) - 1))
    cut = (pooled[i] + pooled[i + 1]) / 2
    if statistics.median(pooled[i + 1:]) >= 1.5 * statistics.median(pooled[:i + 1]):
        res["levels"] = {"cut_pps": cut}
        for name, above in (("fast", True), ("slow", False)):
            lv = {k: [x for x in v if (x >= cut) == above] for k, v in runs.items()}
            lv = {k: v for k, v in lv.items() if v}
            res["levels"][name] = {"median_pps": {k: statistics.median(v) for k, v in lv.items()},
                                   "runs": {k: len(v) for k, v in lv.items()}}
            if "tern" in lv and "l3fwd" in lv:
                res["levels"][name]["tern_vs_l3fwd"] = statistics.median(lv["tern"]) / statistics.median(lv["l3fwd"])
# the worker's load over the run and its rate in busy walks, from its own counters
for name, path in workers.items():
    try:
        sw = json.load(open(path))
        w = sw["workers"][0]
    except (OSError, ValueError, KeyError, IndexError):
        continue
    if not w["busy_cycles"] or not w["packets"]:
        continue
    res.setdefault("worker_load", {})[name] = {
        "load_pct": w["load_pct"], "packets": w["packets"],
        "busy_cycles_per_packet": w["busy_cycles"] / w["packets"],
        "busy_walk_pps": w["packets"] * sw["tsc_hz"] / w["busy_cycles"]}
json.dump(res, open(out, "w"), indent=2)

label = {"l3fwd": "l3fwd-lpm", "testpmd": "testpmd-io", "l3fwd6": "l3fwd6-lpm"}
v6 = ", ".join(f"{k} IPv6 of {n}" for k, n in ipv6.items())
table = f"{routes} routes" + (f" ({routes6} IPv6)" if routes6 is not None else "")
print(f"\n{res['frame_size']}-byte frames{' (' + v6 + ')' if v6 else ''}, {res['flows']} flows, "
      f"{table}, {res['rounds']} rounds of {res['duration_s']:g} s, medians ({cpu}):")
for k in runs:
    print(f"  {k:8s} {med[k]/1e6:8.3f} Mpps   runs: " + " ".join(f"{x/1e6:.3f}" for x in runs[k]))
for a, b in pairs:
    key = f"{a.replace('-', '_')}_vs_{b}"
    rr = res[key + "_paired"]
    print(f"  {a} / {label.get(b, b)}: round by round (median of each round's ratio) "
          f"{rr:.3f}, medians {res[key]:.3f}, best runs {res[key + '_best']:.3f}")
if "levels" in res:
    print(f"  by level (runs split at {res['levels']['cut_pps']/1e6:.1f} Mpps, their widest gap):")
    for name in ("fast", "slow"):
        lv = res["levels"][name]
        line = ", ".join(f"{k} {lv['median_pps'][k]/1e6:.3f} ({lv['runs'][k]} runs)" for k in lv["median_pps"])
        ratio = f": tern / l3fwd-lpm = {lv['tern_vs_l3fwd']:.3f}" if "tern_vs_l3fwd" in lv else ""
        print(f"    {name}: {line}{ratio}")
gaps = {k: v for k, v in res["no_result"].items() if v}
if gaps:
    print("  rounds without a result: " + ", ".join(f"{k} {v}" for k, v in gaps.items()))
for name, wl in res.get("worker_load", {}).items():
    print(f"  {name}'s worker over the run: load {wl['load_pct']:.1f} %, "
          f"{wl['busy_cycles_per_packet']:.1f} cycles a packet in walks that handled packets, "
          f"so {wl['busy_walk_pps']/1e6:.3f} Mpps flat out")
print(f"results: {out}")
