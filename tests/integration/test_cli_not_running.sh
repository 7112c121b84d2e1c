#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# tern against a daemon that is not running says so, names the socket it tried, and fails.
. "$(dirname "$0")/lib.sh"
tern_test_begin cli-not-running

out=$("$TERN" -s "$T_DIR/nothing.sock" -c "show version" 2>&1); rc=$?
check "exit status is 1 (got $rc)" [ $rc -eq 1 ]
check "says ternd is not running and where it looked: $out" \
	grep -q "ternd is not running: nothing listens on $T_DIR/nothing.sock" <<<"$out"
out=$(TERN_SOCKET="$T_DIR/env.sock" "$TERN" -c "show version" 2>&1)
check "TERN_SOCKET selects the socket: $out" grep -q "$T_DIR/env.sock" <<<"$out"
out=$(env -u TERN_SOCKET "$TERN" -c "show version" 2>&1)
if [ -S /run/tern/ternd.sock ]; then
	say "skip: a packaged ternd runs here"
else
	check "the default is the packaged socket: $out" grep -q "/run/tern/ternd.sock" <<<"$out"
fi
tern_test_end
