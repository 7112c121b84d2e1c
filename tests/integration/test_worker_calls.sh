#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A worker makes no system call, no heap call and never blocks, forwarding or punting
# (tests/fixtures/worker_calls.sh: strace and gdb on the worker thread alone, its voluntary context
# switches, and the control thread traced the same ways to show the tracing sees calls).
. "$(dirname "$0")/lib.sh"
tern_test_begin calls
SECS=1 "$TERN_ROOT/tests/fixtures/worker_calls.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/run.log" | tail -n 10
check "forwarding, the worker made no system or heap call and did not block" \
	grep -q "^forwarding .* blocked 0 times .* made 0 system calls and 0 heap calls$" "$T_DIR/run.log"
check "punting, the worker made no system or heap call and did not block" \
	grep -q "^punting .* blocked 0 times .* made 0 system calls and 0 heap calls$" "$T_DIR/run.log"
check "the tracers saw the control thread's system and heap calls" \
	grep -q "^the control thread, .* made [1-9][0-9]* system calls and [1-9][0-9]* heap calls" "$T_DIR/run.log"
check "the script passed" [ $rc -eq 0 ]
check "the run left no namespace behind" bash -c "! ip netns list | grep -q tern-calls-r"
tern_test_end
