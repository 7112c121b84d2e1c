/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB's nexthops under a worker that reads while routes change: an id a
 * route stops naming is cleared, and given to another nexthop, only once no
 * worker can still read it; an ECMP group replaced in place keeps its old
 * members until no worker can still read the old group. The reader reads as
 * ip4_fast does (FIB entry, nexthop, a group's members), with pauses between
 * the steps, and the changes come at varying points of its reads. IPv6 routes are read the
 * same way through the IPv6 FIB.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/rtnetlink.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "controlplane/mirror/rib.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

#define VEC 32
#define ROUNDS 2000
#define X 0xc6130000u		/* 198.19.0.0/24: watched */
#define Y 0xc6130100u		/* 198.19.1.0/24: another route, whose nexthops take freed ids */

/* X's gateways are 198.18.0.100 .. 149, Y's 198.18.0.150 .. 199. */
static struct rib_nh_spec via(uint32_t last_octet)
{
	return (struct rib_nh_spec){ .type = RIB_NH_GATEWAY, .hop = { .port = 0, .gw = 0xc6120000u | last_octet } };
}

static bool x_gateway(const struct dp_nexthop *n)
{
	uint32_t gw = rte_be_to_cpu_32(n->gw);

	return (n->kind == DP_NH_FORWARD || n->kind == DP_NH_UNRESOLVED) &&
	       (gw & ~0xffu) == 0xc6120000u && (gw & 0xff) >= 100 && (gw & 0xff) < 150;
}

static void pause_a_while(void)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		rte_pause();
}

static volatile bool stop;
static uint64_t vectors, broken;
static char first_break[160];

static void note_break(const char *fmt, uint32_t a, uint32_t b, const struct dp_nexthop *n)
{
	if (broken++ == 0)
		snprintf(first_break, sizeof(first_break), fmt, a, b, dp_nh_kind_name(n->kind),
			 rte_be_to_cpu_32(n->gw) & 0xff);
}

/* X6 = 2001:db8:13::/48, read at 2001:db8:13:i:: (the IPv6 FIB's copies switch as IPv4's) */
static void x6_address(unsigned int i, uint8_t a[16])
{
	static const uint8_t x6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x13 };

	memcpy(a, x6, 16);
	a[7] = i;
}

static bool read_ipv6;

/* Reads X's addresses (or X6's): each answer, and each member of a group, must be one of X's
 * gateways. */
static int reader(void *arg)
{
	uint32_t nh[VEC];
	const struct dp_nexthop *e[VEC];
	unsigned int i, m;
	uint8_t a[16];

	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		unsigned int copy = read_ipv6 ? dp_fib6_active_index() : dp_fib_active_index();

		for (i = 0; i < VEC; i++) {
			if (read_ipv6) {
				x6_address(i, a);
				nh[i] = dp_fib6_lookup_in(copy, a);
			} else {
				nh[i] = dp_fib_lookup_in(copy, X + i * 8);
			}
			pause_a_while();
		}
		for (i = 0; i < VEC; i++) {
			e[i] = dp_nh_get(nh[i]);
			pause_a_while();
		}
		for (i = 0; i < VEC; i++) {
			if (e[i]->kind != DP_NH_GROUP) {
				if (!x_gateway(e[i]))
					note_break("id %u (%u): %s, gateway .%u", nh[i], 0, e[i]);
				continue;
			}
			for (m = 0; m < e[i]->nb_members; m++) {
				const struct dp_nexthop *mn = dp_nh_get(e[i]->members[m]);

				pause_a_while();
				if (!x_gateway(mn))
					note_break("group %u member %u: %s, gateway .%u", nh[i], m, mn);
			}
		}
		__atomic_store_n(&vectors, vectors + 1, __ATOMIC_RELAXED);
		rte_rcu_qsbr_quiescent(dp_rcu, 0);
	}
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);
	rte_rcu_qsbr_thread_unregister(dp_rcu, 0);
	return 0;
}

static unsigned int reader_lcore;

static void reader_start(void)
{
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

static void route(uint32_t prefix, bool del, const struct rib_nh_spec *nh)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };

	if (del)
		assert_int_equal(rib_route_del(prefix, 24, RT_TABLE_MAIN, 0, NULL), 0);
	else
		assert_int_equal(rib_route_add(prefix, 24, &a, nh, RIB_ADD_REPLACE), 0);
}

static void route6(uint8_t third, bool del, const struct rib_nh_spec *nh)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };
	uint8_t p[16];

	x6_address(0, p);
	p[5] = third;
	if (del)
		assert_int_equal(rib_route6_del(p, 48, RT_TABLE_MAIN, 0, NULL), 0);
	else
		assert_int_equal(rib_route6_add(p, 48, &a, nh, RIB_ADD_REPLACE), 0);
}

/* X's route (or Y's), or with read_ipv6 X6's (2001:db8:13::/48) or Y6's (2001:db8:14::/48). */
static void route_xy(bool y, bool del, const struct rib_nh_spec *nh)
{
	if (read_ipv6)
		route6(y ? 0x14 : 0x13, del, nh);
	else
		route(y ? Y : X, del, nh);
}

/*
 * X and Y change gateway at every commit, so each commit releases their
 * nexthops and the next ones take the ids freed: a reader that read X's id
 * from the FIB must find X's gateway behind it, never a cleared id or Y's.
 */
static void routes_move_under_a_reader(bool ipv6, const char *what)
{
	struct rib_nh_spec nh;
	unsigned int r;

	read_ipv6 = ipv6;
	nh = via(100);
	route_xy(false, false, &nh);
	nh = via(150);
	route_xy(true, false, &nh);
	assert_int_equal(rib_commit(), 0);
	reader_start();
	for (r = 0; r < ROUNDS; r++) {
		nh = via(100 + (r + 1) % 50);
		route_xy(false, false, &nh);
		nh = via(150 + (r + 1) % 50);
		route_xy(true, false, &nh);
		rte_delay_us_block(r * 7 % 40);	/* somewhere in the reader's vector */
		assert_int_equal(rib_commit(), 0);
	}
	reader_stop(what);
	route_xy(false, true, NULL);
	route_xy(true, true, NULL);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(rib_commit(), 0);
	read_ipv6 = false;
}

static void test_released_nexthop_ids_are_reused_only_after_the_readers(void **state)
{
	routes_move_under_a_reader(false, "routes moving to new nexthops at every commit");
}

/* The same through the IPv6 FIB. */
static void test_released_ids_are_reused_only_after_the_ipv6_readers(void **state)
{
	routes_move_under_a_reader(true, "IPv6 routes moving to new nexthops at every commit");
}

/*
 * X's ECMP group is a kernel nexthop object whose members change in place
 * (no FIB change, so no switch of FIB copies to wait on): the commit sets the
 * old members aside, the next one frees them, and Y's next nexthop takes one
 * of their ids. A reader that read the old group finds its members X's
 * gateways still.
 */
static void test_ecmp_members_replaced_in_place_under_a_reader(void **state)
{
	struct rib_nh_spec g = { .type = RIB_NH_GROUP, .knh = 9, .nb_members = 2 }, nh;
	unsigned int r;

	g.members[0] = (struct rib_hop){ .port = 0, .gw = 0xc6120000u | 100 };
	g.members[1] = (struct rib_hop){ .port = 0, .gw = 0xc6120000u | 101 };
	route(X, false, &g);
	nh = via(150);
	route(Y, false, &nh);
	assert_int_equal(rib_commit(), 0);
	reader_start();
	for (r = 0; r < ROUNDS; r++) {
		g.members[0].gw = 0xc6120000u | (100 + (2 * r + 2) % 50);
		g.members[1].gw = 0xc6120000u | (101 + (2 * r + 2) % 48);
		/* past the grace period of the last commit's switch (a reader's vector takes tens of
		 * microseconds), and somewhere in the reader's vector */
		rte_delay_us_block(100 + r * 7 % 100);
		assert_int_equal(rib_nh_replace_object(9, &g), 0);
		assert_int_equal(rib_commit(), 0);	/* sets the old members aside */
		assert_int_equal(rib_commit(), 0);	/* frees them */
		nh = via(150 + (r + 1) % 50);
		route(Y, false, &nh);
		assert_int_equal(rib_commit(), 0);
	}
	reader_stop("ECMP members replaced in place");
	route(X, true, NULL);
	route(Y, true, NULL);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(rib_commit(), 0);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_rib_readers", "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_released_nexthop_ids_are_reused_only_after_the_readers),
		cmocka_unit_test(test_ecmp_members_replaced_in_place_under_a_reader),
		cmocka_unit_test(test_released_ids_are_reused_only_after_the_ipv6_readers),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-ribr-%d", getpid());
	dp.nb_ports = 1;	/* the gateways' port 0 */
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(4096, SOCKET_ID_ANY) < 0 || dp_fib6_init(4096, SOCKET_ID_ANY) < 0 ||
	    rib_init(4096, 1024) < 0 || rib_init6(4096) < 0) {
		fprintf(stderr, "test_rib_readers: cannot set up EAL and the tables\n");
		return 1;
	}
	if (getenv("TERN_UNIT_FILTER") && *getenv("TERN_UNIT_FILTER"))	/* tests/run-mutants.sh */
		cmocka_set_test_filter(getenv("TERN_UNIT_FILTER"));
	return cmocka_run_group_tests_name("rib_readers", tests, NULL, NULL);
}
