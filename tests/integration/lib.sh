# SPDX-License-Identifier: BSD-3-Clause
# Shared by the integration tests: namespaces, a ternd inside one, hosts behind its TAP ports,
# and a cleanup that runs however the test ends. Source it, then call tern_test_begin NAME.
set -u
TERN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TERN_BUILD=${TERN_BUILD:-$TERN_ROOT/build}
TERND=${TERN_TERND:-$TERN_BUILD/ternd}	# TERN_TERND: another ternd binary (build/ternd-static)
TERN=$TERN_BUILD/tern
T_NS=()
T_PIDS=()
T_ON_EXIT=()
T_DIR=
T_NAME=
T_FAILS=0

tern_test_begin() {	# NAME
	T_NAME=$1
	T_DIR=$(mktemp -d "/tmp/tern-$T_NAME-XXXXXX")
	T_ID="t$$"
	trap tern_test_cleanup EXIT
	trap 'exit 130' INT TERM
}

# Runs COMMAND (a string, eval'd) in the cleanup, first, whatever the test's outcome. A test
# must not set its own EXIT trap: a command that runs before tern_test_cleanup would replace
# the exit status the cleanup passes on, and a failed check would end as a pass.
tern_on_exit() {	# COMMAND
	T_ON_EXIT+=("$1")
}

tern_test_cleanup() {
	local rc=$? pid ns cmd mnt
	for cmd in "${T_ON_EXIT[@]}"; do
		eval "$cmd"
	done
	for pid in "${T_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in "${T_PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null
	done
	for ns in "${T_NS[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "/var/run/dpdk/$T_ID" 2>/dev/null
	# EAL leaves its hugepage files (kept for secondary processes), and they keep their pages
	for mnt in $(awk '$3 == "hugetlbfs" { print $2 }' /proc/mounts); do
		rm -f "$mnt/${T_ID}"map_*
	done
	if [ $rc -ne 0 ] && [ -f "$T_DIR/ternd.log" ]; then
		echo "--- ternd log:"; tail -n 30 "$T_DIR/ternd.log"
	fi
	rm -rf "$T_DIR"
	exit $rc
}

netns_add() {	# NAME -> creates it, registers it for cleanup
	ip netns add "$1" || { echo "cannot create namespace $1"; exit 1; }
	T_NS+=("$1")
	ip -n "$1" link set lo up
}

say() { printf '  %s\n' "$*"; }
fail() { printf '  FAIL: %s\n' "$*"; T_FAILS=$((T_FAILS + 1)); }
check() {	# DESCRIPTION COMMAND... : passes when the command succeeds; returns 1 when it failed
	local what=$1; shift
	if "$@"; then say "ok: $what"; else fail "$what"; return 1; fi
}
check_not() {	# DESCRIPTION COMMAND... : passes when the command fails; returns 1 when it succeeded
	local what=$1; shift
	if "$@" >/dev/null 2>&1; then fail "$what"; return 1; else say "ok: $what"; fi
}
tern_test_end() {
	[ $T_FAILS -eq 0 ] || { echo "  $T_FAILS check(s) failed"; exit 1; }
}

# Writes a ternd.conf with N ports dp0.. and one worker on lcore 1. Each port is a net_tap
# whose kernel side (the "wire", ${T_ID}h0..) make_host moves into a host namespace; the
# port's exception interface in the router namespace is named like the port (dp0..).
write_tap_config() {	# NPORTS [extra lines]
	local n=$1 i rx=""
	T_CONF=$T_DIR/ternd.conf
	T_SOCK=$T_DIR/ternd.sock
	{
		echo "[eal]"
		echo "args = ${T_EAL_MEM:---no-huge -m 600} --file-prefix $T_ID --log-level=*:notice"
		for ((i = 0; i < n; i++)); do
			echo "[port dp$i]"
			echo "dev = net_tap$i,iface=${T_ID}h$i"
			local extra=PORT_EXTRA_$i	# more keys for port i, e.g. PORT_EXTRA_0='punt_rate = 200'
			[ -n "${!extra:-}" ] && printf '%b\n' "${!extra}"
			rx="$rx dp$i:0"
		done
		echo "[worker 1]"
		echo "rx =$rx${T_RX_EXTRA:-}"	# T_RX_EXTRA: more rx queues (a bond's) for the worker
		echo "[mempool]"
		echo "mbufs = 8192"
		echo "[fib]"
		echo "routes = ${T_FIB_ROUTES:-65536}"
		echo "[fib6]"
		echo "max_routes = ${T_FIB6_ROUTES:-4096}"
		echo "[api]"
		echo "socket = $T_SOCK"
		echo "mode = ${T_SOCK_MODE:-0660}"
		[ -n "${T_API_EXTRA:-}" ] && printf '%b\n' "$T_API_EXTRA"	# more [api] keys
		echo "[store]"
		echo "db = $T_DIR/tern.db"
		[ $# -gt 1 ] && echo "$2"
	} > "$T_CONF"
}

start_ternd() {	# NAMESPACE : starts ternd with $T_CONF inside it, waits for its socket
	local ns=$1	# TERND_PRELOAD: a test's shim, preloaded into ternd alone
	ip netns exec "$ns" env ${TERND_PRELOAD:+LD_PRELOAD=$TERND_PRELOAD} \
		"$TERND" -f "$T_CONF" > "$T_DIR/ternd.log" 2>&1 &
	T_TERND_PID=$!
	T_PIDS+=("$T_TERND_PID")
	for _ in $(seq 100); do
		[ -S "$T_SOCK" ] && "$TERN" -s "$T_SOCK" -c "show version" >/dev/null 2>&1 && return 0
		kill -0 "$T_TERND_PID" 2>/dev/null || break
		sleep 0.2
	done
	echo "ternd did not come up"; cat "$T_DIR/ternd.log"; exit 1
}

stop_ternd() {	# -> exit status of ternd
	kill -TERM "$T_TERND_PID"
	wait "$T_TERND_PID"
}

tern_cli() { "$TERN" -s "$T_SOCK" "$@"; }

# BIRD in host h2 (two_hosts) as an upstream, AS 65001: announces 198.19.10.0/24 and
# 198.19.11.0/24 (its static protocol "announced") over BGP to AS 65000 at 198.18.1.1.
# Its control socket is $T_DIR/bird-h2.ctl.
bird_upstream_start() {
	cat > "$T_DIR/bird-h2.conf" <<EOC
router id 198.18.1.2;
protocol device { }
protocol static announced { ipv4; route 198.19.10.0/24 blackhole; route 198.19.11.0/24 blackhole; }
protocol bgp upstream {
	local 198.18.1.2 as 65001;
	neighbor 198.18.1.1 as 65000;
	connect delay time 1; connect retry time 2;
	error wait time 1, 2;	# after a peer that stopped, back within the tests' waits, not 60 s
	ipv4 { import none; export where proto = "announced"; };
}
EOC
	ip netns exec "$H2" bird -c "$T_DIR/bird-h2.conf" -s "$T_DIR/bird-h2.ctl" -P "$T_DIR/bird-h2.pid"
	T_PIDS+=("$(cat "$T_DIR/bird-h2.pid")")
}

# Debian's snmpd as the AgentX master in namespace NS, as tern's own snmpd pieces set it up
# (etc/snmp/: snmpd-tern.conf, and the -I flags of snmpd-tern.service.conf), its socket
# $T_DIR/agentx.sock (ternd's [snmp] agentx), answering SNMPv2c (community public) on
# 127.0.0.1:16100 and sending notifications to 127.0.0.1:16200. Its pid in SNMPD.
snmpd_start() {	# NS
	local etc
	etc=$(dirname "${BASH_SOURCE[0]}")/../../etc/snmp
	[ -e "$T_DIR/snmpd.conf" ] || {
		sed "s|/var/agentx/master|$T_DIR/agentx.sock|" "$etc/snmpd-tern.conf"
		printf '%s\n' "agentaddress udp:127.0.0.1:16100" "rocommunity public 127.0.0.1" \
			"trap2sink udp:127.0.0.1:16200 public"
	} > "$T_DIR/snmpd.conf"
	mkdir -p "$T_DIR/snmp-state"
	# shellcheck disable=SC2046
	ip netns exec "$1" env SNMP_PERSISTENT_DIR="$T_DIR/snmp-state" snmpd -f -C \
		-c "$T_DIR/snmpd.conf" $(grep -o -- '-I [^ ]*' "$etc/snmpd-tern.service.conf") \
		-Lf "$T_DIR/snmpd.log" -p "$T_DIR/snmpd.pid" &
	SNMPD=$!
	T_PIDS+=("$SNMPD")
}
# ternd's log says TEXT
logged() { grep -q "$1" "$T_DIR/ternd.log"; }

# Two ternds back to back (a bond, a memif link): each SIDE has its configuration in
# $T_DIR/SIDE.conf, with the EAL file prefix ${T_ID}SIDE and the API socket $T_DIR/SIDE.sock.
peer_start() {	# SIDE NAMESPACE: starts it there, waits for its socket; its pid in PID_SIDE
	ip netns exec "$2" "$TERND" -f "$T_DIR/$1.conf" > "$T_DIR/$1.log" 2>&1 &
	T_PIDS+=("$!")
	eval "PID_$1=$!"
	tern_on_exit "rm -rf /var/run/dpdk/${T_ID}$1"
	for _ in $(seq 100); do
		"$TERN" -s "$T_DIR/$1.sock" -c "show version" >/dev/null 2>&1 && return 0
		kill -0 "$!" 2>/dev/null || break
		sleep 0.2
	done
	echo "ternd $1 did not come up"; cat "$T_DIR/$1.log"; exit 1
}
peer_stop() { local p=PID_$1; kill -TERM "${!p}"; wait "${!p}" 2>/dev/null; }	# SIDE
peer() { local s=$1; shift; "$TERN" -s "$T_DIR/$s.sock" "$@"; }	# SIDE tern's arguments

# FRR's daemons (zebra and bgpd, or those in FRR_DAEMONS, zebra first), as the frr user, their
# files (DAEMON.conf, pids, sockets, logs) in one directory of T_DIR each instance, so that
# several run side by side; vtysh reaches them with --vty_socket DIR.
frr_dir() {	# NAME -> the directory, made and the frr user's
	chmod 755 "$T_DIR"
	mkdir -p "$T_DIR/$1"
	chown frr:frr "$T_DIR/$1"
	echo "$T_DIR/$1"
}
frr_start() {	# NAMESPACE DIR
	local d extra
	for d in ${FRR_DAEMONS:-zebra bgpd}; do
		extra=()
		[ $d = bfdd ] && extra=(--bfdctl "$2/bfdd.sock")
		ip netns exec "$1" /usr/lib/frr/$d -d -u frr -g frr -f "$2/$d.conf" -i "$2/$d.pid" \
			-z "$2/zserv.api" --vty_socket "$2" "${extra[@]}" > "$2/$d.log" 2>&1 || { cat "$2/$d.log"; return 1; }
		for _ in $(seq 50); do [ -s "$2/$d.pid" ] && break; sleep 0.1; done
		T_PIDS+=("$(cat "$2/$d.pid")")
		if [ $d = zebra ]; then
			for _ in $(seq 50); do [ -S "$2/zserv.api" ] && break; sleep 0.1; done
		fi
	done
}
frr_stop() {	# DIR (a daemon already stopped is left alone)
	local d p
	for d in bfdd bgpd zebra; do
		[ -s "$1/$d.pid" ] || continue
		p=$(cat "$1/$d.pid")
		kill -TERM "$p"
		for _ in $(seq 50); do [ -e "/proc/$p" ] || break; sleep 0.1; done
		rm -f "$1/$d.pid"
	done
}

# Moves port N's wire into a new host namespace and gives it an address and a gateway.
# The wire starts with the port's own MAC: the host gets its own (02:00:00:00:00:NN).
# The host's interface is then named ${T_ID}hN.
T_HOSTS=0
make_host() {	# ROUTER_NS PORT-INDEX HOST_NS ADDR/LEN GATEWAY
	local rns=$1 port=${T_ID}h$2 hns=$3 addr=$4 gw=$5
	netns_add "$hns"
	T_HOSTS=$((T_HOSTS + 1))
	ip -n "$rns" link set "$port" netns "$hns" || { echo "cannot move $port"; exit 1; }
	ip -n "$hns" link set "$port" address "$(printf '02:00:00:00:00:%02x' $T_HOSTS)"
	ip -n "$hns" addr add "$addr" dev "$port"
	ip -n "$hns" link set "$port" up
	ip -n "$hns" route add default via "$gw"
	link_lamp_add "$rns" "$2"
}

# The TAP PMD reads its link state by interface name in ternd's namespace; once the wire
# has moved to a host namespace, that name is gone and the port would read "link down"
# for ever. A veth of the same name left in the router namespace stands for the cable:
# up (with its peer up) is link up; link_set N down pulls the cable.
link_lamp_add() {	# ROUTER_NS PORT-INDEX
	ip -n "$1" link add "${T_ID}h$2" type veth peer name "${T_ID}l$2"
	ip -n "$1" link set "${T_ID}l$2" up
	ip -n "$1" link set "${T_ID}h$2" up
}
link_set() {	# ROUTER_NS PORT-INDEX up|down
	ip -n "$1" link set "${T_ID}l$2" "$3"
}

host_mac() { ip -n "$1" -j link show "$2" | json_field 'j[0]["address"]'; }
# The MAC of a port, as ternd reports it.
port_mac() { tern_cli --json -c "show interfaces $1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["interfaces"][0]["mac"].lower())'; }
json_field() {	# PYTHON-EXPR over the parsed JSON "j"
	/usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"
}
json_true() {	# PYTHON-EXPR over the parsed JSON "j" on stdin: succeeds when it is true
	/usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); sys.exit(0 if ($1) else 1)"
}

# The usual topology: ternd in R with dp0 198.18.0.1/24 (host H1 198.18.0.2) and
# dp1 198.18.1.1/24 (host H2 198.18.1.2), addresses configured through tern.
two_hosts() {	# [extra config lines]
	R=tern-$T_ID-r H1=tern-$T_ID-h1 H2=tern-$T_ID-h2
	W0=${T_ID}h0 W1=${T_ID}h1
	netns_add "$R"
	# T_ROUTER_SYSCTL: one setting for the router's namespace before ternd starts
	[ -n "${T_ROUTER_SYSCTL:-}" ] && ip netns exec "$R" sysctl -qw "$T_ROUTER_SYSCTL"
	write_tap_config 2 "${1:-}"
	start_ternd "$R"
	make_host "$R" 0 "$H1" 198.18.0.2/24 198.18.0.1
	make_host "$R" 1 "$H2" 198.18.1.2/24 198.18.1.1
	tern_cli -c "configure terminal" \
		-c "interface dp0" -c "ip address 198.18.0.1/24" -c "exit" \
		-c "interface dp1" -c "ip address 198.18.1.1/24" -c "end" || { echo "cannot configure"; exit 1; }
	say "h1 198.18.0.2 -- dp0 [ternd in $R] dp1 -- h2 198.18.1.2"
	wait_for "both ports' links are up" links_up
}

# two_hosts with IPv6 too: RFC 5180's benchmarking prefix, 2001:2::/48, a /64 on each side
# (the router ::1, the hosts ::2, their default routes through it). The harness's wires come
# up in the router's namespace with their port's MAC, so their link-local addresses are the
# TAPs' until make_host moves them: DAD on the TAPs could see the wires' and give the address
# up. The router's interfaces skip DAD here.
two_hosts_ipv6() {	# [extra config lines]
	T_ROUTER_SYSCTL=net.ipv6.conf.default.dad_transmits=0 two_hosts "$@"
	ip -n "$R" addr add 2001:2:0:1::1/64 dev dp0 nodad
	ip -n "$R" addr add 2001:2:0:2::1/64 dev dp1 nodad
	ip -n "$H1" addr add 2001:2:0:1::2/64 dev "$W0" nodad
	ip -n "$H2" addr add 2001:2:0:2::2/64 dev "$W1" nodad
	ip -n "$H1" -6 route add default via 2001:2:0:1::1
	ip -n "$H2" -6 route add default via 2001:2:0:2::1
}
# The kernel's count of IPv6 datagrams it forwarded in the router's namespace.
fwd6() { ip netns exec "$R" awk '$1 == "Ip6OutForwDatagrams" { print $2 }' /proc/net/snmp6; }
# The same for IPv4 (ForwDatagrams, the 7th field of /proc/net/snmp's Ip: line).
fwd4() { ip netns exec "$R" awk '$1 == "Ip:" && $2 ~ /^[0-9]/ { print $7 }' /proc/net/snmp; }

# two_hosts with ternd on hugepages, where DPDK's secondary processes (dpdk-dumpcap,
# dpdk-proc-info) reach its memory: 512 more 2 MiB pages for the test, given back at its end.
# Secondaries map ternd's memory at the addresses ternd chose. DPDK's default hint (4 GiB)
# lies in AddressSanitizer's shadow gap, so an ASan ternd lands wherever mmap puts it, often
# where dumpcap has its own libraries ("Cannot init memory"). 32 TiB is free in both.
two_hosts_on_hugepages() {	# [extra config lines]
	local old_hp
	old_hp=$(cat /proc/sys/vm/nr_hugepages)
	echo $((old_hp + 512)) > /proc/sys/vm/nr_hugepages
	tern_on_exit "echo $old_hp > /proc/sys/vm/nr_hugepages"
	grep -q hugetlbfs /proc/mounts || { mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages; }
	T_EAL_MEM="--socket-mem 700 --base-virtaddr 0x200000000000" two_hosts "$@"
}

# Moving a port's TAP into its host takes the link down until link_lamp_add puts a
# veth in its place. If ternd's tick saw that, it also took the carrier of the port's
# kernel interface (dp0, dp1) down, and raises it again only at its next tick: until
# then the kernel sends nothing out of it. Both ports' links must be up, and so must
# both kernel interfaces' carriers.
links_up() {
	[ "$(tern_cli --json -c "show interfaces" |
		json_field '",".join(i["link"] for i in j["interfaces"] if i["name"] in ("dp0", "dp1"))')" = "up,up" ] &&
		carrier dp0 LOWER_UP && carrier dp1 LOWER_UP
}
# A kernel interface in ternd's namespace shows FLAG (LOWER_UP: carrier; NO-CARRIER).
carrier() { ip -n "$R" link show "$1" | grep -q "$2"; }	# INTERFACE FLAG

# Retries a check for up to WAIT_S seconds (10; the mirror and carrier follow within a tick,
# a BGP session takes a few seconds).
wait_for() {	# DESCRIPTION COMMAND...
	local what=$1 limit=$((${WAIT_S:-10} * 10)); shift
	for _ in $(seq $limit); do "$@" && return 0; sleep 0.1; done
	fail "$what (waited ${WAIT_S:-10} s)"; return 1
}

# What the router, the hosts and ternd hold for IPv6, printed when an IPv6 exchange fails.
ipv6_state() {
	local ns
	for ns in "$R" "$H1" "$H2"; do
		echo "  -- $ns: addresses, neighbours, routes"
		ip -n "$ns" -6 -br addr | sed 's/^/    /'
		ip -n "$ns" -6 neigh | sed 's/^/    /'
		ip -n "$ns" -6 route | sed 's/^/    /'
	done
	echo "  -- ternd: show errors (non-zero), show exception"
	tern_cli -c "show errors" 2>&1 | grep -v ' 0$' | sed 's/^/    /'
	tern_cli -c "show exception" 2>&1 | sed 's/^/    /'
	ip netns exec "$R" grep -E 'Ip6(InReceives|OutForwDatagrams|InNoRoutes|InAddrErrors|OutNoRoutes)|Icmp6(In|Out)Neighbor' /proc/net/snmp6 | sed 's/^/    /'
}

# One counter from show interfaces / show errors / show exception, as JSON paths.
if_counter() { tern_cli --json -c "show interfaces $1" | json_field "j['interfaces'][0]['$2']"; }
err_counter() { tern_cli --json -c "show errors" | json_field "j['$1']"; }
fib_kind() { tern_cli --json -c "show ip fib $1" | json_field 'j["kind"]'; }
fib6_kind() { tern_cli --json -c "show ipv6 fib $1" | json_field 'j["kind"]'; }
# ADDRESS KIND: what wait_for polls (an argument like "$(fib_kind A)" is read once, before it)
fib_is() { [ "$(fib_kind "$1")" = "$2" ]; }
link_is() { [ "$(tern_cli --json -c "show interfaces $1" | json_field 'j["interfaces"][0]["link"]')" = "$2" ]; }
fib6_is() { [ "$(fib6_kind "$1")" = "$2" ]; }
consistent() { [ "$(tern_cli --json -c "show ip fib consistency" | json_field 'j["differences"]')" = 0 ]; }
# A sample of the metrics endpoint ([metrics] listen = 9101) in the router's namespace, read
# over HTTP: unlike an API request, a scrape applies nothing a netlink batch wait holds back.
metric() {	# NAME{LABELS} -> its value
	ip netns exec "$R" /usr/bin/python3 -c '
import sys, urllib.request
for l in urllib.request.urlopen("http://127.0.0.1:9101/metrics", timeout=3).read().decode().splitlines():
    if l.startswith(sys.argv[1] + " "):
        print(l.split()[-1])' "$1"
}
kernel_routes() { metric 'tern_routes{source="kernel"}'; }
kernel_routes_are() { [ "$(kernel_routes)" = "$1" ]; }	# N
