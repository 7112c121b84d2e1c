#!/bin/bash
# A memif peer that leaves and comes back: ternd forwards between two memif ports while a
# generator connects, sends flat out for a moment and disconnects, SESSIONS times (24), with
# all of ternd on one CPU (lib.sh's TERND_ONE_CPU), where the EAL interrupt thread that
# handles a disconnect preempts the worker wherever it is. DPDK 22.11's memif PMD then
# unmaps the peer's rings while the worker may be between testing the port's connected flag
# and reading a ring (controlplane/memif_peer_guard.c): before the guard, ternd died in
# about one session of twelve. Exits 1 if ternd dies or a session forwards nothing.
#
# BAD_PEERS=N first sends N peers that announce more memory than they share
# (bench/memif_bad_peer.py): ternd must refuse each, say so in its log, and stay up; the
# sessions then show that the port still takes a good peer. SHRINK_PEERS=N then sends N
# peers whose region lies in a file not sealed against shrinking, cut once connected.
#
#   bench/memif_peer.sh [BUILD]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
SESSIONS=${SESSIONS:-24}
BAD_PEERS=${BAD_PEERS:-0}
SHRINK_PEERS=${SHRINK_PEERS:-0}
# the refusals are counted on the metrics endpoint
[ "$SHRINK_PEERS" -gt 0 ] && TERND_CONF_EXTRA="${TERND_CONF_EXTRA:+$TERND_CONF_EXTRA
}[metrics]
listen = 9101"
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}
. "$ROOT/bench/lib.sh"
bench_begin memif-peer
hugepages_reserve 768

memif_ports | ternd_conf "$MEM_ARGS" "m0:0 m1:0" 4096
ternd_start || exit 1
memif_forwarding_setup memif-peer || exit 1

bad_peer() {	# N, what the peer does, memif_bad_peer.py's arguments
	local b=$1 what=$2
	shift 2
	local rc
	/usr/bin/python3 "$ROOT/bench/memif_bad_peer.py" "$@"
	rc=$?
	[ $rc = 1 ] && echo "memif-peer: ternd accepted $what (bad peer $b)"
	[ $rc -gt 1 ] && echo "memif-peer: bad peer $b could not complete its handshake"
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"; echo "memif-peer: ternd died (exit status $?) after bad peer $b"; pid=
		return 1
	fi
	[ $rc = 0 ]
}
for b in $(seq "$BAD_PEERS"); do
	bad_peer "$b" "a region past its file's end" "$DIR/memif0.sock" || exit 1
done
for b in $(seq "$SHRINK_PEERS"); do
	bad_peer "$b" "a region in a file that may shrink" --shrink "$DIR/memif0.sock" || exit 1
done
if [ "$BAD_PEERS" -gt 0 ]; then
	n=$(grep -c 'announced a region of .* over a smaller file; connection refused' "$DIR/ternd.log")
	echo "memif-peer: ternd refused $BAD_PEERS bad peers and logged $n refusals"
	[ "$n" -ge 1 ] || { echo "memif-peer: ternd did not say why it refused"; exit 1; }
fi
if [ "$SHRINK_PEERS" -gt 0 ]; then
	n=$(grep -c 'not sealed against shrinking (F_SEAL_SHRINK); connection refused' "$DIR/ternd.log")
	c=$(ip netns exec "$R" /usr/bin/python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:9101/metrics", timeout=3).read().decode())' 2>/dev/null |
		awk '/^tern_memif_regions_refused_total\{reason="unsealed"\}/ { print $2 }')
	echo "memif-peer: ternd refused $SHRINK_PEERS unsealed peers, logged $n refusals and counted ${c:-none}"
	[ "$n" -ge 1 ] || { echo "memif-peer: ternd did not say why it refused"; exit 1; }
	[ "${c:-0}" -ge "$SHRINK_PEERS" ] || { echo "memif-peer: ternd did not count the refusals"; exit 1; }
fi
echo "memif-peer: $SESSIONS generator sessions against one ternd"
for s in $(seq "$SESSIONS"); do
	memif_gen --flows 64 --duration 0.2 --warmup 0 --json \
		> "$DIR/gen.json" 2> "$DIR/gen.err"
	rx=$(/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["rx_packets"])' < "$DIR/gen.json" 2>/dev/null)
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"; rc=$?
		echo "memif-peer: ternd died (exit status $rc) when the generator left session $s"
		tail -n 5 "$DIR/ternd.log"
		pid=
		exit 1
	fi
	if [ -z "$rx" ] || [ "$rx" -eq 0 ]; then
		echo "memif-peer: session $s forwarded nothing"; cat "$DIR/gen.err" "$DIR/gen.json"; exit 1
	fi
	printf '  session %2d: %8d frames forwarded\n' "$s" "$rx"
done
tern -c "show version" >/dev/null || { echo "memif-peer: ternd does not answer after the sessions"; exit 1; }
echo "memif-peer: ternd forwarded in all $SESSIONS sessions and is still up"
