#!/bin/bash
# A memif peer that announces more memory than it shares (bench/memif_bad_peer.py: its rings'
# 33 KiB memfd announced as 256 MiB, as DPDK 22.11's zero-copy client did by mistake): ternd
# must refuse the connection, say why, and stay up, and the port must then take a good peer
# and forward. Without the check in controlplane/memif_peer_guard.c ternd mapped the region
# and its worker died of SIGBUS at the first frame.
. "$(dirname "$0")/lib.sh"
tern_test_begin memif-bad-region
SESSIONS=2 BAD_PEERS=3 "$TERN_ROOT/bench/memif_peer.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
grep -v '^  session' "$T_DIR/run.log" | sed 's/^/    /' | tail -n 6
check "ternd refused 3 bad peers, then forwarded for 2 good ones, and is still up" [ $rc -eq 0 ]
check "ternd logged why it refused" grep -q 'ternd refused 3 bad peers and logged [1-9]' "$T_DIR/run.log"
check "both good sessions forwarded frames" [ "$(grep -c '^  session .* frames forwarded' "$T_DIR/run.log")" -eq 2 ]
check "the run left no namespace behind" bash -c "! ip netns list | grep -q tern-memif-peer-r"
tern_test_end
