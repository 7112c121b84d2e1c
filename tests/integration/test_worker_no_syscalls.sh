#!/bin/bash
# A worker makes no system call and never blocks, forwarding or punting
# (bench/worker_syscalls.sh: strace on the worker thread alone, its voluntary context
# switches, and the control thread traced the same way to show the tracing sees calls).
. "$(dirname "$0")/lib.sh"
tern_test_begin syscalls
SECS=1 "$TERN_ROOT/bench/worker_syscalls.sh" "$TERN_BUILD" > "$T_DIR/run.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/run.log" | tail -n 8
check "forwarding, the worker made no system call and did not block" \
	grep -q "^forwarding .* blocked 0 times .* made 0 system calls$" "$T_DIR/run.log"
check "punting, the worker made no system call and did not block" \
	grep -q "^punting .* blocked 0 times .* made 0 system calls$" "$T_DIR/run.log"
check "strace saw the control thread's system calls" \
	grep -q "^the control thread, traced the same way, made [1-9][0-9]* system calls" "$T_DIR/run.log"
check "the script passed" [ $rc -eq 0 ]
check "the run left no namespace behind" bash -c "! ip netns list | grep -q tern-syscalls-r"
tern_test_end
