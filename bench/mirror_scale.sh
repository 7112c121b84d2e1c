#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# make bench, part 3: the netlink mirror at Internet scale. 1M BGP-shaped routes enter the
# kernel with ip -batch while ternd mirrors them (FIB complete how long after the kernel?), and
# what that cost ternd's control thread against what it cost ip and the kernel (user and system
# CPU of each), stage by stage (show netlink); then single route changes are timed from the
# kernel's ACK to the FIB's answer, ternd is restarted with the table in the kernel, and the
# routes are withdrawn, their cost measured the same way.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUTES=${ROUTES:-1000000}
CHANGES=${CHANGES:-200}
. "$ROOT/bench/lib.sh"
bench_begin scale
hugepages_for_table
ternd_conf "$TABLE_MEM" "dp0:0 dp1:0" 2097152 <<EOC
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
# complete at the start of the first count() that finds every route (an upper bound, to
# within one call and the poll's 20 ms)
wait_complete() {
	local t
	while t=$(date +%s.%N); [ "$(count)" -lt $((base + unique)) ]; do sleep 0.02; done
	echo "$t"
}
# Returns once ternd has read and applied all the kernel sent: an API request first applies
# what a batch wait holds back, so an unread backlog of 0 leaves nothing behind. The CPU taken
# after it is the mirror's, less the few requests of the poll.
drained() {
	while [ "$(tern --json -c "show netlink" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["backlog_bytes"])')" != 0 ]; do
		sleep 0.01
	done
}
# CPU seconds of ternd's control thread (EAL's main lcore: the process's first thread)
ctl_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$pid/task/$pid/stat"; }
# ternd's nanoseconds by stage (show netlink's cost_ns), space separated, in a fixed order
STAGES="read parse rib fib_standby fib_grace fib_level reclaim"
stage_ns() { tern --json -c "show netlink" | /usr/bin/python3 -c 'import json,sys; c=json.load(sys.stdin)["cost_ns"]; print(" ".join(str(c[k]) for k in sys.argv[1:]))' $STAGES; }
# runs ip -batch FILE in the router's namespace; prints the user+system CPU seconds of ip and
# the kernel's work done for it
ip_batch_cpu() {
	/usr/bin/python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stderr=open(sys.argv[-1] + ".err", "w"))
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f" % (r.ru_utime + r.ru_stime))' ip -n "$R" -force -batch "$1"
}
# one line: ternd's control CPU against ip's for N routes, and ternd's time by stage
cost_line() {	# WHAT N IP_CPU CTL_BEFORE CTL_AFTER "STAGES BEFORE" "STAGES AFTER"
	/usr/bin/python3 - "$@" $STAGES <<'PY'
import sys
what, n, ip, c0, c1, s0, s1 = sys.argv[1:8]
names = sys.argv[8:]
n, ip, ctl = int(n), float(ip), float(c1) - float(c0)
# the stages are timed with the TSC, which also runs while ip has the core (a batch is
# preempted once it outlasts the scheduler's slice): ternd's CPU is shared out in their ratio
d = [float(b) - float(a) for a, b in zip(s0.split(), s1.split())]
scale = ctl * 1e9 / sum(d) if sum(d) else 0
print("  %s: ternd's control thread %.2f s of CPU (%.1f us a route) against %.2f s of ip and the kernel: %.2fx" %
      (what, ctl, ctl / n * 1e6, ip, ctl / ip if ip else 0))
print("    ternd's CPU by stage, ns a route: " + ", ".join("%s %.0f" % (k, v * scale / n) for k, v in zip(names, d)))
PY
}

c0=$(ctl_cpu); s0=$(stage_ns)
t0=$(date +%s.%N)
ipcpu=$(ip_batch_cpu "$DIR/batch")
t1=$(date +%s.%N)
drained
c1=$(ctl_cpu); s1=$(stage_ns)
t2=$(wait_complete)
check_unique=$(ip -n $R -o route show via 198.18.1.2 | wc -l)	# what the kernel took
[ "$check_unique" = "$unique" ] || echo "mirror_scale: the kernel holds $check_unique routes, $unique expected"
# show ip fib consistency's differences; ternd spaces checks out by five times the last one's
# cost and says so, so a refused check is asked again once that pause is over (30 s at most)
consistency() {
	local out i
	for i in $(seq 60); do
		out=$(tern --json -c "show ip fib consistency" 2>/dev/null)
		grep -q '"differences"' <<<"$out" && break
		sleep 0.5
	done
	/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("differences", "?"))' <<<"$out"
}
consistent=$(consistency)
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
cost_line "adding them" "$unique" "$ipcpu" "$c0" "$c1" "$s0" "$s1"
printf '  one route change, kernel ACK -> FIB (over %d changes, includes tern polling): p50 %s ms, p99 %s ms, max %s ms\n' \
	"$CHANGES" "$p50" "$p99" "$pmax"
# show ip route summary with the full table, against show netlink (no walk of anything): the
# shell's whole round trip, 20 calls of each, alternating
/usr/bin/python3 - "$BUILD/tern" "$DIR/ternd.sock" <<'PY'
import subprocess, sys, time
tern, sock = sys.argv[1], sys.argv[2]
t = {"show ip route summary": 0.0, "show netlink": 0.0}
for _ in range(20):
    for c in t:
        t0 = time.monotonic()
        subprocess.run([tern, "-s", sock, "--json", "-c", c], capture_output=True, check=True)
        t[c] += time.monotonic() - t0
print("  show ip route summary with the table: %.2f ms a call, show netlink %.2f ms: %.2fx" %
      (t["show ip route summary"] / 20 * 1e3, t["show netlink"] / 20 * 1e3,
       t["show ip route summary"] / t["show netlink"]))
PY

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
diffs=$(consistency)
ip -n "$R" route replace 198.19.250.0/24 via 198.18.1.2
while [ "$(tern --json -c "show ip fib 198.19.250.1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kind"])')" = no-route ]; do sleep 0.02; done
diffs2=$(consistency)
printf '  the second copy was level %.3f s after the last restart'"'"'s FIB was complete; consistency check of each copy: %s and %s difference(s)\n' \
	"$(echo "$t6 - $t4" | awk '{ print $1 - $3 }')" "$diffs" "$diffs2"

# Withdrawn: the same routes deleted by ip -batch, to the base count again
sed 's|^route replace |route del |' "$DIR/batch" > "$DIR/withdraw"
ip -n "$R" route del 198.19.250.0/24 2>/dev/null	# the one change above the table
c0=$(ctl_cpu); s0=$(stage_ns)
ipcpu=$(ip_batch_cpu "$DIR/withdraw")
drained
c1=$(ctl_cpu); s1=$(stage_ns)
end=$((SECONDS + 600))
while [ "$(count)" -gt "$base" ] && [ $SECONDS -lt $end ]; do sleep 0.02; done
[ "$(count)" = "$base" ] || echo "mirror_scale: $(count) routes left after the withdrawal, $base expected"
cost_line "withdrawing them" "$unique" "$ipcpu" "$c0" "$c1" "$s0" "$s1"
