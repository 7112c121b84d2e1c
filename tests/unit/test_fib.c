/* SPDX-License-Identifier: BSD-3-Clause */
/* FIB and nexthop update safety: a worker reading during updates never sees a gap or a torn entry. */
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
#include <rte_malloc.h>

#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"
#include "tests/unit/heap_hog.h"

#define NET 0xc6120000u		/* 198.18.0.0/15 */

static volatile bool stop;
static uint64_t reads, gaps, torn;

static int reader(void *arg)
{
	uint32_t ips[64];
	uint32_t nh[64];
	unsigned int i;

	for (i = 0; i < 64; i++)
		ips[i] = NET + 0x0500 + i * 4;	/* inside the /28 and /24 that come and go */
	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		dp_fib_lookup_bulk(ips, nh, 64);
		for (i = 0; i < 64; i++) {
			const struct dp_nexthop *n = dp_nh_get(nh[i]);

			if (nh[i] == DP_NH_NONE || n->kind != DP_NH_FORWARD)
				gaps++;
			else if (n->port != n->mtu || n->gw != rte_cpu_to_be_32(n->port))
				torn++;
		}
		reads += 64;
		rte_rcu_qsbr_quiescent(dp_rcu, 0);
	}
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);
	rte_rcu_qsbr_thread_unregister(dp_rcu, 0);
	return 0;
}

static void set_nh(uint32_t id, uint16_t v)
{
	struct dp_nexthop nh = { .kind = DP_NH_FORWARD, .port = v, .mtu = v,
				 .gw = rte_cpu_to_be_32(v) };

	assert_int_equal(dp_nh_set(id, &nh, NULL), 0);
}

static void heap_stats(size_t *used, size_t *largest_free)
{
	struct rte_malloc_socket_stats st;
	unsigned int s;

	*used = *largest_free = 0;
	for (s = 0; s < rte_socket_count(); s++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(s), &st) == 0) {
			*used += st.heap_allocsz_bytes;
			*largest_free = RTE_MAX(*largest_free, st.greatest_free_size);
		}
}

/*
 * dp_fib_init that runs out of memory part of the way frees what it made:
 * with EAL's heap taken but for pieces handed back one at a time, each
 * attempt that fails leaves the heap as it found it (some after making their
 * first tables), and the one that succeeds makes a working FIB.
 */
static void test_fib_init_that_fails_frees_what_it_made(void **state)
{
	static void *hog[1 << 16];
	unsigned int n, i, partial = 0;
	size_t used, free_before, after, ignored;
	int rc = -ENOMEM;

	dp_fib_fini();
	n = heap_hog(hog, RTE_DIM(hog));
	for (i = 0; i < n && rc < 0; i++) {
		rte_free(hog[i]);
		heap_stats(&used, &free_before);
		rc = dp_fib_init(65536, SOCKET_ID_ANY);
		if (rc == 0)
			break;
		assert_int_equal(rc, -ENOMEM);
		heap_stats(&after, &ignored);
		assert_int_equal(after, used);
		/* room for the first table made: the failure came later */
		partial += free_before > ((size_t)65 << 20);
	}
	for (; i < n; i++)
		rte_free(hog[i]);
	assert_int_equal(rc, 0);
	assert_true(partial > 0);
	assert_int_equal(dp_fib_add(NET, 24, 1), 0);
	assert_int_equal(dp_fib_lookup(NET + 1), 1);
	assert_int_equal(dp_fib_del(NET, 24), 0);
}

static void test_fib_lookup_answers_longest_prefix(void **state)
{
	assert_int_equal(dp_fib_add(NET, 15, 1), 0);
	assert_int_equal(dp_fib_add(NET + 0x0500, 24, 2), 0);
	assert_int_equal(dp_fib_add(NET + 0x0510, 28, 3), 0);
	assert_int_equal(dp_fib_lookup(NET + 1), 1);
	assert_int_equal(dp_fib_lookup(NET + 0x0501), 2);
	assert_int_equal(dp_fib_lookup(NET + 0x0511), 3);
	assert_int_equal(dp_fib_lookup(0x0a000001), DP_NH_NONE);
	assert_int_equal(dp_fib_del(NET + 0x0510, 28), 0);
	assert_int_equal(dp_fib_lookup(NET + 0x0511), 2);
	/* both copies hold the same table after every update */
	assert_int_equal(dp_fib_lookup(NET + 0x0511), 2);
	assert_int_equal(dp_fib_del(NET + 0x0500, 24), 0);
	assert_int_equal(dp_fib_lookup(NET + 0x0511), 1);
}

/*
 * What ip4_fast reads: each copy's first level holds a route's next hop
 * shifted left by one, or a second-level group whose entries hold those of
 * the routes longer than /24 and, elsewhere, the /24's; both copies alike,
 * and the group given back with the /24's last long route.
 */
static void test_fib_tbl24_is_where_the_lookup_reads(void **state)
{
	unsigned int c, used, total;
	uint32_t e;

	assert_non_null(dp_fib_tbl24[0]);
	assert_non_null(dp_fib_tbl24[1]);
	assert_ptr_not_equal(dp_fib_tbl24[0], dp_fib_tbl24[1]);
	assert_int_equal(dp_fib_add(NET, 15, 7), 0);
	assert_int_equal(dp_fib_add(NET + 0x0300, 24, 8), 0);
	assert_int_equal(dp_fib_add(NET + 0x0410, 28, 9), 0);
	dp_fib_settle();	/* the other copy brought level */
	for (c = 0; c < 2; c++) {
		assert_int_equal(dp_fib_tbl24[c][(NET + 0x0100) >> 8], 7 << 1);
		assert_int_equal(dp_fib_tbl24[c][(NET + 0x0300) >> 8], 8 << 1);
		e = dp_fib_tbl24[c][(NET + 0x0400) >> 8];
		assert_int_equal(e & DP_FIB_GROUP, DP_FIB_GROUP);
		assert_int_equal(dp_fib_tbl8[c][(e >> 1) * 256 + 0x10], 9 << 1);
		assert_int_equal(dp_fib_tbl8[c][(e >> 1) * 256 + 0x1f], 9 << 1);
		assert_int_equal(dp_fib_tbl8[c][(e >> 1) * 256 + 0x20], 7 << 1);
		assert_int_equal(dp_fib_tbl8[c][(e >> 1) * 256 + 0x0f], 7 << 1);
		assert_int_equal(dp_fib_tbl24[c][(NET + 0x20000) >> 8], DP_NH_NONE << 1);
	}
	dp_fib_groups(&used, &total);
	assert_int_equal(used, 1);
	assert_int_equal(dp_fib_del(NET + 0x0410, 28), 0);
	dp_fib_groups(&used, &total);
	assert_int_equal(used, 0);
	dp_fib_settle();
	for (c = 0; c < 2; c++)
		assert_int_equal(dp_fib_tbl24[c][(NET + 0x0400) >> 8], 7 << 1);
	assert_int_equal(dp_fib_del(NET + 0x0300, 24), 0);
	assert_int_equal(dp_fib_del(NET, 15), 0);
	dp_fib_settle();
	for (c = 0; c < 2; c++)
		assert_int_equal(dp_fib_tbl24[c][(NET + 0x0300) >> 8], DP_NH_NONE << 1);
	assert_int_equal(dp_fib_routes(), 0);
}

/*
 * A customer's /29 under its provider's /22 with the same next hop, flapping,
 * must give back each time exactly the second-level group it took (DPDK
 * 22.11's DIR-24-8 miscounted that case, and every route longer than /24
 * failed after a few flaps): afterwards routes longer than /24 still go in,
 * half the groups' worth, and again after more flaps.
 */
static void flap(unsigned int times)
{
	unsigned int i;

	for (i = 0; i < times; i++) {
		assert_int_equal(dp_fib_add(NET + 0x0120, 29, 5), 0);
		assert_int_equal(dp_fib_del(NET + 0x0120, 29), 0);
	}
}

static void test_fib_long_routes_flapping_under_a_same_nexthop_cover(void **state)
{
	enum { ROUTES = 512 };	/* dp_fib_init(65536): 1024 groups */
	unsigned int i;

	assert_int_equal(dp_fib_add(NET, 22, 5), 0);
	flap(3);
	for (i = 0; i < ROUTES; i++)
		assert_int_equal(dp_fib_add(0x0a000080 + (i << 8), 25, 6), 0);
	assert_int_equal(dp_fib_lookup(0x0a000081), 6);
	assert_int_equal(dp_fib_lookup(0x0a000081 + ((ROUTES - 1) << 8)), 6);
	assert_int_equal(dp_fib_lookup(0x0a000001), DP_NH_NONE);
	for (i = 0; i < ROUTES; i++)
		assert_int_equal(dp_fib_del(0x0a000080 + (i << 8), 25), 0);
	flap(5);
	assert_int_equal(dp_fib_add(0x0a000080, 25, 6), 0);
	assert_int_equal(dp_fib_lookup(0x0a000081), 6);
	assert_int_equal(dp_fib_del(0x0a000080, 25), 0);
	assert_int_equal(dp_fib_del(NET, 22), 0);
}

/*
 * A batch is applied as given: operations on one prefix keep their order (add,
 * delete, add again), and both copies end alike.
 */
static void test_fib_batch_keeps_the_order_of_one_prefix(void **state)
{
	struct dp_fib_op ops[300];
	unsigned int n = 0, i, c;

	for (i = 0; i < 100; i++)	/* filler, scattered */
		ops[n++] = (struct dp_fib_op){ .prefix = 0x0b000000u + ((i * 7919) % 100) * 256,
					       .depth = 24, .nh = 1 };
	ops[n++] = (struct dp_fib_op){ .prefix = 0x0c000000u, .depth = 16, .nh = 1 };
	ops[n++] = (struct dp_fib_op){ .prefix = 0x0c000000u, .depth = 16, .del = 1 };
	ops[n++] = (struct dp_fib_op){ .prefix = 0x0c000000u, .depth = 16, .nh = 2 };
	ops[n++] = (struct dp_fib_op){ .prefix = 0x0d000000u, .depth = 16, .nh = 3 };
	ops[n++] = (struct dp_fib_op){ .prefix = 0x0d000000u, .depth = 16, .del = 1 };
	ops[n++] = (struct dp_fib_op){ .prefix = 0x0d000000u, .depth = 24, .nh = 3 };
	for (i = 0; i < 100; i++)
		ops[n++] = (struct dp_fib_op){ .prefix = 0x0a000000u + i * 256, .depth = 24, .nh = 1 };
	assert_int_equal(dp_fib_apply(ops, n), 0);
	for (c = 0; c < 2; c++) {	/* each copy in turn becomes the active one */
		assert_int_equal(dp_fib_lookup(0x0c000101u), 2);
		assert_int_equal(dp_fib_lookup(0x0d000101u), DP_NH_NONE);
		assert_int_equal(dp_fib_lookup(0x0d000001u), 3);
		assert_int_equal(dp_fib_lookup(0x0a006301u), 1);
		assert_int_equal(dp_fib_add(0x0e000000u, 8, 1), 0);	/* swaps the copies */
	}
	for (i = 0; i < n; i++)
		if (!ops[i].del)
			dp_fib_del(ops[i].prefix, ops[i].depth);
	dp_fib_del(0x0e000000u, 8);
}

/*
 * A bulk load staged on the standby: workers see none of it until the
 * publish, all of it after; the copy left behind is brought level in slices,
 * and a change made while it still lags levels it first, so whichever copy is
 * active afterwards holds every route.
 */
static void test_fib_staged_load_publish_and_level(void **state)
{
	struct dp_fib_op ops[1000];
	unsigned int i, c;

	for (i = 0; i < 1000; i++)
		ops[i] = (struct dp_fib_op){ .prefix = 0x0b000000u + ((i * 7919) % 1000) * 256,
					     .depth = 24, .nh = 1 + i % 3 };
	assert_int_equal(dp_fib_stage(ops, 600), 0);
	assert_int_equal(dp_fib_stage(ops + 600, 400), 0);
	for (i = 0; i < 1000; i++)	/* nothing yet where workers look */
		assert_int_equal(dp_fib_lookup(ops[i].prefix + 1), DP_NH_NONE);
	dp_fib_publish();
	for (i = 0; i < 1000; i++)
		assert_int_equal(dp_fib_lookup(ops[i].prefix + 1), ops[i].nh);
	/* the lag is counted in entries a 64-byte line at a time: the 1000 /24s' entries are
	 * side by side, in 63 lines */
	assert_int_equal(dp_fib_lag(), 63 * 16);
	assert_true(dp_fib_level(300));	/* 19 lines */
	assert_int_equal(dp_fib_lag(), 44 * 16);
	/* a change now: the lagging copy gets the rest first, then the change, then becomes
	 * active; the other copy lacks only what the change wrote (a /8: 65 536 entries) */
	assert_int_equal(dp_fib_add(0x0e000000u, 8, 2), 0);
	assert_int_equal(dp_fib_lag(), 65536);
	for (c = 0; c < 2; c++) {	/* each copy in turn */
		for (i = 0; i < 1000; i++)
			assert_int_equal(dp_fib_lookup(ops[i].prefix + 1), ops[i].nh);
		assert_int_equal(dp_fib_lookup(0x0e000001u), 2);
		assert_int_equal(dp_fib_add(0x0f000000u, 8, 3), 0);	/* swaps the copies */
	}
	/* staged again and leveled to the end by slices alone */
	for (i = 0; i < 1000; i++)
		ops[i].del = 1;
	assert_int_equal(dp_fib_stage(ops, 1000), 0);
	dp_fib_publish();
	while (dp_fib_level(128))
		;
	assert_int_equal(dp_fib_lag(), 0);
	for (c = 0; c < 2; c++) {
		for (i = 0; i < 1000; i++)
			assert_int_equal(dp_fib_lookup(ops[i].prefix + 1), DP_NH_NONE);
		assert_int_equal(dp_fib_add(0x0f000000u, 8, 3), 0);
	}
	dp_fib_del(0x0e000000u, 8);
	dp_fib_del(0x0f000000u, 8);
}

/* Each stage of an update is charged to its own counter: a staged load to the standby copy,
 * its publish and the wait for workers to leave the other copy to the grace period, the
 * levelling to the other copy. */
static void test_fib_cost_charges_each_stage(void **state)
{
	struct dp_fib_op ops[512];
	struct dp_fib_cost a, b, c, d;
	unsigned int i;

	for (i = 0; i < 512; i++)
		ops[i] = (struct dp_fib_op){ .prefix = 0x0b000000u + ((i * 7919) % 512) * 256,
					     .depth = 24, .nh = 1 };
	dp_fib_settle();	/* what the tests before left */
	dp_fib_cost(&a);
	assert_int_equal(dp_fib_stage(ops, 512), 0);
	dp_fib_cost(&b);
	assert_true(b.standby > a.standby);
	assert_int_equal(b.grace, a.grace);
	assert_int_equal(b.level, a.level);
	dp_fib_publish();
	dp_fib_cost(&c);
	assert_true(c.grace > b.grace);
	assert_int_equal(c.standby, b.standby);
	while (dp_fib_level(128))
		;
	dp_fib_cost(&d);
	assert_true(d.level > c.level);
	assert_int_equal(dp_fib_cycles(), d.standby + d.grace + d.level);
	for (i = 0; i < 512; i++)
		ops[i].del = 1;
	assert_int_equal(dp_fib_apply(ops, 512), 0);
}

/* A longest-prefix match over the routes in model, the slow way. */
struct model_route {
	uint32_t prefix;
	uint8_t depth;
	uint32_t nh;
	bool on;
};

static uint32_t model_lookup(const struct model_route *m, unsigned int n, uint32_t ip)
{
	uint32_t nh = DP_NH_NONE;
	int best = -1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t mask = m[i].depth ? ~0u << (32 - m[i].depth) : 0;

		if (m[i].on && (ip & mask) == m[i].prefix && m[i].depth > best) {
			best = m[i].depth;
			nh = m[i].nh;
		}
	}
	return nh;
}

/*
 * Routes of every depth nested in one /16 (and a default route), added,
 * changed and deleted at random in batches: after each batch both copies
 * answer every address of the /16 as a longest-prefix match over the routes
 * does, and when all are gone no second-level group is left taken.
 */
static void test_fib_matches_a_longest_prefix_model(void **state)
{
	enum { ROUTES = 96, ROUNDS = 60, BATCH = 24 };
	static struct model_route m[ROUTES];
	struct dp_fib_op ops[BATCH];
	unsigned int i, r, k, c, used, total;
	uint32_t seed = 12345, ip;

	for (i = 0; i < ROUTES; i++) {
		uint8_t d = i == 0 ? 0 : 16 + (i % 17);	/* the default, then /16 .. /32 */
		unsigned int j;

		for (;;) {	/* each prefix once: another depth when taken */
			seed = seed * 1103515245 + 12345;
			m[i].depth = d;
			m[i].prefix = d ? (0x0b0b0000u | (seed >> 8 & 0xffff)) & (~0u << (32 - d)) : 0;
			/* a few in one /24, so groups hold several depths */
			if (i % 3 == 0 && d > 24)
				m[i].prefix = (0x0b0b4200u | (seed >> 8 & 0xff)) & (~0u << (32 - d));
			for (j = 0; j < i; j++)
				if (m[j].prefix == m[i].prefix && m[j].depth == m[i].depth)
					break;
			if (j == i)
				break;
			d = 20 + (seed >> 12) % 13;
		}
	}
	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < BATCH; k++) {
			seed = seed * 1103515245 + 12345;
			i = (seed >> 16) % ROUTES;
			if (m[i].on && (seed & 3) == 0) {
				m[i].on = false;
				ops[k] = (struct dp_fib_op){ .prefix = m[i].prefix, .depth = m[i].depth,
							     .del = 1 };
			} else {
				m[i].on = true;
				m[i].nh = 1 + (seed >> 4) % 5;
				ops[k] = (struct dp_fib_op){ .prefix = m[i].prefix, .depth = m[i].depth,
							     .nh = m[i].nh };
			}
		}
		assert_int_equal(dp_fib_apply(ops, BATCH), 0);
		for (c = 0; c < 2; c++) {	/* each copy in turn */
			for (ip = 0x0b0b0000u; ip <= 0x0b0bffffu; ip++)
				if (dp_fib_lookup(ip) != model_lookup(m, ROUTES, ip))
					fail_msg("round %u copy %u: %08x gives %u, not %u", r, c, ip,
						 dp_fib_lookup(ip), model_lookup(m, ROUTES, ip));
			assert_int_equal(dp_fib_lookup(0x0c000001u), model_lookup(m, ROUTES, 0x0c000001u));
			assert_int_equal(dp_fib_add(0x0e000000u, 8, 1 + c), 0);	/* swaps the copies */
		}
	}
	for (i = 0; i < ROUTES; i++)
		if (m[i].on)
			assert_int_equal(dp_fib_del(m[i].prefix, m[i].depth), 0);
	assert_int_equal(dp_fib_del(0x0e000000u, 8), 0);
	dp_fib_groups(&used, &total);
	assert_int_equal(used, 0);
	assert_int_equal(dp_fib_routes(), 0);
	assert_int_equal(dp_fib_lookup(0x0b0b4201u), DP_NH_NONE);
}

/*
 * When every second-level group is taken, a route longer than /24 in another
 * /24 is refused with ENOSPC and changes nothing; one more in a /24 that has
 * a group still goes in, and so does the refused one once a group is free.
 */
static void test_fib_second_level_full_refuses_and_changes_nothing(void **state)
{
	unsigned int i, used, total;

	dp_fib_groups(&used, &total);
	for (i = 0; i < total; i++)
		assert_int_equal(dp_fib_add(0x0a000000u + (i << 8), 25, 1), 0);
	assert_int_equal(dp_fib_add(0x0c000000u, 25, 2), -ENOSPC);
	assert_int_equal(dp_fib_lookup(0x0c000001u), DP_NH_NONE);
	assert_int_equal(dp_fib_routes(), total);
	assert_int_equal(dp_fib_add(0x0a000080u, 25, 3), 0);	/* a group it has */
	assert_int_equal(dp_fib_lookup(0x0a000081u), 3);
	assert_int_equal(dp_fib_del(0x0a000000u, 25), 0);
	assert_int_equal(dp_fib_del(0x0a000080u, 25), 0);
	assert_int_equal(dp_fib_add(0x0c000000u, 25, 2), 0);
	assert_int_equal(dp_fib_lookup(0x0c000001u), 2);
	assert_int_equal(dp_fib_del(0x0c000000u, 25), 0);
	for (i = 1; i < total; i++)
		assert_int_equal(dp_fib_del(0x0a000000u + (i << 8), 25), 0);
	dp_fib_groups(&used, &total);
	assert_int_equal(used, 0);
	assert_int_equal(dp_fib_routes(), 0);
}

/*
 * As many routes as the FIB was made for (dp_fib_init(65536): every /24 of
 * 10/8), two in three deleted in a scattered order and put back: every one
 * is found after each step, one more is refused with ENOSPC, and the count
 * ends at zero. The routes' table is open-addressed; a delete moves the
 * routes after it, and this is where a wrong move would lose one.
 */
static uint32_t nth_24(unsigned int i)
{
	return 0x0a000000u + ((i * 40503u) & 0xffff) * 256;	/* 40503 is odd: each /24 once */
}

static void check_every_24(unsigned int n, bool (*present)(unsigned int))
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (dp_fib_lookup(nth_24(i) + 1) != (present(i) ? 1 + i % 7 : DP_NH_NONE))
			fail_msg("route %u (%08x): %u", i, nth_24(i), dp_fib_lookup(nth_24(i) + 1));
}

static bool all(unsigned int i)
{
	return true;
}

static bool third(unsigned int i)
{
	return i % 3 == 0;
}

static void test_fib_a_full_table_churned_keeps_every_route(void **state)
{
	enum { N = 65536, BATCH = 4096 };
	static struct dp_fib_op ops[BATCH];
	unsigned int i, k;

	for (i = 0; i < N; i += BATCH) {
		for (k = 0; k < BATCH; k++)
			ops[k] = (struct dp_fib_op){ .prefix = nth_24(i + k), .depth = 24, .nh = 1 + (i + k) % 7 };
		assert_int_equal(dp_fib_apply(ops, BATCH), 0);
	}
	assert_int_equal(dp_fib_routes(), N);
	check_every_24(N, all);
	assert_int_equal(dp_fib_add(0x0b000000u, 24, 1), -ENOSPC);
	assert_int_equal(dp_fib_lookup(0x0b000001u), DP_NH_NONE);
	for (i = 0, k = 0; i < N; i++) {
		unsigned int j = (i * 7919u) % N;	/* each once, scattered */

		if (j % 3 == 0)
			continue;
		ops[k++] = (struct dp_fib_op){ .prefix = nth_24(j), .depth = 24, .del = 1 };
		if (k == BATCH) {
			assert_int_equal(dp_fib_apply(ops, k), 0);
			k = 0;
		}
	}
	assert_int_equal(dp_fib_apply(ops, k), 0);
	assert_int_equal(dp_fib_routes(), (N + 2) / 3);
	check_every_24(N, third);
	for (i = 0; i < N; i++)
		if (i % 3 != 0)
			assert_int_equal(dp_fib_add(nth_24(i), 24, 1 + i % 7), 0);
	check_every_24(N, all);
	for (i = 0; i < N; i += BATCH) {
		for (k = 0; k < BATCH; k++)
			ops[k] = (struct dp_fib_op){ .prefix = nth_24(i + k), .depth = 24, .del = 1 };
		assert_int_equal(dp_fib_apply(ops, BATCH), 0);
	}
	assert_int_equal(dp_fib_routes(), 0);
}

static void test_fib_updates_never_expose_a_gap_or_torn_nexthop(void **state)
{
	unsigned int i, lcore = rte_get_next_lcore(-1, 1, 0);
	struct dp_fib_op batch[2];

	set_nh(1, 1);
	set_nh(2, 2);
	set_nh(3, 3);
	assert_int_equal(dp_fib_add(NET, 15, 1), 0);
	stop = false;
	assert_int_equal(rte_eal_remote_launch(reader, NULL, lcore), 0);
	for (i = 0; i < 4000; i++) {
		/* tbl8 groups allocated and freed under the reader's feet */
		assert_int_equal(dp_fib_add(NET + 0x0510, 28, 3), 0);
		batch[0] = (struct dp_fib_op){ .prefix = NET + 0x0500, .depth = 24, .nh = 2 };
		batch[1] = (struct dp_fib_op){ .prefix = NET + 0x0510, .depth = 28, .del = 1 };
		assert_int_equal(dp_fib_apply(batch, 2), 0);
		assert_int_equal(dp_fib_del(NET + 0x0500, 24), 0);
		assert_int_equal(dp_fib_add(NET, 15, i & 1 ? 1 : 2), 0);
		/* nexthop entries replaced while read */
		set_nh(3, 3 + (i % 7) * 1000);
		set_nh(3, 3);
		dp_rcu_reclaim();
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	rte_eal_wait_lcore(lcore);
	printf("# %lu lookups during %u update rounds: %lu gaps, %lu torn\n", reads, i, gaps, torn);
	assert_true(reads > 0);
	assert_int_equal(gaps, 0);
	assert_int_equal(torn, 0);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_fib", "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fib_init_that_fails_frees_what_it_made),
		cmocka_unit_test(test_fib_lookup_answers_longest_prefix),
		cmocka_unit_test(test_fib_tbl24_is_where_the_lookup_reads),
		cmocka_unit_test(test_fib_long_routes_flapping_under_a_same_nexthop_cover),
		cmocka_unit_test(test_fib_batch_keeps_the_order_of_one_prefix),
		cmocka_unit_test(test_fib_matches_a_longest_prefix_model),
		cmocka_unit_test(test_fib_second_level_full_refuses_and_changes_nothing),
		cmocka_unit_test(test_fib_a_full_table_churned_keeps_every_route),
		cmocka_unit_test(test_fib_staged_load_publish_and_level),
		cmocka_unit_test(test_fib_cost_charges_each_stage),
		cmocka_unit_test(test_fib_updates_never_expose_a_gap_or_torn_nexthop),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-fib-%d", getpid());
	if (rte_eal_init(11, argv) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(65536, SOCKET_ID_ANY) < 0) {
		fprintf(stderr, "test_fib: cannot set up EAL and the tables\n");
		return 1;
	}
	return cmocka_run_group_tests_name("fib", tests, NULL, NULL);
}
