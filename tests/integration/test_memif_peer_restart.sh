#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A memif peer leaves and comes back 40 times while ternd forwards between two memif ports,
# all of ternd on one CPU: ternd must live through every disconnect and forward in every
# session, then ternd-static the same. Without dataplane/workarounds/memif_peer_guard.c the worker
# read the peer's unmapped rings in about one session of fourteen and ternd died of SIGSEGV.
# Under AddressSanitizer (make asan) 20 sessions each: it looks for memory errors on the way,
# and the guard's odds are make test's.
. "$(dirname "$0")/lib.sh"
tern_test_begin memif-peer
if [[ "${TERN_BUILD:-}" == *asan* ]]; then S=20; else S=40; fi
SESSIONS=$S "$TERN_ROOT/tests/fixtures/memif_peer.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
grep -v '^  session' "$T_DIR/run.log" | sed 's/^/    /' | tail -n 6
check "ternd forwarded in all $S sessions and is still up" [ $rc -eq 0 ]
check "every session forwarded frames" [ "$(grep -c '^  session .* frames forwarded' "$T_DIR/run.log")" -eq $S ]
# ternd-static holds the memif PMD in its own text, where the guard takes the PMD's munmap
# by a name its build gave it (Makefile, MEMIF_GUARDED), not by interposition.
SESSIONS=$S TERND_BIN=$TERN_BUILD/ternd-static "$TERN_ROOT/tests/fixtures/memif_peer.sh" "$TERN_BUILD" \
	> "$T_DIR/static.log" 2>&1
rc=$?
grep -v '^  session' "$T_DIR/static.log" | sed 's/^/    static: /' | tail -n 3
check "ternd-static forwarded in all $S sessions and is still up" [ $rc -eq 0 ]
check "every session forwarded frames through ternd-static" \
	[ "$(grep -c '^  session .* frames forwarded' "$T_DIR/static.log")" -eq $S ]
check "the run left no namespace behind" bash -c "! ip netns list | grep -q tern-memif-peer-r"
check "the run left no DPDK runtime directory behind" bash -c "! ls -d /var/run/dpdk/tern-memif-peer-* 2>/dev/null"
tern_test_end
