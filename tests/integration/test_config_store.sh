#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Persistent configuration: write memory, a restart finds it back, history and rollback (all
# or nothing), a startup configuration that fails in part is marked and not overwritten
# silently, and a corrupt database is moved aside with a clear message, never written into.
. "$(dirname "$0")/lib.sh"
tern_test_begin config-store
R=tern-$T_ID-r
netns_add "$R"
write_tap_config 2
start_ternd "$R"

tern_cli -c "configure terminal" -c "hostname edge7" \
	-c "interface dp0" -c "description uplink to h1" -c "ip address 198.18.0.1/24" -c "mtu 1400" -c "exit" \
	-c "interface dp1" -c "ip address 198.18.1.1/24" -c "ip address 198.18.9.1/24" -c "exit" \
	-c "ip route 198.19.0.0/16 198.18.1.2" -c "ip route 198.19.99.0/24 blackhole" \
	-c "arp 198.18.1.2 02:00:00:00:00:02 dp1" -c "end"
check "configuration accepted" [ $? -eq 0 ]
tern_cli -c "show running-config" > "$T_DIR/running1"
check "running-config holds every setting" [ "$(grep -c -e 'hostname edge7' -e 'description uplink to h1' \
	-e 'ip address 198.18.0.1/24' -e 'mtu 1400' -e 'ip address 198.18.9.1/24' \
	-e 'ip route 198.19.0.0/16 198.18.1.2' -e 'ip route 198.19.99.0/24 blackhole' \
	-e 'arp 198.18.1.2 02:00:00:00:00:02 dp1' "$T_DIR/running1")" = 8 ]
out=$(tern_cli -c "write memory")
check "write memory saves version 1: $out" grep -q "saved as version 1" <<<"$out"
check "show startup-config is what was saved" diff -q <(tail -n +2 "$T_DIR/running1") <(tern_cli -c "show startup-config" | tail -n +2)
check "under a header that names it" [ "$(tern_cli -c "show startup-config" | head -1)" = "! tern startup configuration" ]
out=$(tern_cli -c "copy running-config startup-config")
check "saving it again unchanged saves no new version: $out" grep -q "unchanged since version 1: nothing saved" <<<"$out"

mac0=$(port_mac dp0)
stop_ternd
start_ternd "$R"
check "after a restart the running-config is back" diff "$T_DIR/running1" <(tern_cli -c "show running-config")
check "a TAP port without mac = has the MAC it had ($mac0), its neighbours' caches still right" \
	[ "$(port_mac dp0)" = "$mac0" ]
check "and the kernel has it again" grep -q "198.19.0.0/16 via 198.18.1.2 dev dp1 proto static" <<<"$(ip -n "$R" route)"
check "and the FIB" [ "$(fib_kind 198.19.5.5)" = forward ]
check "the hostname is back" grep -q "hostname edge7" <<<"$(tern_cli -c 'show version')"

tern_cli -c "configure terminal" -c "no ip route 198.19.99.0/24" -c "ip route 198.19.50.0/24 unreachable" \
	-c "interface dp1" -c "no ip address 198.18.9.1/24" -c "shutdown" -c "end" -c "write memory" >/dev/null
json=$(tern_cli --json -c "show configuration history")
check "history lists two versions, newest first" [ "$(json_field '[v["version"] for v in j["versions"]]' <<<"$json")" = "[2, 1]" ]
out=$(tern_cli -c "configure rollback 1")
check "rollback to version 1: $out" grep -q "Rolled back to version 1" <<<"$out"
check "the running-config equals version 1 again" diff "$T_DIR/running1" <(tern_cli -c "show running-config")
out=$(tern_cli -c "configure rollback 9" 2>&1)
check "rollback to a missing version is refused: $out" grep -q "No stored configuration 9" <<<"$out"

# kill -9 while saving over and over (force: a new version each time, unchanged as it is):
# every stored version stays whole
( for i in $(seq 200); do tern_cli -c "write memory force" >/dev/null 2>&1 || break; done ) &
saver=$!
sleep 0.3
kill -KILL "$T_TERND_PID"
wait "$T_TERND_PID" 2>/dev/null; wait "$saver" 2>/dev/null
check "the database passes sqlite's integrity check" [ "$(sqlite3 "$T_DIR/tern.db" 'PRAGMA integrity_check')" = ok ]
check "every stored version is complete" [ "$(sqlite3 "$T_DIR/tern.db" "SELECT count(*) FROM config WHERE text NOT LIKE '%end' || char(10)")" = 0 ]
ip -n "$R" link del dp0 2>/dev/null; ip -n "$R" link del dp1 2>/dev/null
ip -n "$R" link del "${T_ID}h0" 2>/dev/null; ip -n "$R" link del "${T_ID}h1" 2>/dev/null
rm -f "$T_SOCK"
start_ternd "$R"
check "after kill -9 ternd restarts with its configuration" diff "$T_DIR/running1" <(tern_cli -c "show running-config")

json=$(tern_cli --json -c "show configuration history")
check "the database runs in WAL mode with synchronous=full, schema version 1" \
	[ "$(json_field '"%s %s %d" % (j["database"]["journal_mode"], j["database"]["synchronous"], j["database"]["schema_version"])' <<<"$json")" = "wal full 1" ]

# A stored version with a command that fails (a gateway on no subnet), after one that works
# (the hostname): a rollback to it is all or nothing.
sed -e 's/^hostname edge7$/hostname edge8/' -e 's|^end$|ip route 198.19.77.0/24 198.18.77.2\nend|' \
	"$T_DIR/running1" > "$T_DIR/bad"
add_version() {	# FILE -> the new version's id
	sqlite3 "$T_DIR/tern.db" "INSERT INTO config (created, user, text) VALUES
		(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'test', CAST(readfile('$1') AS TEXT));
		SELECT max(id) FROM config"
}
bad=$(add_version "$T_DIR/bad")
out=$(tern_cli -c "configure rollback $bad" 2>&1)
check "a rollback whose command fails says which and why" \
	grep -q "Rollback to version $bad stopped: rollback line .* 'ip route 198.19.77.0/24 198.18.77.2': % Gateway 198.18.77.2 is on no connected subnet" <<<"$out"
check "and that the configuration is as it was" grep -q "The configuration is as it was before the rollback" <<<"$out"
check "the running-config is the one before the rollback, hostname and all" \
	diff "$T_DIR/running1" <(tern_cli -c "show running-config")

# The same version as the startup configuration: the failing line is named and marked, and
# write memory does not replace it unless told to.
stop_ternd
start_ternd "$R"
check "the log names the line that failed at start" \
	grep -q "startup-config line [0-9]* 'ip route 198.19.77.0/24 198.18.77.2': % Gateway 198.18.77.2 is on no connected subnet" "$T_DIR/ternd.log"
tern_cli -c "show startup-config" > "$T_DIR/startup"
check "show startup-config marks it" grep -A1 -x "ip route 198.19.77.0/24 198.18.77.2" "$T_DIR/startup" |
	grep -q "^! ^ failed at start: % Gateway 198.18.77.2 is on no connected subnet"
check "and the rest of it was applied" grep -q "hostname edge8" <<<"$(tern_cli -c 'show running-config')"
versions=$(sqlite3 "$T_DIR/tern.db" "SELECT count(*) FROM config")
out=$(tern_cli -c "write memory" 2>&1)
check "write memory refuses to replace it: $out" grep -q "Say 'write memory force' to save anyway" <<<"$out"
check "and saves nothing" [ "$(sqlite3 "$T_DIR/tern.db" "SELECT count(*) FROM config")" = "$versions" ]
out=$(tern_cli -c "write memory force")
check "write memory force saves: $out" grep -q "saved as version" <<<"$out"
no_marks() { ! tern_cli -c "show startup-config" | grep -q "failed at start"; }
check "the new startup configuration has no marks" no_marks

# A corrupt database is moved aside, never written into; ternd starts empty, says why, and
# saves into a new one. First a page inside the file (the header is whole), then the header.
for what in page header; do
	stop_ternd
	rm -f "$T_DIR"/tern.db.corrupt-*
	if [ $what = page ]; then
		sqlite3 "$T_DIR/tern.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
		head -c 2048 /dev/urandom | dd of="$T_DIR/tern.db" bs=1 seek=4104 conv=notrunc status=none
	else
		head -c 65536 /dev/urandom > "$T_DIR/tern.db"; rm -f "$T_DIR/tern.db-wal" "$T_DIR/tern.db-shm"
	fi
	cp "$T_DIR/tern.db" "$T_DIR/corrupt.copy"
	start_ternd "$R"
	check "$what: with a corrupt database ternd starts" tern_cli -c "show version"
	grep "configuration database" "$T_DIR/ternd.log" | sed 's/^/    /'
	check "$what: the log says it was corrupt and where it went" \
		grep -q "configuration database .* was corrupt (.*); it was moved aside to .*tern.db.corrupt-.* and a new one started: starting with an empty configuration" "$T_DIR/ternd.log"
	check "$what: the corrupt file is kept as it was" cmp -s "$T_DIR/corrupt.copy" "$(ls "$T_DIR"/tern.db.corrupt-* | grep -v -e '-wal$' -e '-shm$' | head -n 1)"
	no_addresses() { ! tern_cli -c "show running-config" | grep -q "ip address"; }
	check "$what: and the configuration is empty" no_addresses
	out=$(tern_cli -c "write memory" 2>&1)
	check "$what: write memory saves into a new database: $out" grep -q "saved as version 1" <<<"$out"
done
tern_test_end
