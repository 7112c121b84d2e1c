#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Clients killed while ternd runs a job for them (ping) never take ternd down: 80 shells, one
# after another, each killed (SIGKILL or SIGINT, as Ctrl-C) at a random moment near the end of
# its ping of one echo request.
# The socket's hang-up and the job's output can come in one epoll batch; the client must
# outlive that batch: tests/shim/epoll_batch_delay.c holds the control loop 50 ms before each
# wait so that such pairs come together often (at full speed ternd died about once in 150
# tries). Afterwards ternd answers, holds no killed client's session and no job of one.
. "$(dirname "$0")/lib.sh"
tern_test_begin api_client_kill
${CC:-cc} -shared -fPIC -O2 -Wall -Werror -o "$T_DIR/epoll_batch_delay.so" \
	"$TERN_ROOT/tests/shim/epoll_batch_delay.c" -ldl
check "the batch delay compiled" [ -f "$T_DIR/epoll_batch_delay.so" ] || tern_test_end
# an AddressSanitizer build wants its runtime first; the preload goes before it
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
EPOLL_BATCH_DELAY_US=50000 TERND_PRELOAD=$T_DIR/epoll_batch_delay.so two_hosts
wait_for "h1 answers the router's ping" tern_cli -c "ping 198.18.0.2" >/dev/null

# ping's output is line-buffered into its pipe, and it ends with the pipe's end of file:
# the kills fall around the end of an uncontested ping, where the two meet most often
t0=$(date +%s%N)
tern_cli -c "ping 198.18.0.2 count 1" >/dev/null
ping_ms=$((($(date +%s%N) - t0) / 1000000))
say "a ping from the router takes $ping_ms ms; kills land $((ping_ms - 80)) to $((ping_ms + 20)) ms into one"
TRIES=${KILL_TRIES:-80}
RANDOM=$$
for ((i = 1; i <= TRIES; i++)); do
	"$TERN" -s "$T_SOCK" -c "ping 198.18.0.2 count 1" >/dev/null 2>&1 &
	p=$!
	sleep "$(awk -v ms=$((ping_ms - 80 + RANDOM % 100)) 'BEGIN { printf "%.3f", ms / 1000 }')"
	if ((i % 2)); then kill -KILL "$p"; else kill -INT "$p"; fi 2>/dev/null
	wait "$p" 2>/dev/null
	kill -0 "$T_TERND_PID" 2>/dev/null || { fail "ternd died at the kill of client $i"; break; }
done
check "ternd is alive after $TRIES clients killed during ping" kill -0 "$T_TERND_PID"
out=$(tern_cli -c "show version")
check "ternd still answers" grep -q "^tern " <<<"$out"
one_user() { [ "$(tern_cli --json -c "show users" | json_field 'len(j["users"])')" = 1 ]; }
wait_for "the killed clients' sessions are gone" one_user && say "ok: the killed clients' sessions are gone: show users lists only its own"
no_jobs() { ! pgrep -f "ping -n -c 1 -i 0.2 -W 2 198.18.0.2" >/dev/null; }
wait_for "no ping of a killed client is left running" no_jobs && say "ok: no ping of a killed client is left running"
out=$(tern_cli -c "ping 198.18.0.2"); rc=$?
check "a new ping still gets its replies" [ $rc -eq 0 ] && grep -q "5 received" <<<"$out"
out=$(tern_cli -c "ping 198.18.0.2 count 2"); rc=$?
check "ping's count says how many echo requests go" [ $rc -eq 0 ] && grep -q "2 packets transmitted, 2 received" <<<"$out"
for n in 0 301 4294967296; do
	out=$(tern_cli -c "ping 198.18.0.2 count $n" 2>&1)
	check "a count of $n is refused with a sentence" grep -q "A ping sends 1 to 300 echo requests" <<<"$out"
done
stop_ternd; rc=$?
check "SIGTERM: ternd exits 0 (got $rc)" [ $rc -eq 0 ]
tern_test_end
