#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# [worker N] rx_burst bounds what one poll of a queue takes: ternd on two memif ports with the
# generator flat out (tests/fixtures/rx_burst.sh, bursts of 32 sent), once with rx_burst 8 and once with
# the default. With 8, each busy poll brings at most 8 (and, behind bursts of 32, nearly 8);
# with the default (128) show workers says 128 and a poll brings whole bursts of 32 or more.
. "$(dirname "$0")/lib.sh"
tern_test_begin rx-burst
SECS=1 "$TERN_ROOT/tests/fixtures/rx_burst.sh" "$TERN_BUILD" 8 128 > "$T_DIR/run.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/run.log"
check "both runs forwarded, and no poll brought more than its burst" [ $rc -eq 0 ]
check "with rx_burst 8 the worker says 8 and a busy poll brought between 4 and 8 packets" \
	grep -qE "^rx_burst +8 \(worker says 8\): .* [4-7]\.[0-9] packets a busy poll|^rx_burst +8 \(worker says 8\): .* 8\.0 packets a busy poll" "$T_DIR/run.log"
check "by default the worker says 128 and a busy poll brought more than 8" \
	grep -qE "^rx_burst 128 \(worker says 128\): .* ([9]|[1-9][0-9]+)\.[0-9] packets a busy poll" "$T_DIR/run.log"
check "the runs left no namespace behind" bash -c "! ip netns list | grep -q tern-rxburst-r"
tern_test_end
