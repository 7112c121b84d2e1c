#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# make bench, the forwarding pipeline without I/O: cycles per packet in ternd's forwarding
# nodes and the FIB's insert, withdraw and staged-load times, with 1k and 1M BGP-shaped IPv4
# routes and 1k and 220k (today's full table) IPv6 ones (82-byte frames, the smallest that
# carries the generator's stamp),
# on 2 MiB pages as ternd runs (4 KiB pages when none can be had, said so). One worker pinned
# to CPU 1; ROUNDS runs per table, alternating, medians; the goals (<= 40 cycles/packet) checked; results
# to $OUT/pipeline.json.
#
#   bench/pipeline.sh [BUILD]
# Each run sends to FLOWS destinations picked across the table: with 64k of them a 1M table
# spreads its lookups over 4 MiB of first-level entries, more than the core's caches.
# Env: ROUNDS (5), SECONDS_PER_RUN (2), ROUTES ("1000 1000000"), ROUTES6 ("1000 220000"),
# FLOWS (65536), OUT ($BUILD/bench).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUNDS=${ROUNDS:-5}
SECS=${SECONDS_PER_RUN:-2}
ROUTES=${ROUTES:-1000 1000000}
ROUTES6=${ROUTES6:-1000 220000}
FLOWS=${FLOWS:-65536}
OUT=${OUT:-$BUILD/bench}
BIN=$BUILD/tern-bench
. "$ROOT/bench/lib.sh"
[ -x "$BIN" ] || { echo "pipeline: $BIN is missing (make)"; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "pipeline: needs root (hugepages)"; exit 1; }
trap 'hugepages_restore; rm -f "$runs"' EXIT
trap 'exit 130' INT TERM
runs=$(mktemp)
mkdir -p "$OUT"

# tern-bench pipeline on hugepages takes 1.5 GiB of them (two FIB copies of a 1M table)
HUGE=
hugepages_reserve 800 >/dev/null
if [ "$(sed -n 's/^HugePages_Free: *//p' /proc/meminfo)" -ge 768 ] && grep -q hugetlbfs /proc/mounts; then
	HUGE=--hugepages
	echo "pipeline: 2 MiB pages, as ternd runs"
else
	echo "pipeline: 4 KiB pages (could not reserve 768 hugepages); expect more cycles at 1M routes"
fi
cpu=$( [ "$(nproc)" -gt 1 ] && echo 1 || echo 0)
for r in $(seq "$ROUNDS"); do
	for run in $(for n in $ROUTES; do echo "$n:"; done; for n in $ROUTES6; do echo "$n:--ipv6"; done); do
		n=${run%%:*} fam=${run#*:}
		j=$(taskset -c "$cpu" "$BIN" pipeline --routes "$n" $fam --flows "$FLOWS" --seconds "$SECS" $HUGE --json 2>&1 | tail -1)
		case $j in
		"{"*) echo "$j" >> "$runs" ;;
		*) echo "pipeline: tern-bench pipeline --routes $n $fam failed: $j"; exit 1 ;;
		esac
	done
done

/usr/bin/python3 - "$runs" "$OUT/pipeline.json" "${HUGE:+2 MiB}" "$ROUNDS" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
pages, rounds = sys.argv[3] or "4 KiB", int(sys.argv[4])
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
flows = runs[0]["flows"]
res = {"pages": pages, "rounds": rounds, "flows": flows, "cpu": cpu, "tables": []}
print(f"\nforwarding pipeline without I/O, {pages} pages, {flows} flows, median of {rounds} rounds ({cpu}):")
for fam, n in sorted({(r["family"], r["routes"]) for r in runs}):
    rs = [r for r in runs if r["routes"] == n and r["family"] == fam]
    med = lambda k: statistics.median(r[k] for r in rs)
    t = {"family": fam, "frame_size": rs[0]["frame_size"], "routes": n,
         "cycles_per_packet": med("pipeline_cycles_per_packet"),
         "cycles_runs": [r["pipeline_cycles_per_packet"] for r in rs],
         "walk_mpps": med("walk_mpps"), "insert_s": med("insert_s"), "insert_per_s": med("insert_per_s"),
         "withdraw_s": med("withdraw_s"), "load_publish_s": med("load_publish_s"),
         "load_level_s": med("load_level_s")}
    res["tables"].append(t)
    print(f"  {fam} {n:>8} routes: {t['cycles_per_packet']:6.1f} cycles/packet (runs "
          + " ".join(f"{c:.1f}" for c in t["cycles_runs"])
          + f"), {t['walk_mpps']:.2f} Mpps through the graph; "
          f"FIB load {t['insert_s']:.3f} s, {t['insert_per_s'] / 1e6:.2f} M routes/s (both copies, batches of 64k)")
    print(f"  {'':>13}         withdrawn in {t['withdraw_s']:.3f} s; loaded as ternd loads its kernel's table "
          f"at start: forwarding on all of it after {t['load_publish_s']:.3f} s, both copies level after "
          f"{t['load_level_s']:.3f} s")
goals = []
for t in res["tables"]:
    if t["family"] == "ipv4":
        goals.append((f"pipeline <= 40 cycles/packet with {t['routes']} IPv4 routes", t["cycles_per_packet"] <= 40))
    if t["family"] == "ipv4" and t["routes"] >= 1000000:
        goals.append((f"{t['routes']} IPv4 routes into the FIB in <= 2 s", t["insert_s"] <= 2))
    if t["family"] == "ipv6" and t["routes"] >= 220000:
        goals.append((f"{t['routes']} IPv6 routes into the FIB in <= 1 s", t["insert_s"] <= 1))
by = {(t["family"], t["routes"]): t for t in res["tables"]}
if ("ipv4", 1000) in by and ("ipv6", 1000) in by:
    ratio = by[("ipv6", 1000)]["walk_mpps"] / by[("ipv4", 1000)]["walk_mpps"]
    res["ipv6_to_ipv4_walk_1k"] = ratio
    print(f"  IPv6 against IPv4 through the graph, 1k routes: {ratio:.3f}x")
    goals.append(("IPv6 >= 0.9x IPv4 through the graph, 1k routes", ratio >= 0.9))
res["goals"] = {g: ok for g, ok in goals}
for g, ok in goals:
    print(f"  goal: {g}: {'met' if ok else 'not met'}")
json.dump(res, open(sys.argv[2], "w"), indent=2)
print(f"results: {sys.argv[2]}")
PY
