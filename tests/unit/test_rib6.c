/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 in the one RIB: IPv6 routes reach the IPv6 FIB through the nexthops IPv4's use, an
 * IPv6 gateway resolves through its NDP neighbour (for IPv4 routes too, RFC 8950), a global
 * neighbour gets its /128 adjacency and a link-local one none, the families are counted apart,
 * and a route the IPv6 FIB has no room for waits until it has.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <errno.h>

#include <linux/rtnetlink.h>
#include <rte_eal.h>

#include "controlplane/mirror/rib.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

#define FIB6_ROUTES 1024

static const struct rib_route_attrs kernel = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
					       .table = RT_TABLE_MAIN };

/* 2001:db8:A:B::C */
static void addr6(uint8_t a[16], unsigned int x, unsigned int y, unsigned int z)
{
	memset(a, 0, 16);
	a[0] = 0x20; a[1] = 0x01; a[2] = 0x0d; a[3] = 0xb8;
	a[4] = x >> 8; a[5] = x; a[6] = y >> 8; a[7] = y;
	a[14] = z >> 8; a[15] = z;
}

static struct rib_nh_spec via6(const uint8_t gw[16])
{
	struct rib_nh_spec s = { .type = RIB_NH_GATEWAY, .hop = { .port = 0, .family = AF_INET6 } };

	memcpy(s.hop.gw6, gw, 16);
	return s;
}

static struct rte_ether_addr mac_of(uint8_t last)
{
	return (struct rte_ether_addr){ { 0x02, 0, 0, 0, 0x66, last } };
}

static const struct dp_nexthop *fib6_answer(const uint8_t a[16])
{
	return dp_nh_get(dp_fib6_lookup(a));
}

static void test_a_route_via_an_ipv6_gateway_forwards_once_ndp_resolves_it(void **state)
{
	uint8_t pfx[16], dst[16], gw[16];
	struct rte_ether_addr mac = mac_of(1);
	struct rib_nh_spec s;
	struct rib_route_info ri;

	(void)state;
	addr6(pfx, 1, 0, 0);
	addr6(dst, 1, 0x77, 5);
	addr6(gw, 0xff, 0, 1);
	s = via6(gw);
	assert_int_equal(rib_route6_add(pfx, 48, &kernel, &s, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(fib6_answer(dst)->kind, DP_NH_UNRESOLVED);
	assert_int_equal(rib_route6_lookup(dst, &ri), 0);
	assert_int_equal(ri.family, AF_INET6);
	assert_int_equal(ri.len, 48);
	assert_memory_equal(ri.nh.hop.gw6, gw, 16);
	/* the gateway's NDP entry gives the MAC; it is no IPv4 neighbour of those bytes */
	assert_int_equal(rib_neigh_set(0, 0x20010db8u, &mac, false), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(fib6_answer(dst)->kind, DP_NH_UNRESOLVED);
	assert_int_equal(rib_neigh6_set(0, gw, &mac, false), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(fib6_answer(dst)->kind, DP_NH_FORWARD);
	assert_true(rte_is_same_ether_addr(&fib6_answer(dst)->eth.dst_addr, &mac));
	/* the neighbour goes: unresolved again; the route goes: no route */
	assert_int_equal(rib_neigh6_del(0, gw), 0);
	assert_int_equal(rib_neigh_del(0, 0x20010db8u), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(fib6_answer(dst)->kind, DP_NH_UNRESOLVED);
	assert_int_equal(rib_route6_del(pfx, 48, RT_TABLE_MAIN, 0, &s), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_fib6_lookup(dst), 0);
	assert_int_equal(rib_route6_lookup(dst, &ri), -ENETUNREACH);
}

/* RFC 8950: an IPv4 route whose gateway is an IPv6 address resolves through the NDP entry. */
static void test_an_ipv4_route_via_an_ipv6_gateway_resolves_through_ndp(void **state)
{
	uint8_t ll[16] = { 0xfe, 0x80, [15] = 1 };
	struct rte_ether_addr mac = mac_of(2);
	struct rib_nh_spec s = via6(ll);
	const struct dp_nexthop *nh;

	(void)state;
	assert_int_equal(rib_route_add(0xc6130000u, 24, &kernel, &s, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_nh_get(dp_fib_lookup(0xc6130009u))->kind, DP_NH_UNRESOLVED);
	assert_int_equal(rib_neigh6_set(0, ll, &mac, false), 0);
	assert_int_equal(rib_commit(), 0);
	nh = dp_nh_get(dp_fib_lookup(0xc6130009u));
	assert_int_equal(nh->kind, DP_NH_FORWARD);
	assert_true(rte_is_same_ether_addr(&nh->eth.dst_addr, &mac));
	/* a link-local neighbour gets no host route: each link has its own fe80::/64 */
	assert_int_equal(rib_route6_lookup(ll, &(struct rib_route_info){ 0 }), -ENETUNREACH);
	assert_int_equal(rib_route_del(0xc6130000u, 24, RT_TABLE_MAIN, 0, &s), 0);
	assert_int_equal(rib_neigh6_del(0, ll), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_fib_lookup(0xc6130009u), 0);
}

/* A global neighbour's /128 adjacency forwards; a kernel /128 hides it, and it comes back when
 * that goes. */
static void test_a_global_neighbour_gets_its_adjacency(void **state)
{
	uint8_t h[16];
	struct rte_ether_addr mac = mac_of(3);
	struct rib_nh_spec blackhole = { .type = RIB_NH_BLACKHOLE };
	struct rib_route_info ri;

	(void)state;
	addr6(h, 2, 0, 9);
	assert_int_equal(rib_neigh6_set(0, h, &mac, false), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(rib_route6_get(h, 128, &ri), 0);
	assert_int_equal(ri.attrs.src, RIB_SRC_ADJACENCY);
	assert_int_equal(fib6_answer(h)->kind, DP_NH_FORWARD);
	assert_int_equal(rib_route6_add(h, 128, &kernel, &blackhole, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(fib6_answer(h)->kind, DP_NH_BLACKHOLE);
	assert_int_equal(rib_route6_del(h, 128, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(fib6_answer(h)->kind, DP_NH_FORWARD);
	assert_int_equal(rib_neigh6_del(0, h), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(rib_route6_get(h, 128, &ri), -ENOENT);
	assert_int_equal(dp_fib6_lookup(h), 0);
}

/* Routes of each family are counted apart, and the lower metric of two is the one in use. */
static void test_the_families_are_counted_apart(void **state)
{
	uint8_t pfx[16], dst[16];
	struct rib_nh_spec conn = { .type = RIB_NH_CONNECTED, .hop = { .port = 0 } };
	struct rib_nh_spec blackhole = { .type = RIB_NH_BLACKHOLE };
	struct rib_route_attrs worse = kernel;
	struct rib_counts c4, c6;

	(void)state;
	addr6(pfx, 3, 0, 0);
	addr6(dst, 3, 0, 1);
	worse.metric = 100;
	assert_int_equal(rib_route6_add(pfx, 64, &worse, &blackhole, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_route6_add(pfx, 64, &kernel, &conn, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_route_add(0xc6140000u, 24, &kernel, &conn, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_commit(), 0);
	rib_counts(&c4);
	rib_counts6(&c6);
	assert_int_equal(c4.routes[RIB_SRC_KERNEL], 1);
	assert_int_equal(c4.alternates, 0);
	assert_int_equal(c4.by_type[RIB_NH_CONNECTED], 1);
	assert_int_equal(c6.routes[RIB_SRC_KERNEL], 1);
	assert_int_equal(c6.alternates, 1);
	assert_int_equal(c6.by_type[RIB_NH_CONNECTED], 1);
	assert_int_equal(c6.by_type[RIB_NH_BLACKHOLE], 0);
	assert_int_equal(fib6_answer(dst)->kind, DP_NH_UNRESOLVED);
	/* the one in use goes: the other takes over */
	assert_int_equal(rib_route6_del(pfx, 64, RT_TABLE_MAIN, 0, NULL), 0);
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(fib6_answer(dst)->kind, DP_NH_BLACKHOLE);
	rib_counts6(&c6);
	assert_int_equal(c6.by_type[RIB_NH_BLACKHOLE], 1);
	assert_int_equal(c6.alternates, 0);
	/* a resync that sees neither: both families swept */
	rib_mark_begin();
	assert_int_equal(rib_sweep(), 2);
	assert_int_equal(rib_commit(), 0);
	rib_counts(&c4);
	rib_counts6(&c6);
	assert_int_equal(c4.routes[RIB_SRC_KERNEL] + c6.routes[RIB_SRC_KERNEL], 0);
	assert_int_equal(dp_fib6_routes(), 0);
}

/* /64s in as many /24s need five groups each: more than the IPv6 FIB has. Those refused wait,
 * unplaced, and go in as others leave room. */
static void test_routes_the_fib6_refused_wait_for_room(void **state)
{
	struct rib_nh_spec blackhole = { .type = RIB_NH_BLACKHOLE };
	unsigned int i, n = 400, placed = 0;
	struct rib_route_info ri;
	struct rib_counts c;
	uint8_t p[16];

	(void)state;
	for (i = 0; i < n; i++) {
		addr6(p, 0x100 + i, 0, 0);
		p[2] = 0x40 + i / 256;	/* a /24 each: 2001:4x:... */
		p[1] = i % 256;
		assert_int_equal(rib_route6_add(p, 64, &kernel, &blackhole, RIB_ADD_APPEND), 0);
	}
	rib_commit();
	rib_counts6(&c);
	assert_int_equal(c.routes[RIB_SRC_KERNEL], n);
	assert_true(c.unplaced > 0);
	assert_int_equal(dp_fib6_routes() + c.unplaced, n);
	for (i = 0; i < n; i++) {
		addr6(p, 0x100 + i, 0, 0);
		p[2] = 0x40 + i / 256;
		p[1] = i % 256;
		assert_int_equal(rib_route6_get(p, 64, &ri), 0);
		assert_int_equal(dp_fib6_route(p, 64, NULL), !ri.unplaced);
		placed += !ri.unplaced;
	}
	assert_int_equal(placed, dp_fib6_routes());
	/* the placed ones go: every other fits now */
	for (i = 0; i < n; i++) {
		addr6(p, 0x100 + i, 0, 0);
		p[2] = 0x40 + i / 256;
		p[1] = i % 256;
		if (rib_route6_get(p, 64, &ri) == 0 && !ri.unplaced)
			assert_int_equal(rib_route6_del(p, 64, RT_TABLE_MAIN, 0, NULL), 0);
	}
	assert_int_equal(rib_commit(), 0);
	rib_counts6(&c);
	assert_int_equal(c.unplaced, 0);
	assert_int_equal(c.routes[RIB_SRC_KERNEL], n - placed);
	assert_int_equal(dp_fib6_routes(), n - placed);
	rib_mark_begin();
	rib_sweep();
	assert_int_equal(rib_commit(), 0);
	assert_int_equal(dp_fib6_routes(), 0);
}

/* Two interfaces holding one address (a link-local one, say) have a local route each: the
 * kernel removing one leaves the address local through the other. */
static void test_an_address_on_two_interfaces_stays_local_while_one_holds_it(void **state)
{
	static const uint8_t ll[16] = { 0xfe, 0x80, [15] = 1 };
	const struct rib_route_attrs local = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_KERNEL,
					       .table = RT_TABLE_LOCAL };
	struct rib_nh_spec on5 = { .type = RIB_NH_LOCAL, .local_dev = 5 };
	struct rib_nh_spec on7 = { .type = RIB_NH_LOCAL, .local_dev = 7 };
	struct rib_route_info ri;

	(void)state;
	assert_int_equal(rib_route6_add(ll, 128, &local, &on5, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_route6_add(ll, 128, &local, &on7, RIB_ADD_APPEND), 0);
	assert_int_equal(rib_route6_del(ll, 128, RT_TABLE_LOCAL, 0, &on5), 0);
	rib_commit();
	assert_int_equal(rib_route6_get(ll, 128, &ri), 0);
	assert_int_equal(ri.nh.type, RIB_NH_LOCAL);
	assert_int_equal(fib6_answer(ll)->kind, DP_NH_LOCAL);
	assert_int_equal(rib_route6_del(ll, 128, RT_TABLE_LOCAL, 0, &on7), 0);
	rib_commit();
	assert_int_equal(rib_route6_get(ll, 128, &ri), -ENOENT);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_rib6", "--no-huge", "-m", "512", "--no-pci", "-l", "0",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_route_via_an_ipv6_gateway_forwards_once_ndp_resolves_it),
		cmocka_unit_test(test_an_ipv4_route_via_an_ipv6_gateway_resolves_through_ndp),
		cmocka_unit_test(test_a_global_neighbour_gets_its_adjacency),
		cmocka_unit_test(test_the_families_are_counted_apart),
		cmocka_unit_test(test_routes_the_fib6_refused_wait_for_room),
		cmocka_unit_test(test_an_address_on_two_interfaces_stays_local_while_one_holds_it),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-rib6-%d", getpid());
	dp.nb_ports = 1;	/* the neighbours' port 0 */
	if (rte_eal_init(11, argv) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(4096, SOCKET_ID_ANY) < 0 || dp_fib6_init(FIB6_ROUTES, SOCKET_ID_ANY) < 0 ||
	    rib_init(4096, 1024) < 0 || rib_init6(FIB6_ROUTES) < 0) {
		fprintf(stderr, "test_rib6: cannot set up EAL and the tables\n");
		return 1;
	}
	return cmocka_run_group_tests_name("rib6", tests, NULL, NULL);
}
