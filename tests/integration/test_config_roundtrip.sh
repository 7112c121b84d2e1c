#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Every line show running-config writes replays: random configurations
# (tests/integration/config_gen.py) are applied, saved with write memory, and ternd is
# restarted on a kernel that has forgotten them (its TAPs go with it); the running-config
# after the replay must be the one before, line for line, and the replay must refuse
# nothing. TERN_ROUNDTRIP_SEED picks the first seed; each round prints its own.
. "$(dirname "$0")/lib.sh"
tern_test_begin config-roundtrip
R=tern-$T_ID-r
netns_add "$R"
write_tap_config 3
seed=${TERN_ROUNDTRIP_SEED:-$(( $(date +%s) % 100000 ))}
rounds=${TERN_ROUNDTRIP_ROUNDS:-5}

for round in $(seq "$rounds"); do
	s=$((seed + round))
	rm -f "$T_DIR"/tern.db*
	start_ternd "$R"
	/usr/bin/python3 "$(dirname "$0")/config_gen.py" "$s" > "$T_DIR/lines"
	{ echo "configure terminal"; cat "$T_DIR/lines"; echo "end"; } > "$T_DIR/commands"
	if ! out=$(tern_cli -f "$T_DIR/commands" 2>&1); then
		fail "seed $s: the generated configuration was refused: $(grep '%' <<<"$out" | head -n 3)"
		stop_ternd; continue
	fi
	tern_cli -c "show running-config" > "$T_DIR/before"
	[ -n "${TERN_ROUNDTRIP_SHOW:-}" ] && cat "$T_DIR/before"
	# each line given is in the running-config as given (interface lines indented)
	missing=$(awk '/^interface / { next } /^control-plane$/ { next } /^exit$/ { next } { print }' "$T_DIR/lines" |
		while IFS= read -r line; do
			grep -qixF -e "$line" -e " $line" "$T_DIR/before" || echo "$line"
		done)
	[ -z "$missing" ] || fail "seed $s: lines given but not in the running-config: $(head -n 3 <<<"$missing" | tr '\n' ';')"
	tern_cli -c "write memory" >/dev/null
	stop_ternd
	start_ternd "$R"
	tern_cli -c "show running-config" > "$T_DIR/after"
	n=$(grep -c -e '^ip route' -e '^arp' "$T_DIR/before")
	if diff -u "$T_DIR/before" "$T_DIR/after" > "$T_DIR/diff"; then
		say "ok: seed $s: $(wc -l < "$T_DIR/before") lines ($n routes and ARP entries) replayed to the same running-config"
	else
		fail "seed $s: the running-config after the replay differs:"; sed 's/^/    /' "$T_DIR/diff" | head -n 20
	fi
	check "seed $s: the replay refused no line" bash -c "! grep -q 'line(s) failed' '$T_DIR/ternd.log'"
	stop_ternd
done
tern_test_end
