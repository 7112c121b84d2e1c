#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A malformed ternd.conf gets one precise line on stderr, exit status 2, and nothing starts.
. "$(dirname "$0")/lib.sh"
tern_test_begin config-errors

expect_error() {	# DESCRIPTION EXPECTED-SUBSTRING CONFIG-TEXT
	local what=$1 expect=$2 out rc
	printf '%s\n' "$3" > "$T_DIR/bad.conf"
	out=$("$TERND" -f "$T_DIR/bad.conf" 2>&1)
	rc=$?
	if [ $rc -ne 2 ]; then fail "$what: exit $rc, expected 2 ($out)"; return; fi
	if [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ]; then fail "$what: more than one line: $out"; return; fi
	case "$out" in
	*"$expect"*) say "ok: $what -> $out" ;;
	*) fail "$what: '$out' does not say '$expect'" ;;
	esac
}

base='[port dp0]
dev = net_null0
[worker 1]
rx = dp0:0'

expect_error "unknown key" "[port dp1] unknown key 'speed'" "$base
[port dp1]
dev = net_null1
speed = 10G"
expect_error "bad number" "[port dp0] mtu = 'big': expected an integer from 68 to 9216" "[port dp0]
dev = net_null0
mtu = big
[worker 1]
rx = dp0:0"
expect_error "unknown port in rx" "[worker 1] rx: port 'dp9' is not defined; known: dp0" "[port dp0]
dev = net_null0
[worker 1]
rx = dp9:0"
expect_error "syntax" "line 2: 'dev net_null0': expected 'key = value'" "[port dp0]
dev net_null0"
expect_error "no worker" "no [worker N] section" "[port dp0]
dev = net_null0"
# every error names the file and line, and the section and key it is about
expect_error "an empty value (rte_cfgfile's own refusal)" "bad.conf: line 2: [port dp0] dev has no value" "[port dp0]
dev =
[worker 1]
rx = dp0:0"
expect_error "a key before any section" "bad.conf: line 1: 'dev' comes before any [section]" "dev = net_null0
$base"
expect_error "a key given twice" "bad.conf: line 4: [port dp0] mtu is given twice (first on line 3)" "[port dp0]
dev = net_null0
mtu = 1500
mtu = 9000
[worker 1]
rx = dp0:0"
expect_error "a bad value names its line" "bad.conf: line 3: [port dp0] mtu = 'big'" "[port dp0]
dev = net_null0
mtu = big
[worker 1]
rx = dp0:0"
expect_error "an unknown key names its line" "bad.conf: line 7: [port dp1] unknown key 'speed'" "$base
[port dp1]
dev = net_null1
speed = 10G"
expect_error "a section defined twice names the second" "bad.conf: line 5: [port dp0]: port 'dp0' is defined twice" "$base
[port dp0]
dev = net_null1"
"$TERND" -f /nonexistent/ternd.conf >/dev/null 2>&1; rc=$?
check "a missing file exits 2" [ $rc -eq 2 ]
out=$("$TERND" --bogus 2>&1); rc=$?
check "an unknown option exits 2" [ $rc -eq 2 ]

printf '%s\n' "$base" > "$T_DIR/good.conf"
out=$("$TERND" --check-config -f "$T_DIR/good.conf" 2>&1); rc=$?
check "--check-config accepts a valid file ($out)" [ $rc -eq 0 ]
printf '[port dp0]\ndev = net_null0\n[worker 77]\nrx = dp0:0\n[mempool]\nmbufs = 2048\n' > "$T_DIR/warn.conf"
out=$("$TERND" --check-config -f "$T_DIR/warn.conf" 2>&1); rc=$?
check "--check-config still accepts a file it has warnings about (exit $rc)" [ $rc -eq 0 ]
check "it warns about an lcore the machine lacks" grep -q "warning: \[worker 77\]: this machine has no CPU 77" <<<"$out"
check "and about too few mbufs for the queues" grep -q "warning: \[mempool\] mbufs = 2048: the configured queues can hold" <<<"$out"
# --reserve-hugepages: what [eal] args asks for, never fewer than there are; then put back
old_hp=$(cat /proc/sys/vm/nr_hugepages)
tern_on_exit 'echo "$old_hp" > /proc/sys/vm/nr_hugepages'
printf '[eal]\nargs = --socket-mem 64\n[port dp0]\ndev = net_null0\n[worker 1]\nrx = dp0:0\n' > "$T_DIR/hp.conf"
out=$("$TERND" --reserve-hugepages -f "$T_DIR/hp.conf" 2>&1); rc=$?
check "--reserve-hugepages reserves 64 MiB and a tenth on node 0 (exit $rc): $out" [ $rc -eq 0 -a "$(cat /proc/sys/vm/nr_hugepages)" -ge 35 ]
printf '[eal]\nargs = --no-huge\n[port dp0]\ndev = net_null0\n[worker 1]\nrx = dp0:0\n' > "$T_DIR/nohp.conf"
out=$("$TERND" --reserve-hugepages -f "$T_DIR/nohp.conf" 2>&1)
check "with --no-huge it reserves nothing: $out" grep -q "no hugepages needed" <<<"$out"
tern_test_end
