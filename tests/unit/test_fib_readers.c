/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FIB and the nexthop table under a worker that reads while the control
 * thread writes, at ternd's default size (2M routes). Each case breaks if a
 * grace period is not waited out: the reader reads as ip4_fast does (the
 * copy once per vector, then first-level entries, second-level entries and
 * nexthops in turn), but with pauses between the steps, so that a writer
 * that does not wait for it is caught in the middle of a vector.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

#define FIB_ROUTES 2097152	/* ternd's default: fib routes in ternd.conf */
#define VEC 64
#define ROUNDS 3000

/*
 * A nexthop's fields all hold its value v (port, mtu, gateway), so a reader
 * can tell a torn or zeroed entry, and a value's thousand says whose it is:
 * FAMILY(v) 1 for the routes a case watches, 2 for the others.
 */
#define FAMILY(v) ((v) / 1000)

static void set_nh(uint32_t id, uint16_t v)
{
	struct dp_nexthop nh = { .kind = DP_NH_FORWARD, .port = v, .mtu = v,
				 .gw = rte_cpu_to_be_32(v) };

	assert_int_equal(dp_nh_set(id, &nh, NULL), 0);
}

static void set_group(uint32_t id, const uint32_t *members, unsigned int n)
{
	struct dp_nexthop nh = { .kind = DP_NH_GROUP, .nb_members = n };

	assert_int_equal(dp_nh_set(id, &nh, members), 0);
}

/* The value of a whole forwarding entry, or 0 for anything else. */
static unsigned int value_of(const struct dp_nexthop *n)
{
	if (n->kind != DP_NH_FORWARD || n->port != n->mtu || n->gw != rte_cpu_to_be_32(n->port))
		return 0;
	return n->port;
}

static void pause_a_while(void)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		rte_pause();
}

/* What one vector read: the addresses, their next hops and entries. */
struct vector {
	uint32_t ip[VEC];
	uint32_t nh[VEC];
	const struct dp_nexthop *e[VEC];
	unsigned int n;
};

/* A case's rule for one vector: NULL when it holds, else what broke it. */
typedef const char *(*vector_rule)(const struct vector *v);

static struct vector watched;	/* the addresses read, set by the case */
static vector_rule rule;
static volatile bool stop;
static uint64_t vectors, broken;
static char first_break[256];

static int reader(void *arg)
{
	struct vector v = watched;
	uint32_t e24[VEC];
	unsigned int i, copy;
	const char *why;

	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		copy = dp_fib_active_index();
		for (i = 0; i < v.n; i++) {
			e24[i] = dp_fib_tbl24[copy][v.ip[i] >> 8];
			pause_a_while();
		}
		for (i = 0; i < v.n; i++) {
			v.nh[i] = dp_fib_entry_nh(copy, e24[i], v.ip[i]);
			v.e[i] = dp_nh_get(v.nh[i]);
			pause_a_while();
		}
		why = rule(&v);
		if (why != NULL && broken++ == 0)
			snprintf(first_break, sizeof(first_break), "%s", why);
		vectors++;
		rte_rcu_qsbr_quiescent(dp_rcu, 0);
	}
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);
	rte_rcu_qsbr_thread_unregister(dp_rcu, 0);
	return 0;
}

static unsigned int reader_lcore;

static void reader_start(vector_rule r)
{
	rule = r;
	vectors = broken = 0;
	first_break[0] = '\0';
	stop = false;
	reader_lcore = rte_get_next_lcore(-1, 1, 0);
	assert_int_equal(rte_eal_remote_launch(reader, NULL, reader_lcore), 0);
	while (__atomic_load_n(&vectors, __ATOMIC_RELAXED) == 0)
		rte_pause();
}

static void reader_stop(const char *what)
{
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	rte_eal_wait_lcore(reader_lcore);
	printf("# %s: %lu vectors read, %lu broke the rule%s%s\n", what, vectors, broken,
	       broken ? ": first, " : "", first_break);
	assert_true(vectors > 0);
	assert_int_equal(broken, 0);
}

/* 64 /24s, each in a first-level line of its own. */
static uint32_t spread_24(unsigned int i)
{
	return 0x0b000000u + i * 17 * 256;
}

/* Every address answers the same next hop, which forwards. */
static const char *all_alike(const struct vector *v)
{
	static char why[128];
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (v->nh[i] != v->nh[0] || value_of(v->e[i]) == 0) {
			snprintf(why, sizeof(why), "%08x gave %u where %08x gave %u", v->ip[i],
				 v->nh[i], v->ip[0], v->nh[0]);
			return why;
		}
	return NULL;
}

/*
 * A batch changes 64 /24s from one next hop to the next: a vector read
 * during the changes sees them all before or all after the batch, never
 * some of each (the copy it reads is rewritten only once it has left it).
 */
static void test_a_batch_is_seen_whole(void **state)
{
	struct dp_fib_op ops[VEC];
	unsigned int i, r;

	for (i = 1; i <= 3; i++)
		set_nh(i, 1000 + i);
	for (i = 0; i < VEC; i++) {
		ops[i] = (struct dp_fib_op){ .prefix = spread_24(i), .depth = 24, .nh = 1 };
		watched.ip[i] = spread_24(i) + 1 + i;
	}
	watched.n = VEC;
	assert_int_equal(dp_fib_apply(ops, VEC), 0);
	reader_start(all_alike);
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < VEC; i++)
			ops[i].nh = 1 + (r + 1) % 3;
		assert_int_equal(dp_fib_apply(ops, VEC), 0);
	}
	reader_stop("batches of 64 changes");
	for (i = 0; i < VEC; i++)
		ops[i].del = 1;
	assert_int_equal(dp_fib_apply(ops, VEC), 0);
}

#define A 0x0c010100u	/* 12.1.1.0/24 and 12.2.2.0/24: two /24s that trade a group */
#define B 0x0c020200u

/* An address of A answers one of A's next hops (1, 2), of B one of B's (3, 4). */
static const char *own_routes(const struct vector *v)
{
	static char why[128];
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		bool in_a = (v->ip[i] & ~0xffu) == A;
		uint32_t lo = in_a ? 1 : 3;

		if (v->nh[i] != lo && v->nh[i] != lo + 1) {
			snprintf(why, sizeof(why), "%08x (in %s) gave next hop %u", v->ip[i],
				 in_a ? "A" : "B", v->nh[i]);
			return why;
		}
	}
	return NULL;
}

/*
 * A's route longer than /24 goes and B's comes in one batch: B takes the
 * second-level group A gave back. A reader that took A's group from its
 * first-level entry must still find A's next hops in it, not B's.
 */
static void test_a_freed_group_taken_by_another_24_is_not_read_through(void **state)
{
	struct dp_fib_op give[2] = {
		{ .prefix = A + 128, .depth = 25, .del = 1 },
		{ .prefix = B, .depth = 25, .nh = 4 },
	}, take[2] = {
		{ .prefix = B, .depth = 25, .del = 1 },
		{ .prefix = A + 128, .depth = 25, .nh = 2 },
	};
	unsigned int i, r, used, total;
	uint32_t e;

	for (i = 1; i <= 4; i++)
		set_nh(i, 1000 + i);
	assert_int_equal(dp_fib_add(A, 24, 1), 0);
	assert_int_equal(dp_fib_add(B, 24, 3), 0);
	assert_int_equal(dp_fib_add(A + 128, 25, 2), 0);
	for (i = 0; i < VEC; i++)
		watched.ip[i] = (i & 1 ? B : A) + (i / 2) * 8 + 1;
	watched.n = VEC;
	reader_start(own_routes);
	for (r = 0; r < ROUNDS; r++) {
		assert_int_equal(dp_fib_apply(give, 2), 0);
		assert_int_equal(dp_fib_apply(take, 2), 0);
	}
	reader_stop("a group traded between two /24s");
	e = dp_fib_tbl24[dp_fib_active_index()][A >> 8];
	assert_int_equal(e & DP_FIB_GROUP, DP_FIB_GROUP);	/* the trade took place */
	dp_fib_groups(&used, &total);
	assert_int_equal(used, 1);
	assert_int_equal(dp_fib_del(A + 128, 25), 0);
	assert_int_equal(dp_fib_del(A, 24), 0);
	assert_int_equal(dp_fib_del(B, 24), 0);
}

#define X 0x0d000000u	/* 13.0.0.0/24, watched, and 13.0.1.0/24, the other */
#define Y 0x0d000100u

/* X's next hop is whole and X's own: never cleared, never another route's. */
static const char *x_own_nexthop(const struct vector *v)
{
	static char why[128];
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (FAMILY(value_of(v->e[i])) != 1) {
			snprintf(why, sizeof(why), "%08x: id %u is %s with value %u", v->ip[i],
				 v->nh[i], dp_nh_kind_name(v->e[i]->kind), v->e[i]->port);
			return why;
		}
	return NULL;
}

/*
 * The RIB's rule for nexthop ids: an id a batch stopped naming is cleared,
 * and given to another route, only once dp_fib_settle has returned. X moves
 * to a fresh id at every round; its old one is cleared and taken by Y. A
 * reader that read X's old id from the FIB still finds X's nexthop there.
 */
static void test_nexthop_ids_are_cleared_and_reused_only_after_settling(void **state)
{
	uint32_t x_id = 10, y_id = 11, spare = 12, old;
	unsigned int i, r;

	set_nh(x_id, 1000);
	set_nh(y_id, 2000);
	assert_int_equal(dp_fib_add(X, 24, x_id), 0);
	assert_int_equal(dp_fib_add(Y, 24, y_id), 0);
	for (i = 0; i < VEC; i++)
		watched.ip[i] = X + i * 4;
	watched.n = VEC;
	reader_start(x_own_nexthop);
	for (r = 0; r < ROUNDS; r++) {
		set_nh(spare, 1000 + r % 1000);
		assert_int_equal(dp_fib_add(X, 24, spare), 0);
		old = x_id;
		x_id = spare;
		dp_fib_settle();
		dp_nh_clear(old);
		set_nh(old, 2000 + r % 1000);	/* reused at once, by Y */
		assert_int_equal(dp_fib_add(Y, 24, old), 0);
		spare = y_id;
		y_id = old;
		dp_fib_settle();
		dp_nh_clear(spare);
		dp_rcu_reclaim();
	}
	reader_stop("nexthop ids cleared and reused");
	assert_int_equal(dp_fib_del(X, 24), 0);
	assert_int_equal(dp_fib_del(Y, 24), 0);
	dp_fib_settle();
	dp_nh_clear(x_id);
	dp_nh_clear(y_id);
}

#define G 20		/* the group's id; its members 21 .. 24; another group 29 of 25, 26 */

/* Every member of the group X's addresses name is whole and X's own. */
static const char *group_members_own(const struct vector *v)
{
	static char why[128];
	unsigned int i, m, n;

	for (i = 0; i < v->n; i++) {
		const struct dp_nexthop *g = v->e[i];

		if (g->kind != DP_NH_GROUP || (n = g->nb_members) == 0 || n > 2) {
			snprintf(why, sizeof(why), "id %u is %s with %u members", v->nh[i],
				 dp_nh_kind_name(g->kind), g->nb_members);
			return why;
		}
		pause_a_while();
		for (m = 0; m < n; m++) {
			uint32_t id = g->members[m];

			if (id < G + 1 || id > G + 4 || FAMILY(value_of(dp_nh_get(id))) != 1) {
				snprintf(why, sizeof(why), "member %u of group %u: id %u, %s", m,
					 v->nh[i], id, dp_nh_kind_name(dp_nh_get(id)->kind));
				return why;
			}
		}
	}
	return NULL;
}

/*
 * An ECMP group's entry is replaced in place (no FIB change): its members
 * change from two ids to the two others and back, and the members it no
 * longer names are cleared once a grace period has passed since. A reader
 * that read the old entry walks its members whole; it never reads a freed
 * entry or a cleared member.
 */
static void test_ecmp_groups_changed_under_a_reader(void **state)
{
	uint32_t members[2][2] = { { G + 1, G + 2 }, { G + 3, G + 4 } }, others[2] = { G + 5, G + 6 };
	unsigned int i, r, k;
	uint64_t seen;

	for (i = 1; i <= 4; i++)
		set_nh(G + i, 1000 + i);
	set_nh(G + 5, 2005);
	set_nh(G + 6, 2006);
	set_group(G, members[0], 2);
	assert_int_equal(dp_fib_add(X, 24, G), 0);
	for (i = 0; i < VEC; i++)
		watched.ip[i] = X + i * 4;
	watched.n = VEC;
	reader_start(group_members_own);
	for (r = 0; r < ROUNDS; r++) {
		k = (r + 1) & 1;
		rte_delay_us_block(r * 7 % 64);	/* somewhere in the reader's vector */
		set_nh(members[k][0], 1000 + r % 1000);
		set_nh(members[k][1], 1000 + (r + 1) % 1000);
		set_group(G, members[k], 1 + r % 2);
		/* while the reader finishes the vector that may hold the entry replaced, another
		 * group is published again and again, each time in a fresh entry */
		seen = __atomic_load_n(&vectors, __ATOMIC_RELAXED);
		while (__atomic_load_n(&vectors, __ATOMIC_RELAXED) < seen + 2)
			set_group(G + 9, others, 2);
		dp_rcu_synchronize();	/* no reader holds the entry that named the others */
		dp_nh_clear(members[k ^ 1][0]);
		dp_nh_clear(members[k ^ 1][1]);
		dp_rcu_reclaim();
	}
	reader_stop("ECMP members replaced in place");
	assert_int_equal(dp_fib_del(X, 24), 0);
	dp_fib_settle();
	for (i = 0; i <= 9; i++)
		dp_nh_clear(G + i);
	dp_rcu_reclaim();
}

/*
 * Every second-level group but one taken; each batch changes 64 /24s, takes
 * the last group, asks for one more (refused: marked, nothing written), and
 * gives the group back, the witnessed /24s' changes before and after. The
 * reader still sees each batch whole, and never the refused route.
 */
static void test_exhaustion_in_the_middle_of_a_batch(void **state)
{
	enum { W = 32 };
	static struct dp_fib_op fill[1 << 16];
	struct dp_fib_op ops[2 * W + 3];
	const uint32_t l1 = 0x0f000000u, l2 = 0x0f000100u;	/* 15.0.0.0/25 and 15.0.1.0/25 */
	unsigned int i, r, used, total, nb_fill;
	int rc;

	dp_fib_groups(&used, &total);
	nb_fill = total - used - 1;
	assert_true(nb_fill <= RTE_DIM(fill));
	for (i = 0; i < nb_fill; i++)
		fill[i] = (struct dp_fib_op){ .prefix = 0x10000000u + (i << 8), .depth = 25, .nh = 3 };
	assert_int_equal(dp_fib_apply(fill, nb_fill), 0);
	for (i = 1; i <= 3; i++)
		set_nh(i, 1000 + i);
	set_nh(4, 2004);
	for (i = 0; i < VEC; i++) {
		watched.ip[i] = spread_24(i) + 1 + i;
		assert_int_equal(dp_fib_add(spread_24(i), 24, 1), 0);
	}
	watched.ip[VEC - 1] = l2 + 1;	/* the refused route's: its cover, next hop 1 */
	watched.n = VEC;
	assert_int_equal(dp_fib_add(l2, 24, 1), 0);
	reader_start(all_alike);
	for (r = 0; r < ROUNDS; r++) {
		uint32_t nh = 1 + (r + 1) % 3;
		unsigned int n = 0;

		for (i = 0; i < W; i++)
			ops[n++] = (struct dp_fib_op){ .prefix = spread_24(i), .depth = 24, .nh = nh };
		ops[n++] = (struct dp_fib_op){ .prefix = l1, .depth = 25, .nh = 4 };
		ops[n++] = (struct dp_fib_op){ .prefix = l2, .depth = 25, .nh = 4 };
		ops[n++] = (struct dp_fib_op){ .prefix = l1, .depth = 25, .del = 1 };
		for (i = W; i < VEC - 1; i++)
			ops[n++] = (struct dp_fib_op){ .prefix = spread_24(i), .depth = 24, .nh = nh };
		ops[n++] = (struct dp_fib_op){ .prefix = l2, .depth = 24, .nh = nh };
		rc = dp_fib_apply(ops, n);
		assert_int_equal(rc, -ENOSPC);
		for (i = 0; i < n; i++)
			assert_int_equal(ops[i].refused, i == W + 1);
	}
	reader_stop("batches with a change refused for want of a group");
	assert_false(dp_fib_route(l2, 25, NULL));
	for (i = 0; i < nb_fill; i++)
		fill[i].del = 1;
	assert_int_equal(dp_fib_apply(fill, nb_fill), 0);
	for (i = 0; i < VEC; i++)
		assert_int_equal(dp_fib_del(spread_24(i), 24), 0);
	assert_int_equal(dp_fib_del(l2, 24), 0);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_fib_readers", "--no-huge", "-m", "1024", "--no-pci", "-l", "0,1",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_batch_is_seen_whole),
		cmocka_unit_test(test_a_freed_group_taken_by_another_24_is_not_read_through),
		cmocka_unit_test(test_nexthop_ids_are_cleared_and_reused_only_after_settling),
		cmocka_unit_test(test_ecmp_groups_changed_under_a_reader),
		cmocka_unit_test(test_exhaustion_in_the_middle_of_a_batch),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-fibr-%d", getpid());
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(FIB_ROUTES, SOCKET_ID_ANY) < 0) {
		fprintf(stderr, "test_fib_readers: cannot set up EAL and the tables\n");
		return 1;
	}
	return cmocka_run_group_tests_name("fib_readers", tests, NULL, NULL);
}
