#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Worker scaling of ternd's forwarding pipeline: aggregate Mpps with 1, 2, 4
# and 8 workers (as many as the machine has CPUs for), each on its own
# physical core, with 1k and 1M BGP-shaped routes. No NIC and no hugepages
# needed: `tern-bench pipeline` feeds each worker's graph from an injector
# node and sends to null ports, so it runs wherever the binary does (a static
# build, `make static-bench`, runs on machines without DPDK).
#
#   bench/scaling.sh [TERN_BENCH] [OUTDIR]
# Env: WORKERS ("1 2 4 8"), ROUTES ("1000 1000000"), SECONDS_PER_RUN (3), ROUNDS (3).
set -u
BIN=${1:-build/static/tern-bench-static}
OUT=${2:-}
WORKERS=${WORKERS:-1 2 4 8}
ROUTES=${ROUTES:-1000 1000000}
SECS=${SECONDS_PER_RUN:-3}
ROUNDS=${ROUNDS:-3}

[ -x "$BIN" ] || { echo "scaling: $BIN is not an executable tern-bench" >&2; exit 2; }

# The CPUs this process may run on (a container's cpuset may be a part of the machine).
allowed_cpus() {
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' |
		awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'
}
# Of those, one CPU per physical core first (socket 0 before socket 1), hyperthread siblings last.
cpu_order() {
	lscpu -p=CPU,CORE,SOCKET 2>/dev/null | grep -v '^#' |
		awk -F, 'NR == FNR { ok[$1] = 1; next } ok[$1] {
			k = $3 "," $2; print (seen[k]++ ? 1 : 0), $3, $2, $1 }' <(allowed_cpus) - |
		sort -n -k1,1 -k2,2 -k3,3 | awk '{ print $4 }'
}
mapfile -t CPUS < <(cpu_order)
[ ${#CPUS[@]} -gt 0 ] || mapfile -t CPUS < <(allowed_cpus)

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
field() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p"; }

results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1); ${#CPUS[@]} CPUs for workers," \
	"in this order: ${CPUS[*]}"
echo "binary: $BIN; $SECS s per run, median of $ROUNDS rounds"
printf '%-9s %-8s %-10s %-9s %-14s %-10s %s\n' routes workers Mpps speedup "Mpps/worker" cyc/pkt forwarded
for r in $ROUTES; do
	base=
	for w in $WORKERS; do
		if [ "$w" -gt ${#CPUS[@]} ]; then
			echo "scaling: $w workers need $w CPUs; skipped" >&2
			continue
		fi
		cpus=$(IFS=,; echo "${CPUS[*]:0:$w}")
		runs=()
		for i in $(seq "$ROUNDS"); do
			j=$("$BIN" pipeline --routes "$r" --workers "$w" --cpus "$cpus" --seconds "$SECS" --json 2>/dev/null | tail -1)
			[ -n "$j" ] && runs+=("$j")
		done
		if [ ${#runs[@]} -eq 0 ]; then
			echo "scaling: tern-bench pipeline failed with $w workers and $r routes" >&2
			continue
		fi
		mpps=$(printf '%s\n' "${runs[@]}" | field walk_mpps | median)
		cyc=$(printf '%s\n' "${runs[@]}" | field pipeline_cycles_per_packet | median)
		fwd=$(printf '%s\n' "${runs[@]}" | awk -F'"forwarded": ' '{ split($2, a, ","); f += a[1] } END { print f }')
		pk=$(printf '%s\n' "${runs[@]}" | field packets | awk '{ s += $1 } END { print s }')
		[ -z "$base" ] && base=$mpps
		speedup=$(awk -v m="$mpps" -v b="$base" -v w="$WORKERS" 'BEGIN { printf "%.2f", m / b }')
		printf '%-9s %-8s %-10.2f %-9s %-14.2f %-10.1f %.2f%%\n' "$r" "$w" "$mpps" "${speedup}x" \
			"$(awk -v m="$mpps" -v w="$w" 'BEGIN { print m / w }')" "$cyc" \
			"$(awk -v f="$fwd" -v p="$pk" 'BEGIN { print p ? 100 * f / p : 0 }')"
		printf '{"routes": %s, "workers": %s, "cpus": "%s", "mpps": %s, "cycles_per_packet": %s, "speedup": %s, "runs": [%s]}\n' \
			"$r" "$w" "$cpus" "$mpps" "$cyc" "$speedup" "$(IFS=,; echo "${runs[*]}")" >> "$results"
	done
done
if [ -n "$OUT" ]; then
	mkdir -p "$OUT"
	cp "$results" "$OUT/scaling.jsonl"
	lscpu > "$OUT/lscpu.txt" 2>/dev/null
fi
