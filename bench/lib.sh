# Shared by make run (demo.sh) and make bench (bench.sh): hugepages that are given back,
# memif port strings, and waiting for ternd's socket. Source it after setting DIR.

HP_OLD=
# Reserves hugepages if it can; sets MEM_ARGS (ternd, l3fwd, testpmd) and BENCH_MEM (tern-bench).
hugepages_reserve() {	# PAGES
	local want=$1 hp
	MEM_ARGS="--no-huge -m 1024" BENCH_MEM="--no-huge -m 256"
	hp=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)
	if [ "$hp" -lt "$want" ] && echo "$want" > /proc/sys/vm/nr_hugepages 2>/dev/null; then
		HP_OLD=$hp
		hp=$(cat /proc/sys/vm/nr_hugepages)
	fi
	grep -q hugetlbfs /proc/mounts || { mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages; } 2>/dev/null
	if [ "$hp" -ge $((want / 2)) ] && grep -q hugetlbfs /proc/mounts; then
		MEM_ARGS="--socket-mem 1024" BENCH_MEM="--socket-mem 256 --single-file-segments"
		echo "hugepages: $hp x 2 MiB reserved"
	else
		echo "hugepages: not available, running with --no-huge"
	fi
}

hugepages_restore() {
	[ -n "$HP_OLD" ] && echo "$HP_OLD" > /proc/sys/vm/nr_hugepages
	HP_OLD=
}

# A memif vdev string: index, role, MAC. Sockets are files under $DIR (not abstract), so
# ternd in its namespace and tern-bench outside it meet on them.
memif() { echo "net_memif$1,role=$2,id=0,socket=$DIR/memif$1.sock,socket-abstract=no,mac=$3"; }

wait_socket() {	# SOCKET PID LOG
	for _ in $(seq 150); do
		"$BUILD/tern" -s "$1" -c "show version" >/dev/null 2>&1 && return 0
		kill -0 "$2" 2>/dev/null || { cat "$3"; return 1; }
		sleep 0.2
	done
	echo "ternd did not answer on $1"; return 1
}
