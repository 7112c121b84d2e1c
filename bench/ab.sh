#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# An A/B of two ternds in make bench's harness (bench/bench.sh), run both ways round.
#
# bench.sh's second ternd, tern-b, runs in a namespace of its own, starts second and gets
# other hugepages; that slot came out ahead of the first by 0.8 to 2.6 % in rate and 2.6
# to 4.4 % in busy-walk cycles in three runs where only the pool size differed, whichever
# pool it had (bench/ab.sh runs with TERN_B_CONF_EXTRA changing only [mempool] mbufs). So the variant runs once as tern-b against the
# base as tern, then as tern against the base as tern-b; the slot's bias cancels in the
# geometric mean of the two ratios, and half their quotient estimates it.
#
#   bench/ab.sh BUILD VARIANT_TERND     env: ROUNDS (60), DURATION, TABLE, GEN_BIN,
#                                            VARIANT_CONF_EXTRA, BASE_CONF_EXTRA (ternd.conf
#                                            sections for each, as TERND_CONF_EXTRA)
# The base is BUILD's ternd. Prints each order's round-by-round ratio, variant / base, and
# the same for the cycles a packet each spent in walks that handled packets.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: bench/ab.sh BUILD VARIANT_TERND"; exit 2; }
BUILD=$(cd "$1" && pwd)
VARIANT=$(readlink -f "$2")
[ -x "$VARIANT" ] || { echo "ab: $2 is not an executable ternd"; exit 2; }
export ROUNDS=${ROUNDS:-60} CONTENDERS="tern tern-b"
# an empty extra would let tern-b take tern's (bench.sh): a comment stands for none
VEXTRA=${VARIANT_CONF_EXTRA:-# variant} BEXTRA=${BASE_CONF_EXTRA:-# base}
OUT_TOP=$(mktemp -d /tmp/tern-ab-XXXXXX)

echo "== variant as tern-b, base as tern"
OUT=$OUT_TOP/1 TERN_B=$VARIANT TERND_CONF_EXTRA=$BEXTRA TERN_B_CONF_EXTRA=$VEXTRA \
	"$ROOT/bench/bench.sh" "$BUILD" | tail -n 4 || exit 1
echo "== variant as tern, base as tern-b"
OUT=$OUT_TOP/2 TERND_BIN=$VARIANT TERN_B=$BUILD/ternd TERND_CONF_EXTRA=$VEXTRA TERN_B_CONF_EXTRA=$BEXTRA \
	"$ROOT/bench/bench.sh" "$BUILD" | tail -n 4 || exit 1

results=$OUT_TOP/1/results.json
[ "${TABLE:-1k}" = 1m ] && results=$OUT_TOP/1/results-1m.json
/usr/bin/python3 - "$results" "${results/\/1\//\/2\/}" <<'PY'
import json, math, sys
r1, r2 = (json.load(open(p)) for p in sys.argv[1:3])
# run 1: tern-b is the variant; run 2: tern is
a, b = r1["tern_b_vs_tern_paired"], 1 / r2["tern_b_vs_tern_paired"]
print(f"variant / base, round by round: {a:.3f} as tern-b, {b:.3f} as tern; "
      f"both ways {math.sqrt(a * b):.3f} (the tern-b slot's own edge {math.sqrt(a / b):.3f})")
try:
    w1, w2 = r1["worker_load"], r2["worker_load"]
    c1 = w1["tern-b"]["busy_cycles_per_packet"] / w1["tern"]["busy_cycles_per_packet"]
    c2 = w2["tern"]["busy_cycles_per_packet"] / w2["tern-b"]["busy_cycles_per_packet"]
    print(f"variant / base, cycles a packet in busy walks: {c1:.3f} as tern-b, {c2:.3f} as tern; "
          f"both ways {math.sqrt(c1 * c2):.3f}")
except (KeyError, ZeroDivisionError):
    print("(no worker load from one of them: a ternd without show workers --json load?)")
PY
rm -rf "$OUT_TOP"
