/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unicast RPF in ternd's graph: strict or loose on port 0 decides the same for a packet on the
 * fast path (ip4_fast, ip6_fast) as on the long one (ip4_lookup, ip6_lookup; taken with the
 * trace armed), drops what fails as drop_rpf, passes a source whose ECMP route has a member
 * out of port 0 in strict mode, and leaves DHCP's 0.0.0.0 to broadcast and IPv6 link-local
 * sources to the kernel. The pipeline's routes (pipeline.h): 198.18.0.0/24 and 2001:2::/64
 * out of port 0; 198.19.0.0/24 and 2001:2:0:10::/64 out of port 1; 198.19.1.0/24 and
 * 2001:2:0:11::/64 ECMP over both; then unresolved (port 1), blackhole, unreachable,
 * prohibit; 198.18.0.1 and 2001:2::1 the router's.
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

#include "dataplane/fib/rpf.h"
#include "dataplane/harness/pipeline.h"
#include "dataplane/punt/punt.h"
#include "dataplane/rcu.h"
#include "dataplane/trace.h"

static struct pipeline p;

struct frame {
	uint8_t b[256];
	uint16_t len;
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

/* A UDP datagram from src to dst:dport (IPv4 when dst has no ':'), in on port 0. */
static struct frame udp(const char *src, const char *dst, uint16_t dport)
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
		inet_pton(AF_INET, src, &ip->src_addr);
		inet_pton(AF_INET, dst, &ip->dst_addr);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		u = (struct rte_udp_hdr *)(ip + 1);
		f.len = sizeof(*eth) + 20 + 8 + 18;
		if (ip->dst_addr == UINT32_MAX)
			memset(&eth->dst_addr, 0xff, RTE_ETHER_ADDR_LEN);
	} else {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + 1);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
		ip->vtc_flow = RTE_BE32(6u << 28);
		ip->payload_len = RTE_BE16(8 + 18);
		ip->proto = IPPROTO_UDP;
		ip->hop_limits = 64;
		inet_pton(AF_INET6, src, ip->src_addr);
		inet_pton(AF_INET6, dst, ip->dst_addr);
		u = (struct rte_udp_hdr *)(ip + 1);
		f.len = sizeof(*eth) + 40 + 8 + 18;
	}
	u->src_port = RTE_BE16(68);
	u->dst_port = rte_cpu_to_be_16(dport);
	u->dgram_len = RTE_BE16(8 + 18);
	return f;
}

/* What became of f: "sent", "punted", "dropped by rpf", "dropped as martian", "lost". */
static const char *run(const struct frame *f, bool long_path, bool *fast_took)
{
	const uint8_t *frames[1] = { f->b };
	uint16_t lens[1] = { f->len };
	struct pipeline_frame sent[4];
	uint64_t rpf = node_objs("drop_rpf"), eth = node_objs("eth_input");
	uint64_t martian = node_objs("drop_martian_src");
	unsigned int nb_sent = 0, punted = 0;
	void *m;

	if (long_path)
		assert_int_equal(dp_trace_arm(DP_TRACE_ANY_PORT, 1), 0);
	pipeline_capture(sent, RTE_DIM(sent), &nb_sent);
	pipeline_inject(frames, lens, 1);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	if (long_path)
		dp_trace_disarm();
	while (dp_punt_dequeue(0, &m) == 0) {
		punted++;
		rte_pktmbuf_free(m);
	}
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	*fast_took = node_objs("eth_input") == eth;
	if (node_objs("drop_rpf") != rpf)
		return "dropped by rpf";
	if (nb_sent)
		return "sent";
	if (punted)
		return "punted";
	return node_objs("drop_martian_src") != martian ? "dropped as martian" : "lost";
}

/* f's fate, the same on both paths; fast: the fast path must take it. */
static void fate_is(const char *name, const struct frame *f, const char *want, bool fast)
{
	unsigned int path;

	for (path = 0; path < 2; path++) {
		bool fast_took;
		const char *got = run(f, path == 1, &fast_took);

		if (strcmp(got, want) != 0)
			fail_msg("%s on the %s path: %s, expected %s", name, path ? "long" : "fast", got,
				 want);
		if (path == 0 && fast && !fast_took)
			fail_msg("%s: the fast path did not take it", name);
	}
}

static void from(const char *name, const char *src, const char *dst, const char *want, bool fast)
{
	struct frame f = udp(src, dst, 9);

	fate_is(name, &f, want, fast);
}

static void strict_mode_wants_the_route_back_by_the_ingress_port(void **state)
{
	(void)state;
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_STRICT);
	from("a source behind port 0", "198.18.0.2", "198.19.0.5", "sent", true);
	from("a source behind port 1", "198.19.0.9", "198.19.0.5", "dropped by rpf", false);
	from("an ECMP source with a member out of port 0", "198.19.1.9", "198.19.0.5", "sent", true);
	from("a source whose route is unresolved out of port 1", "198.19.2.9", "198.19.0.5",
	     "dropped by rpf", false);
	from("a source with no route", "203.0.113.9", "198.19.0.5", "dropped by rpf", false);
	from("the router's own address as source", "198.18.0.1", "198.19.0.5", "dropped by rpf",
	     false);
	from("a spoofed source to the router", "198.19.0.9", "198.18.0.1", "dropped by rpf", false);
	from("a good source to the router", "198.18.0.2", "198.18.0.1", "punted", false);
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_OFF);
	from("a source behind port 1, RPF off", "198.19.0.9", "198.19.0.5", "sent", true);
	assert_false(dp_rpf_any(DP_RPF_IPV4));
}

static void loose_mode_wants_any_route_that_leads_somewhere(void **state)
{
	(void)state;
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_LOOSE);
	from("a source behind port 1", "198.19.0.9", "198.19.0.5", "sent", true);
	from("a source whose route is unresolved", "198.19.2.9", "198.19.0.5", "sent", true);
	from("a source with a blackhole route", "198.19.3.9", "198.19.0.5", "dropped by rpf", false);
	from("a source with an unreachable route", "198.19.4.9", "198.19.0.5", "dropped by rpf",
	     false);
	from("a source with a prohibit route", "198.19.5.9", "198.19.0.5", "dropped by rpf", false);
	from("a source with no route", "203.0.113.9", "198.19.0.5", "dropped by rpf", false);
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_OFF);
}

static void dhcp_from_no_address_reaches_the_router(void **state)
{
	struct frame f = udp("0.0.0.0", "255.255.255.255", 67);

	(void)state;
	fate_is("DHCP discover, RPF off", &f, "punted", false);
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_STRICT);
	fate_is("DHCP discover, strict RPF", &f, "punted", false);
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_OFF);
	f = udp("0.0.0.0", "198.19.0.5", 67);
	fate_is("0.0.0.0 to be forwarded", &f, "dropped as martian", false);
}

static void ipv6_alike(void **state)
{
	(void)state;
	dp_rpf_set(0, DP_RPF_IPV6, DP_RPF_STRICT);
	from("IPv6, a source behind port 0", "2001:2::2", "2001:2:0:10::5", "sent", true);
	from("IPv6, a source behind port 1", "2001:2:0:10::9", "2001:2:0:10::5", "dropped by rpf",
	     false);
	from("IPv6, an ECMP source with a member out of port 0", "2001:2:0:11::9",
	     "2001:2:0:10::5", "sent", true);
	from("IPv6, a source with no route", "2001:db8::9", "2001:2:0:10::5", "dropped by rpf",
	     false);
	from("IPv6, a spoofed source to the router", "2001:2:0:10::9", "2001:2::1",
	     "dropped by rpf", false);
	from("IPv6, a link-local source to the router", "fe80::2", "2001:2::1", "punted", false);
	dp_rpf_set(0, DP_RPF_IPV6, DP_RPF_LOOSE);
	from("IPv6 loose, a source behind port 1", "2001:2:0:10::9", "2001:2:0:10::5", "sent",
	     true);
	from("IPv6 loose, a source with a blackhole route", "2001:2:0:13::9", "2001:2:0:10::5",
	     "dropped by rpf", false);
	from("IPv6 loose, IPv4 untouched", "198.19.0.9", "198.19.0.5", "sent", true);
	dp_rpf_set(0, DP_RPF_IPV6, DP_RPF_OFF);
	from("IPv6, RPF off", "2001:db8::9", "2001:2:0:10::5", "sent", true);
}

/* A vector of both outcomes: the one that fails goes, the others still leave whole. */
static void a_vector_keeps_what_passes(void **state)
{
	struct frame good = udp("198.18.0.2", "198.19.0.5", 9), bad = udp("198.19.0.9",
									  "198.19.0.5", 9);
	const uint8_t *frames[8];
	uint16_t lens[8];
	struct pipeline_frame sent[8];
	unsigned int nb_sent = 0, i;
	uint64_t rpf = node_objs("drop_rpf");

	(void)state;
	for (i = 0; i < 8; i++) {
		frames[i] = i == 5 ? bad.b : good.b;
		lens[i] = good.len;
	}
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_STRICT);
	pipeline_capture(sent, RTE_DIM(sent), &nb_sent);
	pipeline_inject(frames, lens, 8);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	dp_rpf_set(0, DP_RPF_IPV4, DP_RPF_OFF);
	assert_int_equal(nb_sent, 7);
	assert_int_equal(node_objs("drop_rpf") - rpf, 1);
}

int main(void)
{
	char prefix[64];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strict_mode_wants_the_route_back_by_the_ingress_port),
		cmocka_unit_test(loose_mode_wants_any_route_that_leads_somewhere),
		cmocka_unit_test(dhcp_from_no_address_reaches_the_router),
		cmocka_unit_test(ipv6_alike),
		cmocka_unit_test(a_vector_keeps_what_passes),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-rpf-path-%d", getpid());
	if (pipeline_init(&p, 4096, prefix, 1, NULL) < 0) {
		fprintf(stderr, "test_rpf_path: cannot set up the pipeline\n");
		return 1;
	}
	pipeline_route_every_kind();
	pipeline_route6_every_kind();
	return cmocka_run_group_tests_name("rpf_path", tests, NULL, NULL);
}
