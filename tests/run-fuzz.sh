#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs every fuzz target for a bounded time from its committed seed corpus (new inputs go to a
# scratch copy); prints one line per target and the summary; fails if any target crashed.
set -u
bin=$1 secs=${2:-30}
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
work=$(mktemp -d /tmp/tern-fuzz-XXXXXX)
trap 'rm -rf "$work" /var/run/dpdk/tern-fuzz-* /tmp/tern-fuzz-config-* /tmp/tern-fuzz-api-* /tmp/tern-fuzz-memif-*' EXIT
for f in "$bin"/fuzz/fuzz_*; do
	name=$(basename "$f")
	mkdir -p "$work/$name"
	cp -r "$here/fuzz/corpus/$name/." "$work/$name/" 2>/dev/null
	if "$f" -max_total_time="$secs" -max_len=1024 -timeout=10 -rss_limit_mb=4096 \
		-artifact_prefix="$work/" "$work/$name" > "$work/$name.log" 2>&1; then
		passed=$((passed + 1))
		printf -- '--- PASS fuzz/%s: %s\n' "$name" "$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$work/$name.log")"
	else
		failed=$((failed + 1))
		printf -- '--- FAIL fuzz/%s\n' "$name"
		tail -n 40 "$work/$name.log"
		ls "$work"/crash-* "$work"/leak-* 2>/dev/null | while read -r c; do echo "input: $(xxd -p "$c" | head -c 400)"; done
	fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
