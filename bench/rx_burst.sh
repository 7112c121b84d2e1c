#!/bin/bash
# What a worker's rx burst ([worker N] rx_burst) does: ternd alone on two memif ports, the
# generator flat out for SECS seconds, once for each burst size given. For each: the rate,
# what a busy poll brought (at most the burst: the generator sends bursts of 32, and a queue
# holds more when the worker falls behind), the worker's load and its cycles a packet in
# walks that handled packets. Exits 1 when a poll brought more than its burst allowed.
#
#   bench/rx_burst.sh [BUILD] [BURST...]     env: SECS (2), GEN_BIN (BUILD's tern-bench)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
shift
BURSTS=("$@")
[ ${#BURSTS[@]} -gt 0 ] || BURSTS=(32 128)
SECS=${SECS:-2}
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}
. "$ROOT/bench/lib.sh"
bench_begin rxburst
hugepages_reserve 1024
rc=0
for b in "${BURSTS[@]}"; do
	rm -f "$DIR"/memif*.sock
	memif_ports | TERND_RX_BURST=$b ternd_conf "$MEM_ARGS" "m0:0 m1:0" 1024
	ternd_start || exit 1
	memif_forwarding_setup rxburst || exit 1
	GEN_BIN=${GEN_BIN:-$BUILD/tern-bench} memif_gen --flows 1024 --duration "$SECS" --rate max --json \
		> "$DIR/gen.json" 2> "$DIR/gen.err" || { echo "rx_burst: the generator failed"; cat "$DIR/gen.err"; exit 1; }
	tern --json -c "show workers" > "$DIR/workers.json" || exit 1
	ternd_stop
	/usr/bin/python3 - "$b" "$DIR/gen.json" "$DIR/workers.json" <<'PY' || rc=1
import json, sys
b = int(sys.argv[1])
g, s = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
w = s["workers"][0]
each = w["packets"] / w["busy_polls"] if w["busy_polls"] else 0
cpp = w["busy_cycles"] / w["packets"] if w["packets"] else 0
print(f"rx_burst {b:3d} (worker says {w['rx_burst']}): {g['rx_pps'] / 1e6:.3f} Mpps, loss {g['loss_percent']:.4f} %, "
      f"{each:.1f} packets a busy poll, load {w['load_pct']:.1f} %, {cpp:.1f} cycles a packet in busy walks")
sys.exit(0 if w["rx_burst"] == b and each <= b else 1)
PY
done
exit $rc
