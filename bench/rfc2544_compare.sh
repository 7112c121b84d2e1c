#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Part of `make bench`: a short RFC 2544 run (throughput and latency) of ternd and of DPDK's
# l3fwd in the same memif harness, one after the other, and their throughput ratio per size.
#   bench/rfc2544_compare.sh BUILD    (reports in $OUT, default BUILD/bench/rfc2544-{tern,l3fwd})
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT=${OUT:-$BUILD/bench}
SIZES=${SIZES:-64,512,1518}
for dut in tern l3fwd; do
	DUT=$dut "$ROOT/bench/rfc2544.sh" "$BUILD" "$OUT/rfc2544-$dut" --quick --sizes "$SIZES" \
		--tests throughput,latency --trial 2 2>&1 | grep -v '^rfc2544: ' || exit 1
done
/usr/bin/python3 - "$OUT/rfc2544-tern/results.json" "$OUT/rfc2544-l3fwd/results.json" <<'PY'
import json, sys
t, l = (json.load(open(f)) for f in sys.argv[1:3])
print("\nRFC 2544 throughput (0 % loss, quick profile), tern vs l3fwd, same harness:")
print(f"  {'frame':>6} {'tern Mpps':>10} {'l3fwd Mpps':>11} {'ratio':>6} {'tern p99 us':>12} {'l3fwd p99 us':>13}")
for a, b in zip(t["sizes"], l["sizes"]):
    ta, tb = a["throughput"][0]["pps"], b["throughput"][0]["pps"]
    pa = a["latency_ns"]["p99"] / 1e3 if a["latency_ns"] else float("nan")
    pb = b["latency_ns"]["p99"] / 1e3 if b["latency_ns"] else float("nan")
    print(f"  {a['frame_size']:>6} {ta/1e6:>10.3f} {tb/1e6:>11.3f} {ta/tb if tb else 0:>6.3f} {pa:>12.1f} {pb:>13.1f}")
print(f"reports: {sys.argv[1].rsplit('/', 1)[0]}/report.md, {sys.argv[2].rsplit('/', 1)[0]}/report.md")
PY
