#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A flood at the router's own address beside transit traffic (issue: reliability): does the
# kernel stay at the punt policer's rate, and does transit keep >= 95 % of its rate?
# ternd forwards on lcore 1 with two memif ports; tern-bench on lcore 0 sends transit
# (198.19.0.0/16, out of m1) and, in the same stream, frames to m0's own address 198.18.0.1.
#
#   bench/flood.sh [BUILD]     env: DURATION (5), PUNT_RATE (10000, ternd's default)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
DURATION=${DURATION:-5}
PUNT_RATE=${PUNT_RATE:-10000}
. "$ROOT/bench/lib.sh"
bench_begin flood
hugepages_reserve 1024
memif_ports "punt_rate = $PUNT_RATE\n" | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 65536
ternd_start || exit 1
memif_forwarding_setup flood || exit 1

gen() {	# RATE [flood share %] -> JSON
	local flood=()
	[ "${2:-0}" -gt 0 ] && flood=(--flood-ip 198.18.0.1 --flood-share "$2")
	memif_gen --flows 1024 --duration "$DURATION" --rate "$1" "${flood[@]}" --json
}
field() { /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

max=$(gen max | field '["rx_pps"]')
transit=$(awk -v m="$max" 'BEGIN { printf "%d", m * 0.4 }')
echo "transit alone, flat out: $max pps forwarded; the runs below offer 40 % of it as transit"
alone=$(gen "$transit")
# m0's counters: punted = what passed the policer to the kernel, policed = what it refused
before=$(tern --json -c "show counters")
with=$(gen $((transit * 2)) 50)
after=$(tern --json -c "show counters")
/usr/bin/python3 - "$alone" "$with" "$before" "$after" "$PUNT_RATE" "$transit" <<'PY'
import json, sys
a, w = json.loads(sys.argv[1]), json.loads(sys.argv[2])
b, e, rate = json.loads(sys.argv[3])["ports"][0], json.loads(sys.argv[4])["ports"][0], int(sys.argv[5])
asked = int(sys.argv[6])
kernel = (e["punted"] - b["punted"]) / w["duration_s"]
policed = e["policed"] - b["policed"]
# what the router forwarded of the transit offered to it, beside the flood: the generator
# may offer less than asked when this machine slows down, which is no fault of the router's
ratio = w["rx_pps"] / w["tx_pps"] if w["tx_pps"] else 0
print(f"transit alone:        offered {a['tx_pps']:>10.0f} pps, forwarded {a['rx_pps']:>10.0f} pps, loss {a['loss_percent']:.4f} %")
print(f"transit beside flood: offered {w['tx_pps']:>10.0f} pps, forwarded {w['rx_pps']:>10.0f} pps, loss {w['loss_percent']:.4f} %")
print(f"flood at 198.18.0.1:  offered {w['flood_pps']:>10.0f} pps; reached the kernel {kernel:.0f} pps (policer {rate} pps); {policed} policed")
print(f"transit kept {100 * ratio:.1f} % of what was offered beside the flood (goal >= 95 %)")
for name, r, want in (("alone", a, asked), ("beside the flood", w, 2 * asked)):
    offered = r["tx_pps"] + r.get("flood_pps", 0)
    if offered < 0.95 * want:
        print(f"note: {name}, the generator offered {offered:.0f} pps of the {want} pps asked "
              "(this machine was slower than in the flat-out trial)")
PY
