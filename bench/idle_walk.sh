#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The cost of an idle worker's walk: ternd on two memif server ports with no peer, its
# walks per second from show workers' loops over SECS seconds, and nanoseconds per walk.
# With several ternd binaries, they alternate for ROUNDS rounds (an A/B of builds).
#
#   bench/idle_walk.sh [BUILD] [TERND...]     env: ROUNDS (3), SECS (2)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
shift
BINS=("${@:-$BUILD/ternd}")
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-2}
. "$ROOT/bench/lib.sh"
bench_begin idle
loops() { tern --json -c "show workers" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["workers"][0]["loops"])'; }
for r in $(seq "$ROUNDS"); do
	for b in "${BINS[@]}"; do
		rm -f "$DIR"/memif*.sock
		memif_ports | ternd_conf "--no-huge -m 512" "m0:0 m1:0" 1024
		TERND_BIN=$b ternd_start || exit 1
		sleep 1
		a=$(loops); t0=$(date +%s.%N)
		sleep "$SECS"
		c=$(loops); t1=$(date +%s.%N)
		awk -v b="$b" -v n=$((c - a)) -v t0="$t0" -v t1="$t1" \
			'BEGIN { printf "%-40s %6.2f M idle walks/s, %.1f ns each\n", b, n / (t1 - t0) / 1e6, (t1 - t0) * 1e9 / n }'
		ternd_stop
	done
done
