#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ternd-static (ternd linked with DPDK's static archives, Makefile) forwards between two hosts
# like ternd; DPDK's multi-process tools cannot attach to it, and they fail without touching
# it: dpdk-proc-info's EAL refuses at its start, and `tern capture` says why in a sentence.
TERN_TERND=${TERN_BUILD:-$(dirname "$0")/../../build}/ternd-static
. "$(dirname "$0")/lib.sh"
tern_test_begin ternd-static
[ -x "$TERND" ] || { echo "  $TERND is not built (make $TERND)"; exit 1; }
# on hugepages, as for capture: a secondary's attach must fail for the right reason
two_hosts_on_hugepages

check "h1 reaches h2 through ternd-static" ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.18.1.2
# the refusal itself, not any failure: EAL panics (abort, 134) on the first shared-memory
# table the static primary laid out differently
out=$(timeout 20 dpdk-proc-info --file-prefix="$T_ID" --no-pci --log-level='*:error' -- --stats 2>&1)
rc=$?
check "dpdk-proc-info (shared DPDK) cannot attach to ternd-static: exit $rc, $(head -n 1 <<<"$out")" \
	[ $rc -eq 134 ] && grep -q "^EAL: Cannot initialize tailq: " <<<"$out"
out=$(tern_cli -c "capture dp1 count 6 file static.pcapng" 2>&1)
rc=$?
check "tern's capture refuses with its sentence and a failing exit ($rc)" \
	[ $rc -ne 0 ] && grep -q "^% Capture needs the ternd built on DPDK's shared libraries" <<<"$out"
check "ternd-static still forwards" ip netns exec "$H1" ping -c 3 -i 0.2 -W 1 198.18.1.2
check "ternd-static still answers the shell" grep -q "bursts of up to" <<<"$(tern_cli -c "show workers")"
tern_test_end
