/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 FIB: longest match at every level and the default route; a batch refused in part
 * leaves the rest made and both copies alike; a staged load; and a worker that reads while
 * the control thread writes never sees half a batch, nor a group that a batch freed and
 * took again for another prefix (each copy is written only once no worker reads it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

#define FIB6_ROUTES 65536
#define VEC 64
#define ROUNDS 3000

static void a6(const char *text, uint8_t out[16])
{
	assert_int_equal(inet_pton(AF_INET6, text, out), 1);
}

static uint32_t look(const char *text)
{
	uint8_t a[16];

	a6(text, a);
	return dp_fib6_lookup(a);
}

static int add(const char *text, uint8_t len, uint32_t nh)
{
	uint8_t a[16];

	a6(text, a);
	return dp_fib6_add(a, len, nh);
}

static int del(const char *text, uint8_t len)
{
	uint8_t a[16];

	a6(text, a);
	return dp_fib6_del(a, len);
}

/* Both copies answer the same for text once settled. */
static void copies_agree(const char *text)
{
	uint8_t a[16];
	uint32_t x, y;

	dp_fib6_settle();
	a6(text, a);
	x = dp_fib6_lookup_in(0, a);
	y = dp_fib6_lookup_in(1, a);
	assert_int_equal(x, y);
	assert_int_equal(dp_fib6_default[0], dp_fib6_default[1]);
}

static void test_longest_match_at_every_level(void **state)
{
	static const char *const probes[] = { "2001:2::1", "2001:2:0:1::1", "2001:2:0:1::99",
					      "2001:2:1::1", "2001:3::1", "3000::1", "::1" };
	unsigned int i, before = dp_fib6_routes();

	assert_int_equal(add("2001::", 16, 10), 0);
	assert_int_equal(add("2001:2::", 32, 11), 0);
	assert_int_equal(add("2001:2::", 48, 12), 0);
	assert_int_equal(add("2001:2:0:1::", 64, 13), 0);
	assert_int_equal(add("2001:2:0:1::99", 128, 14), 0);
	assert_int_equal(look("2001:2:0:1::99"), 14);
	assert_int_equal(look("2001:2:0:1::98"), 13);
	assert_int_equal(look("2001:2::1"), 12);
	assert_int_equal(look("2001:2:1::1"), 11);
	assert_int_equal(look("2001:3::1"), 10);
	assert_int_equal(look("3000::1"), DP_NH_NONE);
	/* the default route is kept beside the table */
	assert_int_equal(add("::", 0, 15), 0);
	assert_int_equal(look("3000::1"), 15);
	assert_true(dp_fib6_route((const uint8_t[16]){ 0 }, 0, NULL));
	assert_int_equal(dp_fib6_routes(), before + 6);
	/* a withdrawal falls back to the route around it; a change of next hop takes place */
	assert_int_equal(del("2001:2::", 48), 0);
	assert_int_equal(look("2001:2::1"), 11);
	assert_int_equal(add("2001:2:0:1::", 64, 16), 0);
	assert_int_equal(look("2001:2:0:1::98"), 16);
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		copies_agree(probes[i]);
	/* what cannot be made is refused, and changes nothing */
	assert_int_equal(del("2001:2::", 48), -ENOENT);
	assert_int_equal(add("2001:9::", 48, 0), -EINVAL);
	assert_int_equal(add("2001:9::", 48, DP_NH_MAX), -EINVAL);
	assert_int_equal(dp_fib6_routes(), before + 5);
	del("2001::", 16), del("2001:2::", 32), del("2001:2:0:1::", 64), del("2001:2:0:1::99", 128);
	del("::", 0);
	assert_int_equal(look("3000::1"), DP_NH_NONE);
	assert_int_equal(dp_fib6_routes(), before);
}

/* More /64s in one batch than the table has groups for: those past the room are refused and
 * absent, the others made, and both copies end alike. */
static void test_a_batch_refused_in_part(void **state)
{
	enum { N = 2 * VEC };
	struct dp_fib6_op ops[N];
	unsigned int i, refused = 0;
	char t[64];
	int rc;

	dp_fib6_fini();
	assert_int_equal(dp_fib6_init(64, SOCKET_ID_ANY), 0);	/* 64 groups */
	memset(ops, 0, sizeof(ops));
	for (i = 0; i < N; i++) {
		snprintf(t, sizeof(t), "2001:%x:%x::", 0x100 + i, i);
		a6(t, ops[i].prefix);
		ops[i].depth = 64;
		ops[i].nh = 100 + i;
	}
	rc = dp_fib6_apply(ops, N);
	assert_int_equal(rc, -ENOSPC);
	for (i = 0; i < N; i++) {
		uint32_t nh;

		snprintf(t, sizeof(t), "2001:%x:%x::1", 0x100 + i, i);
		refused += ops[i].refused;
		assert_int_equal(dp_fib6_route(ops[i].prefix, 64, &nh), !ops[i].refused);
		assert_int_equal(look(t), ops[i].refused ? DP_NH_NONE : 100 + i);
		copies_agree(t);
	}
	printf("# %u of %u /64s refused for want of groups\n", refused, N);
	assert_true(refused > 0 && refused < N);
	assert_int_equal(dp_fib6_routes(), N - refused);
	dp_fib6_fini();
	assert_int_equal(dp_fib6_init(FIB6_ROUTES, SOCKET_ID_ANY), 0);
}

/* A staged load: workers see nothing of it until it is published, then all of it; the other
 * copy is brought level afterwards. */
static void test_a_staged_load(void **state)
{
	enum { N = 4096 };
	static struct dp_fib6_op ops[N];
	unsigned int i;
	char t[64];

	memset(ops, 0, sizeof(ops));
	for (i = 0; i < N; i++) {
		snprintf(t, sizeof(t), "2a00:%x:%x::", i >> 4, i & 15);
		a6(t, ops[i].prefix);
		ops[i].depth = 48;
		ops[i].nh = 1 + i % 64;
	}
	dp_fib6_stage(NULL, 0);
	assert_int_equal(dp_fib6_stage(ops, N), 0);
	assert_int_equal(look("2a00:1:2::1"), DP_NH_NONE);	/* not yet */
	dp_fib6_publish();
	assert_int_equal(look("2a00:1:2::1"), 1 + 18 % 64);
	assert_int_equal(dp_fib6_lag(), N);
	while (dp_fib6_level(512))
		;
	assert_int_equal(dp_fib6_lag(), 0);
	for (i = 0; i < N; i += 97) {
		snprintf(t, sizeof(t), "2a00:%x:%x::5", i >> 4, i & 15);
		copies_agree(t);
	}
	for (i = 0; i < N; i++)
		ops[i].del = 1;
	assert_int_equal(dp_fib6_apply(ops, N), 0);
	assert_int_equal(look("2a00:1:2::1"), DP_NH_NONE);
}

/* The longest of the reference's routes holding a (DP_NH_NONE: none). */
struct ref_route {
	uint8_t prefix[16];
	uint8_t depth;
	uint32_t nh;
};

static bool holds(const struct ref_route *r, const uint8_t *a)
{
	unsigned int b;

	for (b = 0; b < r->depth; b++)
		if ((r->prefix[b / 8] ^ a[b / 8]) & (0x80 >> (b % 8)))
			return false;
	return true;
}

static uint32_t ref_lookup(const struct ref_route *r, unsigned int n, const uint8_t *a)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (holds(&r[i], a) && (best < 0 || r[i].depth > r[best].depth))
			best = i;
	return best < 0 ? DP_NH_NONE : r[best].nh;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* An address near the few prefixes the random cases use, so that routes nest and share groups. */
static void near(uint64_t *s, uint8_t *a)
{
	static const uint8_t base[4][4] = { { 0x20, 0x01, 0x0d, 0xb8 }, { 0x20, 0x01, 0x0d, 0xb9 },
					    { 0x2a, 0x00, 0x01, 0x00 }, { 0xfd, 0x00, 0x00, 0x00 } };
	unsigned int i;

	memcpy(a, base[rnd(s) % 4], 4);
	for (i = 4; i < 16; i++)
		a[i] = rnd(s) % 4 == 0 ? (uint8_t)rnd(s) : 0;
	if (rnd(s) % 8 == 0)
		a[2] ^= 1 << (rnd(s) % 8);
}

/*
 * Random adds, changes and withdrawals of nested routes of every depth, in batches, against a
 * plain list: every probe answers what the longest matching route says, in both copies; once
 * all are withdrawn, every group is free again.
 */
static void test_random_changes_match_a_reference(void **state)
{
	static const uint8_t depths[] = { 8, 16, 20, 23, 24, 25, 31, 32, 33, 40, 47, 48, 49, 56,
					  63, 64, 65, 96, 120, 127, 128 };
	enum { ROUTES = 300, ROUNDS_R = 60, BATCH = 24, PROBES = 400 };
	static struct ref_route ref[ROUTES];
	struct dp_fib6_op ops[BATCH];
	unsigned int n = 0, r, i, j, used, total;
	uint64_t s = 0x9e3779b97f4a7c15ull;

	for (r = 0; r < ROUNDS_R; r++) {
		for (j = 0; j < BATCH; j++) {
			struct dp_fib6_op *op = &ops[j];

			memset(op, 0, sizeof(*op));
			if (n > 0 && (n == ROUTES || rnd(&s) % 3 == 0)) {	/* withdraw one */
				i = rnd(&s) % n;
				memcpy(op->prefix, ref[i].prefix, 16);
				op->depth = ref[i].depth;
				op->del = 1;
				ref[i] = ref[--n];
				continue;
			}
			near(&s, op->prefix);
			op->depth = depths[rnd(&s) % sizeof(depths)];
			op->nh = 1 + rnd(&s) % 1000;
			{
				struct ref_route nr = { .depth = op->depth, .nh = op->nh };
				unsigned int b;

				memcpy(nr.prefix, op->prefix, 16);
				for (b = nr.depth; b < 128; b++)
					nr.prefix[b / 8] &= ~(0x80 >> (b % 8));
				for (i = 0; i < n; i++)	/* the same route again: a change of next hop */
					if (ref[i].depth == nr.depth && memcmp(ref[i].prefix, nr.prefix, 16) == 0)
						break;
				if (i == n)
					n++;
				ref[i] = nr;
			}
		}
		assert_int_equal(dp_fib6_apply(ops, BATCH), 0);
		for (j = 0; j < PROBES; j++) {
			uint8_t a[16];
			uint32_t want, got;

			near(&s, a);
			want = ref_lookup(ref, n, a);
			got = dp_fib6_lookup(a);
			if (got != want)
				fail_msg("round %u, probe %u: the FIB says %u, the routes say %u", r, j, got, want);
			if (r % 8 == 7) {	/* the other copy, once brought level, says the same */
				dp_fib6_settle();
				assert_int_equal(dp_fib6_lookup_in(dp_fib6_active_index() ^ 1, a), got);
			}
		}
		assert_int_equal(dp_fib6_routes(), n);
	}
	for (i = 0; i < n; i++) {
		memset(&ops[0], 0, sizeof(ops[0]));
		memcpy(ops[0].prefix, ref[i].prefix, 16);
		ops[0].depth = ref[i].depth;
		ops[0].del = 1;
		assert_int_equal(dp_fib6_apply(ops, 1), 0);
	}
	dp_fib6_settle();
	dp_fib6_groups_used(&used, &total);
	assert_int_equal(used, 0);
	assert_int_equal(dp_fib6_routes(), 0);
}

/* A reader as ip6_lookup is, with pauses between its lookups: the copy once per vector. */
static uint8_t watched[VEC][16];
static volatile bool stop;
static uint64_t vectors, broken;
static char first_break[256];

static void pause_a_while(void)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		rte_pause();
}

static int reader(void *arg)
{
	uint32_t nh[VEC];
	unsigned int i, copy;

	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		copy = dp_fib6_active_index();
		for (i = 0; i < VEC; i++) {
			nh[i] = dp_fib6_lookup_in(copy, watched[i]);
			pause_a_while();
		}
		for (i = 1; i < VEC; i++)
			if (nh[i] != nh[0] || nh[i] == DP_NH_NONE) {
				if (broken++ == 0)
					snprintf(first_break, sizeof(first_break),
						 "address %u gave %u where address 0 gave %u", i, nh[i], nh[0]);
				break;
			}
		vectors++;
		rte_rcu_qsbr_quiescent(dp_rcu, 0);
	}
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);
	rte_rcu_qsbr_thread_unregister(dp_rcu, 0);
	return 0;
}

/*
 * Each round moves 64 /48s (each with groups of its own) to the next next hop, withdrawing
 * and adding them again in one batch every other round, so that groups are freed and taken
 * again: a vector read during the changes sees all of them before or all after.
 */
static void test_a_batch_is_seen_whole_by_a_reader(void **state)
{
	struct dp_fib6_op ops[2 * VEC];
	unsigned int i, r, lcore, n;
	char t[64];

	memset(ops, 0, sizeof(ops));
	for (i = 0; i < VEC; i++) {
		snprintf(t, sizeof(t), "2c0f:%x:%x::", 0x1000 + i * 257, i * 31);
		a6(t, ops[i].prefix);
		ops[i].depth = 48;
		ops[i].nh = 1;
		memcpy(watched[i], ops[i].prefix, 16);
		watched[i][15] = i;
	}
	assert_int_equal(dp_fib6_apply(ops, VEC), 0);
	vectors = broken = 0;
	stop = false;
	lcore = rte_get_next_lcore(-1, 1, 0);
	assert_int_equal(rte_eal_remote_launch(reader, NULL, lcore), 0);
	while (__atomic_load_n(&vectors, __ATOMIC_RELAXED) == 0)
		rte_pause();
	for (r = 0; r < ROUNDS; r++) {
		n = VEC;
		for (i = 0; i < VEC; i++) {
			ops[i].del = 0;
			ops[i].nh = 1 + (r + 1) % 3;
		}
		if (r & 1) {	/* withdraw each, then add it back: its groups go and come */
			for (i = 0; i < VEC; i++) {
				ops[VEC + i] = ops[i];
				ops[i].del = 1;
			}
			n = 2 * VEC;
		}
		assert_int_equal(dp_fib6_apply(ops, n), 0);
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	rte_eal_wait_lcore(lcore);
	printf("# batches of 64 /48 changes: %lu vectors read, %lu broke%s%s\n", vectors, broken,
	       broken ? ": first, " : "", first_break);
	assert_true(vectors > 0);
	assert_int_equal(broken, 0);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_fib6", "--no-huge", "-m", "1024", "--no-pci", "-l", "0,1",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longest_match_at_every_level),
		cmocka_unit_test(test_a_batch_refused_in_part),
		cmocka_unit_test(test_a_staged_load),
		cmocka_unit_test(test_random_changes_match_a_reference),
		cmocka_unit_test(test_a_batch_is_seen_whole_by_a_reader),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-fib6-%d", getpid());
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0 || dp_rcu_init(1) < 0 ||
	    dp_fib6_init(FIB6_ROUTES, SOCKET_ID_ANY) < 0) {
		fprintf(stderr, "test_fib6: cannot set up EAL and the table\n");
		return 1;
	}
	return cmocka_run_group_tests_name("fib6", tests, NULL, NULL);
}
