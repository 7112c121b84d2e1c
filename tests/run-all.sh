#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs every test: the cmocka unit binaries given as arguments, then the
# integration scripts; prints one summary line and fails if anything failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0 failures=()

run_one() {	# name, timeout, command...
	local name=$1 limit=$2 rc start
	shift 2
	start=$(date +%s)
	printf '=== %s\n' "$name"
	timeout --kill-after=10 "$limit" "$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		printf -- '--- PASS %s (%ss)\n' "$name" $(($(date +%s) - start))
	else
		failed=$((failed + 1))
		failures+=("$name")
		[ $rc -eq 124 ] && echo "--- timed out after ${limit}s"
		printf -- '--- FAIL %s (exit %d)\n' "$name" $rc
	fi
}

for t in "$@"; do
	run_one "unit/$(basename "$t")" 120 "$t"
done
rm -rf /var/run/dpdk/tern-unit-* 2>/dev/null
for t in "$here"/integration/test_*.sh; do
	[ -n "${TERN_TESTS:-}" ] && ! [[ $(basename "$t") == ${TERN_TESTS} ]] && continue
	run_one "integration/$(basename "$t" .sh)" 240 bash "$t"
done
echo
[ $failed -gt 0 ] && printf 'failed: %s\n' "${failures[*]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
