#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ternd with two memif ports that are zero-copy clients (tests/fixtures/memif_zc_client.sh): both
# connect to tern-bench's server ports, ternd forwards between them, and EAL's hugepage
# file descriptors stay open. DPDK 22.11's memif PMD closed them as the first port
# connected; without dataplane/workarounds/memseg_fd_guard.c the second port then offered its peer the
# wrong file.
. "$(dirname "$0")/lib.sh"
tern_test_begin memif-zc
"$TERN_ROOT/tests/fixtures/memif_zc_client.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/run.log" | tail -n 6
check "ternd forwarded through two zero-copy client ports and is still up" [ $rc -eq 0 ]
check "ternd's hugepage files were still open after the run" \
	grep -q "hugepage files open: \([1-9][0-9]*\) after configuration, \1 after the run" "$T_DIR/run.log"
check "the run left no namespace behind" bash -c "! ip netns list | grep -q tern-memif-zc-r"
check "the run left no DPDK runtime directory behind" bash -c "! ls -d /var/run/dpdk/tern-memif-zc-* 2>/dev/null"
tern_test_end
