#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# make bench, the restart gap: how long forwarding stops when ternd is stopped and started
# again (systemctl restart), with ROUTES routes in the kernel (1000 and 1000000 in make bench).
# The generator sends 64-byte frames at RATE through the two-port memif harness with
# --reconnect (a memif client connects only when its port starts, so it restarts a port whose
# link is down every 20 ms) and reports the longest time without a received frame. ternd's
# ports keep their TAPs across the restart (tap_persist), so the kernel keeps its routes,
# addresses and neighbours. The gap is broken down from the wall clock of each step: the old
# process's exit, EAL and memory, the ports and their links, the kernel dump, the FIB load,
# and the first forwarded frame; then the FIB must agree with the kernel.
#
#   bench/restart_gap.sh [BUILD]       ROUTES=1000000 RATE=1000000 RESTARTS=3
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
unset GEN_BIN	# the generator's --reconnect needs the memif guard of the shared tern-bench
ROUTES=${ROUTES:-1000000}
RATE=${RATE:-1000000}
RESTARTS=${RESTARTS:-3}
. "$ROOT/bench/lib.sh"
bench_begin restart
hugepages_for_table
memif_ports 'tap_persist = yes\n' 'tap_persist = yes\n' | ternd_conf "$TABLE_MEM" "m0:0 m1:0" 2097152
ternd_start || exit 1
memif_forwarding_setup restart-gap || exit 1
routes() { tern --json -c "show ip route summary" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kernel_routes"])'; }
base=$(routes)
"$BUILD/tern-bench" routes --count "$ROUTES" | sed 's|^|route replace |; s|$| via 198.18.1.2|' > "$DIR/batch"
unique=$(awk '{ print $3 }' "$DIR/batch" | sort -u | wc -l)
ip -n "$R" -force -batch "$DIR/batch" 2> "$DIR/batch.err"
while [ "$(routes)" -lt $((base + unique)) ]; do sleep 0.05; done
echo "restart-gap: ternd holds $((base + unique)) kernel routes ($unique from ip -batch)"
now() { date +%s.%N; }
gaps=()
for n in $(seq "$RESTARTS"); do
	memif_gen --flows 1024 --rate "$RATE" --duration 8 --warmup 1 --reconnect --json \
		> "$DIR/gen.json" 2> "$DIR/gen.err" &
	gen=$!
	sleep 3
	t_kill=$(now)
	kill -TERM "$pid"
	wait "$pid"
	t_exit=$(now)
	ternd_start || exit 1
	t_api=$(now)
	wait "$gen" || { echo "restart-gap: the generator failed"; cat "$DIR/gen.err"; exit 1; }
	line=$(/usr/bin/python3 - "$DIR/gen.json" "$DIR/ternd.log" "$t_kill" "$t_exit" "$t_api" <<'PY'
import json, re, sys
g = json.load(open(sys.argv[1]))
log = open(sys.argv[2]).read()
t_kill, t_exit, t_api = (float(v) for v in sys.argv[3:6])
gap = g["gap"]
t0 = gap["start_unix"]
from_, to = t0 + gap["from_s"], t0 + gap["to_s"]
ready = re.search(r"ready in ([\d.]+) s \(EAL ([\d.]+) s, dataplane ([\d.]+) s, kernel tables ([\d.]+) s, workers and API ([\d.]+) s\)", log)
stop = re.search(r"the last stop took ([\d.]+) s", log)
fib = re.search(r"kernel tables read \(and staged in the FIB\) in ([\d.]+) s, (\d+) routes", log)
link = t0 + gap["link_up_s"] if gap["link_up_s"] >= 0 else float("nan")
start = t_exit	# the new process is started right after the old one is gone
parts = [("last frame before the stop", from_ - t_kill),
         ("old process exit", t_exit - t_kill)]
if ready:
    total, eal, dp, nl, wk = (float(v) for v in ready.groups())
    parts += [("EAL and memory", eal), ("ports", dp), ("kernel dump and FIB load", nl),
              ("workers and API", wk)]
parts += [("links up (after start)", link - start), ("first frame (after start)", to - start)]
print("gap %.3f s%s: %s" % (gap["longest_s"], " (last stop took %s s)" % stop.group(1) if stop else "",
      ", ".join("%s %.3f" % p for p in parts)))
print("GAP %.6f" % gap["longest_s"])
PY
)
	echo "$line" | grep -v '^GAP' | sed "s/^/  restart $n: /"
	gaps+=("$(echo "$line" | awk '/^GAP/ { print $2 }')")
	while [ "$(routes)" -lt $((base + unique)) ]; do sleep 0.05; done
	diffs=$(tern --json -c "show ip fib consistency" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["differences"])')
	echo "  restart $n: $(routes) kernel routes after the restart, $diffs consistency difference(s)"
	[ "$diffs" = 0 ] || exit 1
done
printf 'restart-gap: %s routes, %s restarts: forwarding stopped for %s s (median %s)\n' "$ROUTES" \
	"$RESTARTS" "${gaps[*]}" "$(printf '%s\n' "${gaps[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
