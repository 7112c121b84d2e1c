/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 nodes in ternd's graph (the pipeline harness, IPv6 forwarding on): every kind of
 * frame has its one fate, counted under its reason (RFC 8200 checks, RFC 4291 scopes, the
 * punts the kernel needs), the same whether ip6_fast takes it or the long path (ip6_input ..
 * ip_rewrite, where an armed trace sends every frame) does, and every forwarded frame on the
 * fast path; a forwarded frame leaves with its MACs rewritten, the hop limit less one and
 * every other byte as it came; the ICMPv6 errors (RFC 4443) are byte-exact, Packet Too Big
 * carrying the egress MTU, and none answers an ICMPv6 error.
 */
#include <arpa/inet.h>
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
#include "dataplane/fib/fib6.h"
#include "dataplane/icmp/icmp6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "dataplane/trace.h"

#define SENDER "2001:2::2"
#define FWD "2001:2:0:10::5"
#define SMALL_MTU 100		/* 2001:2:0:16::/64: out of port 1 with this MTU */
#define MAX_OUT 16
#define MAX_SINKS 256

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
	char fates[8][RTE_NODE_NAMESIZE];	/* the drop, punt, icmp and tx nodes it went through */
	unsigned int nb_fates;
	uint64_t eth_input;	/* frames the long path took */
};

static struct rte_ipv6_hdr *ip6_of(struct frame *f)
{
	return (struct rte_ipv6_hdr *)(f->b + sizeof(struct rte_ether_hdr));
}

static void addr(const char *text, uint8_t *out)
{
	assert_int_equal(inet_pton(AF_INET6, text, out), 1);
}

/* An IPv6 datagram from SENDER to dst for port 0's MAC: next header proto, payload bytes
 * 0, 1, 2... (a UDP header first when proto is UDP, checksum left 0: nothing checks it). */
static struct frame ip6(const char *dst, uint8_t proto, uint8_t hops, uint16_t payload)
{
	struct frame f = { .len = sizeof(struct rte_ether_hdr) + IP6_HDR_LEN + payload };
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f.b;
	struct rte_ipv6_hdr *ip = ip6_of(&f);
	uint8_t *pl = (uint8_t *)(ip + 1);
	unsigned int i;

	assert_true(f.len <= sizeof(f.b));
	eth->dst_addr = dp_port0_mac();
	rte_ether_unformat_addr("02:00:00:00:b0:00", &eth->src_addr);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	ip->vtc_flow = RTE_BE32(6u << 28 | 0x12345);
	ip->payload_len = rte_cpu_to_be_16(payload);
	ip->proto = proto;
	ip->hop_limits = hops;
	addr(SENDER, ip->src_addr);
	addr(dst, ip->dst_addr);
	for (i = 0; i < payload; i++)
		pl[i] = i;
	if (proto == IPPROTO_UDP && payload >= 8) {
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)pl;

		u->src_port = RTE_BE16(40000);
		u->dst_port = RTE_BE16(7);
		u->dgram_len = rte_cpu_to_be_16(payload);
		u->dgram_cksum = 0;
	}
	return f;
}

/* Makes f's payload a chain of 8-byte extension headers: next[0] is the IPv6 header's next
 * header (it must be f's), next[i] the one that header i - 1 names; a Fragment header says
 * offset 0 and no more to come. */
static void chain(struct frame *f, const uint8_t *next, unsigned int n)
{
	uint8_t *h = f->b + sizeof(struct rte_ether_hdr) + IP6_HDR_LEN;
	unsigned int i;

	assert_int_equal(ip6_of(f)->proto, next[0]);
	for (i = 1; i < n; i++, h += 8) {
		memset(h, 0, 8);
		h[0] = next[i];
	}
}

/* An ICMPv6 message of type to dst (its first payload byte the type). */
static struct frame icmp6(const char *dst, uint8_t type, uint8_t hops)
{
	struct frame f = ip6(dst, IP6_NEXT_ICMP, hops, 24);

	f.b[sizeof(struct rte_ether_hdr) + IP6_HDR_LEN] = type;
	f.b[sizeof(struct rte_ether_hdr) + IP6_HDR_LEN + 1] = 0;
	return f;
}

static void counters(uint64_t *c, const char **names, unsigned int *n, uint64_t *eth_input)
{
	struct rte_node *nd;
	rte_graph_off_t off;
	rte_node_t count;

	*n = 0;
	rte_graph_foreach_node(count, off, p.graph, nd) {
		if (strcmp(nd->name, "eth_input") == 0)
			*eth_input = nd->total_objs;
		if (strncmp(nd->name, "drop_", 5) && strncmp(nd->name, "punt_", 5) &&
		    strncmp(nd->name, "icmp", 4) && strncmp(nd->name, "port_tx-", 8))
			continue;
		assert_true(*n < MAX_SINKS);
		names[*n] = nd->name;
		c[(*n)++] = nd->total_objs;
	}
}

/* One walk with frame f (with a trace armed: down the long path); what it did. */
static void run_on(const struct frame *f, bool long_path, struct outcome *o)
{
	const uint8_t *frames[1] = { f->b };
	uint16_t lens[1] = { f->len };
	uint64_t before[MAX_SINKS], after[MAX_SINKS], eth0 = 0;
	const char *names[MAX_SINKS];
	unsigned int n, i;
	void *m;

	memset(o, 0, sizeof(*o));
	counters(before, names, &n, &eth0);
	if (long_path)
		assert_int_equal(dp_trace_arm(DP_TRACE_ANY_PORT, 1), 0);
	pipeline_capture(o->sent, MAX_OUT, &o->nb_sent);
	pipeline_inject(frames, lens, 1);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	if (long_path)
		dp_trace_disarm();
	while (dp_punt_dequeue(0, &m) == 0) {
		struct pipeline_frame *pf = &o->punted[o->nb_punted++];
		struct rte_mbuf *mb = m;

		pf->len = rte_pktmbuf_pkt_len(mb);
		memcpy(pf->data, rte_pktmbuf_mtod(mb, void *), RTE_MIN(pf->len, sizeof(pf->data)));
		rte_pktmbuf_free(mb);
	}
	counters(after, names, &n, &o->eth_input);
	o->eth_input -= eth0;
	for (i = 0; i < n; i++)
		if (after[i] != before[i] && o->nb_fates < RTE_DIM(o->fates))
			snprintf(o->fates[o->nb_fates++], RTE_NODE_NAMESIZE, "%s", names[i]);
}

static void run(const struct frame *f, struct outcome *o)
{
	run_on(f, false, o);
}

static void same_frames(const char *what, const char *name, const struct pipeline_frame *a,
			unsigned int na, const struct pipeline_frame *b, unsigned int nb)
{
	unsigned int i;

	if (na != nb)
		fail_msg("%s: %u frame(s) %s as it came, %u on the long path", name, na, what, nb);
	for (i = 0; i < na; i++)
		if (a[i].port != b[i].port || a[i].len != b[i].len ||
		    memcmp(a[i].data, b[i].data, RTE_MIN(a[i].len, sizeof(a[i].data))) != 0)
			fail_msg("%s: frame %u %s differs between the paths", name, i, what);
}

/* Whether node is want, or begins with it when want ends in '-' (any port's port_tx). */
static bool is_node(const char *node, const char *want)
{
	size_t n = strlen(want);

	return want[n - 1] == '-' ? strncmp(node, want, n) == 0 : strcmp(node, want) == 0;
}

/* The frame's fate is the node named want (and, for an error, the port it went out of). */
static void fate_is(const char *name, const struct frame *f, const char *want, const char *also)
{
	struct outcome o, slow;
	unsigned int i;
	bool got_want = false, got_also = also == NULL;

	run(f, &o);
	run_on(f, true, &slow);
	same_frames("sent", name, o.sent, o.nb_sent, slow.sent, slow.nb_sent);
	same_frames("punted", name, o.punted, o.nb_punted, slow.punted, slow.nb_punted);
	if (o.nb_fates != slow.nb_fates)
		fail_msg("%s: %u counters moved as it came, %u on the long path", name, o.nb_fates,
			 slow.nb_fates);
	for (i = 0; i < o.nb_fates; i++)
		if (strcmp(o.fates[i], slow.fates[i]) != 0)
			fail_msg("%s: %s as it came, %s on the long path", name, o.fates[i], slow.fates[i]);
	if (slow.eth_input != 1)
		fail_msg("%s: the armed trace did not send it down the long path", name);
	/* every frame forwarded took the fast path; every other the long one */
	if (o.eth_input != (is_node(want, "port_tx-") && also == NULL && strcmp(want, "port_tx-0") ? 0 : 1))
		fail_msg("%s: took the %s path", name, o.eth_input ? "long" : "fast");
	for (i = 0; i < o.nb_fates; i++) {
		if (is_node(o.fates[i], want))
			got_want = true;
		else if (also && strcmp(o.fates[i], also) == 0)
			got_also = true;
		else
			fail_msg("%s: went to %s as well as %s", name, o.fates[i], want);
	}
	if (!got_want || !got_also)
		fail_msg("%s: expected %s%s%s, it went to %s", name, want, also ? " then " : "",
			 also ? also : "", o.nb_fates ? o.fates[0] : "nowhere");
}

static void test_every_kind_of_frame_has_one_fate(void **state)
{
	struct frame f;

	fate_is("forwarded", (f = ip6(FWD, IPPROTO_UDP, 64, 18), &f), "port_tx-1", NULL);
	fate_is("hop limit 2", (f = ip6(FWD, IPPROTO_UDP, 2, 18), &f), "port_tx-1", NULL);
	fate_is("hop limit 1", (f = ip6(FWD, IPPROTO_UDP, 1, 18), &f), "icmp6_time_exceeded", "port_tx-0");
	fate_is("hop limit 0", (f = ip6(FWD, IPPROTO_UDP, 0, 18), &f), "icmp6_time_exceeded", "port_tx-0");
	fate_is("ECMP", (f = ip6("2001:2:0:11::7", IPPROTO_UDP, 64, 18), &f), "port_tx-", NULL);
	fate_is("to the router", (f = ip6(PIPE6_PORT0_ADDR, IPPROTO_UDP, 64, 18), &f), "punt_local", NULL);
	fate_is("to the router's link-local address", (f = icmp6("fe80::1", 128, 64), &f), "punt_local", NULL);
	fate_is("unresolved", (f = ip6("2001:2:0:12::1", IPPROTO_UDP, 64, 18), &f), "punt_unresolved", NULL);
	fate_is("blackhole", (f = ip6("2001:2:0:13::1", IPPROTO_UDP, 64, 18), &f), "drop_blackhole", NULL);
	fate_is("unreachable", (f = ip6("2001:2:0:14::1", IPPROTO_UDP, 64, 18), &f), "icmp6_unreachable_route", "port_tx-0");
	fate_is("prohibit", (f = ip6("2001:2:0:15::1", IPPROTO_UDP, 64, 18), &f), "icmp6_admin_prohibited", "port_tx-0");
	fate_is("no route", (f = ip6("2001:db8::1", IPPROTO_UDP, 64, 18), &f), "icmp6_no_route", "port_tx-0");
	fate_is("too big", (f = ip6("2001:2:0:16::1", IPPROTO_UDP, 64, 100), &f), "icmp6_packet_too_big", "port_tx-0");
	fate_is("just fits", (f = ip6("2001:2:0:16::1", IPPROTO_UDP, 64, SMALL_MTU - IP6_HDR_LEN), &f), "port_tx-1", NULL);
	/* Hop-by-Hop in transit is forwarded (RFC 8200 as updated by RFC 9673), fragments too */
	f = ip6(FWD, IP6_NEXT_HOP_BY_HOP, 64, 24);
	chain(&f, (const uint8_t []){ IP6_NEXT_HOP_BY_HOP, IPPROTO_UDP }, 2);
	fate_is("Hop-by-Hop in transit", &f, "port_tx-1", NULL);
	f = ip6(PIPE6_PORT0_ADDR, IP6_NEXT_HOP_BY_HOP, 64, 24);
	chain(&f, (const uint8_t []){ IP6_NEXT_HOP_BY_HOP, IPPROTO_UDP }, 2);
	fate_is("Hop-by-Hop to the router", &f, "punt_local", NULL);
	fate_is("a fragment in transit", (f = ip6(FWD, 44, 64, 24), &f), "port_tx-1", NULL);
	f = ip6(FWD, IP6_NEXT_FRAGMENT, 64, 24);	/* a first fragment holding its UDP header */
	chain(&f, (const uint8_t []){ IP6_NEXT_FRAGMENT, IPPROTO_UDP }, 2);
	fate_is("a first fragment in transit", &f, "port_tx-1", NULL);
	/* RFC 5095: only the datagram's destination may act on a Routing Header type 0 */
	f = ip6(FWD, 43, 64, 24);
	chain(&f, (const uint8_t []){ 43, 59 }, 2);
	f.b[14 + 41] = 2;	/* one address: 24 bytes */
	f.b[14 + 42] = 0;	/* type 0 */
	f.b[14 + 43] = 1;	/* segments left */
	fate_is("a Routing Header type 0 in transit", &f, "port_tx-1", NULL);
	f = ip6(FWD, 60, 64, 64);
	chain(&f, (const uint8_t []){ 60, 60, 60, 60, 60, 60, 60, 60, IPPROTO_UDP }, 9);
	fate_is("8 extension headers", &f, "port_tx-1", NULL);
	ip6_of(&f)->hop_limits = 1;	/* its upper layer read past all 8: an error is allowed */
	fate_is("8 extension headers, hop limit 1", &f, "icmp6_time_exceeded", "port_tx-0");

	/* multicast: the kernel's, under the reason of what it is */
	fate_is("Neighbour Solicitation", (f = icmp6("ff02::1:ff00:1", 135, 255), &f), "punt_nd", NULL);
	f = icmp6("ff02::1:ff00:1", 135, 255);
	memset(ip6_of(&f)->src_addr, 0, 16);
	fate_is("Duplicate Address Detection (from ::)", &f, "punt_nd", NULL);
	fate_is("Router Solicitation", (f = icmp6("ff02::2", 133, 255), &f), "punt_nd", NULL);
	fate_is("Neighbour Advertisement to the router", (f = icmp6(PIPE6_PORT0_ADDR, 136, 255), &f), "punt_local", NULL);
	f = ip6("ff02::16", IP6_NEXT_HOP_BY_HOP, 1, 32);	/* MLDv2 report behind a Router Alert */
	f.b[14 + 40] = IP6_NEXT_ICMP;
	f.b[14 + 41] = 0;
	f.b[14 + 48] = 143;
	fate_is("MLDv2 report", &f, "punt_mld", NULL);
	fate_is("other multicast", (f = ip6("ff05::1:3", IPPROTO_UDP, 64, 18), &f), "punt_mcast", NULL);
	fate_is("interface-local multicast", (f = ip6("ff01::1", IPPROTO_UDP, 64, 18), &f), "drop_ip6_martian_dst", NULL);

	/* RFC 4291 scope: link-local never leaves its link */
	fate_is("to another's link-local address", (f = ip6("fe80::2", IPPROTO_UDP, 64, 18), &f), "drop_ip6_link_local", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	addr("fe80::99", ip6_of(&f)->src_addr);
	fate_is("from a link-local address to a global one", &f, "drop_ip6_link_local", NULL);
	f = icmp6(PIPE6_PORT0_ADDR, 128, 64);
	addr("fe80::99", ip6_of(&f)->src_addr);
	fate_is("from a link-local address to the router", &f, "punt_local", NULL);

	/* malformed and martian */
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	f.len = 14 + 39;
	fate_is("truncated header", &f, "drop_ip6_truncated", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	f.b[14] = 0x45;
	fate_is("version 4 under IPv6's EtherType", &f, "drop_ip6_version", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	ip6_of(&f)->payload_len = RTE_BE16(19);
	fate_is("payload length past the frame", &f, "drop_ip6_length", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	ip6_of(&f)->payload_len = 0;
	fate_is("payload length 0", &f, "drop_ip6_length", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	addr("ff02::1", ip6_of(&f)->src_addr);
	fate_is("multicast source", &f, "drop_ip6_martian_src", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	addr("::1", ip6_of(&f)->src_addr);
	fate_is("loopback source", &f, "drop_ip6_martian_src", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	memset(ip6_of(&f)->src_addr, 0, 16);
	fate_is("unspecified source to unicast", &f, "drop_ip6_martian_src", NULL);
	fate_is("unspecified destination", (f = ip6("::", IPPROTO_UDP, 64, 18), &f), "drop_ip6_martian_dst", NULL);
	fate_is("loopback destination", (f = ip6("::1", IPPROTO_UDP, 64, 18), &f), "drop_ip6_martian_dst", NULL);
	f = ip6(FWD, IPPROTO_UDP, 64, 18);
	memset(f.b, 0xff, 6);
	fate_is("link-layer broadcast to a unicast address", &f, "drop_l2_mcast", NULL);

	/* extension headers that are not whole (RFC 8200 §4, RFC 7112) */
	f = ip6(FWD, IP6_NEXT_HOP_BY_HOP, 64, 24);
	f.b[14 + 41] = 10;	/* 88 bytes in 24 */
	fate_is("Hop-by-Hop past the datagram", &f, "drop_ip6_header_chain", NULL);
	f = ip6(PIPE6_PORT0_ADDR, IP6_NEXT_HOP_BY_HOP, 64, 24);
	f.b[14 + 41] = 10;
	fate_is("Hop-by-Hop past the datagram, to the router", &f, "drop_ip6_header_chain", NULL);
	f = ip6(FWD, 60, 64, 32);
	chain(&f, (const uint8_t []){ 60, 60, 60, IPPROTO_UDP }, 4);
	f.b[14 + 40 + 16 + 1] = 2;	/* the third 24 bytes where 16 remain */
	fate_is("a chain past the datagram", &f, "drop_ip6_header_chain", NULL);
	f = ip6(FWD, 60, 64, 6);
	fate_is("Destination Options in 6 bytes", &f, "drop_ip6_header_chain", NULL);
	f = ip6(FWD, IP6_NEXT_FRAGMENT, 64, 24);	/* offset 0, more to come: the first */
	chain(&f, (const uint8_t []){ IP6_NEXT_FRAGMENT, 60, IPPROTO_UDP }, 3);
	f.b[14 + 49] = 2;	/* Destination Options of 24 bytes in 16 */
	f.b[14 + 43] = 1;
	fate_is("a first fragment without the whole chain", &f, "drop_ip6_header_chain", NULL);
	f = ip6(FWD, 60, 64, 80);
	chain(&f, (const uint8_t []){ 60, 60, 60, 60, 60, 60, 60, 60, 60, IPPROTO_UDP }, 10);
	fate_is("9 extension headers", &f, "drop_ip6_header_chain", NULL);
	f = ip6("ff02::16", IP6_NEXT_HOP_BY_HOP, 1, 32);
	f.b[14 + 40] = IP6_NEXT_ICMP;
	f.b[14 + 41] = 7;	/* 64 bytes in 32 */
	f.b[14 + 48] = 143;
	fate_is("an MLDv2 report behind a Hop-by-Hop header past the datagram", &f,
		"drop_ip6_header_chain", NULL);

	/* no error about an error; an echo request earns one */
	fate_is("an ICMPv6 error with hop limit 1", (f = icmp6(FWD, 1, 1), &f), "drop_icmp_suppressed", "icmp6_time_exceeded");
	fate_is("an echo request with hop limit 1", (f = icmp6(FWD, 128, 1), &f), "icmp6_time_exceeded", "port_tx-0");
	/* an ICMPv6 message whose type is past the frame may be an error: none about it */
	f = ip6(FWD, IP6_NEXT_HOP_BY_HOP, 1, 8);
	chain(&f, (const uint8_t []){ IP6_NEXT_HOP_BY_HOP, IP6_NEXT_ICMP }, 2);
	fate_is("an ICMPv6 message whose type cannot be read", &f, "drop_icmp_suppressed", "icmp6_time_exceeded");
}

/* A forwarded frame: new MACs, hop limit less one, Ethernet padding gone, the rest as it came. */
static void test_forwarded_frame_is_byte_exact(void **state)
{
	struct frame f = ip6(FWD, IPPROTO_UDP, 64, 18), want;
	struct rte_ether_hdr *eth;
	struct outcome o;

	want = f;
	f.len = 90;	/* padding after the datagram */
	run(&f, &o);
	assert_int_equal(o.nb_sent, 1);
	assert_int_equal(o.sent[0].port, 1);
	assert_int_equal(o.sent[0].len, want.len);
	eth = (struct rte_ether_hdr *)want.b;
	rte_ether_unformat_addr(PIPE_DST_MAC_OUT, &eth->dst_addr);
	eth->src_addr = *(const struct rte_ether_addr *)&o.sent[0].data[6];
	assert_false(rte_is_same_ether_addr(&eth->src_addr, &((struct rte_ether_hdr *)f.b)->src_addr));
	ip6_of(&want)->hop_limits = 63;
	assert_memory_equal(o.sent[0].data, want.b, want.len);
	assert_int_equal(((struct rte_ether_hdr *)o.sent[0].data)->ether_type, RTE_BE16(RTE_ETHER_TYPE_IPV6));
}

/* The error for f, sent back out of port 0: its IPv6 and ICMPv6 headers checked, the quote
 * returned through *quote (its length *qlen). */
static const uint8_t *error_for(const struct frame *f, uint8_t type, uint8_t code, uint32_t param,
				struct outcome *o, uint16_t *qlen)
{
	const struct rte_ipv6_hdr *ip;
	const uint8_t *icmp;
	uint8_t src[16], dst[16];
	uint32_t p32;

	run(f, o);
	assert_int_equal(o->nb_sent, 1);
	assert_int_equal(o->sent[0].port, 0);
	ip = (const struct rte_ipv6_hdr *)(o->sent[0].data + 14);
	icmp = (const uint8_t *)(ip + 1);
	addr(PIPE6_PORT0_ADDR, src);
	addr(SENDER, dst);
	assert_int_equal(((const struct rte_ether_hdr *)o->sent[0].data)->ether_type,
			 RTE_BE16(RTE_ETHER_TYPE_IPV6));
	assert_int_equal(rte_be_to_cpu_32(ip->vtc_flow) >> 28, 6);
	assert_int_equal(ip->proto, IP6_NEXT_ICMP);
	assert_memory_equal(ip->src_addr, src, 16);
	assert_memory_equal(ip->dst_addr, dst, 16);
	assert_int_equal(o->sent[0].len, 14 + 40 + rte_be_to_cpu_16(ip->payload_len));
	assert_int_equal(icmp[0], type);
	assert_int_equal(icmp[1], code);
	memcpy(&p32, icmp + 4, 4);
	assert_int_equal(rte_be_to_cpu_32(p32), param);
	/* the checksum over the pseudo-header and the message sums to all ones */
	assert_int_equal(__rte_ipv6_udptcp_cksum(ip, icmp), 0xffff);
	*qlen = rte_be_to_cpu_16(ip->payload_len) - 8;
	return icmp + 8;
}

static void test_errors_are_byte_exact(void **state)
{
	struct frame f;
	struct outcome o;
	const uint8_t *q;
	uint16_t qlen;

	f = ip6(FWD, IPPROTO_UDP, 1, 18);
	q = error_for(&f, 3, 0, 0, &o, &qlen);
	assert_int_equal(qlen, f.len - 14);	/* the whole datagram, as it came */
	assert_memory_equal(q, f.b + 14, qlen);

	f = ip6("2001:2:0:16::1", IPPROTO_UDP, 64, 120);
	q = error_for(&f, 2, 0, SMALL_MTU, &o, &qlen);
	assert_int_equal(qlen, f.len - 14);
	assert_memory_equal(q, f.b + 14, qlen);

	f = ip6("2001:db8::1", IPPROTO_UDP, 64, 18);
	q = error_for(&f, 1, 0, 0, &o, &qlen);
	assert_memory_equal(q, f.b + 14, qlen);
	f = ip6("2001:2:0:15::1", IPPROTO_UDP, 64, 18);
	error_for(&f, 1, 1, 0, &o, &qlen);
}

/* A port with no global IPv6 address has no source for errors: they are dropped and counted. */
static void test_no_source_no_error(void **state)
{
	static const uint8_t none[16];
	struct frame f = ip6(FWD, IPPROTO_UDP, 1, 18);
	uint8_t a[16];

	dp_port_ip6_set(0, none);
	fate_is("hop limit 1, no source address", &f, "drop_icmp_no_source", "icmp6_time_exceeded");
	addr(PIPE6_PORT0_ADDR, a);
	dp_port_ip6_set(0, a);
	fate_is("hop limit 1, the source back", &f, "icmp6_time_exceeded", "port_tx-0");
}

/* ECMP: flows spread over both members, a flow always on one; the flow label counts. */
static void test_ecmp_spreads_flows_and_keeps_each(void **state)
{
	unsigned int i, ports[2] = { 0 };

	for (i = 0; i < 64; i++) {
		struct frame f = ip6("2001:2:0:11::7", IPPROTO_UDP, 64, 18);
		struct outcome a, b;

		((struct rte_udp_hdr *)(ip6_of(&f) + 1))->src_port = rte_cpu_to_be_16(1024 + i * 7);
		run(&f, &a);
		run(&f, &b);
		assert_int_equal(a.nb_sent, 1);
		assert_int_equal(b.nb_sent, 1);
		assert_int_equal(a.sent[0].port, b.sent[0].port);
		ports[a.sent[0].port]++;
	}
	assert_true(ports[0] > 0 && ports[1] > 0);
	memset(ports, 0, sizeof(ports));
	for (i = 0; i < 64; i++) {
		struct frame f = ip6("2001:2:0:11::7", 253, 64, 18);	/* no ports */
		struct outcome a;

		ip6_of(&f)->vtc_flow = rte_cpu_to_be_32(6u << 28 | (i * 7919));
		run(&f, &a);
		ports[a.sent[0].port]++;
	}
	assert_true(ports[0] > 0 && ports[1] > 0);
}

/* The sink counters (names[i]: counts[i]) after frames f[0..n) in one vector; sent frames out. */
static unsigned int run_vector(const struct frame *f, unsigned int n, uint64_t *counts,
			       const char **names, struct pipeline_frame *sent, unsigned int *nb_sent)
{
	const uint8_t *frames[16];
	uint16_t lens[16];
	uint64_t before[MAX_SINKS], eth0 = 0, eth1 = 0;
	unsigned int k, i;
	void *m;

	for (i = 0; i < n; i++) {
		frames[i] = f[i].b;
		lens[i] = f[i].len;
	}
	counters(before, names, &k, &eth0);
	*nb_sent = 0;
	pipeline_capture(sent, MAX_OUT, nb_sent);
	pipeline_inject(frames, lens, n);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	while (dp_punt_dequeue(0, &m) == 0)
		rte_pktmbuf_free(m);
	counters(counts, names, &k, &eth1);
	for (i = 0; i < k; i++)
		counts[i] -= before[i];
	qsort(sent, *nb_sent, sizeof(sent[0]), pipeline_frame_cmp);
	return k;
}

/* Frames of every kind in one vector, an IPv4 one among them, fare as each does alone. */
static void test_a_mixed_vector_has_the_same_fates(void **state)
{
	struct frame f[8];
	struct rte_ipv4_hdr *ip4;
	uint64_t one[MAX_SINKS], sum[MAX_SINKS] = { 0 };
	struct pipeline_frame sent_all[MAX_OUT], sent_one[MAX_OUT], sent_sum[MAX_OUT];
	const char *names[MAX_SINKS];
	unsigned int n = 0, i, j, k = 0, nb_all, nb_one, nb_sum = 0;

	f[n++] = ip6(FWD, IPPROTO_UDP, 64, 18);
	f[n++] = ip6(FWD, IPPROTO_UDP, 1, 18);
	f[n] = ip6(FWD, IPPROTO_UDP, 64, 18);	/* an IPv4 frame: 198.19.0.5, forwarded */
	((struct rte_ether_hdr *)f[n].b)->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip4 = (struct rte_ipv4_hdr *)(f[n].b + 14);
	memset(ip4, 0, sizeof(*ip4));
	ip4->version_ihl = RTE_IPV4_VHL_DEF;
	ip4->total_length = RTE_BE16(20 + 8);
	ip4->time_to_live = 64;
	ip4->next_proto_id = IPPROTO_UDP;
	ip4->src_addr = RTE_BE32(0xc6120002);
	ip4->dst_addr = RTE_BE32(0xc6130005);
	ip4->hdr_checksum = rte_ipv4_cksum(ip4);
	f[n++].len = 14 + 20 + 8;
	f[n++] = icmp6(PIPE6_PORT0_ADDR, 128, 64);
	f[n++] = icmp6("ff02::1:ff00:1", 135, 255);
	f[n++] = ip6("2001:2:0:11::7", IPPROTO_UDP, 64, 18);
	f[n++] = ip6("2001:db8::1", IPPROTO_UDP, 64, 18);
	f[n++] = ip6(FWD, IPPROTO_UDP, 64, 18);
	for (i = 0; i < n; i++) {
		k = run_vector(&f[i], 1, one, names, sent_one, &nb_one);
		for (j = 0; j < k; j++)
			sum[j] += one[j];
		for (j = 0; j < nb_one; j++)
			sent_sum[nb_sum++] = sent_one[j];
	}
	qsort(sent_sum, nb_sum, sizeof(sent_sum[0]), pipeline_frame_cmp);
	run_vector(f, n, one, names, sent_all, &nb_all);
	for (j = 0; j < k; j++)
		if (one[j] != sum[j])
			fail_msg("%s: %lu in one vector, %lu one by one", names[j], one[j], sum[j]);
	assert_int_equal(nb_all, nb_sum);
	for (j = 0; j < nb_all; j++)
		assert_int_equal(pipeline_frame_cmp(&sent_all[j], &sent_sum[j]), 0);
}

/* With IPv6 forwarding off (ternd before its mirror feeds the FIB) IPv6 goes to the kernel. */
static void test_forwarding_off_punts_ipv6(void **state)
{
	struct frame f = ip6(FWD, IPPROTO_UDP, 64, 18);

	dp_ip6_forwarding = 0;
	fate_is("IPv6 forwarding off", &f, "punt_non_ip", NULL);
	dp_ip6_forwarding = 1;
	fate_is("IPv6 forwarding on", &f, "port_tx-1", NULL);
}

int main(void)
{
	struct dp_nexthop nh;
	char prefix[64];
	uint8_t a[16];
	int rc;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_of_frame_has_one_fate),
		cmocka_unit_test(test_a_mixed_vector_has_the_same_fates),
		cmocka_unit_test(test_forwarded_frame_is_byte_exact),
		cmocka_unit_test(test_errors_are_byte_exact),
		cmocka_unit_test(test_no_source_no_error),
		cmocka_unit_test(test_ecmp_spreads_flows_and_keeps_each),
		cmocka_unit_test(test_forwarding_off_punts_ipv6),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-ip6-%d", getpid());
	if (pipeline_init(&p, 4096, prefix, 1, NULL) < 0) {
		fprintf(stderr, "test_ip6_path: cannot set up the pipeline\n");
		return 1;
	}
	pipeline_route_every_kind();
	pipeline_route6_every_kind();
	nh = *dp_nh_get(1);	/* forward out of port 1, made by the pipeline */
	nh.mtu = SMALL_MTU;
	dp_nh_set(9, &nh, NULL);
	addr("2001:2:0:16::", a);
	dp_fib6_add(a, 64, 9);
	rc = cmocka_run_group_tests_name("ip6_path", tests, NULL, NULL);
	pipeline_fini(prefix);
	return rc;
}
