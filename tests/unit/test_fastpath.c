/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_fast must not change what happens to any packet: every frame below goes
 * through ternd's graph twice, once as it comes (the fast path takes what it
 * can) and once with the packet trace armed (which sends it down the long
 * path, eth_input .. ip_rewrite), and both runs must send the same bytes out
 * of the same ports, punt the same bytes to the kernel and count the same
 * drop, punt, ICMP and tx nodes. The plain forwarded frames must really have
 * taken the fast path, and the others really the long one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_ip.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "dataplane/harness/pipeline.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/punt/punt.h"
#include "dataplane/trace.h"

#define SRC 0xc6120002u		/* 198.18.0.2, behind port 0 */
#define FWD 0xc6130005u		/* 198.19.0.5: forwarded out of port 1 */
#define MAX_OUT 64
#define MAX_KINDS 64
#define NB_NEIGHBOURS 10	/* next hops that differ only in their MAC, one route each */
#define NEIGHBOUR_NH 20		/* a vector may hold RTE_GRAPH_BURST_SIZE (256) */

static struct pipeline p;

struct frame {
	uint8_t b[256];
	uint16_t len;
};

struct outcome {
	struct pipeline_frame sent[MAX_OUT];
	unsigned int nb_sent;
	struct pipeline_frame punted[MAX_OUT];
	unsigned int nb_punted;
	uint64_t sinks[256];	/* total_objs of every drop_*, punt_*, icmp_* and port_tx-* node */
	uint64_t eth_input;	/* packets the long path took */
};

static struct rte_ipv4_hdr *ip_of(struct frame *f)
{
	return (struct rte_ipv4_hdr *)(f->b + sizeof(struct rte_ether_hdr));
}

static void fix_cksum(struct frame *f)
{
	ip_of(f)->hdr_checksum = 0;
	ip_of(f)->hdr_checksum = rte_ipv4_cksum(ip_of(f));
}

/* A UDP datagram from SRC to dst, for port 0's MAC, with a good checksum. */
static struct frame udp(uint32_t dst, uint8_t ttl, uint16_t payload)
{
	struct frame f = { .len = sizeof(struct rte_ether_hdr) + 20 + 8 + payload };
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f.b;
	struct rte_ipv4_hdr *ip = ip_of(&f);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(ip + 1);
	unsigned int i;

	eth->dst_addr = dp_port0_mac();
	rte_ether_unformat_addr("02:00:00:00:b0:00", &eth->src_addr);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(20 + 8 + payload);
	ip->packet_id = RTE_BE16(0x1234);
	ip->time_to_live = ttl;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(SRC);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	u->src_port = RTE_BE16(40000);
	u->dst_port = RTE_BE16(7);
	u->dgram_len = rte_cpu_to_be_16(8 + payload);
	for (i = 0; i < payload; i++)
		f.b[f.len - payload + i] = i;
	fix_cksum(&f);
	return f;
}

static void snapshot(struct outcome *o)
{
	struct rte_node *n;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned int k = 0;

	o->eth_input = 0;
	rte_graph_foreach_node(count, off, p.graph, n) {
		if (strcmp(n->name, "eth_input") == 0)
			o->eth_input = n->total_objs;
		if (strncmp(n->name, "drop_", 5) && strncmp(n->name, "punt_", 5) &&
		    strncmp(n->name, "icmp_", 5) && strncmp(n->name, "port_tx-", 8))
			continue;
		assert_true(k < RTE_DIM(o->sinks));
		o->sinks[k++] = n->total_objs;
	}
}

/* Every kind of frame check_same saw, and whether the fast path takes it alone. */
static struct frame kinds[MAX_KINDS];
static bool kind_fast[MAX_KINDS];
static unsigned int nb_kinds;

/* One walk with the n frames f in one vector; what it did, as differences of the node counters. */
static void run(const struct frame *f, unsigned int n, bool long_path, struct outcome *o)
{
	const uint8_t *frames[MAX_KINDS];
	uint16_t lens[MAX_KINDS];
	struct outcome before;
	unsigned int i;
	void *m;

	assert_true(n <= MAX_KINDS);
	for (i = 0; i < n; i++) {
		frames[i] = f[i].b;
		lens[i] = f[i].len;
	}
	memset(o, 0, sizeof(*o));
	snapshot(&before);
	if (long_path)
		assert_int_equal(dp_trace_arm(DP_TRACE_ANY_PORT, n), 0);
	pipeline_capture(o->sent, MAX_OUT, &o->nb_sent);
	pipeline_inject(frames, lens, n);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	if (long_path) {
		assert_int_equal(dp_trace_in_flight(), 0);	/* it was traced, and its record ended */
		dp_trace_disarm();
	}
	while (dp_punt_dequeue(0, &m) == 0) {
		struct pipeline_frame *pf = &o->punted[o->nb_punted++];
		struct rte_mbuf *mb = m;

		pf->len = rte_pktmbuf_pkt_len(mb);
		memcpy(pf->data, rte_pktmbuf_mtod(mb, void *), RTE_MIN(pf->len, sizeof(pf->data)));
		rte_pktmbuf_free(mb);
	}
	snapshot(o);
	for (i = 0; i < RTE_DIM(o->sinks); i++)
		o->sinks[i] -= before.sinks[i];
	o->eth_input -= before.eth_input;
}

static void same_frames(const char *what, const char *name, const struct pipeline_frame *a,
			unsigned int na, const struct pipeline_frame *b, unsigned int nb)
{
	unsigned int i;

	if (na != nb)
		fail_msg("%s: %u frame(s) %s on the fast path, %u on the long path", name, na, what, nb);
	for (i = 0; i < na; i++)
		if (a[i].port != b[i].port || a[i].len != b[i].len ||
		    memcmp(a[i].data, b[i].data, RTE_MIN(a[i].len, sizeof(a[i].data))) != 0)
			fail_msg("%s: frame %u %s differs between the paths", name, i, what);
}

/* The frame's fate on both paths; fast: whether the fast path should take it alone. */
static void check_same(const char *name, const struct frame *f, bool fast)
{
	struct outcome a, b;

	assert_true(nb_kinds < MAX_KINDS);
	kinds[nb_kinds] = *f;
	kind_fast[nb_kinds++] = fast;
	run(f, 1, false, &a);
	run(f, 1, true, &b);
	same_frames("sent", name, a.sent, a.nb_sent, b.sent, b.nb_sent);
	same_frames("punted", name, a.punted, a.nb_punted, b.punted, b.nb_punted);
	if (memcmp(a.sinks, b.sinks, sizeof(a.sinks)) != 0)
		fail_msg("%s: the drop/punt/icmp/tx counters differ between the paths", name);
	if (b.eth_input != 1)
		fail_msg("%s: the armed trace did not send it down the long path", name);
	if (fast ? a.eth_input != 0 : a.eth_input != 1)
		fail_msg("%s: expected the %s path, it took the other", name, fast ? "fast" : "long");
	if (fast && (a.nb_sent != 1 || a.sent[0].port != 1))
		fail_msg("%s: not forwarded out of port 1", name);
}

/* The frame sent for f, injected in one segment or in two split after split bytes. */
static struct pipeline_frame sent_for(const struct frame *f, uint16_t split)
{
	struct pipeline_shape shape = { .first_seg = split };
	const uint8_t *frames[1] = { f->b };
	uint16_t lens[1] = { f->len };
	struct pipeline_frame sent[4];
	unsigned int nb = 0;
	void *m;

	pipeline_capture(sent, RTE_DIM(sent), &nb);
	pipeline_inject_shaped(frames, lens, &shape, 1);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	while (dp_punt_dequeue(0, &m) == 0)
		rte_pktmbuf_free(m);
	assert_int_equal(nb, 1);
	return sent[0];
}

/*
 * A driver may hand a frame over in two segments, the first ending at the IPv4 header:
 * such a frame is forwarded as the same frame in one segment is, byte for byte, and an
 * ECMP flow takes the same member (its ports, which pick the member, are in the second
 * segment: reading them past the first segment's end gave a member at random).
 */
static void test_a_frame_in_two_segments_goes_where_it_would_in_one(void **state)
{
	unsigned int i, members[2] = { 0 };

	for (i = 0; i < 200; i++) {
		struct frame f = udp(0xc6130107, 64, 18);	/* ECMP: 198.19.1.0/24 */
		struct pipeline_frame one, two;

		((struct rte_udp_hdr *)(ip_of(&f) + 1))->src_port = rte_cpu_to_be_16(1024 + i * 17);
		one = sent_for(&f, 0);
		two = sent_for(&f, sizeof(struct rte_ether_hdr) + 20);
		assert_int_equal(one.port, two.port);
		assert_int_equal(one.len, two.len);
		assert_memory_equal(one.data, two.data, one.len);
		members[one.data[5] & 1]++;
	}
	/* both members were taken, so the ports did count */
	assert_true(members[0] > 0 && members[1] > 0);
}

static void test_every_kind_of_frame_has_one_fate(void **state)
{
	struct frame f;
	unsigned int i;

	check_same("forwarded", (f = udp(FWD, 64, 18), &f), true);
	check_same("forwarded, TTL 2", (f = udp(FWD, 2, 18), &f), true);
	check_same("ECMP", (f = udp(0xc6130107, 64, 18), &f), true);
	/* FWD's /24 holds a /28 with its own next hop: the lookup's second level */
	check_same("a /28 inside a /24", (f = udp(0xc6130011, 64, 18), &f), true);
	check_same("the /24 around a /28", (f = udp(0xc6130021, 64, 18), &f), true);
	f = udp(FWD, 64, 18);
	f.len = 60;	/* Ethernet padding after the datagram */
	check_same("padded", &f, true);
	check_same("TTL 1", (f = udp(FWD, 1, 18), &f), false);
	check_same("TTL 0", (f = udp(FWD, 0, 18), &f), false);
	check_same("to the router", (f = udp(0xc6120001, 64, 18), &f), false);
	check_same("unresolved", (f = udp(0xc6130201, 64, 18), &f), false);
	check_same("blackhole", (f = udp(0xc6130301, 64, 18), &f), false);
	check_same("unreachable", (f = udp(0xc6130401, 64, 18), &f), false);
	check_same("prohibit", (f = udp(0xc6130501, 64, 18), &f), false);
	check_same("no route", (f = udp(0xc613c801, 64, 18), &f), false);
	check_same("multicast", (f = udp(0xe0000005, 64, 18), &f), false);
	check_same("broadcast", (f = udp(0xffffffff, 64, 18), &f), false);
	check_same("martian source", (f = udp(FWD, 64, 18), ip_of(&f)->src_addr = RTE_BE32(0x7f000001),
				      fix_cksum(&f), &f), false);
	check_same("martian destination", (f = udp(0x00010203, 64, 18), &f), false);
	f = udp(FWD, 64, 18);
	ip_of(&f)->hdr_checksum ^= 0x0100;
	check_same("bad checksum", &f, false);
	f = udp(FWD, 64, 18);
	ip_of(&f)->version_ihl = 0x46;
	fix_cksum(&f);
	check_same("IP options", &f, false);
	f = udp(FWD, 64, 18);
	ip_of(&f)->version_ihl = 0x44;
	check_same("IHL 4", &f, false);
	f = udp(FWD, 64, 18);
	ip_of(&f)->version_ihl = 0x65;
	check_same("version 6", &f, false);
	f = udp(FWD, 64, 18);
	ip_of(&f)->total_length = RTE_BE16(200);
	fix_cksum(&f);
	check_same("total length past the frame", &f, false);
	f = udp(FWD, 64, 18);
	ip_of(&f)->total_length = RTE_BE16(12);
	fix_cksum(&f);
	check_same("total length under the header", &f, false);
	f = udp(FWD, 64, 18);
	f.len = 30;
	check_same("truncated IP header", &f, false);
	f.len = 10;
	check_same("runt", &f, false);
	f = udp(FWD, 64, 18);
	rte_ether_unformat_addr("02:00:00:00:99:99", (struct rte_ether_addr *)f.b);
	check_same("another host's MAC", &f, false);
	f = udp(FWD, 64, 18);
	memset(f.b, 0xff, 6);
	check_same("broadcast MAC", &f, false);
	f = udp(FWD, 64, 18);
	((struct rte_ether_hdr *)f.b)->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	check_same("ARP", &f, false);
	f = udp(FWD, 64, 18);
	((struct rte_ether_hdr *)f.b)->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	check_same("IPv6", &f, false);
	f = udp(0xc6130605, 64, 200);	/* 228 bytes of IP over an MTU of 100 */
	ip_of(&f)->fragment_offset = RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	fix_cksum(&f);
	check_same("over the MTU with DF", &f, false);
	check_same("over the MTU without DF", (f = udp(0xc6130605, 64, 200), &f), false);
	check_same("within the small MTU", (f = udp(0xc6130605, 64, 40), &f), true);
	/* side by side in the mixed vector: a frame given its neighbour's next hop shows */
	for (i = 0; i < NB_NEIGHBOURS; i++)
		check_same("to a neighbour of its own", (f = udp(0xc6131005 + (i << 8), 64, 18), &f), true);
}

/* The kinds in one vector, starting from kind first and wrapping around. */
static void check_mixed_vector(unsigned int first)
{
	struct frame vec[MAX_KINDS];
	struct outcome a, b;
	unsigned int i, fast = 0;
	char name[48];

	for (i = 0; i < nb_kinds; i++) {
		vec[i] = kinds[(first + i) % nb_kinds];
		fast += kind_fast[i];
	}
	assert_true(fast > 2 && fast < nb_kinds);	/* it is mixed */
	snprintf(name, sizeof(name), "mixed vector from kind %u", first);
	run(vec, nb_kinds, false, &a);
	run(vec, nb_kinds, true, &b);
	qsort(a.sent, a.nb_sent, sizeof(a.sent[0]), pipeline_frame_cmp);
	qsort(b.sent, b.nb_sent, sizeof(b.sent[0]), pipeline_frame_cmp);
	qsort(a.punted, a.nb_punted, sizeof(a.punted[0]), pipeline_frame_cmp);
	qsort(b.punted, b.nb_punted, sizeof(b.punted[0]), pipeline_frame_cmp);
	same_frames("sent", name, a.sent, a.nb_sent, b.sent, b.nb_sent);
	same_frames("punted", name, a.punted, a.nb_punted, b.punted, b.nb_punted);
	if (memcmp(a.sinks, b.sinks, sizeof(a.sinks)) != 0)
		fail_msg("%s: the drop/punt/icmp/tx counters differ between the paths", name);
	assert_int_equal(a.eth_input, nb_kinds - fast);
	assert_int_equal(b.eth_input, nb_kinds);
}

/*
 * All the kinds at once, in one vector, fast ones among slow ones: the fast
 * path must match each packet with its own lookup answer and send the rest on
 * untouched. The same frames and counts come out as on the long path; the
 * order of what is sent may differ (the fast path sends before the long one).
 * ip4_fast checks a vector's first frames in a pass of their own and the rest
 * as it forwards them: the vector is turned so that every kind takes each
 * place.
 */
static void test_a_mixed_vector_has_the_same_fates(void **state)
{
	unsigned int first;

	for (first = 0; first < nb_kinds; first++)
		check_mixed_vector(first);
}

/*
 * An ICMP error to one of the router's own addresses (here: a frame from 198.18.0.1,
 * which is local, to a destination with no route) is punted to the kernel as built. It
 * must carry the offending frame's link header, for the port's MAC, or the kernel drops
 * it as another host's: the bytes in front of the new headers were the headroom's.
 */
static void test_an_icmp_error_to_the_router_is_punted_with_the_frame_link_header(void **state)
{
	struct frame f = udp(0xc613c801, 64, 18);
	const struct rte_ether_hdr *eth;
	const struct rte_ipv4_hdr *ip;
	const uint8_t *icmp;
	struct rte_ether_addr own = dp_port0_mac(), peer;
	struct outcome o;
	int path;

	rte_ether_unformat_addr("02:00:00:00:b0:00", &peer);
	ip_of(&f)->src_addr = RTE_BE32(0xc6120001);
	fix_cksum(&f);
	for (path = 0; path < 2; path++) {
		run(&f, 1, path == 1, &o);
		assert_int_equal(o.nb_sent, 0);
		assert_int_equal(o.nb_punted, 1);
		eth = (const struct rte_ether_hdr *)o.punted[0].data;
		ip = (const struct rte_ipv4_hdr *)(eth + 1);
		icmp = (const uint8_t *)(ip + 1);
		assert_memory_equal(&eth->dst_addr, &own, RTE_ETHER_ADDR_LEN);
		assert_memory_equal(&eth->src_addr, &peer, RTE_ETHER_ADDR_LEN);
		assert_int_equal(eth->ether_type, RTE_BE16(RTE_ETHER_TYPE_IPV4));
		assert_int_equal(ip->next_proto_id, IPPROTO_ICMP);
		assert_int_equal(ip->dst_addr, RTE_BE32(0xc6120001));
		assert_int_equal(icmp[0], 3);	/* destination unreachable */
		assert_int_equal(icmp[1], 0);	/* net */
		assert_memory_equal(icmp + 8, ip_of(&f), 20 + 8);	/* the quote */
		assert_int_equal(o.punted[0].len, sizeof(*eth) + 20 + 8 + 20 + 8);
	}
}

int main(void)
{
	struct dp_nexthop nh;
	unsigned int i;
	char prefix[64];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_of_frame_has_one_fate),
		cmocka_unit_test(test_a_mixed_vector_has_the_same_fates),
		cmocka_unit_test(test_an_icmp_error_to_the_router_is_punted_with_the_frame_link_header),
		cmocka_unit_test(test_a_frame_in_two_segments_goes_where_it_would_in_one),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-fastpath-%d", getpid());
	if (pipeline_init(&p, 4096, prefix, 1, NULL) < 0) {
		fprintf(stderr, "test_fastpath: cannot set up the pipeline\n");
		return 1;
	}
	pipeline_route_every_kind();
	nh = *dp_nh_get(1);	/* forward out of port 1, made by the pipeline */
	nh.mtu = 100;
	dp_nh_set(9, &nh, NULL);
	dp_fib_add(0xc6130600, 24, 9);
	nh = *dp_nh_get(1);
	nh.eth.dst_addr.addr_bytes[5] ^= 0x77;	/* another neighbour behind port 1 */
	dp_nh_set(10, &nh, NULL);
	dp_fib_add(0xc6130010, 28, 10);
	for (i = 0; i < NB_NEIGHBOURS; i++) {	/* 198.19.16+i.0/24 to neighbour i, own MAC */
		nh = *dp_nh_get(1);
		nh.eth.dst_addr.addr_bytes[4] = 0x40 + i;
		dp_nh_set(NEIGHBOUR_NH + i, &nh, NULL);
		dp_fib_add(0xc6131000 + (i << 8), 24, NEIGHBOUR_NH + i);
	}
	return cmocka_run_group_tests_name("fastpath", tests, NULL, NULL);
}
