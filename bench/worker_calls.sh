#!/bin/bash
# A worker makes no system call, never blocks and never calls the heap (issue: dataplane),
# checked while it forwards tern-bench's flows over memif, then while it punts frames for the
# router's own address to the exception path. In each window: SECS seconds untraced give the
# frames the worker handled and its voluntary context switches (a worker that never blocks
# makes none; a tracer's stops would count as some); SECS seconds under strace, on the
# worker thread alone, its system calls; SECS seconds under gdb (bench/gdb_heap_calls.py)
# its calls to libc's and DPDK's allocators and mmap. The control thread, traced the same
# ways while it answers the shell, must show calls of both kinds: the tracing is not blind.
# Exits 1 when the worker made any call, blocked, or had no frames in a window.
#
#   bench/worker_calls.sh [BUILD]     env: SECS (2)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
SECS=${SECS:-2}
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}
gens=()
. "$ROOT/bench/lib.sh"
bench_extra_cleanup() {
	local g
	for g in "${gens[@]}"; do kill "$g" 2>/dev/null && wait "$g" 2>/dev/null; done
}
bench_begin calls
for t in strace gdb; do
	command -v $t >/dev/null || { echo "calls: $t is missing (make deps installs it)"; exit 2; }
done
hugepages_reserve 768
memif_ports | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 4096
ternd_start || exit 1
memif_forwarding_setup calls || exit 1

# the worker is the thread DPDK named after its lcore
tid=
for t in /proc/"$pid"/task/*; do
	case $(cat "$t/comm" 2>/dev/null) in rte-worker-*) tid=${t##*/}; break ;; esac
done
[ -n "$tid" ] || { echo "calls: ternd has no rte-worker thread"; exit 1; }

gen() {	# NAME DST_IP RATE: in the background, longer than both windows
	memif_gen --dst-ip "$2" --flows 64 --rate "$3" --duration $((3 * SECS + 10)) --json \
		> "$DIR/$1.json" 2> "$DIR/$1.err" &
	gens+=($!)
}
worker_packets() { tern --json -c "show workers" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["workers"][0]["packets"])'; }
switches() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$pid/task/$tid/status"; }

traced_calls() {	# TID: system calls the thread makes in SECS seconds, or nothing if strace cannot follow it
	# one line a call (strace 6.1's -c summary is lost when it detaches on a signal)
	timeout "$SECS" strace -o "$DIR/strace.txt" -p "$1" 2> "$DIR/strace.err"
	grep -q "Process $1 attached" "$DIR/strace.err" || return 1
	grep -c '^[a-z_0-9]*(' "$DIR/strace.txt" || true	# grep -c prints 0 and fails
}

heap_calls() {	# TID...: each thread's heap calls in SECS seconds, one "heap TID N {...}" line each
	TIDS=$(IFS=,; echo "$*") SECS=$SECS timeout $((SECS * 10 + 60)) \
		gdb -p "$pid" -batch -nx -x "$ROOT/bench/gdb_heap_calls.py" > "$DIR/gdb.txt" 2>&1
	grep '^heap ' "$DIR/gdb.txt"
}

fail=0
window() {	# WHAT: SECS seconds untraced (frames and blocking), SECS under strace, SECS under gdb
	local p0 p1 s0 s1 calls heap
	p0=$(worker_packets) s0=$(switches)
	sleep "$SECS"
	p1=$(worker_packets) s1=$(switches)
	calls=$(traced_calls "$tid") ||
		{ echo "calls: strace could not follow the worker: $(cat "$DIR/strace.err")"; fail=1; return; }
	heap=$(heap_calls "$tid") ||
		{ echo "calls: gdb could not follow the worker:"; tail -n 5 "$DIR/gdb.txt"; fail=1; return; }
	heap=$(echo "$heap" | awk '{ print $3 }')
	echo "$1: the worker handled $((p1 - p0)) frames and blocked $((s1 - s0)) times in $SECS s;" \
		"traced, it made $calls system calls and $heap heap calls"
	[ "$calls" -eq 0 ] || { head -n 5 "$DIR/strace.txt" | sed 's/^/  /'; fail=1; }
	[ "$heap" -eq 0 ] || { grep '^heap ' "$DIR/gdb.txt" | sed 's/^/  /'; fail=1; }
	[ $((s1 - s0)) -eq 0 ] || fail=1
	[ $((p1 - p0)) -gt 0 ] || { echo "calls: nothing reached the worker"; fail=1; }
}

gen transit 198.19.0.0 max
sleep 2	# connected, and the worker busy
window "forwarding 64 flows flat out"
wait "${gens[@]}"
gens=()
gen punt 198.18.0.1 20000
sleep 2
window "punting 20 kpps for the router's own address"
wait "${gens[@]}"
gens=()
punted=$(tern --json -c "show exception" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["ports"][0]["to_kernel"])')
echo "frames the exception path wrote to m0's TAP: $punted"
[ "$punted" -gt 0 ] || { echo "calls: nothing was punted"; fail=1; }
# the same tracing sees the control thread's calls (its epoll loop; the heap while it answers
# the shell): the worker's zeros are not blindness
touch "$DIR/shell.on"
( while [ -e "$DIR/shell.on" ] && tern -c "show interfaces" >/dev/null; do sleep 0.05; done ) &
shell=$!
ctl=$(traced_calls "$pid") || ctl=0
ctl_heap=$(heap_calls "$pid" | awk '{ print $3 }')
rm -f "$DIR/shell.on"
wait "$shell"	# its last question answered before ternd stops
echo "the control thread, traced the same ways while it answered the shell, made $ctl system calls and ${ctl_heap:-0} heap calls"
[ "$ctl" -gt 0 ] && [ "${ctl_heap:-0}" -gt 0 ] || fail=1
exit $fail
