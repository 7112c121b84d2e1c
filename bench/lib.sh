# SPDX-License-Identifier: BSD-3-Clause
# Shared by make run (demo.sh) and make bench (bench.sh): hugepages that are given back,
# memif port strings, and waiting for ternd's socket. Source it after setting DIR.

HP_OLD=
# Reserves hugepages if it can; sets MEM_ARGS (ternd, l3fwd, testpmd) and BENCH_MEM (tern-bench).
hugepages_reserve() {	# PAGES: free ones, on top of what other processes hold
	local want=$1 hp used free
	MEM_ARGS="--no-huge -m 1024" BENCH_MEM="--no-huge -m 256"
	hp=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)
	used=$(awk '/^HugePages_Total/ { t = $2 } /^HugePages_Free/ { f = $2 } END { print t - f }' /proc/meminfo)
	if [ "$hp" -lt $((want + used)) ] && echo $((want + used)) > /proc/sys/vm/nr_hugepages 2>/dev/null; then
		HP_OLD=$hp
		hp=$(cat /proc/sys/vm/nr_hugepages)
	fi
	free=$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)
	grep -q hugetlbfs /proc/mounts || { mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages; } 2>/dev/null
	if [ "$free" -ge $((want / 2)) ] && grep -q hugetlbfs /proc/mounts; then
		MEM_ARGS="--socket-mem 1024" BENCH_MEM="--socket-mem 256 --single-file-segments"
		echo "hugepages: $free of $hp x 2 MiB free$([ "$used" -gt 0 ] && echo " ($used held by other processes)")"
	else
		echo "hugepages: not available, running with --no-huge"
	fi
}

# For a 2M-route table: reserves 2048 hugepages and sets TABLE_MEM, ternd's EAL memory
# arguments: DPDK's dynamic mode (no --socket-mem), where the FIB, RIB and pools fault in 2 MiB
# pages as they are made; on 4 KiB pages (--no-huge) that alone takes ~2 s.
hugepages_for_table() {
	hugepages_reserve 2048
	TABLE_MEM="--no-huge -m 3072"
	[ "$MEM_ARGS" != "--no-huge -m 1024" ] && TABLE_MEM=""
}

hugepages_restore() {
	[ -n "$HP_OLD" ] && echo "$HP_OLD" > /proc/sys/vm/nr_hugepages
	HP_OLD=
}

# A memif vdev string: index, role, MAC. Sockets are files under $DIR (not abstract), so
# ternd in its namespace and tern-bench outside it meet on them. Functions read DIR, R and
# DUT_PREFIX when called, so a caller that runs several routers side by side (bench.sh)
# gives each its own with `local`.
memif() { echo "net_memif$1,role=$2,id=0,socket=$DIR/memif$1.sock,socket-abstract=no,mac=$3"; }

# ternd's two memif server ports, m0 and m1, as ternd.conf sections (tern-bench is the client).
memif_ports() {	# [extra keys for m0, with \n] [extra keys for m1]
	printf '[port m0]\ndev = %s\n%b[port m1]\ndev = %s\n%b' "$(memif 0 server 02:00:00:00:a0:00)" \
		"${1:-}" "$(memif 1 server 02:00:00:00:a0:01)" "${2:-}"
}

# ternd's forwarding configuration in the two-port memif harness, as lines for `tern -f -`:
# m0 198.18.0.1/24 and m1 198.18.1.1/24; the generator's ports (02:00:00:00:b0:00 and
# 02:00:00:00:b0:01) in the ARP table as 198.18.0.2 and 198.18.1.2; and 198.19.0.0/16, where
# tern-bench's flows go, through m1. It ends in configuration mode, so more commands may follow.
memif_forwarding_commands() {	# [VLAN]: the same on sub-interfaces m0.VLAN and m1.VLAN
	local a=m0 b=m1
	[ -n "${1:-}" ] && a=m0.$1 b=m1.$1
	printf '%s\n' "configure terminal" "interface $a" "ip address 198.18.0.1/24" \
		"interface $b" "ip address 198.18.1.1/24" "exit" \
		"arp 198.18.0.2 02:00:00:00:b0:00 $a" "arp 198.18.1.2 02:00:00:00:b0:01 $b" \
		"ip route 198.19.0.0/16 198.18.1.2"
}

# The same for IPv6 (RFC 5180's 2001:2::/48), in configuration mode after the above:
# 2001:2:0:1::/64 out of m1 to the generator's second port, 2001:2:0:2::/64 out of m0 (the
# other direction's), with static neighbours for the generator's MACs.
memif_ipv6_commands() {
	printf '%s\n' "interface m0" "ipv6 address 2001:2::1/64" \
		"interface m1" "ipv6 address 2001:2:0:ff::1/64" "exit" \
		"ipv6 neighbor 2001:2::2 02:00:00:00:b0:00 m0" \
		"ipv6 neighbor 2001:2:0:ff::2 02:00:00:00:b0:01 m1" \
		"ipv6 route 2001:2:0:1::/64 2001:2:0:ff::2" "ipv6 route 2001:2:0:2::/64 2001:2::2"
}

# Gives the running ternd that configuration, then each COMMAND (configuration mode); WHO
# names the caller in the one line printed when ternd refuses any of it.
memif_forwarding_setup() {	# WHO [COMMAND...]
	local who=$1
	shift
	{ memif_forwarding_commands; [ "${IPV6:-0}" = 1 ] && memif_ipv6_commands
	  [ $# -eq 0 ] || printf '%s\n' "$@"; } | tern -f - >/dev/null ||
		{ echo "$who: configuring ternd failed"; return 1; }
}

# tern-bench gen on CPU 0 as the harness's generator: client ports on ternd's two memif
# sockets, with the MACs memif_forwarding_commands puts in the ARP table; one queue pair
# each (ternd sends what its kernel emits through its worker); frames to m0's MAC. GEN_BIN picks the
# binary ($BUILD/tern-bench), GEN_PORT_EXTRA is added to each port's arguments
# (",rsize=12", say); the options given follow, and a later one overrides these.
memif_gen() {	# [tern-bench gen options...]
	"${GEN_BIN:-$BUILD/tern-bench}" gen \
		--eal "-l 0 $BENCH_MEM --file-prefix tern-$BENCH_NAME-gen --log-level=*:error" \
		--port "$(memif 0 client 02:00:00:00:b0:00)${GEN_PORT_EXTRA:-}" \
		--port "$(memif 1 client 02:00:00:00:b0:01)${GEN_PORT_EXTRA:-}" \
		--queues 1 --dst-mac 02:00:00:00:a0:00 "$@"
}

wait_socket() {	# SOCKET PID LOG
	for _ in $(seq 150); do
		"$BUILD/tern" -s "$1" -c "show version" >/dev/null 2>&1 && return 0
		kill -0 "$2" 2>/dev/null || { cat "$3"; return 1; }
		sleep 0.2
	done
	echo "ternd did not answer on $1"; return 1
}

# The frame every script shares: a scratch directory, ternd's namespace R, and a cleanup that
# stops ternd, removes the namespace, gives hugepages back, and runs bench_extra_cleanup if the
# script defines one. Sets DIR, R, BENCH_NAME; pid is ternd's.
bench_begin() {	# NAME
	[ "$(id -u)" -eq 0 ] || { echo "$1 needs root (namespaces, hugepages, TAPs)"; exit 1; }
	BENCH_NAME=$1
	DIR=$(mktemp -d "/tmp/tern-$1-XXXXXX")
	R=tern-$1-r
	# the cleanup's own copies: a trap may run inside a function that made DIR or R local
	BENCH_DIR=$DIR BENCH_NETNS=$R
	pid=
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM
	trap 'exit 129' HUP
	# output into a pipe that closed (make run | head): end through the cleanup, not at once
	trap 'exit 141' PIPE
	ip netns del "$R" 2>/dev/null
	ip netns add "$R" && ip -n "$R" link set lo up
}

bench_cleanup() {
	trap '' PIPE
	declare -F bench_extra_cleanup >/dev/null && bench_extra_cleanup
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	ip netns del "$BENCH_NETNS" 2>/dev/null
	# EAL leaves its hugepage files behind for secondary processes, and they keep their pages:
	# after make bench, 640 of them (1.25 GiB) stayed as surplus pages once nr_hugepages was 0
	local mnt
	for mnt in $(awk '$3 == "hugetlbfs" { print $2 }' /proc/mounts); do
		rm -f "$mnt"/tern-"$BENCH_NAME"-*
	done
	hugepages_restore
	rm -rf "$BENCH_DIR" /var/run/dpdk/tern-"$BENCH_NAME"-*
}

# With TERND_ONE_CPU=1, every thread of ternd runs on CPU 1, its worker's. Its control and
# exception threads, which a production machine gives cores of their own, otherwise share
# CPU 0 with the generator, and the tester pays for them: the exception thread alone wakes
# about 900 times a second to poll the workers' punt rings. l3fwd and testpmd have no thread
# besides the forwarding one that wakes on its own. EAL puts control threads on the CPUs no
# lcore uses, else on the main lcore's: taskset leaves none, --lcores maps both lcores to 1.
# There the exception thread's idle polls take the worker's CPU: they are spaced up to 8 ms
# ([exception] idle_sleep_max_ms, as etc/ternd.conf advises where that CPU is a worker's).
TERND_ONE_CPU=${TERND_ONE_CPU:-0}

# Writes $DIR/ternd.conf: EAL memory arguments, the [port] sections read from standard input,
# one worker on lcore 1 polling RX (with TERND_RX_BURST, its rx_burst), a FIB of ROUTES, then
# TERND_CONF_EXTRA (more sections, to try a setting: TERND_CONF_EXTRA=$'[netlink]\nbatch_interval_us = 0').
ternd_conf() {	# EAL_MEM RX ROUTES
	local lcores=
	[ "$TERND_ONE_CPU" = 1 ] && lcores="--lcores 0@1,1@1"
	{
		echo "[eal]"
		# ternd's own notices (start-up times) stay; EAL weighs the last --log-level first
		echo "args = $1 $lcores --file-prefix ${DUT_PREFIX:-tern-$BENCH_NAME-dut} --log-level=tern.*:notice --log-level=*:error"
		cat
		echo "[worker 1]"
		echo "rx = $2"
		if [ -n "${TERND_RX_BURST:-}" ]; then echo "rx_burst = $TERND_RX_BURST"; fi
		echo "[fib]"
		echo "routes = $3"
		echo "[fib6]"
		echo "max_routes = ${TERND_FIB6_ROUTES:-16384}"
		if [ "$TERND_ONE_CPU" = 1 ]; then printf '[exception]\nidle_sleep_max_ms = 8\n'; fi
		echo "[api]"
		echo "socket = $DIR/ternd.sock"
		echo "[store]"
		echo "db = $DIR/tern.db"
		# a zero-copy generator offers its hugepage files, which cannot be sealed
		if [ -n "${TERND_MEMIF_PEER_MEMORY:-}" ]; then printf '[memif]\npeer_memory = %s\n' "$TERND_MEMIF_PEER_MEMORY"; fi
		if [ -n "${TERND_CONF_EXTRA:-}" ]; then echo "$TERND_CONF_EXTRA"; fi
	} > "$DIR/ternd.conf"
}

ternd_start() {	# TERND_BIN: another ternd binary than $BUILD's
	local pin=
	[ "$TERND_ONE_CPU" = 1 ] && pin="taskset -c 1"
	ip netns exec "$R" $pin "${TERND_BIN:-$BUILD/ternd}" -f "$DIR/ternd.conf" > "$DIR/ternd.log" 2>&1 &
	pid=$!
	wait_socket "$DIR/ternd.sock" "$pid" "$DIR/ternd.log"
}

ternd_stop() {
	kill -TERM "$pid"
	wait "$pid"
	pid=
}

tern() { "$BUILD/tern" -s "$DIR/ternd.sock" "$@"; }

# l3fwd in $R on lcore 1 with the two memif server ports, LPM, routes from DIR/l3fwd-v4.cfg
# (and -v6.cfg), the generator's MACs as next hops; waits for its sockets. Sets pid.
l3fwd_start() {	# L3FWD_LOOKUP: lpm (by default) or acl
	ip netns exec "$R" "$L3FWD" -l 1 $MEM_ARGS --no-pci --file-prefix "${DUT_PREFIX:-tern-$BENCH_NAME-dut}" \
		--log-level='*:error' --log-level=user1:info --vdev "$(memif 0 server 02:00:00:00:a0:00)" \
		--vdev "$(memif 1 server 02:00:00:00:a0:01)" \
		-- -p 0x3 -P --parse-ptype --config "(0,0,1),(1,0,1)" --lookup "${L3FWD_LOOKUP:-lpm}" \
		--rule_ipv4 "$DIR/l3fwd-v4.cfg" --rule_ipv6 "$DIR/l3fwd-v6.cfg" \
		--eth-dest=0,02:00:00:00:b0:00 --eth-dest=1,02:00:00:00:b0:01 \
		> "$DIR/l3fwd.log" 2>&1 &
	pid=$!
	# the memif sockets come first; with a big table the LPM takes a while to fill after them
	for _ in $(seq 3000); do
		grep -q "entering main loop" "$DIR/l3fwd.log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	sleep 0.5
}

# DPDK's l3fwd from the dpdk-doc examples, built once under $BUILD/l3fwd; sets L3FWD.
# l3fwd_build big: a second build whose LPMs hold Internet tables (their stock limits are
# 1024 rules and 256 tbl8 groups for IPv4, 1024 rules for IPv6), under $BUILD/l3fwd-big.
l3fwd_build() {
	local dir=$BUILD/l3fwd${1:+-$1}
	L3FWD=$dir/l3fwd/build/l3fwd
	[ -x "$L3FWD" ] && { [ "${1:-}" != big ] || grep -q 'IPV6_L3FWD_LPM_MAX_RULES (1 << 18)' "$dir/l3fwd/l3fwd_lpm.c"; } &&
		return 0
	echo "building DPDK's l3fwd from /usr/share/dpdk/examples${1:+ (LPM for 2M rules)}"
	rm -rf "$dir" && mkdir -p "$dir"
	cp -r /usr/share/dpdk/examples/l3fwd /usr/share/dpdk/examples/common "$dir/"
	# the one change memif needs: it offers no rx checksum offload, which l3fwd asks for
	sed -i 's/\.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM,/.offloads = 0,/' "$dir/l3fwd/main.c"
	[ "${1:-}" = big ] && sed -i 's/^#define IPV4_L3FWD_LPM_MAX_RULES .*/#define IPV4_L3FWD_LPM_MAX_RULES (1 << 21)/;
		s/^#define IPV4_L3FWD_LPM_NUMBER_TBL8S .*/#define IPV4_L3FWD_LPM_NUMBER_TBL8S (1 << 16)/;
		s/^#define IPV6_L3FWD_LPM_MAX_RULES .*/#define IPV6_L3FWD_LPM_MAX_RULES (1 << 18)/;
		s/^#define IPV6_L3FWD_LPM_NUMBER_TBL8S .*/#define IPV6_L3FWD_LPM_NUMBER_TBL8S (1 << 18)/' "$dir/l3fwd/l3fwd_lpm.c"
	CFLAGS="-march=native" make -s -C "$dir/l3fwd" >/dev/null || { echo "l3fwd build failed"; return 1; }
}
