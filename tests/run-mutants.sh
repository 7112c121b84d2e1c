#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A test of a safety mechanism (a grace period, a wait, a cleanup) must fail without it. Each
# mutant below takes one mechanism out of a copy of the tree (exact text replaced, which must
# be found once), rebuilds the unit tests that guard it, and counts as killed when one of them
# fails (or runs past its time). Any mutant left alive fails the run.
#
#   tests/run-mutants.sh [name...]     (make mutants: every one)
set -u
cd "$(dirname "$0")/.."
root=$PWD
BUILD=${BUILD:-build}

# Each mutant: a name, the file, the text taken out, the text put in ('\n' and '\t' in them are
# a newline and a tab), and the unit tests of which one must then fail ('-': only in a pair).
names=() files=() olds=() news=() tests=()
mutant() {
	names+=("$1") files+=("$2") olds+=("$3") news+=("$4")
	shift 4
	tests+=("$*")
}
mutant fib-grace dataplane/fib/fib.c 'if (!grace_pending)\n\t\treturn true;' \
	'if (true)\n\t\treturn true;' test_fib_readers
mutant nexthop-deferred-free dataplane/fib/nexthop.c 'dp_rcu_defer_free(old, nh_free);' \
	'nh_free(old);' test_fib_readers
mutant rib-aside-token controlplane/mirror/rib_nexthop.c \
	'rte_rcu_qsbr_check(dp_rcu, aside_token, true);' '(void)aside_token;' test_rib_readers
mutant rib-released-twice controlplane/mirror/rib_nexthop.c \
	'o->refcnt != 0 || o->released_at > aside_seq)' 'o->refcnt != 0)' test_rib
mutant rib-unplaced-offer controlplane/mirror/rib_fib.c \
	'rib_unplaced_count(AF_UNSPEC) > 0 && rib_unplaced_offer(batch_max, rib_queue_op) > 0' 'false' test_rib
mutant fib-init-cleanup dataplane/fib/fib.c 'fail:\n\tdp_fib_fini();' 'fail:' test_fib
mutant pcapng-time-overflow dataplane/workarounds/pcapng_time.h \
	'return d / hz * 1000000000u + d % hz * 1000000000u / hz;' 'return d * 1000000000u / hz;' \
	test_pcapng_time
mutant fib6-grace dataplane/fib/fib6.c 'if (!grace_pending)\n\t\treturn true;' \
	'if (true)\n\t\treturn true;' test_fib6
mutant fib6-replay dataplane/fib/fib6.c '\tdp_fib6_settle();\t/* the standby first gets what it lacks */' \
	'' test_fib6
mutant port-ip6-seqcount dataplane/icmp/icmp6.h \
	'} while (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) != s);' '} while (0 && s);' test_port_ip6
mutant rib-reclaim-settle controlplane/mirror/rib_fib.c '\tdp_fib_settle();\n\tdp_fib6_settle();' \
	'\tdp_fib6_settle();' -
mutant rib-reclaim-settle6 controlplane/mirror/rib_fib.c '\tdp_fib6_settle();\n\tt = rte_rdtsc();' \
	'\tt = rte_rdtsc();' -
mutant punt-known-grace dataplane/punt/punt_known.c 'dp_rcu_defer_free(slot_token(pos), free_slot);' \
	'free_slot(slot_token(pos));' test_punt_known
mutant punt-known-refcount dataplane/punt/punt_known.c 'if ((uintptr_t)refs > 1) {' 'if (0) {' test_rib
mutant acl-grace dataplane/acl/acl.c 'dp_rcu_defer_free(old, retire);' 'retire(old);' test_acl
mutant acl-cache-list dataplane/acl/acl_classify.c 'const uint32_t list = a->id;' \
	'const uint32_t list = 1;' test_acl
mutant exception-routing-whole kni/exception.c 'c == DP_PUNT_CLASS_routing ? DP_PUNT_RING_SIZE : KNI_BURST' \
	'KNI_BURST' test_exception_drain
mutant exception-class-order kni/exception.c 'for (c = 0; c < DP_PUNT_CLASS_MAX; c++)' \
	'for (c = DP_PUNT_CLASS_MAX; c-- > 0;)' test_exception_drain
mutant iface-limit dataplane/l2/vlan.c 'if (index == dp.max_ports) {' 'if (0) {' test_vlan
mutant vlan-unmap-grace dataplane/l2/vlan.c '\tdp_rcu_synchronize();\n\t/* no worker can still be reading the key' \
	'\t/* no worker can still be reading the key' test_vlan
mutant if-counters-cleared controlplane/snmp/if_counters.c \
	'raw[k] >= c->raw[k] ? raw[k] - c->raw[k] : raw[k]' 'raw[k] - c->raw[k]' test_if_counters
mutant if-counters-ucast-back controlplane/snmp/if_counters.c 'return u > before ? u : before;' \
	'return u + 0 * before;' test_if_counters
# A sample the worker's ring has no room for is counted: sFlow's drops field says so.
mutant sflow-ring-drops dataplane/l2/sflow_sample.c 'c->drops++;' 'c->drops += 0;' test_sflow_sample
mutant vlan-output-headroom dataplane/l2/node_vlan_output.c 'if (unlikely(b->data_off < t->len || ' \
	'if (unlikely(' test_vlan
mutant fast-l2-headroom dataplane/l2/fast_l2.h 'if (unlikely(m->data_off < t->len))' 'if (0)' test_vlan
# The reclaim's settle (of each FIB) and the aside token each cover what the other does when a
# commit switched the FIB's copies: taken out together, a reader of released ids is caught.
pairs=('rib-reclaim-settle+rib-aside-token test_rib_readers'
       'rib-reclaim-settle6+rib-aside-token test_rib_readers:*ipv6*')

work=$(mktemp -d /tmp/tern-mutants.XXXXXX)
trap 'rm -rf "$work"' EXIT
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -a -t "$work"
mkdir -p "$work/$BUILD"
for d in obj dpdk; do
	[ -d "$BUILD/$d" ] && cp -a "$BUILD/$d" "$work/$BUILD/"
done

index_of() {
	local i
	for i in "${!names[@]}"; do
		[ "${names[$i]}" = "$1" ] && { echo "$i"; return 0; }
	done
	echo "no mutant named $1" >&2
	return 1
}

# Replaces, in the copy, the text of mutant $1 (or puts its file back with "undo").
mutate() {
	local i file
	i=$(index_of "$1") || return 1
	file=${files[$i]}
	# put back newer than the mutant's object, which make then builds again
	[ "${2:-}" = undo ] && { cp "$root/$file" "$work/$file"; return 0; }
	python3 -c '
import sys
path, old, new = sys.argv[1:4]
unesc = lambda t: t.replace("\\n", "\n").replace("\\t", "\t")
old, new = unesc(old), unesc(new)
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"{path}: the text to take out is there {text.count(old)} times, not once")
open(path, "w").write(text.replace(old, new))
' "$work/$file" "${olds[$i]}" "${news[$i]}"
}

# Builds and runs the tests; 0 when one of them fails (the mutant is killed). A test named
# BINARY:PATTERN runs only that binary's cases PATTERN matches (TERN_UNIT_FILTER, cmocka's
# test filter).
killed() {
	local t bins=()
	for t in "$@"; do bins+=("$BUILD/tests/${t%%:*}"); done
	if ! make -C "$work" --no-print-directory -s -j"$(nproc)" "${bins[@]}" >"$work/build.log" 2>&1; then
		echo "  the mutant does not build: $(tail -1 "$work/build.log")"
		return 1
	fi
	for t in "$@"; do
		local bin=${t%%:*} filter=
		[ "$bin" != "$t" ] && filter=${t#*:}
		t=$bin
		if ! (cd "$work" && TERN_UNIT_FILTER=$filter timeout 120 "$BUILD/tests/$t" >"$work/$t.log" 2>&1); then
			echo "  killed by $t: $(grep -m1 -oE 'FAILED  \] test_.*' "$work/$t.log")" \
				"$(grep -m1 -oE 'broke the rule: first, .*' "$work/$t.log")"
			return 0
		fi
	done
	return 1
}

alive=0 ran=0
run_one() {	# mutant names joined by +, then the tests
	local list=$1 n
	shift
	echo "mutant $list: $*"
	for n in ${list//+/ }; do
		mutate "$n" || { alive=$((alive + 1)); return; }
	done
	ran=$((ran + 1))
	if ! killed "$@"; then
		echo "  ALIVE: the tests pass without it"
		alive=$((alive + 1))
	fi
	for n in ${list//+/ }; do
		mutate "$n" undo
	done
}

selected=("$@")
wanted() { [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" $1 "* ]]; }
for i in "${!names[@]}"; do
	[ "${tests[$i]}" = - ] && continue
	wanted "${names[$i]}" || continue
	read -ra t <<<"${tests[$i]}"
	run_one "${names[$i]}" "${t[@]}"
done
for p in "${pairs[@]}"; do
	read -ra t <<<"$p"
	wanted "${t[0]}" || continue
	run_one "${t[@]}"
done
echo "$ran mutant(s), $alive alive"
[ "$alive" -eq 0 ]
