#!/bin/bash
# ternd's memif ports as zero-copy clients: ternd offers its own packet memory (hugepage
# files) to the peer, here tern-bench gen with two server ports, and forwards between them.
# DPDK 22.11's zero-copy client closes EAL's hugepage file descriptors as it connects
# (dataplane/memseg_fd_guard.c): without ternd's guard, its second port sent the peer the
# wrong file for its packet memory. Exits 1 if a port does not come up, nothing is
# forwarded, the generator or ternd dies, or ternd's file descriptors for its hugepage
# files were closed.
#
#   bench/memif_zc_client.sh [BUILD]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}
. "$ROOT/bench/lib.sh"
bench_begin memif-zc
hugepages_reserve 768
case $MEM_ARGS in
*--socket-mem*) ;;
*) echo "memif-zc: zero-copy needs hugepages, and none could be reserved"; exit 2 ;;
esac
gen=
bench_extra_cleanup() { [ -n "$gen" ] && kill "$gen" 2>/dev/null && wait "$gen" 2>/dev/null; }
zc() { echo "net_memif$1,role=client,id=0,socket=$DIR/memif$1.sock,socket-abstract=no,mac=$2,zero-copy=yes"; }

# the generator first: a memif client connects once, at its port's start
"$BUILD/tern-bench" gen --eal "-l 0 $BENCH_MEM --file-prefix tern-$BENCH_NAME-gen --log-level=*:error" \
	--port "net_memif0,role=server,id=0,socket=$DIR/memif0.sock,socket-abstract=no,mac=02:00:00:00:b0:00" \
	--port "net_memif1,role=server,id=0,socket=$DIR/memif1.sock,socket-abstract=no,mac=02:00:00:00:b0:01" \
	--dst-mac 02:00:00:00:a0:00 --flows 64 --duration 1 --link-wait 60 --json \
	> "$DIR/gen.json" 2> "$DIR/gen.err" &
gen=$!
for _ in $(seq 100); do [ -S "$DIR/memif1.sock" ] && break; sleep 0.1; done
[ -S "$DIR/memif1.sock" ] || { echo "memif-zc: the generator did not open its sockets"; cat "$DIR/gen.err"; exit 1; }

printf '[port m0]\ndev = %s\n[port m1]\ndev = %s\n' "$(zc 0 02:00:00:00:a0:00)" "$(zc 1 02:00:00:00:a0:01)" |
	ternd_conf "$MEM_ARGS --single-file-segments" "m0:0 m1:0" 4096
ternd_start || { kill "$gen" 2>/dev/null; exit 1; }
memif_forwarding_setup memif-zc || exit 1
# ternd's hugepage files, open now: the guard must keep every one of them open
files_before=$(ls -l /proc/"$pid"/fd 2>/dev/null | grep -c "tern-$BENCH_NAME-dutmap")

wait "$gen"
rc=$?
gen=
rx=$(/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["rx_packets"])' < "$DIR/gen.json" 2>/dev/null)
if ! kill -0 "$pid" 2>/dev/null; then
	wait "$pid"
	echo "memif-zc: ternd died (exit status $?)"
	tail -n 5 "$DIR/ternd.log"
	pid=
	exit 1
fi
files_after=$(ls -l /proc/"$pid"/fd 2>/dev/null | grep -c "tern-$BENCH_NAME-dutmap")
echo "memif-zc: ternd's hugepage files open: $files_before after configuration, $files_after after the run"
if [ "$rc" -ne 0 ] || [ -z "$rx" ] || [ "$rx" -eq 0 ]; then
	echo "memif-zc: nothing was forwarded (generator exit status $rc)"
	cat "$DIR/gen.err"
	exit 1
fi
[ "$files_before" -ge 1 ] && [ "$files_after" -eq "$files_before" ] ||
	{ echo "memif-zc: ternd's hugepage file descriptors were closed under EAL"; exit 1; }
echo "memif-zc: ternd forwarded $rx frames through two zero-copy client ports and is still up"
