#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# memif peers that hang up during the handshake, 5000 times on an idle port and 5000 on the
# generator's while ternd forwards, then 5000 more through ternd's start
# (tests/fixtures/memif_hangup.sh); then ternd-static the same. ternd must stay up, forward,
# keep its descriptors, and count the peers. Without dataplane/workarounds/memif_channel_guard.c
# EAL's interrupt thread panicked on a closed descriptor within ten connections.
. "$(dirname "$0")/lib.sh"
tern_test_begin memif-hangup
"$TERN_ROOT/tests/fixtures/memif_hangup.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
grep '^memif-hangup\|^  start' "$T_DIR/run.log" | sed 's/^/    /'
check "ternd lived through 15000 peers hanging up (5000 through its start), forwarding, and is still up" [ $rc -eq 0 ]
check "ternd counted the peers it accepted and those abandoned in the handshake" \
	grep -q 'ternd counted [0-9]* peer connections accepted, [0-9]* closed, [1-9][0-9]* abandoned' "$T_DIR/run.log"
check "ternd's descriptors did not grow" grep -q 'ternd holds [0-9]* descriptors' "$T_DIR/run.log"
check "DPDK's own complaint is all the log shows of it" \
	bash -c "! grep -q 'PANIC\|epoll_ctl' '$T_DIR/run.log'"
# ternd-static holds the memif PMD in its own text: the guard takes its registrations by the
# names its build gave them (Makefile, MEMIF_GUARDED), not by interposition.
HANGUPS=2000 TERND_BIN=$TERN_BUILD/ternd-static "$TERN_ROOT/tests/fixtures/memif_hangup.sh" \
	"$TERN_BUILD" > "$T_DIR/static.log" 2>&1
rc=$?
grep '^memif-hangup' "$T_DIR/static.log" | sed 's/^/    static: /' | tail -n 3
check "ternd-static lived through 6000 peers hanging up and is still up" [ $rc -eq 0 ]
check "the runs left no namespace behind" bash -c "! ip netns list | grep -q tern-memif-hangup-r"
check "the runs left no DPDK runtime directory behind" bash -c "! ls -d /var/run/dpdk/tern-memif-hangup-* 2>/dev/null"
tern_test_end
