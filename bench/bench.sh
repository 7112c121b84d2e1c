#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# make bench: ternd against DPDK's l3fwd (LPM) and testpmd (io) in the same memif harness.
# One core forwards (CPU 1), tern-bench generates on the other (CPU 0).
#
# Each contender starts once, with its table and memif sockets of its own, and one generator
# (tern-bench compare) connects to all of them and runs them in turn: a slice of DURATION
# seconds each, the contender on trial continued and the others held stopped (SIGSTOP), so
# they take turns on CPU 1. Slices follow each other by milliseconds: this VM's speed drifts
# between two levels over seconds to minutes, for every program alike, and a round's slices
# meet the same level, so each round's ratios compare like with like. Each round starts with
# a different contender; ROUNDS rounds. Medians, best runs and the median of the rounds'
# ratios are printed (bench/bench_report.py) and written to $OUT/results.json
# (results-1m.json with TABLE=1m: both routers then also hold a 1M-route BGP-shaped table from
# tern-bench routes, and tern6 and l3fwd6 220 000 BGP-shaped IPv6 prefixes from tern-bench
# routes --ipv6; ternd learns them from its kernel, l3fwd from its rule files with its LPM
# limits raised).
#
# TERN_B=/path/to/ternd adds a contender "tern-b", in a namespace of its own: an A/B of two
# builds of ternd against each other and the references; TERN_B_CONF_EXTRA gives it
# configuration sections of its own (as TERND_CONF_EXTRA in lib.sh), to try a setting, and
# TERN_B_RX_BURST its worker's rx_burst (as TERND_RX_BURST), TERN_B_PORT_EXTRA more keys for
# both its ports (TERN_B_PORT_EXTRA='mtu = 9000\n': packet buffers for jumbo frames).
# tern6 and l3fwd6 forward IPv6/UDP frames (82 bytes: the generator's smallest with its stamp;
# --ipv6 of tern-bench compare) over the same kind of table, 1000 /64s (or the 220 000
# prefixes) that carry no traffic and the routes in use, in RFC 5180's 2001:2::/48.
# tern-acl forwards as tern with an ingress access list of ACL_ENTRIES (1000) entries on both
# ports (bench/acl_rules.py: every frame classified against all of them and forwarded), and
# l3fwd-acl is DPDK's l3fwd in its ACL mode (--lookup acl) with the same entries as its deny
# rules and the same routes as its route rules: one classification a frame finds both.
# tern-rpf forwards as tern with strict unicast RPF on both ports (ip verify unicast source
# reachable-via rx): a second FIB lookup a frame, of its source, whose route must leave by the
# port it came in on.
# tern-sflow forwards as tern with sFlow sampling 1 in 10 000 frames on both ports and
# tern-sflow100 1 in 100, their datagrams sent to a collector on 127.0.0.1 (nobody listens):
# the workers' draw and copy, and the control thread's datagrams, on the forwarding core.
# tern-vlan4k forwards as tern-vlan with 4000 sub-interfaces m0.1 .. m0.4000 made, its frames
# in on all of them in turn (tern-bench --vlans 4000, one VLAN a frame) and out of m1.100.
# CONTENDERS picks who runs (default: tern, tern-b when TERN_B is set, tern-vlan, tern-vlan4k,
# tern-acl, tern-rpf, tern-sflow, tern-sflow100, tern6, l3fwd, l3fwd-acl, l3fwd6, testpmd).
# All of ternd's threads run on the forwarding core, as l3fwd's only busy thread does
# (TERND_ONE_CPU in lib.sh).
# The generator stays connected from the first slice to the last: DPDK 22.11's memif PMD can
# fault in a router when its peer leaves (dataplane/workarounds/memif_peer_guard.c guards ternd; l3fwd
# and testpmd have no guard), and here no peer leaves before the end.
set -u
export TERND_ONE_CPU=${TERND_ONE_CPU:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROUNDS=${ROUNDS:-60}
DURATION=${DURATION:-0.5}
FLOWS=${FLOWS:-1024}
SIZE=${SIZE:-64}
OUT=${OUT:-$BUILD/bench}
TABLE=${TABLE:-1k}
# tern-vlan (tagged frames between sub-interfaces) and the access lists with the 1k table only:
# their cost is per frame, and a second 1M-route load would double the 1M run's setup
[ "$TABLE" = 1m ] || { VLAN_CONTENDER="tern-vlan tern-vlan4k" ACL_CONTENDERS="tern-acl l3fwd-acl tern-rpf tern-sflow tern-sflow100"; }
CONTENDERS=${CONTENDERS:-tern ${TERN_B:+tern-b} ${VLAN_CONTENDER:-} tern6 l3fwd ${ACL_CONTENDERS:-} l3fwd6 testpmd}
ACL_ENTRIES=${ACL_ENTRIES:-1000}
# The generator: make bench passes the statically linked tern-bench (no PLT calls, no
# __tls_get_addr for every mempool access), the same for every contender.
# shellcheck disable=SC2206
DUTS=($CONTENDERS)
has() { [[ " ${DUTS[*]} " == *" $1 "* ]]; }
GEN_BIN=${GEN_BIN:-$BUILD/tern-bench}
. "$ROOT/bench/lib.sh"
bench_begin bench
TOP=$DIR
mkdir -p "$OUT" "$TOP/l3fwd" "$TOP/l3fwd-acl" "$TOP/l3fwd6" "$TOP/testpmd"
# all contenders at once (1 GiB, 512 pages, each; tern6 and l3fwd6 2 GiB with the 220 000
# IPv6 prefixes) and the generator
BIG6=0
[ "$TABLE" = 1m ] && { has tern6 && BIG6=$((BIG6 + 512)); has l3fwd6 && BIG6=$((BIG6 + 512)); }
hugepages_reserve $((512 * ${#DUTS[@]} + BIG6 + 1024))

# The same table for both: 1000 /27s (or 1M BGP-shaped routes) that carry no traffic, plus the
# routes in use.
ROUTES=$TOP/routes.txt
if [ "$TABLE" = 1m ]; then
	{ ! has l3fwd && ! has l3fwd6 && ! has l3fwd-acl; } || l3fwd_build big || exit 1
	"$BUILD/tern-bench" routes --count 1000000 | sort -u > "$ROUTES"
	RESULTS=$OUT/results-1m.json
else
	{ ! has l3fwd && ! has l3fwd6 && ! has l3fwd-acl; } || l3fwd_build || exit 1
	for i in $(seq 0 999); do
		echo "198.18.$((128 + i / 8)).$(((i % 8) * 32))/27"
	done > "$ROUTES"
	RESULTS=$OUT/results.json
fi
NB_ROUTES=$(($(wc -l < "$ROUTES") + 1))
{
	echo "R198.18.0.0/24 0"
	echo "R198.18.1.0/24 1"
	echo "R198.19.0.0/16 1"
	sed 's/^/R/; s/$/ 0/' "$ROUTES"
} > "$TOP/l3fwd/l3fwd-v4.cfg"
echo "R2001:200::/48 0" > "$TOP/l3fwd/l3fwd-v6.cfg"
# l3fwd's ACL mode: the deny rules first (a rule's priority is its place in the file), then
# the routes as rules on the destination alone
has l3fwd-acl && {
	/usr/bin/python3 "$ROOT/bench/acl_rules.py" "$ACL_ENTRIES" l3fwd
	sed 's/^R\([^ ]*\) \(.*\)$/R0.0.0.0\/0 \1 0 : 65535 0 : 65535 0\/0 \2/' "$TOP/l3fwd/l3fwd-v4.cfg"
} > "$TOP/l3fwd-acl/l3fwd-v4.cfg"
echo "R0:0:0:0:0:0:0:0/0 2001:200:0:0:0:0:0:0/48 0 : 65535 0 : 65535 0/0 0" > "$TOP/l3fwd-acl/l3fwd-v6.cfg"
# IPv6: 2001:2::/64 on port 0 (the generator's side), 2001:2:0:ff::/64 on port 1, its frames'
# destinations 2001:2:0:1::/64 behind 2001:2:0:ff::2, and 1000 /64s that carry nothing (or
# 220 000 BGP-shaped prefixes, none in 2001:2::/32)
ROUTES6=$TOP/routes6.txt
if [ "$TABLE" = 1m ]; then
	"$BUILD/tern-bench" routes --ipv6 --count 231000 | awk '!seen[$0]++ && !/^2001:2:/' |
		head -n 220000 > "$ROUTES6"
else
	for i in $(seq 0 999); do printf '2001:2:0:%x::/64\n' $((0x1000 + i)); done > "$ROUTES6"
fi
NB_ROUTES6=$(wc -l < "$ROUTES6")
echo "R198.18.0.0/24 0" > "$TOP/l3fwd6/l3fwd-v4.cfg"
{
	echo "R2001:2::/64 0"
	echo "R2001:2:0:ff::/64 1"
	echo "R2001:2:0:1::/64 1"
	sed 's/^/R/; s/$/ 0/' "$ROUTES6"
} > "$TOP/l3fwd6/l3fwd-v6.cfg"

declare -A dpid
# rx queues the generator polls on each contender: one (TERN_B_QUEUES=2 for an older tern-b
# that sends what its kernel emits on a second queue)
declare -A QUEUES=([tern]=1 [tern-b]=${TERN_B_QUEUES:-1} [tern-vlan]=1 [tern-vlan4k]=1 [tern-acl]=1 [tern-rpf]=1 [tern-sflow]=1 [tern-sflow100]=1 [tern6]=1
		  [l3fwd]=1 [l3fwd-acl]=1 [l3fwd6]=1 [testpmd]=1)
declare -A VLAN=([tern-vlan]=100 [tern-vlan4k]=1)
declare -A VLANS=([tern-vlan4k]=4000)
declare -A IPV6=([tern6]=1 [l3fwd6]=1)

# ternd's IPv6 counterpart of memif_forwarding_commands (after it, in configuration mode), and
# the unused /64s
ipv6_forwarding_commands() {
	memif_ipv6_commands
	[ "$TABLE" = 1m ] || sed 's/$/ 2001:2::2/; s/^/ipv6 route /' "$ROUTES6"
}

# Waits until ternd's kernel routes of the family (ip, ipv6) number at least N.
wait_kernel_routes() {	# NAME FAMILY N
	for _ in $(seq 600); do
		[ "$(tern --json -c "show $2 route summary" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kernel_routes"])')" -ge "$3" ] && return 0
		sleep 0.5
	done
	echo "$1: ternd did not learn the table from its kernel"; return 1
}

start_ternd() {	# NAME NAMESPACE [VLAN] [MORE]: a ternd with the table, its pid in dpid[NAME];
		# MORE, a command whose output is more configuration (after the routes)
	local DIR=$TOP/$1 R=$2 DUT_PREFIX=tern-bench-dut-$1 vlan=${3:-} more=${4:-} v6=${IPV6[$1]:-}
	local mem=$MEM_ARGS routes=1048576 TERND_FIB6_ROUTES=${TERND_FIB6_ROUTES:-}
	mkdir -p "$DIR"
	rm -f "$DIR"/memif*.sock	# left by one that died
	# with the 220 000 IPv6 prefixes: the IPv6 FIB for them, and a small IPv4 one
	[ "$TABLE" = 1m ] && [ -n "$v6" ] && { mem=${MEM_ARGS/1024/2048} routes=65536 TERND_FIB6_ROUTES=262144; }
	memif_ports "${TERND_PORT_EXTRA:-}" "${TERND_PORT_EXTRA:-}" | ternd_conf "$mem" "m0:0 m1:0" "$routes"
	ternd_start || return 1
	dpid[$1]=$pid
	pid=
	{
		memif_forwarding_commands "$vlan"
		[ "$TABLE" = 1m ] || sed 's/$/ 198.18.0.2/; s/^/ip route /' "$ROUTES"
		[ -z "$v6" ] || ipv6_forwarding_commands
		[ -z "$more" ] || $more
	} | tern -f - >/dev/null || { echo "$1: configuring ternd failed"; return 1; }
	[ "$TABLE" = 1m ] || return 0
	# through the kernel, as a routing daemon would
	if [ -n "$v6" ]; then
		sed 's/^/route replace /; s/$/ via 2001:2::2 dev m0/' "$ROUTES6" | ip -6 -n "$R" -batch - || return 1
		wait_kernel_routes "$1" ipv6 "$NB_ROUTES6"
	else
		sed 's/^/route replace /; s/$/ via 198.18.0.2/' "$ROUTES" | ip -n "$R" -batch - || return 1
		wait_kernel_routes "$1" ip "$NB_ROUTES"
	fi
}

start_tern() { start_ternd tern "$R"; }

# tern forwarding between 802.1Q sub-interfaces m0.100 and m1.100, the frames tagged both ways
start_tern-vlan() {
	ip netns add "$R-vlan" 2>/dev/null && ip -n "$R-vlan" link set lo up
	start_ternd tern-vlan "$R-vlan" "${VLAN[tern-vlan]}"
}

# tern-vlan's two sub-interfaces (m0.100 and m1.100), and m0.1 .. m0.4000 about them, all of
# which must have come up
subif_commands() { for v in $(seq 1 "${VLANS[tern-vlan4k]}"); do printf 'interface m0.%s\n' "$v"; done; echo exit; }
start_tern-vlan4k() {
	local DIR=$TOP/tern-vlan4k
	ip netns add "$R-vlan4k" 2>/dev/null && ip -n "$R-vlan4k" link set lo up
	start_ternd tern-vlan4k "$R-vlan4k" 100 subif_commands || return 1
	[ "$(tern --json -c "show version" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["subinterfaces"])')" = \
		$((VLANS[tern-vlan4k] + 1)) ] || { echo "tern-vlan4k: its sub-interfaces are not all made"; return 1; }
}

# tern with the access list on both ports; it must have reached the workers
acl_commands() { /usr/bin/python3 "$ROOT/bench/acl_rules.py" "$ACL_ENTRIES" tern m0 m1; }
start_tern-acl() {
	local DIR=$TOP/tern-acl
	ip netns add "$R-acl" 2>/dev/null && ip -n "$R-acl" link set lo up
	start_ternd tern-acl "$R-acl" "" acl_commands || return 1
	tern --json -c "show ip access-list bench" | /usr/bin/python3 -c '
import json, sys
a = json.load(sys.stdin)["access_lists"][0]
sys.exit(0 if a["compiled"] and len(a["entries"]) == int(sys.argv[1]) else 1)' "$ACL_ENTRIES" ||
		{ echo "tern-acl: the access list is not in force"; return 1; }
}

# tern with strict unicast RPF on both ports; it must be in force
rpf_commands() {
	printf '%s\n' "interface m0" "ip verify unicast source reachable-via rx" \
		"interface m1" "ip verify unicast source reachable-via rx" "exit"
}
start_tern-rpf() {
	local DIR=$TOP/tern-rpf
	ip netns add "$R-rpf" 2>/dev/null && ip -n "$R-rpf" link set lo up
	start_ternd tern-rpf "$R-rpf" "" rpf_commands || return 1
	[ "$(tern --json -c "show interfaces" | /usr/bin/python3 -c '
import json, sys
print(",".join(i["rpf_ipv4"] for i in json.load(sys.stdin)["interfaces"]))')" = rx,rx ] ||
		{ echo "tern-rpf: unicast RPF is not in force"; return 1; }
}

# tern with sFlow sampling on both ports at 1 in $SFLOW_RATE; it must be in force
sflow_commands() {
	printf '%s\n' "sflow collector 127.0.0.1" "sflow sample-rate $SFLOW_RATE"
}
start_sflow() {	# NAME RATE
	local DIR=$TOP/$1 SFLOW_RATE=$2
	ip netns add "$R-$1" 2>/dev/null && ip -n "$R-$1" link set lo up
	start_ternd "$1" "$R-$1" "" sflow_commands || return 1
	[ "$(tern --json -c "show sflow" | /usr/bin/python3 -c '
import json, sys
print(",".join(str(i["rate"]) for i in json.load(sys.stdin)["interfaces"]))')" = "$2,$2" ] ||
		{ echo "$1: sFlow sampling is not in force"; return 1; }
}
start_tern-sflow() { start_sflow tern-sflow 10000; }
start_tern-sflow100() { start_sflow tern-sflow100 100; }

# tern forwarding IPv6, in a namespace of its own (the kernel takes a moment over each
# address's duplicate detection before ternd mirrors its routes)
start_tern6() {
	local DIR=$TOP/tern6
	ip netns add "$R-v6" 2>/dev/null && ip -n "$R-v6" link set lo up
	start_ternd tern6 "$R-v6" || return 1
	for _ in $(seq 100); do
		[ "$(tern --json -c "show ipv6 fib 2001:2:0:1::1" 2>/dev/null |
		     /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kind"])' 2>/dev/null)" = forward ] &&
			return 0
		sleep 0.1
	done
	echo "tern6: 2001:2:0:1::/64 never reached the IPv6 FIB"; return 1
}

start_tern-b() {
	ip netns add "$R-b" 2>/dev/null && ip -n "$R-b" link set lo up
	TERND_BIN=$TERN_B TERND_RX_BURST=${TERN_B_RX_BURST:-${TERND_RX_BURST:-}} \
		TERND_CONF_EXTRA=${TERN_B_CONF_EXTRA:-${TERND_CONF_EXTRA:-}} \
		TERND_PORT_EXTRA=${TERN_B_PORT_EXTRA:-${TERND_PORT_EXTRA:-}} start_ternd tern-b "$R-b"
}

start_l3fwd_named() {	# NAME: an l3fwd with the rule files in $TOP/NAME, its pid in dpid[NAME]
	local DIR=$TOP/$1 DUT_PREFIX=tern-bench-dut-$1
	rm -f "$DIR"/memif*.sock
	l3fwd_start
	dpid[$1]=$pid
	pid=
	grep -q "entering main loop" "$DIR/l3fwd.log" || { echo "$1 did not start:"; tail -n 5 "$DIR/l3fwd.log"; return 1; }
}

start_l3fwd() { start_l3fwd_named l3fwd; }
start_l3fwd-acl() { L3FWD_LOOKUP=acl start_l3fwd_named l3fwd-acl; }
start_l3fwd6() {	# with the 220 000 IPv6 prefixes, memory for its LPM6 (1<<18 groups of 1 KiB)
	local MEM_ARGS=$MEM_ARGS
	[ "$TABLE" = 1m ] && MEM_ARGS=${MEM_ARGS/1024/2048}
	start_l3fwd_named l3fwd6
}

start_testpmd() {
	local DIR=$TOP/testpmd
	rm -f "$DIR"/memif*.sock
	# testpmd leaves at end of input: give it one that never ends
	tail -f /dev/null | ip netns exec "$R" dpdk-testpmd -l 0,1 $MEM_ARGS --no-pci \
		--file-prefix tern-bench-dut-testpmd --log-level='*:error' \
		--vdev "$(memif 0 server 02:00:00:00:a0:00)" --vdev "$(memif 1 server 02:00:00:00:a0:01)" \
		-- --forward-mode=io --nb-cores=1 --auto-start --no-lsc-interrupt --stats-period=0 \
		> "$DIR/testpmd.log" 2>&1 &
	dpid[testpmd]=$!
	for _ in $(seq 100); do [ -S "$DIR/memif1.sock" ] && break; sleep 0.1; done
	sleep 0.5
	[ -S "$DIR/memif1.sock" ] || { echo "testpmd did not start:"; tail -n 5 "$DIR/testpmd.log"; return 1; }
}

alive() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${s#Z}" = "$s" ]; }

stop_dut() {	# NAME: let it go on, ask it to leave, wait up to 10 s
	local p=${dpid[$1]:-}
	unset "dpid[$1]"
	[ -n "$p" ] || return 0
	kill -CONT "$p" 2>/dev/null
	kill -TERM "$p" 2>/dev/null
	for _ in $(seq 100); do alive "$p" || break; sleep 0.1; done
	kill -KILL "$p" 2>/dev/null
	wait "$p" 2>/dev/null
}

bench_extra_cleanup() {
	local d
	for d in "${!dpid[@]}"; do stop_dut "$d"; done
	ip netns del "$BENCH_NETNS-b" 2>/dev/null
	ip netns del "$BENCH_NETNS-vlan" 2>/dev/null
	ip netns del "$BENCH_NETNS-vlan4k" 2>/dev/null
	ip netns del "$BENCH_NETNS-v6" 2>/dev/null
	ip netns del "$BENCH_NETNS-acl" 2>/dev/null
	ip netns del "$BENCH_NETNS-rpf" 2>/dev/null
	ip netns del "$BENCH_NETNS-tern-sflow" 2>/dev/null
	ip netns del "$BENCH_NETNS-tern-sflow100" 2>/dev/null
}

start_dut() {	# NAME: started, then held stopped
	local t0
	t0=$(date +%s.%N)
	"start_$1" || exit 1
	kill -STOP "${dpid[$1]}"
	printf '%-8s ready in %s s\n' "$1" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
}

# The generator's memif ports are zero-copy clients, as the benchmark's definition asks (see
# below); their regions are its hugepage files, which cannot be sealed against shrinking, so
# the ternds map them on trust ([memif] peer_memory = any): the generator is ours.
ZC=
if [ "${GEN_ZERO_COPY:-1}" = 1 ]; then
	case $BENCH_MEM in *single-file-segments*) ZC=,zero-copy=yes ;; *) echo "bench: zero-copy needs hugepages; copying" ;; esac
fi
[ -n "$ZC" ] && export TERND_MEMIF_PEER_MEMORY=any
for dut in "${DUTS[@]}"; do
	declare -F "start_$dut" >/dev/null || { echo "bench: unknown contender '$dut' (tern, tern-b, tern-vlan, tern-vlan4k, tern-acl, tern-rpf, tern-sflow, tern-sflow100, tern6, l3fwd, l3fwd-acl, l3fwd6, testpmd)"; exit 1; }
	start_dut "$dut"
done

# The generator's memif ports are zero-copy clients, as the benchmark's definition asks: its
# packet memory (hugepage files) is shared with the routers, so the tester does not copy
# frames and more of its CPU goes to offering and counting them. GEN_ZERO_COPY=0 makes them
# copy. DPDK 22.11's zero-copy client closed EAL's hugepage file descriptors and then sent
# routers the wrong file (one start in three failed, and a router died of SIGBUS) until
# tern-bench kept them open (dataplane/workarounds/memseg_fd_guard.c). A router may still fault as a
# peer leaves, so up to 3 attempts, each with every router alive.
for attempt in 1 2 3; do
	for dut in "${DUTS[@]}"; do
		alive "${dpid[$dut]}" && continue
		wait "${dpid[$dut]}"
		echo "bench: $dut had died (exit status $?); starting it again"
		start_dut "$dut"
	done
	# one generator for all: each contender's two memif ports, under names of their own
	args=() n=0
	for dut in "${DUTS[@]}"; do
		args+=(--dut "$dut" --pid "${dpid[$dut]}" --dst-mac 02:00:00:00:a0:00 --queues "${QUEUES[$dut]}")
		[ -n "${VLAN[$dut]:-}" ] && args+=(--vlan "${VLAN[$dut]}")
		[ -n "${VLANS[$dut]:-}" ] && args+=(--vlans "${VLANS[$dut]}")
		[ -n "${IPV6[$dut]:-}" ] && args+=(--ipv6)
		for i in 0 1; do
			args+=(--port "net_memif$n,role=client,id=0,socket=$TOP/$dut/memif$i.sock,socket-abstract=no,mac=02:00:00:00:b0:0$i$ZC")
			n=$((n + 1))
		done
	done
	"$GEN_BIN" compare --eal "-l 0 $BENCH_MEM --file-prefix tern-bench-gen --log-level=*:error" \
		"${args[@]}" --rounds "$ROUNDS" --slice "$DURATION" --flows "$FLOWS" --size "$SIZE" --json \
		> "$TOP/compare.json" && break
	echo "bench: the generator failed (attempt $attempt of 3)"
	[ "$attempt" = 3 ] && exit 1
done
# each ternd's own account of its trials: the share of its worker's cycles that went to walks
# that handled packets (its load), and so what it forwards a second of such walks
loads=()
for dut in "${DUTS[@]}"; do
	alive "${dpid[$dut]}" || echo "bench: $dut died during the run (its later rounds have no result)"
	if [ "${dut%%[-6]*}" = tern ] && alive "${dpid[$dut]}"; then
		kill -CONT "${dpid[$dut]}"
		"$BUILD/tern" -s "$TOP/$dut/ternd.sock" --json -c "show workers" > "$TOP/$dut-workers.json" 2>/dev/null &&
			loads+=("$dut=$TOP/$dut-workers.json")
	fi
	stop_dut "$dut"
done
routes_arg=$NB_ROUTES
[ "$TABLE" = 1m ] && { has tern6 || has l3fwd6; } && routes_arg+=,$NB_ROUTES6
/usr/bin/python3 "$ROOT/bench/bench_report.py" "$TOP/compare.json" "$RESULTS" "$routes_arg" "${loads[@]}"
