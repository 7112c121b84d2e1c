#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# make bench, part 3: the netlink mirror at Internet scale. 1M BGP-shaped routes enter the
# kernel with ip -batch while ternd mirrors them (FIB complete how long after the kernel?);
# then single route changes are timed from the kernel's ACK to the FIB's answer.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUTES=${ROUTES:-1000000}
CHANGES=${CHANGES:-200}
. "$ROOT/bench/lib.sh"
bench_begin scale
# hugepages in DPDK's dynamic mode (no --socket-mem): the FIB, RIB and pools of a 2M-route
# table fault in 2 MiB pages as they are made; on 4 KiB pages (--no-huge) that alone takes ~2 s
hugepages_reserve 2048
mem="--no-huge -m 3072"
[ "$MEM_ARGS" != "--no-huge -m 1024" ] && mem=""
ternd_conf "$mem" "dp0:0 dp1:0" 2097152 <<EOC
[port dp0]
dev = net_null0
[port dp1]
dev = net_null1
mac = 02:00:00:00:a0:01
tap_persist = yes
EOC
ternd_start || exit 1
tern -c "configure terminal" -c "interface dp1" -c "ip address 198.18.1.1/24" -c "end" || exit 1
count() { tern --json -c "show ip route summary" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kernel_routes"])'; }
base=$(count)

# the same BGP-shaped table tern-bench pipeline uses, as ip -batch commands
"$BUILD/tern-bench" routes --count "$ROUTES" | sed 's|^|route replace |; s|$| via 198.18.1.2|' > "$DIR/batch"
unique=$(awk '{ print $3 }' "$DIR/batch" | sort -u | wc -l)	# replace: duplicates collapse
# complete at the start of the first count() that finds every route (count() itself takes
# a while with 1M routes: the time is then an upper bound, to within one call)
wait_complete() {
	local t
	while t=$(date +%s.%N); [ "$(count)" -lt $((base + unique)) ]; do sleep 0.02; done
	echo "$t"
}
t0=$(date +%s.%N)
ip -n $R -force -batch "$DIR/batch" 2> "$DIR/batch.err"
t1=$(date +%s.%N)
t2=$(wait_complete)
check_unique=$(ip -n $R -o route show via 198.18.1.2 | wc -l)	# what the kernel took
[ "$check_unique" = "$unique" ] || echo "mirror_scale: the kernel holds $check_unique routes, $unique expected"
consistent=$(tern --json -c "show ip fib consistency" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["differences"])')
nl=$(tern --json -c "show netlink" | /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["resyncs"], j["max_batch"])')

# one change at a time: kernel ACK -> FIB answers
/usr/bin/python3 - "$BUILD/tern" "$DIR/ternd.sock" "$R" "$CHANGES" > "$DIR/lat.txt" <<'PY'
import json, subprocess, sys, time
tern, sock, ns, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lat = []
for i in range(n):
    pfx = "198.19.%d.0/24" % (i % 250)
    t0 = time.monotonic()
    subprocess.run(["ip", "-n", ns, "route", "replace", pfx, "via", "198.18.1.2"], check=True)
    t1 = time.monotonic()
    while True:
        out = subprocess.run([tern, "-s", sock, "--json", "-c", "show ip fib 198.19.%d.1" % (i % 250)],
                             capture_output=True, text=True).stdout
        if json.loads(out)["kind"] != "no-route":	# the gateway is never resolved on null ports
            break
    lat.append(time.monotonic() - t1)
    subprocess.run(["ip", "-n", ns, "route", "del", pfx], check=True)
lat.sort()
print("%.1f %.1f %.1f" % (lat[len(lat) // 2] * 1e3, lat[int(len(lat) * 0.99) - 1] * 1e3, lat[-1] * 1e3))
PY
read -r p50 p99 pmax < "$DIR/lat.txt"
printf 'mirror at scale: %d routes generated, %d in the kernel (ip -batch refused %d)\n' "$ROUTES" "$unique" \
	"$(grep -c . "$DIR/batch.err")"
printf '  the kernel took %.2f s; the FIB was complete %.3f s after it finished\n' \
	"$(echo "$t1 - $t0" | awk '{ print $1 - $3 }')" "$(echo "$t2 - $t1" | awk '{ print $1 - $3 }')"
printf '  consistency check: %s difference(s); resyncs, largest batch: %s\n' "$consistent" "$nl"
printf '  one route change, kernel ACK -> FIB (over %d changes, includes tern polling): p50 %s ms, p99 %s ms, max %s ms\n' \
	"$CHANGES" "$p50" "$p99" "$pmax"

# restarts with the table already in the kernel (dp1 is persistent, so the kernel keeps
# its routes while ternd is down): from ternd's start to a complete FIB, RESTARTS times
complete=() api=()
for _ in $(seq "${RESTARTS:-3}"); do
	ternd_stop
	t3=$(date +%s.%N)
	ternd_start || exit 1
	t35=$(date +%s.%N)
	t4=$(wait_complete)
	complete+=("$(echo "$t4 - $t3" | awk '{ printf "%.3f", $1 - $3 }')")
	grep -ho "kernel tables read.*\|ready in [^:]*" "$DIR/ternd.log" | sed 's/^/    ternd: /'	# where the start went
	api+=("$(echo "$t35 - $t3" | awk '{ printf "%.3f", $1 - $3 }')")
done
printf '  ternd restarted with the table in the kernel, %d times: FIB complete after %s s (median %s; API up after %s s)\n' \
	"${#complete[@]}" "${complete[*]}" "$(printf '%s\n' "${complete[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" "${api[*]}"

# After the last restart: the FIB's second copy is brought level in the background; once it is,
# both copies must equal the kernel (a route change switches the copies between the checks).
lag() { tern --json -c "show ip route summary" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["fib_standby_lag"])'; }
while [ "$(lag)" -gt 0 ]; do sleep 0.05; done
t6=$(date +%s.%N)
diffs=$(tern --json -c "show ip fib consistency" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["differences"])')
ip -n "$R" route replace 198.19.250.0/24 via 198.18.1.2
while [ "$(tern --json -c "show ip fib 198.19.250.1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kind"])')" = no-route ]; do sleep 0.02; done
diffs2=$(tern --json -c "show ip fib consistency" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["differences"])')
printf '  the second copy was level %.3f s after the last restart'"'"'s FIB was complete; consistency check of each copy: %s and %s difference(s)\n' \
	"$(echo "$t6 - $t4" | awk '{ print $1 - $3 }')" "$diffs" "$diffs2"
