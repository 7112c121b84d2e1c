#!/bin/bash
# Persistent configuration: write memory, a restart finds it back, history and rollback,
# and a corrupt database means an empty configuration and a clear message, not a crash.
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
check "show startup-config is what was saved" diff -q "$T_DIR/running1" <(tern_cli -c "show startup-config")

stop_ternd
start_ternd "$R"
check "after a restart the running-config is back" diff "$T_DIR/running1" <(tern_cli -c "show running-config")
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

# kill -9 while saving over and over: every stored version stays whole
( for i in $(seq 200); do tern_cli -c "write memory" >/dev/null 2>&1 || break; done ) &
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

# a corrupt database: ternd starts empty and says why
stop_ternd
head -c 65536 /dev/urandom > "$T_DIR/tern.db"; rm -f "$T_DIR/tern.db-wal" "$T_DIR/tern.db-shm"
start_ternd "$R"
check "with a corrupt database ternd starts" tern_cli -c "show version"
check "the log says the database is unusable" grep -q "configuration database .* is unusable.*starting with an empty configuration" "$T_DIR/ternd.log"
no_addresses() { ! tern_cli -c "show running-config" | grep -q "ip address"; }
check "and the configuration is empty" no_addresses
out=$(tern_cli -c "write memory" 2>&1)
check "write memory explains: $out" grep -q "The configuration database is unavailable" <<<"$out"
tern_test_end
