/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which of several kernel routes for one prefix the FIB gets: the table first (local, main, then
 * the configured tables in order), then the metric, then the kernel's own order among routes of
 * one table and metric (ip route append, prepend, replace); deletions name the route they remove.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>
#include <errno.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "dataplane/punt/punt_known.h"
#include "controlplane/mirror/rib_priv.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/icmp/icmp6.h"
#include "dataplane/rcu.h"
#include "tests/unit/heap_hog.h"

#define P 0xc6130000u		/* 198.19.0.0/24, the prefix every case works on */
#define T_EXTRA 100		/* the configured tables: 100, then 200 */
#define T_LAST 200

static struct rib_nh_spec via(uint32_t last_octet)
{
	return (struct rib_nh_spec){ .type = RIB_NH_GATEWAY, .hop = { .port = 0, .gw = 0xc6120000u | last_octet } };
}

static int add(uint32_t table, uint32_t metric, struct rib_nh_spec nh, enum rib_add_mode mode)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .metric = metric, .table = table };
	int rc = rib_route_add(P, 24, &a, &nh, mode);

	assert_int_equal(rib_commit(), 0);
	return rc;
}

static int del(uint32_t table, uint32_t metric, const struct rib_nh_spec *nh)
{
	int rc = rib_route_del(P, 24, table, metric, nh);

	assert_int_equal(rib_commit(), 0);
	return rc;
}

/* The gateway's last octet of the route the RIB uses (0: a route without one, -1: none), after
 * checking that the FIB answers with the same nexthop. */
static int in_use(void)
{
	struct rib_route_info r;

	if (rib_route_get(P, 24, &r) < 0) {
		assert_int_equal(dp_fib_lookup(P + 1), 0);
		return -1;
	}
	assert_int_equal(dp_fib_lookup(P + 1), r.nh_id);
	return r.nh.type == RIB_NH_GATEWAY ? (int)(r.nh.hop.gw & 255) : 0;
}

static unsigned int aside(void)
{
	struct rib_counts c;

	rib_counts(&c);
	return c.alternates;
}

#define NEIGH_MAX 1024

static struct rte_ether_addr neigh_mac(uint32_t i)
{
	return (struct rte_ether_addr){ { 0x02, 0, 0, i >> 16 & 255, i >> 8 & 255, i & 255 } };
}

#define Q 0xc6130500u		/* 198.19.5.0/24: the neighbour cases' own prefix */

static void add_q(struct rib_nh_spec nh)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };

	assert_int_equal(rib_route_add(Q, 24, &a, &nh, RIB_ADD_REPLACE), 0);
	assert_int_equal(rib_commit(), 0);
}

static void del_q(void)
{
	assert_int_equal(rib_route_del(Q, 24, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
}

/* The dataplane's nexthop of the route to Q: its kind and, when it forwards, its MAC's last byte. */
static int route_nh_kind(int *mac_last)
{
	struct rib_route_info r;
	const struct dp_nexthop *nh;

	assert_int_equal(rib_route_get(Q, 24, &r), 0);
	assert_int_equal(dp_fib_lookup(Q + 1), r.nh_id);
	nh = dp_nh_get(r.nh_id);
	assert_non_null(nh);
	*mac_last = nh->eth.dst_addr.addr_bytes[5];
	return nh->kind;
}

/*
 * Neighbours by the thousand: each resolves the nexthop through it, deleting one (moving the
 * last into its place) leaves every other findable, and the table stops at its limit.
 */
static void test_neighbours_resolve_their_nexthops_and_stop_at_the_limit(void **state)
{
	struct rte_ether_addr mac;
	int last, i;

	for (i = 1; i <= NEIGH_MAX; i++) {
		mac = neigh_mac(i);
		assert_int_equal(rib_neigh_set(0, 0xc6120000u + i, &mac, false), 0);
	}
	assert_int_equal(rib_commit(), 0);
	mac = neigh_mac(NEIGH_MAX + 1);
	assert_int_equal(rib_neigh_set(0, 0xc6120000u + NEIGH_MAX + 1, &mac, false), -ENOSPC);
	/* a route via neighbour 7 forwards to its MAC */
	add_q(via(7));
	assert_int_equal(route_nh_kind(&last), DP_NH_FORWARD);
	assert_int_equal(last, 7);
	/* its MAC changes: the nexthop follows */
	mac = neigh_mac(0x107);
	assert_int_equal(rib_neigh_set(0, 0xc6120007u, &mac, false), 0);
	assert_int_equal(route_nh_kind(&last), DP_NH_FORWARD);
	assert_int_equal(last, 7);
	assert_int_equal(dp_nh_get(dp_fib_lookup(Q + 1))->eth.dst_addr.addr_bytes[4], 1);
	/* deleting neighbour 7 moves the last one into its place; both are as they should be */
	assert_int_equal(rib_neigh_del(0, 0xc6120007u), 0);
	assert_int_equal(route_nh_kind(&last), DP_NH_UNRESOLVED);
	assert_int_equal(rib_neigh_port(0xc6120000u + NEIGH_MAX), 0);
	assert_int_equal(rib_neigh_port(0xc6120007u), -ENOENT);
	assert_int_equal(rib_neigh_del(0, 0xc6120007u), -ENOENT);
	/* with room again, it comes back and resolves */
	mac = neigh_mac(7);
	assert_int_equal(rib_neigh_set(0, 0xc6120007u, &mac, false), 0);
	assert_int_equal(route_nh_kind(&last), DP_NH_FORWARD);
	del_q();
	for (i = 1; i <= NEIGH_MAX; i++)
		assert_int_equal(rib_neigh_del(0, 0xc6120000u + i), 0);
	assert_int_equal(rib_commit(), 0);
}

/*
 * ARP's and NDP's neighbours share the table: an IPv4 and an IPv6 neighbour whose addresses
 * share their bytes are two entries; removing one (the last moving into its place) leaves the
 * other findable; a resync sweeps both families; an IPv6 neighbour makes no IPv4 adjacency.
 */
static void test_neighbours_of_both_families_share_the_table(void **state)
{
	struct rte_ether_addr mac = neigh_mac(1), other = neigh_mac(2);
	uint8_t a6[16] = { 0xc6, 0x12, 0x00, 0x05 }, b6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };
	const struct rib_neigh *n;
	struct rib_route_info ri;
	unsigned int nb, i, v4 = 0, v6 = 0;

	assert_int_equal(rib_neigh6_set(0, a6, &mac, false), 0);
	assert_int_equal(rib_neigh_set(0, 0xc6120005u, &mac, false), 0);
	assert_int_equal(rib_neigh6_set(0, b6, &mac, true), 0);
	assert_int_equal(rib_commit(), 0);
	assert_true(dp_punt_known_slot(&mac) >= 0);	/* the punt nodes know the MAC */
	assert_true(dp_punt_known_slot(&other) < 0);
	nb = rib_neighs(&n);
	assert_int_equal(nb, 3);
	for (i = 0; i < nb; i++) {
		v4 += n[i].family == AF_INET;
		v6 += n[i].family == AF_INET6;
	}
	assert_int_equal(v4, 1);
	assert_int_equal(v6, 2);
	/* the IPv4 neighbour's adjacency, and none for the IPv6 one of the same bytes */
	assert_int_equal(rib_route_get(0xc6120005u, 32, &ri), 0);
	assert_int_equal(rib_neigh_port(0xc6120005u), 0);
	/* the first entry goes; the others stay as they were */
	assert_int_equal(rib_neigh6_del(0, a6), 0);
	assert_int_equal(rib_neigh6_del(0, a6), -ENOENT);
	assert_int_equal(rib_neigh_port(0xc6120005u), 0);
	nb = rib_neighs(&n);
	assert_int_equal(nb, 2);
	for (i = 0; i < nb && !(n[i].family == AF_INET6 && memcmp(n[i].ip6, b6, 16) == 0); i++)
		;
	assert_true(i < nb);
	assert_true(n[i].permanent);
	assert_true(dp_punt_known_slot(&mac) >= 0);	/* two entries still have it */
	/* one moves to another MAC: both are known, each while an entry has it */
	assert_int_equal(rib_neigh6_set(0, b6, &other, true), 0);
	assert_true(dp_punt_known_slot(&mac) >= 0);
	assert_true(dp_punt_known_slot(&other) >= 0);
	assert_int_equal(rib_neigh6_set(0, b6, &mac, true), 0);
	assert_true(dp_punt_known_slot(&other) < 0);
	/* a resync that sees neither: both families swept, and the MAC with them */
	rib_mark_begin();
	assert_true(rib_sweep() >= 2);
	assert_int_equal(rib_neighs(&n), 0);
	assert_true(dp_punt_known_slot(&mac) < 0);
	assert_int_equal(rib_route_get(0xc6120005u, 32, &ri), -ENOENT);
	assert_int_equal(rib_commit(), 0);
}

/*
 * IPv6 addresses beside IPv4's: a port's ICMPv6 errors come from its first global address out of
 * Duplicate Address Detection (never a link-local one), and IPv4's connected subnets ignore
 * them.
 */
static void test_ipv6_addresses_give_the_error_source(void **state)
{
	static const uint8_t none[16];
	uint8_t ll[16] = { 0xfe, 0x80, [15] = 1 }, g[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	uint8_t src[16];

	assert_int_equal(rib_addr6_add(0, ll, 64, false), 0);
	assert_false(dp_port_ip6_get(0, src));	/* link-local: never the source */
	assert_int_equal(rib_addr6_add(0, g, 64, true), 0);
	assert_false(dp_port_ip6_get(0, src));	/* still in DAD */
	assert_int_equal(rib_addr6_add(0, g, 64, false), 0);
	assert_true(dp_port_ip6_get(0, src));
	assert_memory_equal(src, g, 16);
	assert_int_equal(rib_connected_port(0x20010db8u), -ENETUNREACH);
	assert_int_equal(rib_addr6_del(0, g, 48), -ENOENT);	/* another length: another address */
	assert_int_equal(rib_addr6_del(0, g, 64), 0);
	assert_false(dp_port_ip6_get(0, src));
	assert_memory_equal(dp_port_ip6[0].addr, none, 16);
	assert_int_equal(rib_addr6_del(0, ll, 64), 0);
}

/* A nexthop's id is reused once no copy of the FIB names it (freed at the commit after the one
 * that dropped it): ids do not creep upwards. */
static void test_nexthop_ids_are_reused(void **state)
{
	struct rib_route_info r;
	struct rib_counts c;
	uint32_t seen[3];
	unsigned int used, nb_seen = 0, k;
	int i;

	assert_int_equal(rib_commit(), 0);	/* frees what the tests before dropped */
	rib_counts(&c);
	used = c.nexthops;
	add_q(via(10));
	assert_int_equal(rib_route_get(Q, 24, &r), 0);
	seen[nb_seen++] = r.nh_id;
	for (i = 11; i < 2000; i++) {
		add_q(via(i));
		assert_int_equal(rib_route_get(Q, 24, &r), 0);
		for (k = 0; k < nb_seen && seen[k] != r.nh_id; k++)
			;
		if (k == nb_seen) {	/* the one in use, the one set aside, the one freed */
			assert_true(nb_seen < 3);
			seen[nb_seen++] = r.nh_id;
		}
	}
	assert_int_equal(rib_commit(), 0);	/* frees the one the last change dropped */
	rib_counts(&c);
	assert_int_equal(c.nexthops, used + 1);
	del_q();
}

#define R 0xc6130600u		/* 198.19.6.0/24 and 198.19.7.0/24: the release cases' own */

static uint32_t nh_of_len(uint32_t prefix, uint8_t len)
{
	struct rib_route_info r;

	assert_int_equal(rib_route_get(prefix, len, &r), 0);
	return r.nh_id;
}

static uint32_t nh_of(uint32_t prefix)
{
	return nh_of_len(prefix, 24);
}

static void route_r(uint32_t prefix, bool del, struct rib_nh_spec nh)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };

	if (del)
		assert_int_equal(rib_route_del(prefix, 24, RT_TABLE_MAIN, 0, NULL), 0);
	else
		assert_int_equal(rib_route_add(prefix, 24, &a, &nh, RIB_ADD_REPLACE), 0);
}

/* A nexthop released in one batch, found again and released again in the next, is freed a
 * commit after its last release, not its first: until the batch that drops it is applied and
 * its grace period is over, a copy of the FIB still names it, and its id must not go to
 * another nexthop. */
static void test_a_nexthop_released_twice_is_freed_after_its_last_release(void **state)
{
	uint32_t n;

	assert_int_equal(rib_commit(), 0);
	assert_int_equal(rib_commit(), 0);	/* frees what the tests before dropped */
	route_r(R, false, via(60));
	assert_int_equal(rib_commit(), 0);
	n = nh_of(R);
	/* batch k-1: the route goes, another takes the same nexthop */
	route_r(R, true, via(60));
	route_r(R + 256, false, via(60));
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(nh_of(R + 256), n);
	/* batch k: that one goes too; the commit applies it */
	route_r(R + 256, true, via(60));
	assert_int_equal(rib_commit(), 0);
	/* a nexthop made now must not take n: the other copy named it until this commit */
	route_r(R, false, via(61));
	assert_int_not_equal(nh_of(R), n);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_fib_lookup(R + 1), nh_of(R));
	route_r(R, true, via(61));
	assert_int_equal(rib_commit(), 0);
}

#define FILL 0x64400001u	/* 100.64.0.1: host routes each in a /24 of its own fill the FIB */

/* A batch that fills commits early; when that commit fails (the FIB refuses a route: its
 * second-level groups are used up), the change that filled it is still queued. A delete lost
 * so left the FIB answering for a route the RIB had dropped, with a nexthop freed and reused. */
static void test_a_change_after_a_failed_early_commit_is_kept(void **state)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };
	struct rib_nh_spec gw = via(70);
	const uint32_t x = 0xc6130800u;	/* 198.19.8.0/24: needs no group */
	unsigned int n, i;

	for (n = 0; n < 4000; n++) {	/* until the FIB refuses one */
		assert_int_equal(rib_route_add(FILL + (n << 8), 32, &a, &gw, RIB_ADD_REPLACE), 0);
		if (rib_commit() < 0)
			break;
	}
	assert_true(n < 4000);
	route_r(x, false, gw);
	assert_int_equal(rib_commit(), 0);
	assert_int_not_equal(dp_fib_lookup(x + 1), 0);
	rib_fib_set_batch(2);
	for (i = 1; i <= 2; i++)	/* refused by the FIB when the batch commits */
		assert_int_equal(rib_route_add(FILL + ((n + i) << 8), 32, &a, &gw, RIB_ADD_REPLACE), 0);
	route_r(x, true, gw);		/* the batch is full: it commits, and fails */
	rib_fib_set_batch(0);
	rib_commit();
	assert_int_equal(dp_fib_lookup(x + 1), 0);
	for (i = 0; i <= n + 2; i++)
		assert_int_equal(rib_route_del(FILL + (i << 8), 32, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_fib_lookup(FILL), 0);
}

static bool unplaced(uint32_t prefix, uint8_t len)
{
	struct rib_route_info r;

	assert_int_equal(rib_route_get(prefix, len, &r), 0);
	return r.unplaced;
}

static unsigned int nb_unplaced(void)
{
	struct rib_counts c;

	rib_counts(&c);
	return c.unplaced;
}

/* A route the FIB refuses for want of room stays in the RIB marked not installed and counted;
 * it waits (a change of its nexthop meanwhile included) and goes in, with the nexthop it then
 * has, as soon as a commit leaves room; one withdrawn while it waits is no longer counted. */
static void test_routes_the_fib_refused_wait_for_room(void **state)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };
	struct rib_nh_spec gw = via(71), gw2 = via(72);
	unsigned int n, i, before = nb_unplaced();
	uint32_t w1, w2, w3;

	assert_int_equal(rib_commit(), 0);
	for (n = 0; n < 4000; n++) {	/* host routes, each in a /24 of its own, until one is refused */
		assert_int_equal(rib_route_add(FILL + (n << 8), 32, &a, &gw, RIB_ADD_REPLACE), 0);
		if (rib_commit() < 0)
			break;
	}
	assert_true(n < 4000);
	w1 = FILL + (n << 8);
	w2 = FILL + ((n + 1) << 8);
	w3 = FILL + ((n + 2) << 8);
	assert_int_equal(rib_route_add(w2, 32, &a, &gw, RIB_ADD_REPLACE), 0);
	assert_int_equal(rib_route_add(w3, 32, &a, &gw, RIB_ADD_REPLACE), 0);
	assert_int_equal(rib_commit(), -ENOSPC);
	assert_int_equal(nb_unplaced(), before + 3);
	assert_true(unplaced(w1, 32) && unplaced(w2, 32) && unplaced(w3, 32));
	assert_false(unplaced(FILL, 32));
	assert_int_equal(dp_fib_lookup(w1), DP_NH_NONE);
	/* a new nexthop while it waits: still waiting, the FIB untouched */
	assert_int_equal(rib_route_add(w1, 32, &a, &gw2, RIB_ADD_REPLACE), 0);
	assert_int_equal(rib_commit(), 0);
	assert_true(unplaced(w1, 32));
	assert_int_equal(dp_fib_lookup(w1), DP_NH_NONE);
	/* withdrawn while it waits, then back: counted once */
	assert_int_equal(rib_route_del(w3, 32, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(nb_unplaced(), before + 2);
	assert_int_equal(rib_route_add(w3, 32, &a, &gw, RIB_ADD_REPLACE), 0);
	assert_int_equal(rib_commit(), -ENOSPC);
	assert_int_equal(nb_unplaced(), before + 3);
	/* one group given back: the first to wait goes in, with its nexthop of now */
	assert_int_equal(rib_route_del(FILL, 32, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
	assert_false(unplaced(w1, 32));
	assert_int_equal(dp_fib_lookup(w1), nh_of_len(w1, 32));
	assert_true(unplaced(w2, 32) && unplaced(w3, 32));
	assert_int_equal(nb_unplaced(), before + 2);
	/* two more: the rest go in */
	assert_int_equal(rib_route_del(FILL + 256, 32, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_route_del(FILL + 512, 32, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(nb_unplaced(), before);
	assert_int_equal(dp_fib_lookup(w2), nh_of_len(w2, 32));
	assert_int_equal(dp_fib_lookup(w3), nh_of_len(w3, 32));
	for (i = 3; i <= n + 2; i++)
		assert_int_equal(rib_route_del(FILL + (i << 8), 32, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_fib_lookup(w1), DP_NH_NONE);
}

/* A worker stand-in: online on dp_rcu, it holds what it read until told to let go. */
static int reader_state;	/* 1: holding; 2: told to let go; 3: gone */

static void *reader(void *arg)
{
	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	__atomic_store_n(&reader_state, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&reader_state, __ATOMIC_ACQUIRE) != 2)
		usleep(1000);
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);
	rte_rcu_qsbr_thread_unregister(dp_rcu, 0);
	__atomic_store_n(&reader_state, 3, __ATOMIC_RELEASE);
	return arg;
}

static int commits_done;

static void *two_commits(void *arg)
{
	rib_commit();
	rib_commit();
	__atomic_store_n(&commits_done, 1, __ATOMIC_RELEASE);
	return arg;
}

/* An ECMP group's members replaced in place (its kernel nexthop object changed) publish a new
 * group entry with no FIB switch; a worker that read the old entry may still read its members.
 * The old members are cleared only once every worker has passed a quiescent state since: with
 * a worker holding on, the commits that would free them wait. */
static void test_members_replaced_in_place_outlive_the_readers_of_the_group(void **state)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };
	struct rib_nh_spec g = { .type = RIB_NH_GROUP, .knh = 9, .nb_members = 2,
				 .members = { { .port = 0, .gw = 0xc6120050u }, { .port = 0, .gw = 0xc6120051u } } };
	struct rib_nh_spec g2 = g;
	const uint32_t y = 0xc6130900u;	/* 198.19.9.0/24 */
	uint32_t old_member;
	pthread_t rd, cm;

	assert_int_equal(rib_route_add(y, 24, &a, &g, RIB_ADD_REPLACE), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_nh_get(nh_of(y))->kind, DP_NH_GROUP);
	old_member = dp_nh_get(nh_of(y))->members[0];
	assert_int_not_equal(dp_nh_get(old_member)->kind, DP_NH_NOROUTE);
	assert_int_equal(pthread_create(&rd, NULL, reader, NULL), 0);
	while (__atomic_load_n(&reader_state, __ATOMIC_ACQUIRE) != 1)
		usleep(1000);
	g2.members[0].gw = 0xc6120052u;
	g2.members[1].gw = 0xc6120053u;
	assert_int_equal(rib_nh_replace_object(9, &g2), 0);
	assert_int_equal(pthread_create(&cm, NULL, two_commits, NULL), 0);
	usleep(100 * 1000);
	assert_int_equal(__atomic_load_n(&commits_done, __ATOMIC_ACQUIRE), 0);
	assert_int_not_equal(dp_nh_get(old_member)->kind, DP_NH_NOROUTE);
	__atomic_store_n(&reader_state, 2, __ATOMIC_RELEASE);
	pthread_join(cm, NULL);
	pthread_join(rd, NULL);
	assert_int_equal(dp_nh_get(old_member)->kind, DP_NH_NOROUTE);
	assert_int_equal(rib_route_del(y, 24, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
}

/* A group whose entry could not be published never reached the dataplane: a route that asks
 * for the same group later must get one that is, not find the one that failed. */
static void test_a_group_that_failed_to_publish_is_not_found_again(void **state)
{
	static void *hog[1 << 16];
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };
	struct rib_nh_spec g = { .type = RIB_NH_GROUP, .nb_members = 2,
				 .members = { { .port = 0, .gw = 0xc6120058u }, { .port = 0, .gw = 0xc6120059u } } };
	const uint32_t z = 0xc6130a00u;	/* 198.19.10.0/24, and .11.0/24 holding the members */
	unsigned int n, i;
	int rc;

	route_r(z + 256, false, via(0x58));	/* the members exist before the heap runs out */
	route_r(z + 512, false, via(0x59));
	assert_int_equal(rib_commit(), 0);
	n = heap_hog(hog, RTE_DIM(hog));
	rc = rib_route_add(z, 24, &a, &g, RIB_ADD_REPLACE);
	for (i = 0; i < n; i++)
		rte_free(hog[i]);
	assert_int_equal(rc, -ENOMEM);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(rib_route_add(z, 24, &a, &g, RIB_ADD_REPLACE), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_nh_get(nh_of(z))->kind, DP_NH_GROUP);
	assert_int_equal(dp_fib_lookup(z + 1), nh_of(z));
	route_r(z, true, g);
	route_r(z + 256, true, g);
	route_r(z + 512, true, g);
	assert_int_equal(rib_commit(), 0);
}

static void test_table_preference_comes_before_metric(void **state)
{
	struct rib_nh_spec local = { .type = RIB_NH_LOCAL }, b = via(2);

	assert_int_equal(add(T_LAST, 0, via(3), RIB_ADD_APPEND), 0);
	assert_int_equal(in_use(), 3);
	assert_int_equal(add(T_EXTRA, 900, via(1), RIB_ADD_APPEND), 0);
	assert_int_equal(in_use(), 1);	/* the table listed first wins whatever the metric */
	assert_int_equal(add(RT_TABLE_MAIN, 500, b, RIB_ADD_APPEND), 0);
	assert_int_equal(in_use(), 2);	/* main before the configured tables */
	assert_int_equal(add(RT_TABLE_LOCAL, 0, local, RIB_ADD_APPEND), 0);
	assert_int_equal(in_use(), 0);	/* local before main, as the kernel's rule 0 */
	assert_int_equal(aside(), 3);
	assert_int_equal(del(RT_TABLE_LOCAL, 0, &local), 0);
	assert_int_equal(in_use(), 2);
	assert_int_equal(del(RT_TABLE_MAIN, 500, &b), 0);
	assert_int_equal(in_use(), 1);
	assert_int_equal(del(T_EXTRA, 900, NULL), 0);
	assert_int_equal(in_use(), 3);
	assert_int_equal(del(T_LAST, 0, NULL), 0);
	assert_int_equal(in_use(), -1);
	assert_int_equal(aside(), 0);
}

static void test_unlisted_tables_are_refused(void **state)
{
	assert_int_equal(add(300, 0, via(1), RIB_ADD_APPEND), -EINVAL);
	assert_int_equal(in_use(), -1);
	assert_int_equal(rib_table_rank(RT_TABLE_LOCAL), 0);
	assert_int_equal(rib_table_rank(RT_TABLE_MAIN), 1);
	assert_int_equal(rib_table_rank(T_EXTRA), 2);
	assert_int_equal(rib_table_rank(T_LAST), 3);
	assert_int_equal(rib_table_rank(RT_TABLE_DEFAULT), -ENOENT);
}

static void test_append_prepend_replace_keep_the_kernels_order(void **state)
{
	struct rib_nh_spec x = via(10), y = via(11), z = via(12), w = via(13);

	assert_int_equal(add(RT_TABLE_MAIN, 0, x, RIB_ADD_APPEND), 0);
	assert_int_equal(add(RT_TABLE_MAIN, 0, y, RIB_ADD_APPEND), 0);
	assert_int_equal(in_use(), 10);	/* appended: the first stays in use */
	assert_int_equal(add(RT_TABLE_MAIN, 0, z, RIB_ADD_PREPEND), 0);
	assert_int_equal(in_use(), 12);	/* prepended: the new one goes first; now z, x, y */
	assert_int_equal(aside(), 2);
	assert_int_equal(del(RT_TABLE_MAIN, 0, &z), 0);
	assert_int_equal(in_use(), 10);	/* x, second, not y */
	assert_int_equal(add(RT_TABLE_MAIN, 0, w, RIB_ADD_REPLACE), 0);
	assert_int_equal(in_use(), 13);	/* replace takes the first one's place: w, y */
	assert_int_equal(aside(), 1);
	assert_int_equal(del(RT_TABLE_MAIN, 0, &x), -ENOENT);	/* x was replaced */
	assert_int_equal(del(RT_TABLE_MAIN, 0, &y), 0);	/* the one named, not the first */
	assert_int_equal(in_use(), 13);
	assert_int_equal(del(RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(in_use(), -1);
	assert_int_equal(aside(), 0);
}

static void test_a_displaced_route_stays_first_of_its_kind(void **state)
{
	struct rib_nh_spec x = via(20), y = via(21), better = via(22);

	assert_int_equal(add(RT_TABLE_MAIN, 100, x, RIB_ADD_APPEND), 0);
	assert_int_equal(add(RT_TABLE_MAIN, 100, y, RIB_ADD_APPEND), 0);
	assert_int_equal(add(RT_TABLE_MAIN, 50, better, RIB_ADD_APPEND), 0);
	assert_int_equal(in_use(), 22);
	assert_int_equal(del(RT_TABLE_MAIN, 50, &better), 0);
	assert_int_equal(in_use(), 20);	/* x was first of metric 100 before it was displaced */
	assert_int_equal(del(RT_TABLE_MAIN, 100, &x), 0);
	assert_int_equal(in_use(), 21);
	assert_int_equal(del(RT_TABLE_MAIN, 100, &y), 0);
	assert_int_equal(in_use(), -1);
}

static void test_replace_of_a_route_set_aside(void **state)
{
	struct rib_nh_spec used = via(30), old = via(31), new = via(32);

	assert_int_equal(add(RT_TABLE_MAIN, 10, used, RIB_ADD_APPEND), 0);
	assert_int_equal(add(RT_TABLE_MAIN, 20, old, RIB_ADD_APPEND), 0);
	assert_int_equal(add(RT_TABLE_MAIN, 20, new, RIB_ADD_REPLACE), 0);
	assert_int_equal(aside(), 1);	/* replaced, not added */
	assert_int_equal(del(RT_TABLE_MAIN, 10, &used), 0);
	assert_int_equal(in_use(), 32);
	assert_int_equal(del(RT_TABLE_MAIN, 20, &old), -ENOENT);
	assert_int_equal(del(RT_TABLE_MAIN, 20, &new), 0);
	assert_int_equal(in_use(), -1);
}

static void test_a_resync_renews_twins_and_sweeps_the_rest(void **state)
{
	struct rib_nh_spec x = via(40), y = via(41), v = via(42);

	assert_int_equal(add(RT_TABLE_MAIN, 0, x, RIB_ADD_APPEND), 0);
	assert_int_equal(add(RT_TABLE_MAIN, 0, y, RIB_ADD_APPEND), 0);
	/* the kernel's dump after an overflow: x is gone, y and a new v are there */
	rib_mark_begin();
	assert_int_equal(add(RT_TABLE_MAIN, 0, y, RIB_ADD_APPEND), 0);
	assert_int_equal(add(RT_TABLE_MAIN, 0, v, RIB_ADD_APPEND), 0);
	assert_int_equal(aside(), 2);	/* y renewed in place, v behind it */
	assert_int_equal(in_use(), 40);
	assert_int_equal(rib_sweep(), 1);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(in_use(), 41);
	assert_int_equal(aside(), 1);
	assert_int_equal(del(RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(in_use(), 42);
	assert_int_equal(del(RT_TABLE_MAIN, 0, &v), 0);
	assert_int_equal(in_use(), -1);
}

/* The kernel's list for one prefix, as fib_table_insert and fib_table_delete keep it. */
struct model_route {
	uint32_t table, metric, gw;
};

static struct model_route model[64];
static unsigned int model_n;

static int model_rank(uint32_t table)
{
	return rib_table_rank(table);
}

/* Index of the first route of (table, metric) [with gateway gw, unless gw is 0]. */
static int model_find(uint32_t table, uint32_t metric, uint32_t gw)
{
	unsigned int i;

	for (i = 0; i < model_n; i++)
		if (model[i].table == table && model[i].metric == metric && (!gw || model[i].gw == gw))
			return i;
	return -1;
}

static void model_insert(unsigned int at, struct model_route r)
{
	memmove(&model[at + 1], &model[at], (model_n - at) * sizeof(*model));
	model[at] = r;
	model_n++;
}

/* The route in use: the best table, then metric, then the first in the list. */
static int model_in_use(void)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < model_n; i++) {
		if (best >= 0 && (model_rank(model[i].table) > model_rank(model[best].table) ||
				  (model_rank(model[i].table) == model_rank(model[best].table) &&
				   model[i].metric >= model[best].metric)))
			continue;
		best = i;
	}
	return best < 0 ? -1 : (int)model[best].gw;
}

static void test_random_changes_follow_the_kernels_model(void **state)
{
	static const uint32_t tbl[] = { RT_TABLE_LOCAL, RT_TABLE_MAIN, T_EXTRA, T_LAST };
	unsigned int step, seed = 2026;

	for (step = 0; step < 20000; step++) {
		uint32_t table = tbl[rand_r(&seed) % 4], metric = (rand_r(&seed) % 2) * 10;
		uint32_t gw = 1 + rand_r(&seed) % 4;
		struct rib_nh_spec nh = via(gw);
		int first = model_find(table, metric, 0), same = model_find(table, metric, gw);
		unsigned int end;

		unsigned int op = rand_r(&seed) % 5;

		switch (op) {
		case 0:	/* ip route add: the kernel refuses it when the table and metric are taken */
		case 1:	/* append: the kernel refuses only an exact duplicate */
			if ((first >= 0 && op == 0) || same >= 0 || model_n == 64)
				continue;
			for (end = model_n; first >= 0 && (model[end - 1].table != table ||
							   model[end - 1].metric != metric); end--)
				;	/* after the last of its table and metric */
			model_insert(end, (struct model_route){ table, metric, gw });
			assert_int_equal(add(table, metric, nh, RIB_ADD_APPEND), 0);
			break;
		case 2:	/* prepend */
			if (same >= 0 || model_n == 64)
				continue;
			model_insert(first >= 0 ? (unsigned int)first : model_n,
				     (struct model_route){ table, metric, gw });
			assert_int_equal(add(table, metric, nh, RIB_ADD_PREPEND), 0);
			break;
		case 3:	/* replace: the first of the table and metric, or a new one */
			if (same >= 0 && same != first)
				continue;
			if (first >= 0)
				model[first].gw = gw;
			else if (model_n < 64)
				model_insert(model_n, (struct model_route){ table, metric, gw });
			else
				continue;
			assert_int_equal(add(table, metric, nh, RIB_ADD_REPLACE), 0);
			break;
		case 4:	/* delete, naming the nexthop or not */
			if (rand_r(&seed) % 2) {
				assert_int_equal(del(table, metric, &nh), same >= 0 ? 0 : -ENOENT);
				first = same;
			} else {
				assert_int_equal(del(table, metric, NULL), first >= 0 ? 0 : -ENOENT);
			}
			if (first >= 0) {
				memmove(&model[first], &model[first + 1], (model_n - first - 1) * sizeof(*model));
				model_n--;
			}
			break;
		}
		if (in_use() != model_in_use())
			fail_msg("step %u: ternd uses the route via .%d, the kernel via .%d", step, in_use(),
				 model_in_use());
		assert_int_equal(aside(), model_n ? model_n - 1 : 0);
	}
}

/* show ip route summary's counts, as a walk over every route in use finds them. */
static void counts_by_walk(struct rib_counts *w)
{
	struct rib_route_entry *ri;
	struct rib_nh_spec nh;
	unsigned int n, i;

	memset(w, 0, sizeof(*w));
	assert_int_equal(rib_routes_sorted(AF_INET, &ri, &n, false), 0);
	for (i = 0; i < n; i++) {
		rib_nh_spec_of(ri[i].nh_id, &nh);
		w->routes[ri[i].attrs.src]++;
		w->by_type[nh.type]++;
	}
	free(ri);
}

/* The counts kept as routes change equal a walk's after any mix of adds, replaces, deletes,
 * adjacencies, routes set aside and back, a port's flush and a kernel nexthop object that
 * changes type in place. */
static void test_the_summarys_counts_follow_every_change(void **state)
{
	static const uint32_t tbl[] = { RT_TABLE_MAIN, T_EXTRA };
	struct rib_nh_spec obj = { .type = RIB_NH_GATEWAY, .knh = 7, .hop = { .port = 0, .gw = 0xc6120009u } };
	struct rib_nh_spec black = { .type = RIB_NH_BLACKHOLE, .knh = 7 };
	struct rib_counts c, w, before;
	unsigned int step, seed = 7, t;

	rib_flush_port(0);	/* what the cases before left through the port: flushed below too */
	assert_int_equal(rib_commit(), 0);
	rib_counts(&before);
	for (step = 0; step < 4000; step++) {
		uint32_t prefix = P + ((rand_r(&seed) % 32) << 8), table = tbl[rand_r(&seed) % 2];
		uint32_t metric = (rand_r(&seed) % 2) * 10;
		struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
					     .metric = metric, .table = table };
		struct rib_route_attrs adj = { .src = RIB_SRC_ADJACENCY };
		struct rib_nh_spec nh;

		switch (rand_r(&seed) % 6) {
		case 0: nh = via(1 + rand_r(&seed) % 3); break;
		case 1: nh = (struct rib_nh_spec){ .type = RIB_NH_LOCAL }; break;
		case 2: nh = (struct rib_nh_spec){ .type = RIB_NH_UNREACHABLE }; break;
		default: nh = obj; break;
		}
		switch (rand_r(&seed) % 8) {
		case 0: case 1: case 2:
			rib_route_add(prefix, 24, &a, &nh, (enum rib_add_mode)(rand_r(&seed) % 3));
			break;
		case 3: case 4:
			rib_route_del(prefix, 24, table, metric, rand_r(&seed) % 2 ? &nh : NULL);
			break;
		case 5:	/* a neighbour's adjacency, and a kernel host route over it and gone again */
			rib_route_add(prefix | 1, 32, &adj, &(struct rib_nh_spec){ .type = RIB_NH_GATEWAY,
				      .hop = { .port = 0, .gw = prefix | 1 } }, RIB_ADD_REPLACE);
			if (rand_r(&seed) % 2)
				rib_route_add(prefix | 1, 32, &a, &nh, RIB_ADD_REPLACE);
			else
				rib_route_del(prefix | 1, 32, table, metric, NULL);
			break;
		case 6:	/* the kernel object's routes change type with it */
			rib_nh_replace_object(7, rand_r(&seed) % 2 ? &black : &obj);
			break;
		case 7:
			if (rand_r(&seed) % 16 == 0)
				rib_flush_port(0);
			break;
		}
		assert_int_equal(rib_commit(), 0);
		rib_counts(&c);
		counts_by_walk(&w);
		if (memcmp(c.routes, w.routes, sizeof(c.routes)) != 0 ||
		    memcmp(c.by_type, w.by_type, sizeof(c.by_type)) != 0)
			fail_msg("step %u: kept %u kernel, %u adjacencies; a walk finds %u, %u", step,
				 c.routes[RIB_SRC_KERNEL], c.routes[RIB_SRC_ADJACENCY],
				 w.routes[RIB_SRC_KERNEL], w.routes[RIB_SRC_ADJACENCY]);
	}
	/* everything goes: the counts are what they were */
	for (t = 0; t < 32; t++) {
		while (rib_route_del(P + (t << 8), 24, RT_TABLE_MAIN, 0, NULL) == 0 ||
		       rib_route_del(P + (t << 8), 24, RT_TABLE_MAIN, 10, NULL) == 0 ||
		       rib_route_del(P + (t << 8), 24, T_EXTRA, 0, NULL) == 0 ||
		       rib_route_del(P + (t << 8), 24, T_EXTRA, 10, NULL) == 0 ||
		       rib_route_del(P + (t << 8) + 1, 32, T_EXTRA, 0, NULL) == 0 ||
		       rib_route_del(P + (t << 8) + 1, 32, T_EXTRA, 10, NULL) == 0 ||
		       rib_route_del(P + (t << 8) + 1, 32, RT_TABLE_MAIN, 0, NULL) == 0 ||
		       rib_route_del(P + (t << 8) + 1, 32, RT_TABLE_MAIN, 10, NULL) == 0)
			;
		rib_adjacency_del(P + (t << 8) + 1);
	}
	assert_int_equal(rib_commit(), 0);
	rib_counts(&c);
	counts_by_walk(&w);
	assert_memory_equal(c.routes, w.routes, sizeof(c.routes));
	assert_memory_equal(c.by_type, w.by_type, sizeof(c.by_type));
	assert_memory_equal(c.routes, before.routes, sizeof(c.routes));
}

static void test_the_kernels_flags_give_the_mode(void **state)
{
	assert_int_equal(mirror_add_mode(NLM_F_REPLACE), RIB_ADD_REPLACE);
	assert_int_equal(mirror_add_mode(NLM_F_REPLACE | NLM_F_CREATE), RIB_ADD_REPLACE);
	assert_int_equal(mirror_add_mode(NLM_F_CREATE | NLM_F_EXCL), RIB_ADD_APPEND);
	assert_int_equal(mirror_add_mode(NLM_F_CREATE | NLM_F_APPEND), RIB_ADD_APPEND);
	assert_int_equal(mirror_add_mode(NLM_F_CREATE), RIB_ADD_PREPEND);
	assert_int_equal(mirror_add_mode(NLM_F_MULTI), RIB_ADD_APPEND);	/* a dump */
	assert_int_equal(mirror_add_mode(0), RIB_ADD_APPEND);
}

int main(void)
{
	static const uint32_t tables[] = { T_EXTRA, T_LAST };
	static const uint32_t main_again[] = { RT_TABLE_MAIN };
	char prefix[64];
	char *argv[] = { "test_rib", "--no-huge", "-m", "512", "--no-pci", "-l", "0",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_preference_comes_before_metric),
		cmocka_unit_test(test_unlisted_tables_are_refused),
		cmocka_unit_test(test_append_prepend_replace_keep_the_kernels_order),
		cmocka_unit_test(test_a_displaced_route_stays_first_of_its_kind),
		cmocka_unit_test(test_replace_of_a_route_set_aside),
		cmocka_unit_test(test_a_resync_renews_twins_and_sweeps_the_rest),
		cmocka_unit_test(test_random_changes_follow_the_kernels_model),
		cmocka_unit_test(test_the_kernels_flags_give_the_mode),
		cmocka_unit_test(test_neighbours_of_both_families_share_the_table),
		cmocka_unit_test(test_ipv6_addresses_give_the_error_source),
		cmocka_unit_test(test_neighbours_resolve_their_nexthops_and_stop_at_the_limit),
		cmocka_unit_test(test_nexthop_ids_are_reused),
		cmocka_unit_test(test_a_nexthop_released_twice_is_freed_after_its_last_release),
		cmocka_unit_test(test_the_summarys_counts_follow_every_change),
		cmocka_unit_test(test_members_replaced_in_place_outlive_the_readers_of_the_group),
		cmocka_unit_test(test_a_group_that_failed_to_publish_is_not_found_again),
		cmocka_unit_test(test_a_change_after_a_failed_early_commit_is_kept),
		cmocka_unit_test(test_routes_the_fib_refused_wait_for_room),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-rib-%d", getpid());
	dp.nb_ports = 1;	/* the neighbours' port 0 */
	if (rte_eal_init(11, argv) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(4096, SOCKET_ID_ANY) < 0 || rib_init(4096, NEIGH_MAX) < 0 ||
	    rib_set_tables(main_again, 1) != -EINVAL || rib_set_tables(tables, 2) < 0) {
		fprintf(stderr, "test_rib: cannot set up EAL and the tables\n");
		return 1;
	}
	return cmocka_run_group_tests_name("rib", tests, NULL, NULL);
}
