#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# make bench, part 2: the exception path's own throughput. tern-bench floods the router's own
# address over memif (port -> kernel); a sender in ternd's namespace blasts UDP out of a port
# (kernel -> port). Rates come from ternd's show exception counters.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
DURATION=${DURATION:-5}
. "$ROOT/bench/lib.sh"
bench_begin exc
hugepages_reserve 1024
memif_ports 'punt_rate = 10000000\npunt_burst = 100000\n' | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 65536
ternd_start || exit 1
memif_forwarding_setup exception || exit 1
exc() { tern --json -c "show exception" | /usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

# port -> kernel: UDP to the router's own address, as fast as the generator goes
before=$(exc 'j["ports"][0]["to_kernel"]')
memif_gen --dst-ip 198.18.0.1 --duration "$DURATION" --json > "$DIR/gen.json" &
gen=$!
wait $gen
after=$(exc 'j["ports"][0]["to_kernel"]')
errs=$(exc 'j["ports"][0]["to_kernel_errors"]')
offered=$(/usr/bin/python3 -c "import json; print(int(json.load(open('$DIR/gen.json'))['tx_pps']))")
to_k=$(( (after - before) / DURATION ))

# kernel -> port: UDP from ternd's namespace to a host behind m1 (static ARP: no host needed)
memif_gen --rate 1 --duration $((DURATION + 2)) --warmup 0 --json > /dev/null &
gen=$!
sleep 1
before=$(exc 'j["ports"][1]["from_kernel"]')
ip netns exec $R /usr/bin/python3 - "$DURATION" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 22)
end = time.monotonic() + float(sys.argv[1]); payload = bytes(18); errors = {}
while time.monotonic() < end:
    for _ in range(1000):
        try:
            s.sendto(payload, ("198.18.1.2", 9))
        except OSError as e:
            errors[e.strerror] = errors.get(e.strerror, 0) + 1
if errors:
    print("  sender errors:", errors)
PY
after=$(exc 'j["ports"][1]["from_kernel"]')
drops=$(exc 'j["ports"][1]["from_kernel_drops"]')
wait $gen
from_k=$(( (after - before) / DURATION ))
echo "exception path, ${DURATION} s each, 64-byte UDP:"
echo "  port -> kernel: $to_k pps written to the TAP (offered $offered pps; TAP write errors $errs)"
echo "  kernel -> port: $from_k pps sent on the port (one Python sender; drops $drops)"
