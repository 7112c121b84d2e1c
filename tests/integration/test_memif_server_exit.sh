#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# tern-bench with memif server ports exits cleanly even when EAL's interrupt thread lags.
# DPDK 22.11's memif PMD leaves a stale interrupt source behind as it closes a server port,
# and rte_eal_cleanup() wakes the interrupt thread and then unmaps the memory that source
# points into (dataplane/workarounds/eal_exit.c): the generator of test_memif_zero_copy_client died of
# SIGSEGV at exit about once in a hundred runs. Here tests/shim/eal_intr_delay.c slows the
# interrupt thread (20 ms a wake-up) and the exit (300 ms), under which the generator died in
# 12 runs of 12 while it still called rte_eal_cleanup() after such a port.
. "$(dirname "$0")/lib.sh"
tern_test_begin memif-server-exit
${CC:-cc} -shared -fPIC -O2 -Wall -Werror -o "$T_DIR/eal_intr_delay.so" \
	"$TERN_ROOT/tests/shim/eal_intr_delay.c" -ldl
check "the interrupt-thread delay compiled" [ -f "$T_DIR/eal_intr_delay.so" ] || tern_test_end
# an AddressSanitizer build wants its runtime first; the preload goes before it
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
LD_PRELOAD=$T_DIR/eal_intr_delay.so EAL_INTR_DELAY_US=20000 EXIT_DELAY_MS=300 \
	"$TERN_ROOT/tests/fixtures/memif_zc_client.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/run.log" | tail -n 3
check "tern-bench (memif server) and ternd forwarded and exited cleanly" [ $rc -eq 0 ]
check "nothing died of a signal" bash -c "! grep -q 'Segmentation fault\|exit status 1[3-9][0-9]' '$T_DIR/run.log'"
tern_test_end
