/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Access lists in ternd's graph: a list bound to port 0's ingress or port 1's egress decides
 * the same for a packet on the fast path (ip4_fast, ip6_fast) as on the long one (ip4_input and
 * ip4_forward, ip6_input and ip6_forward; taken with the trace armed), drops what it denies as
 * drop_acl, counts each packet once on each list it meets, and leaves IPv6 neighbour
 * discovery to the kernel.
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
#include <rte_udp.h>

#include "dataplane/acl/acl.h"
#include "dataplane/harness/pipeline.h"
#include "dataplane/punt/punt.h"
#include "dataplane/rcu.h"
#include "dataplane/trace.h"

static struct pipeline p;

struct frame {
	uint8_t b[256];
	uint16_t len;
};

struct outcome {
	unsigned int sent, punted;
	uint64_t drop_acl, eth_input;
};

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

/* A UDP datagram (IPv4 when dst has no ':') from the sender behind port 0 to dst:dport. */
static struct frame udp(const char *dst, uint16_t dport)
{
	struct frame f = { 0 };
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f.b;
	struct rte_udp_hdr *u;

	eth->dst_addr = dp_port0_mac();
	rte_ether_unformat_addr("02:00:00:00:b0:00", &eth->src_addr);
	if (strchr(dst, ':') == NULL) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->total_length = RTE_BE16(20 + 8 + 18);
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_UDP;
		inet_pton(AF_INET, "198.18.0.2", &ip->src_addr);
		inet_pton(AF_INET, dst, &ip->dst_addr);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		u = (struct rte_udp_hdr *)(ip + 1);
		f.len = sizeof(*eth) + 20 + 8 + 18;
	} else {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + 1);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
		ip->vtc_flow = RTE_BE32(6u << 28);
		ip->payload_len = RTE_BE16(8 + 18);
		ip->proto = IPPROTO_UDP;
		ip->hop_limits = 64;
		inet_pton(AF_INET6, "2001:2::2", ip->src_addr);
		inet_pton(AF_INET6, dst, ip->dst_addr);
		u = (struct rte_udp_hdr *)(ip + 1);
		f.len = sizeof(*eth) + 40 + 8 + 18;
	}
	u->src_port = RTE_BE16(40000);
	u->dst_port = rte_cpu_to_be_16(dport);
	u->dgram_len = RTE_BE16(8 + 18);
	return f;
}

/* A neighbour solicitation from fe80::2 to port 0's solicited-node group. */
static struct frame solicitation(void)
{
	struct frame f = udp("ff02::1:ff00:1", 0);
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f.b;
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + 1);
	uint8_t *icmp = (uint8_t *)(ip + 1);

	rte_ether_unformat_addr("33:33:ff:00:00:01", &eth->dst_addr);
	ip->proto = 58;
	ip->hop_limits = 255;
	inet_pton(AF_INET6, "fe80::2", ip->src_addr);
	memset(icmp, 0, 26);
	icmp[0] = 135;
	return f;
}

static void run(const struct frame *f, bool long_path, struct outcome *o)
{
	const uint8_t *frames[1] = { f->b };
	uint16_t lens[1] = { f->len };
	struct pipeline_frame sent[4];
	uint64_t drops = node_objs("drop_acl"), eth = node_objs("eth_input");
	void *m;

	memset(o, 0, sizeof(*o));
	if (long_path)
		assert_int_equal(dp_trace_arm(DP_TRACE_ANY_PORT, 1), 0);
	pipeline_capture(sent, RTE_DIM(sent), &o->sent);
	pipeline_inject(frames, lens, 1);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	if (long_path)
		dp_trace_disarm();
	while (dp_punt_dequeue(0, &m) == 0) {
		o->punted++;
		rte_pktmbuf_free(m);
	}
	o->drop_acl = node_objs("drop_acl") - drops;
	o->eth_input = node_objs("eth_input") - eth;
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
}

/* f's fate on both paths: sent (out of a port), punted, or dropped by a list; and each run
 * adds one to entry `entry` of list a. */
static void fate_is(const char *name, const struct frame *f, const char *want, struct dp_acl *a,
		    unsigned int entry, bool fast)
{
	unsigned int path;

	for (path = 0; path < 2; path++) {
		uint64_t before = a ? dp_acl_hits(a, entry) : 0;
		struct outcome o;
		const char *got;

		run(f, path == 1, &o);
		got = o.drop_acl ? "dropped" : o.sent ? "sent" : o.punted ? "punted" : "lost";
		if (strcmp(got, want) != 0)
			fail_msg("%s on the %s path: %s, expected %s", name, path ? "long" : "fast", got,
				 want);
		if (a != NULL && dp_acl_hits(a, entry) != before + 1)
			fail_msg("%s on the %s path: entry %u counted %lu times, expected once", name,
				 path ? "long" : "fast", entry,
				 (unsigned long)(dp_acl_hits(a, entry) - before));
		if (path == 0 && fast && o.eth_input != 0)
			fail_msg("%s: the fast path did not take it", name);
	}
}

static struct dp_acl_entry udp_port(uint32_t seq, bool permit, uint16_t port)
{
	return (struct dp_acl_entry){ .seq = seq, .permit = permit, .proto = IPPROTO_UDP, .l4 = true,
				      .sport_hi = UINT16_MAX, .dport_lo = port, .dport_hi = port };
}

static struct dp_acl *list(uint8_t family, const struct dp_acl_entry *e, unsigned int n)
{
	struct dp_acl *a = NULL;
	char err[160] = "";

	if (dp_acl_build(family, "t", e, n, &a, err, sizeof(err)) < 0)
		fail_msg("build: %s", err);
	return a;
}

static void lists_decide_alike_on_both_paths(void **state)
{
	struct dp_acl_entry in[2] = { udp_port(10, false, 7),
				      { .seq = 20, .permit = true, .any_proto = true,
					.sport_hi = UINT16_MAX, .dport_hi = UINT16_MAX } };
	struct dp_acl_entry out[1] = { udp_port(10, true, 8) };
	struct dp_acl *a4 = list(DP_ACL_IPV4, in, 2), *b4 = list(DP_ACL_IPV4, out, 1);
	struct dp_acl *a6 = list(DP_ACL_IPV6, in, 2), *b6 = list(DP_ACL_IPV6, out, 1);
	struct frame f;

	(void)state;
	f = udp("198.19.0.5", 8);
	fate_is("IPv4, no list yet", &f, "sent", NULL, 0, true);
	dp_acl_bind(0, DP_ACL_IPV4, DP_ACL_IN, a4);
	dp_acl_bind(0, DP_ACL_IPV6, DP_ACL_IN, a6);
	fate_is("IPv4 to port 8, permitted in", &f, "sent", a4, 1, true);
	f = udp("198.19.0.5", 7);
	fate_is("IPv4 to port 7, denied in", &f, "dropped", a4, 0, false);
	f = udp("198.18.0.1", 7);
	fate_is("IPv4 to the router, denied in", &f, "dropped", a4, 0, false);
	f = udp("198.18.0.1", 8);
	fate_is("IPv4 to the router, permitted in", &f, "punted", a4, 1, false);
	f = udp("2001:2:0:10::5", 8);
	fate_is("IPv6 to port 8, permitted in", &f, "sent", a6, 1, true);
	f = udp("2001:2:0:10::5", 7);
	fate_is("IPv6 to port 7, denied in", &f, "dropped", a6, 0, false);

	dp_acl_bind(1, DP_ACL_IPV4, DP_ACL_OUT, b4);
	dp_acl_bind(1, DP_ACL_IPV6, DP_ACL_OUT, b6);
	f = udp("198.19.0.5", 8);
	fate_is("IPv4 to port 8, permitted out", &f, "sent", b4, 0, true);
	f = udp("198.19.0.5", 9);
	fate_is("IPv4 to port 9, permitted in, denied out", &f, "dropped", b4, 1, false);
	f = udp("2001:2:0:10::5", 8);
	fate_is("IPv6 to port 8, permitted out", &f, "sent", b6, 0, true);
	f = udp("2001:2:0:10::5", 9);
	fate_is("IPv6 to port 9, denied out", &f, "dropped", b6, 1 + DP_ACL6_IMPLICIT, false);
	f = solicitation();
	fate_is("a solicitation, with a list that would deny it", &f, "punted", NULL, 0, false);

	dp_acl_replace(a4, NULL);
	dp_acl_replace(b4, NULL);
	dp_acl_replace(a6, NULL);
	dp_acl_replace(b6, NULL);
	f = udp("198.19.0.5", 9);
	fate_is("IPv4, the lists gone", &f, "sent", NULL, 0, true);
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	dp_rcu_reclaim();
}

int main(void)
{
	char prefix[64];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists_decide_alike_on_both_paths),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-acl-path-%d", getpid());
	if (pipeline_init(&p, 4096, prefix, 1, NULL) < 0) {
		fprintf(stderr, "test_acl_path: cannot set up the pipeline\n");
		return 1;
	}
	pipeline_route_every_kind();
	pipeline_route6_every_kind();
	return cmocka_run_group_tests_name("acl_path", tests, NULL, NULL);
}
