/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sub-interfaces in ternd's graph: a frame tagged with a sub-interface's VLAN
 * (802.1Q, or 802.1ad with an inner 802.1Q tag) is forwarded as the same frame
 * untagged would be, counted on the sub-interface; a priority-tagged frame is
 * the port's own; a tag of no sub-interface, or a frame cut inside its tags,
 * is drop_unknown_vlan or another counted drop, and every buffer comes back;
 * a route out of a sub-interface leaves with its tag after the MACs, by its
 * port's port_tx, counted on the sub-interface, the same from the fast path
 * (which tags it itself) as from the long one (vlan_output), IPv4 and IPv6,
 * 802.1Q and QinQ; the sub-interface's egress access list applies to it there;
 * the access lists and RPF the fast path applies read the IP header behind the tags it
 * wrote; a frame with no room for its tags is a counted drop.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_ip.h>
#include <rte_ring.h>

#include "dataplane/acl/acl.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/rpf.h"
#include "dataplane/harness/pipeline.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "dataplane/rcu.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/l2/vlan_map.h"
#include "dataplane/trace.h"

#define OUT_VIA_SUBIF 0xc6131205u	/* 198.19.18.5: out of dp1.200 */
#define OUT_VIA_QINQ 0xc6131305u	/* 198.19.19.5: out of dp1.3040 */

static struct pipeline p;
static int dot1q, qinq, out_subif, out_qinq;

struct frame {
	uint8_t b[128];
	uint16_t len;
};

/* A UDP datagram 198.18.0.2 -> dst for port 0's MAC, behind tags (their bytes, len of them). */
static struct frame tagged(uint32_t dst, const uint8_t *tags, unsigned int len)
{
	struct frame f = { .len = 12 + len + 2 + 20 + 8 + 18 };
	struct rte_ether_addr own = dp_port0_mac(), peer;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f.b + 12 + len + 2);

	rte_ether_unformat_addr("02:00:00:00:b0:00", &peer);
	memcpy(f.b, &own, 6);
	memcpy(f.b + 6, &peer, 6);
	if (len)
		memcpy(f.b + 12, tags, len);
	f.b[12 + len] = 0x08;
	f.b[12 + len + 1] = 0x00;
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(20 + 8 + 18);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = RTE_BE32(0xc6120002);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return f;
}

/* The same datagram in IPv6, 2001:2::2 -> 2001:2:0:XX::5. */
static struct frame tagged6(uint8_t xx)
{
	struct frame f = { .len = 14 + 40 + 8 + 18 };
	struct rte_ether_addr own = dp_port0_mac();
	uint8_t *ip = f.b + 14;

	memcpy(f.b, &own, 6);
	rte_ether_unformat_addr("02:00:00:00:b0:00", (struct rte_ether_addr *)(f.b + 6));
	f.b[12] = 0x86;
	f.b[13] = 0xdd;
	ip[0] = 0x60;
	ip[5] = 8 + 18;		/* payload length */
	ip[6] = IPPROTO_UDP;
	ip[7] = 64;
	ip[8] = 0x20, ip[9] = 0x01, ip[11] = 0x02, ip[23] = 0x02;
	ip[24] = 0x20, ip[25] = 0x01, ip[27] = 0x02, ip[29] = xx, ip[39] = 0x05;
	return f;
}

static const uint8_t VLAN100[] = { 0x81, 0x00, 0x00, 100 };
static const uint8_t PRIO0[] = { 0x81, 0x00, 0xe0, 0x00 };	/* priority 7, VID 0 */
static const uint8_t QINQ_10_20[] = { 0x88, 0xa8, 0x00, 10, 0x81, 0x00, 0x00, 20 };

static uint64_t node_objs(const char *name)
{
	struct rte_node *n;
	rte_graph_off_t off;
	rte_node_t count;

	rte_graph_foreach_node(count, off, p.graph, n)
		if (strcmp(n->name, name) == 0)
			return n->total_objs;
	return 0;
}

/* One walk with f alone, shaped so, down the long path when armed (the trace sends it
 * there): the frames sent (at most 4), punted ones freed. */
static unsigned int walk_as(const struct frame *f, const struct pipeline_shape *shape, bool armed,
			    struct pipeline_frame *sent)
{
	const uint8_t *frames[1] = { f->b };
	uint16_t lens[1] = { f->len };
	unsigned int nb = 0;
	void *m;

	if (armed)
		assert_int_equal(dp_trace_arm(DP_TRACE_ANY_PORT, 1), 0);
	pipeline_capture(sent, 4, &nb);
	pipeline_inject_shaped(frames, lens, shape, 1);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	if (armed)
		dp_trace_disarm();
	while (dp_punt_dequeue(0, &m) == 0)
		rte_pktmbuf_free(m);
	return nb;
}

static unsigned int walk(const struct frame *f, struct pipeline_frame *sent)
{
	return walk_as(f, NULL, false, sent);
}

static void test_a_tagged_frame_is_forwarded_as_the_untagged_one(void **state)
{
	struct frame plain = tagged(0xc6130005, NULL, 0);
	struct pipeline_frame a[4], b[4];
	uint64_t rx = dp_vlan_stats[0][dot1q].rx.packets;

	(void)state;
	assert_int_equal(walk(&plain, a), 1);
	plain = tagged(0xc6130005, VLAN100, sizeof(VLAN100));
	assert_int_equal(walk(&plain, b), 1);
	assert_int_equal(a[0].port, b[0].port);
	assert_int_equal(a[0].len, b[0].len);
	assert_memory_equal(a[0].data, b[0].data, a[0].len);
	assert_int_equal(dp_vlan_stats[0][dot1q].rx.packets, rx + 1);
	plain = tagged(0xc6130005, QINQ_10_20, sizeof(QINQ_10_20));
	assert_int_equal(walk(&plain, b), 1);
	assert_memory_equal(a[0].data, b[0].data, a[0].len);
	assert_int_equal(dp_vlan_stats[0][qinq].rx.packets, 1);
	plain = tagged(0xc6130005, PRIO0, sizeof(PRIO0));
	assert_int_equal(walk(&plain, b), 1);
	assert_memory_equal(a[0].data, b[0].data, a[0].len);
}

/* A sampled sub-interface's frames are sampled as they came, tags and all; a sub-interface
 * not sampled costs its frames nothing, and the port's untagged frames are not its. */
static void test_a_sampled_subinterface_samples_its_frames_with_their_tags(void **state)
{
	struct frame f = tagged(0xc6130005, QINQ_10_20, sizeof(QINQ_10_20));
	struct pipeline_frame s[4];
	struct dp_sflow_sample smp[4];

	(void)state;
	assert_int_equal(dp_sflow_init(1), 0);
	dp_sflow_rate_set(qinq, 1);
	assert_int_equal(walk(&f, s), 1);
	assert_int_equal(dp_sflow_drain(smp, 4), 1);
	assert_int_equal(smp[0].index, qinq);
	assert_int_equal(smp[0].frame_len, f.len);
	assert_memory_equal(smp[0].header, f.b, f.len);
	f = tagged(0xc6130005, VLAN100, sizeof(VLAN100));
	assert_int_equal(walk(&f, s), 1);
	f = tagged(0xc6130005, NULL, 0);
	assert_int_equal(walk(&f, s), 1);
	assert_int_equal(dp_sflow_drain(smp, 4), 0);
	dp_sflow_rate_set(qinq, 0);
	assert_int_equal(dp_sflow_subifs, 0);
}

static void test_a_route_out_of_a_subinterface_writes_its_tag(void **state)
{
	struct frame f = tagged(OUT_VIA_SUBIF, NULL, 0);
	static const uint8_t tag[] = { 0x81, 0x00, 0x00, 200, 0x08, 0x00 };
	struct pipeline_frame s[4];
	uint64_t tx = dp_vlan_stats[0][out_subif].tx.packets, sent = node_objs("port_tx-1");
	char own[32];

	(void)state;
	assert_int_equal(walk(&f, s), 1);
	/* vlan_output counts it on the sub-interface and hands it to its port's port_tx: the
	 * graph has no node of the sub-interface's own */
	assert_int_equal(dp_vlan_stats[0][out_subif].tx.packets, tx + 1);
	assert_int_equal(node_objs("port_tx-1"), sent + 1);
	snprintf(own, sizeof(own), "port_tx-%d", out_subif);
	assert_int_equal(rte_node_from_name(own), RTE_NODE_ID_INVALID);
	assert_int_equal(s[0].port, 1);
	assert_int_equal(s[0].len, f.len + 4);
	assert_memory_equal(s[0].data + 12, tag, sizeof(tag));
	/* its source MAC is dp1's, and the IPv4 header follows the tag, TTL one less */
	assert_memory_equal(s[0].data + 6, &dp.ports[1].mac, 6);
	assert_int_equal(s[0].data[18 + 8], 63);
}

/* f leaves by port 1 with tags (n bytes of them) after the MACs, counted on sub-interface
 * out: the fast path's frame and the long path's are the same. */
static void leaves_tagged(const char *what, const struct frame *f, int out, const uint8_t *tags,
			  unsigned int n)
{
	struct pipeline_frame fast[4], slow[4];
	uint64_t tx = dp_vlan_stats[0][out].tx.packets;
	uint64_t bytes = dp_vlan_stats[0][out].tx.bytes;
	uint64_t fast_objs = node_objs("ip4_fast") + node_objs("ip6_fast");
	uint64_t tagger = node_objs("vlan_output");

	if (walk_as(f, NULL, false, fast) != 1 || walk_as(f, NULL, true, slow) != 1)
		fail_msg("%s: not forwarded", what);
	assert_int_equal(fast[0].port, 1);
	assert_int_equal(fast[0].len, f->len + n);
	assert_memory_equal(fast[0].data + 12, tags, n);
	assert_memory_equal(fast[0].data + 6, &dp.ports[1].mac, 6);
	assert_memory_equal(fast[0].data + 12 + n, f->b + 12, 2);	/* its EtherType */
	if (slow[0].len != fast[0].len || memcmp(slow[0].data, fast[0].data, fast[0].len) != 0)
		fail_msg("%s: the long path's frame differs from the fast path's", what);
	/* the fast path tagged the first itself; vlan_output only the second */
	assert_int_equal(node_objs("vlan_output"), tagger + 1);
	assert_true(node_objs("ip4_fast") + node_objs("ip6_fast") > fast_objs);
	/* both counted, without their tags */
	assert_int_equal(dp_vlan_stats[0][out].tx.packets, tx + 2);
	assert_int_equal(dp_vlan_stats[0][out].tx.bytes, bytes + 2 * f->len);
}

static void test_both_paths_tag_alike_in_both_families(void **state)
{
	static const uint8_t q200[] = { 0x81, 0x00, 0x00, 200 };
	static const uint8_t ad30_q40[] = { 0x88, 0xa8, 0x00, 30, 0x81, 0x00, 0x00, 40 };
	struct frame f;

	(void)state;
	f = tagged(OUT_VIA_SUBIF, NULL, 0);
	leaves_tagged("IPv4 out of dp1.200", &f, out_subif, q200, sizeof(q200));
	f = tagged(OUT_VIA_QINQ, NULL, 0);
	leaves_tagged("IPv4 out of dp1.3040", &f, out_qinq, ad30_q40, sizeof(ad30_q40));
	f = tagged6(0x20);
	leaves_tagged("IPv6 out of dp1.200", &f, out_subif, q200, sizeof(q200));
	f = tagged6(0x21);
	leaves_tagged("IPv6 out of dp1.3040", &f, out_qinq, ad30_q40, sizeof(ad30_q40));
}

/* The egress access list the fast path applies is the sub-interface's, not its port's. */
static void test_a_subinterface_egress_list_applies_on_the_fast_path(void **state)
{
	struct dp_acl_entry deny = { .seq = 10, .any_proto = true, .sport_hi = UINT16_MAX,
				     .dport_hi = UINT16_MAX };
	struct frame f = tagged(OUT_VIA_SUBIF, NULL, 0), plain = tagged(0xc6130005, NULL, 0);
	uint64_t tx = dp_vlan_stats[0][out_subif].tx.packets, denied = node_objs("drop_acl");
	struct pipeline_frame s[4];
	struct dp_acl *a = NULL;
	char err[160] = "";

	(void)state;
	if (dp_acl_build(DP_ACL_IPV4, "t", &deny, 1, &a, err, sizeof(err)) < 0)
		fail_msg("build: %s", err);
	dp_acl_bind(out_subif, DP_ACL_IPV4, DP_ACL_OUT, a);
	assert_int_equal(walk(&f, s), 0);
	assert_int_equal(node_objs("drop_acl"), denied + 1);
	assert_int_equal(dp_vlan_stats[0][out_subif].tx.packets, tx);	/* never sent */
	assert_int_equal(walk(&plain, s), 1);	/* its port has no list */
	dp_acl_bind(out_subif, DP_ACL_IPV4, DP_ACL_OUT, NULL);
	assert_int_equal(walk(&f, s), 1);
}

/*
 * From each tagging to each (none, 802.1Q, QinQ in; the port, 802.1Q, QinQ out), the fast
 * path makes the same bytes of a frame as the long path, counted alike on the
 * sub-interfaces both ways.
 */
static void test_the_fast_path_tags_as_the_long_path_does(void **state)
{
	static const uint32_t dst[] = { 0xc6130005, OUT_VIA_SUBIF, OUT_VIA_QINQ };
	const uint8_t *in_tags[] = { NULL, VLAN100, QINQ_10_20 };
	const unsigned int in_len[] = { 0, sizeof(VLAN100), sizeof(QINQ_10_20) };
	const int in_subif[] = { -1, dot1q, qinq }, out_subif_of[] = { -1, out_subif, out_qinq };
	unsigned int a, b;

	(void)state;
	for (a = 0; a < RTE_DIM(in_tags); a++)
		for (b = 0; b < RTE_DIM(dst); b++) {
			struct frame f = tagged(dst[b], in_tags[a], in_len[a]);
			struct pipeline_frame fast[4], slow[4];
			uint64_t rx = 0, rx_bytes = 0, tx = 0;
			unsigned int sent;

			if (in_subif[a] > 0) {
				rx = dp_vlan_stats[0][in_subif[a]].rx.packets;
				rx_bytes = dp_vlan_stats[0][in_subif[a]].rx.bytes;
			}
			if (out_subif_of[b] > 0)
				tx = dp_vlan_stats[0][out_subif_of[b]].tx.packets;
			sent = walk_as(&f, NULL, false, fast);
			if (sent != 1)
				fail_msg("in %u, out %u: sent %u", a, b, sent);
			assert_int_equal(walk_as(&f, NULL, true, slow), 1);
			if (slow[0].port != fast[0].port || slow[0].len != fast[0].len ||
			    memcmp(slow[0].data, fast[0].data, fast[0].len) != 0)
				fail_msg("in %u, out %u: the fast path's frame differs from the long path's",
					 a, b);
			if (in_subif[a] > 0) {
				assert_int_equal(dp_vlan_stats[0][in_subif[a]].rx.packets, rx + 2);
				assert_int_equal(dp_vlan_stats[0][in_subif[a]].rx.bytes,
						 rx_bytes + 2 * (f.len - in_len[a]));
			}
			if (out_subif_of[b] > 0)
				assert_int_equal(dp_vlan_stats[0][out_subif_of[b]].tx.packets, tx + 2);
		}
}

/* An access list denying one destination, else permitting all (IPv4, or IPv6 with dst6). */
static struct dp_acl *deny_one(uint8_t family, uint32_t dst, const uint8_t *dst6)
{
	struct dp_acl_entry e[2] = {
		{ .seq = 10, .any_proto = true, .dst_len = dst6 ? 128 : 32, .sport_hi = UINT16_MAX,
		  .dport_hi = UINT16_MAX },
		{ .seq = 20, .permit = true, .any_proto = true, .sport_hi = UINT16_MAX,
		  .dport_hi = UINT16_MAX },
	};
	rte_be32_t d = rte_cpu_to_be_32(dst);
	struct dp_acl *a = NULL;
	char err[160] = "";

	if (dst6)
		memcpy(e[0].dst, dst6, 16);
	else
		memcpy(e[0].dst, &d, sizeof(d));
	if (dp_acl_build(family, "t", e, 2, &a, err, sizeof(err)) < 0)
		fail_msg("build: %s", err);
	return a;
}

/* f's fate with list a bound to interface i in dir: whether it was sent, and drop_acl's
 * count grew by one when it was not. */
static bool passes_list(const struct frame *f, uint8_t family, unsigned int i, uint8_t dir,
			struct dp_acl *a)
{
	uint64_t denied = node_objs("drop_acl");
	struct pipeline_frame s[4];
	unsigned int sent;

	dp_acl_bind(i, family, dir, a);
	sent = walk(f, s);
	dp_acl_bind(i, family, dir, NULL);
	assert_int_equal(node_objs("drop_acl"), denied + (sent ? 0 : 1));
	return sent == 1;
}

/*
 * A frame the fast path sends out of a sub-interface has its tags in it by the time the
 * access lists and RPF look at it: they read its IP header behind them, on the ingress list,
 * RPF and the egress list, 802.1Q and QinQ, IPv4 and IPv6.
 */
static void test_the_fast_path_checks_read_the_header_behind_the_tags(void **state)
{
	static const uint32_t out[] = { OUT_VIA_SUBIF, OUT_VIA_QINQ };
	static const uint8_t xx[] = { 0x20, 0x21 };
	const int subifs[] = { out_subif, out_qinq };
	struct pipeline_frame s[4];
	unsigned int k;

	(void)state;
	for (k = 0; k < RTE_DIM(out); k++) {
		struct frame f = tagged(out[k], NULL, 0), other = tagged(out[k] + 1, NULL, 0);
		struct frame f6 = tagged6(xx[k]), other6 = tagged6(xx[k]);
		struct dp_acl *a = deny_one(DP_ACL_IPV4, out[k], NULL);
		struct dp_acl *a6 = deny_one(DP_ACL_IPV6, 0, f6.b + 14 + 24);

		other6.b[14 + 39] = 0x06;
		assert_false(passes_list(&f, DP_ACL_IPV4, 0, DP_ACL_IN, a));
		assert_true(passes_list(&other, DP_ACL_IPV4, 0, DP_ACL_IN, a));
		assert_false(passes_list(&f, DP_ACL_IPV4, subifs[k], DP_ACL_OUT, a));
		assert_true(passes_list(&other, DP_ACL_IPV4, subifs[k], DP_ACL_OUT, a));
		assert_false(passes_list(&f6, DP_ACL_IPV6, 0, DP_ACL_IN, a6));
		assert_true(passes_list(&other6, DP_ACL_IPV6, 0, DP_ACL_IN, a6));
		assert_false(passes_list(&f6, DP_ACL_IPV6, subifs[k], DP_ACL_OUT, a6));
		assert_true(passes_list(&other6, DP_ACL_IPV6, subifs[k], DP_ACL_OUT, a6));
		dp_acl_free(a);
		dp_acl_free(a6);
		/* its source, 198.18.0.2, is behind port 0, where it came in */
		dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_STRICT);
		assert_int_equal(walk(&f, s), 1);
		dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_OFF);
	}
}

/* A frame a driver left no room before cannot take its tags: a counted drop, on both paths. */
static void test_a_frame_without_headroom_for_its_tags_is_a_counted_drop(void **state)
{
	const struct pipeline_shape shape = { .no_headroom = true };
	unsigned int avail = rte_mempool_avail_count(p.pool);
	uint64_t drops = node_objs("drop_no_headroom");
	struct frame f = tagged(OUT_VIA_SUBIF, NULL, 0);
	struct pipeline_frame s[4];

	(void)state;
	assert_int_equal(walk_as(&f, &shape, false, s), 0);
	assert_int_equal(walk_as(&f, &shape, true, s), 0);
	assert_int_equal(node_objs("drop_no_headroom"), drops + 2);
	assert_int_equal(rte_mempool_avail_count(p.pool), avail);
	/* out of the port itself it needs no room */
	f = tagged(0xc6130005, NULL, 0);
	assert_int_equal(walk_as(&f, &shape, false, s), 1);
}

static void test_tags_of_no_subinterface_and_cut_frames_are_counted_drops(void **state)
{
	static const uint8_t vlan300[] = { 0x81, 0x00, 0x01, 0x2c };
	/* VID 4095, reserved: read at its place in the port's table, which has it (0) */
	static const uint8_t vlan4095[] = { 0x81, 0x00, 0xef, 0xff };
	static const uint8_t qinq_10_21[] = { 0x88, 0xa8, 0x00, 10, 0x81, 0x00, 0x00, 21 };
	static const uint8_t qinq_bad_inner[] = { 0x88, 0xa8, 0x00, 10, 0x88, 0xa8, 0x00, 20 };
	unsigned int avail = rte_mempool_avail_count(p.pool), cut;
	uint64_t drops = node_objs("drop_unknown_vlan");
	struct pipeline_frame s[4];
	struct frame f;

	(void)state;
	f = tagged(0xc6130005, vlan300, sizeof(vlan300));
	assert_int_equal(walk(&f, s), 0);
	f = tagged(0xc6130005, vlan4095, sizeof(vlan4095));
	assert_int_equal(walk(&f, s), 0);
	f = tagged(0xc6130005, qinq_10_21, sizeof(qinq_10_21));
	assert_int_equal(walk(&f, s), 0);
	f = tagged(0xc6130005, qinq_bad_inner, sizeof(qinq_bad_inner));
	assert_int_equal(walk(&f, s), 0);
	assert_int_equal(node_objs("drop_unknown_vlan"), drops + 4);
	/* cut anywhere inside its tags or right after them: dropped, never read past its end */
	for (cut = 13; cut <= 12 + sizeof(QINQ_10_20) + 2; cut++) {
		f = tagged(0xc6130005, cut % 2 ? VLAN100 : QINQ_10_20,
			   cut % 2 ? sizeof(VLAN100) : sizeof(QINQ_10_20));
		f.len = cut;
		assert_int_equal(walk(&f, s), 0);
	}
	assert_int_equal(rte_mempool_avail_count(p.pool), avail);
}

static void test_bad_subinterfaces_are_refused_with_a_sentence(void **state)
{
	struct dp_vlan_encap e = { RTE_ETHER_TYPE_VLAN, 100, 0 };
	char err[192];

	(void)state;
	assert_int_equal(dp_vlan_add("dp0.x", 0, &e, err, sizeof(err)), -EEXIST);
	assert_string_equal(err, "dp0 already has dot1q 100 (sub-interface dp0.100)");
	e.outer_vid = 4095;
	assert_int_equal(dp_vlan_add("dp0.4095", 0, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "VLAN id 4095 is out of range: expected 1 to 4094");
	e.outer_vid = 5;
	assert_int_equal(dp_vlan_add("dp0.100.5", dot1q, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "a sub-interface's parent must be a port");
	e = (struct dp_vlan_encap){ RTE_ETHER_TYPE_QINQ, 10, 0 };
	assert_int_equal(dp_vlan_add("dp0.10", 0, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "802.1ad takes an outer and an inner VLAN id (dot1ad S dot1q C)");
}

static int subif(const char *name, unsigned int parent, uint16_t tpid, uint16_t outer, uint16_t inner);

/* A QinQ pair already on the port is refused; removed, its frames are drops, and the pair is
 * free for another sub-interface, whose frames they then are. */
static void test_a_qinq_pair_belongs_to_one_subinterface(void **state)
{
	struct dp_vlan_encap e = { RTE_ETHER_TYPE_QINQ, 10, 20 };
	struct frame f = tagged(0xc6130005, QINQ_10_20, sizeof(QINQ_10_20));
	struct pipeline_frame s[4];
	char err[192];
	int again;

	(void)state;
	assert_int_equal(dp_vlan_add("dp0.x", 0, &e, err, sizeof(err)), -EEXIST);
	assert_string_equal(err, "dp0 already has dot1ad 10 dot1q 20 (sub-interface dp0.1020)");
	assert_int_equal(dp_vlan_del(qinq), 0);
	assert_int_equal(walk(&f, s), 0);
	again = subif("dp0.2020", 0, RTE_ETHER_TYPE_QINQ, 10, 20);
	assert_true(again > 0);
	assert_int_equal(walk(&f, s), 1);
	assert_int_equal(dp_vlan_stats[0][again].rx.packets, 1);
	qinq = again;
}

struct removal {
	int index, rc;
	bool done;
};

static void *remove_subif(void *arg)
{
	struct removal *r = arg;

	r->rc = dp_vlan_del(r->index);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A worker inside a walk may have found a QinQ sub-interface's key in the hash: its removal
 * waits until that walk ends before the key's slot can be taken by another pair. The worker
 * here is this thread, online in the middle of a "walk" (the pipeline's reader 0).
 */
static void test_a_qinq_removal_waits_for_the_walks_that_could_see_it(void **state)
{
	struct frame f = tagged(0xc6130005, (const uint8_t[]){ 0x88, 0xa8, 0x00, 50, 0x81, 0x00,
							       0x00, 60 }, 8);
	struct removal r = { .index = subif("dp0.5060", 0, RTE_ETHER_TYPE_QINQ, 50, 60) };
	struct pipeline_frame s[4];
	pthread_t t;

	(void)state;
	assert_true(r.index > 0);
	assert_int_equal(walk(&f, s), 1);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	assert_int_equal(pthread_create(&t, NULL, remove_subif, &r), 0);
	usleep(200 * 1000);
	/* unmapped at once, but not over while the walk goes on */
	assert_int_equal(dp_vlan_qinq_find(0, 50, 60), 0);
	assert_false(__atomic_load_n(&r.done, __ATOMIC_ACQUIRE));
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);	/* the walk ends */
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(r.done);
	assert_int_equal(r.rc, 0);
	assert_int_equal(walk(&f, s), 0);
}

/* dp.max_ports slots in all: the one after is refused with a sentence and counted, and
 * nothing of it is made; a slot freed is taken again. */
static void test_the_interface_limit_is_refused_with_a_sentence(void **state)
{
	struct dp_vlan_encap e = { RTE_ETHER_TYPE_VLAN, 0, 0 };
	unsigned int n = dp.nb_ports, used = 0, i;
	uint64_t refused = dp.ports_refused;
	char err[192], name[16];
	int last = -1;

	(void)state;
	DP_FOREACH_IFACE(i)
		used++;
	for (i = 0; used < dp.max_ports; i++, used++) {
		e.outer_vid = 1000 + i;
		snprintf(name, sizeof(name), "dp1.%u", e.outer_vid);
		last = dp_vlan_add(name, 1, &e, err, sizeof(err));
		assert_true(last > 0);
		n = dp.nb_ports;
	}
	e.outer_vid = 999;
	assert_int_equal(dp_vlan_add("dp1.999", 1, &e, err, sizeof(err)), -ENOSPC);
	snprintf(name, sizeof(name), "%u", dp.max_ports);
	assert_non_null(strstr(err, "no room for another interface"));
	assert_non_null(strstr(err, name));
	assert_int_equal(dp.ports_refused, refused + 1);
	assert_int_equal(dp.nb_ports, n);
	assert_null(dp_port_by_name("dp1.999"));
	assert_int_equal(dp_vlan_del(last), 0);
	assert_int_equal(dp_vlan_add("dp1.999", 1, &e, err, sizeof(err)), last);
}

static int subif(const char *name, unsigned int parent, uint16_t tpid, uint16_t outer, uint16_t inner)
{
	struct dp_vlan_encap e = { tpid, outer, inner };
	char err[192];
	int index = dp_vlan_add(name, parent, &e, err, sizeof(err));

	if (index < 0)
		fprintf(stderr, "test_vlan: %s: %s\n", name, err);
	else
		dp_port_map.up[index] = 1;	/* its kernel interface's state, in ternd */
	return index;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_tagged_frame_is_forwarded_as_the_untagged_one),
		cmocka_unit_test(test_a_sampled_subinterface_samples_its_frames_with_their_tags),
		cmocka_unit_test(test_a_route_out_of_a_subinterface_writes_its_tag),
		cmocka_unit_test(test_both_paths_tag_alike_in_both_families),
		cmocka_unit_test(test_a_subinterface_egress_list_applies_on_the_fast_path),
		cmocka_unit_test(test_the_fast_path_checks_read_the_header_behind_the_tags),
		cmocka_unit_test(test_the_fast_path_tags_as_the_long_path_does),
		cmocka_unit_test(test_a_frame_without_headroom_for_its_tags_is_a_counted_drop),
		cmocka_unit_test(test_tags_of_no_subinterface_and_cut_frames_are_counted_drops),
		cmocka_unit_test(test_bad_subinterfaces_are_refused_with_a_sentence),
		cmocka_unit_test(test_a_qinq_pair_belongs_to_one_subinterface),
		cmocka_unit_test(test_a_qinq_removal_waits_for_the_walks_that_could_see_it),
		cmocka_unit_test(test_the_interface_limit_is_refused_with_a_sentence),
	};
	struct dp_nexthop nh;
	uint8_t a6[16] = { 0x20, 0x01, 0, 0x02, 0, 0x20 };
	char prefix[64];
	int rc;

	snprintf(prefix, sizeof(prefix), "tern-unit-vlan-%d", getpid());
	if (pipeline_init(&p, 4096, prefix, 1, NULL) < 0) {
		fprintf(stderr, "test_vlan: cannot set up the pipeline\n");
		return 1;
	}
	pipeline_route_every_kind();
	pipeline_route6_every_kind();
	dot1q = subif("dp0.100", 0, RTE_ETHER_TYPE_VLAN, 100, 0);
	qinq = subif("dp0.1020", 0, RTE_ETHER_TYPE_QINQ, 10, 20);
	out_subif = subif("dp1.200", 1, RTE_ETHER_TYPE_VLAN, 200, 0);
	out_qinq = subif("dp1.3040", 1, RTE_ETHER_TYPE_QINQ, 30, 40);
	nh = *dp_nh_get(1);	/* forward out of port 1, made by the pipeline */
	nh.port = out_subif;
	rc = dot1q < 0 || qinq < 0 || out_subif < 0 || out_qinq < 0 || dp_nh_set(30, &nh, NULL) < 0 ||
	     dp_fib_add(OUT_VIA_SUBIF & ~0xffu, 24, 30) < 0 || dp_fib6_add(a6, 64, 30) < 0;
	nh.port = out_qinq;	/* and routes out of the QinQ one, 2001:2:0:21::/64 */
	a6[5] = 0x21;
	if (rc || dp_nh_set(31, &nh, NULL) < 0 || dp_fib_add(OUT_VIA_QINQ & ~0xffu, 24, 31) < 0 ||
	    dp_fib6_add(a6, 64, 31) < 0)
		rc = 1;
	else
		rc = cmocka_run_group_tests_name("vlan", tests, NULL, NULL);
	pipeline_fini(prefix);
	return rc;
}
