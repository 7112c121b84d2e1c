#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# memif peers whose memory ternd must not map (tests/fixtures/memif_bad_peer.py): one announces its
# rings' 33 KiB memfd as 256 MiB, as DPDK 22.11's zero-copy client did by mistake; one sends
# a memfd not sealed against shrinking and cuts it once connected; four place a ring outside
# the memory they share (in region 300 of 256, 4 GiB past the region's start, with 2^20
# slots, across the region's end). ternd must refuse them all, say why, count them, and stay
# up, and the port must then take a good peer and forward. Without the checks in
# dataplane/workarounds/memif_peer_guard.c ternd mapped the regions and its worker died of
# SIGBUS at its next read of the rings; without dataplane/workarounds/memif_channel_check.c
# ternd read the ring 4 GiB away and died of SIGSEGV, and took the ring of 2^20 slots.
. "$(dirname "$0")/lib.sh"
tern_test_begin memif-bad-region
SESSIONS=2 BAD_PEERS=3 SHRINK_PEERS=2 RING_PEERS="300:0:10 0:4294963200:10 0:0:20 0:20000:10" "$TERN_ROOT/tests/fixtures/memif_peer.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
grep -v '^  session' "$T_DIR/run.log" | sed 's/^/    /' | tail -n 6
check "ternd refused 9 bad peers, then forwarded for 2 good ones, and is still up" [ $rc -eq 0 ]
check "ternd logged why it refused" grep -q 'ternd refused 3 bad peers and logged [1-9]' "$T_DIR/run.log"
check "ternd refused, logged and counted the peers whose file may shrink" \
	grep -q 'ternd refused 2 unsealed peers, logged [1-9][0-9]* refusals and counted [2-9]' "$T_DIR/run.log"
check "ternd refused, logged and counted the peers whose ring lies outside their memory" \
	grep -q 'ternd refused 4 peers with a ring outside their memory, logged [1-9][0-9]* refusals and counted [4-9]' "$T_DIR/run.log"
check "both good sessions forwarded frames" [ "$(grep -c '^  session .* frames forwarded' "$T_DIR/run.log")" -eq 2 ]
check "the run left no namespace behind" bash -c "! ip netns list | grep -q tern-memif-peer-r"
tern_test_end
