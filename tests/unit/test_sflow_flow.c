/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A sample made into an sFlow flow sample names the next hop the workers sent its frame by:
 * over an ECMP route, the member its flow hashes to, for every flow, as the dataplane's own
 * choice (ecmp_member on the frame in an mbuf) makes it, IPv4 and IPv6; a sample cut before
 * the ports the hash takes names the route's first member.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cmocka.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/sflow/sflow_datagram.h"
#include "controlplane/sflow/sflow_flow.h"
#include "dataplane/dp.h"
#include "dataplane/fib/ecmp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

#define MEMBERS 4
#define FLOWS 64

static struct rte_mempool *pool;

/* A UDP datagram of family 4 or 6 to the ECMP routes' prefixes, its source port sport, as
 * a worker samples its frame into s. */
static void udp_frame(int family, uint16_t sport, struct dp_sflow_sample *s)
{
	struct rte_udp_hdr *u;
	unsigned int l3 = RTE_ETHER_HDR_LEN;
	uint8_t *f;

	memset(s, 0, sizeof(*s));
	f = s->header;
	if (family == 4) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + l3);

		f[12] = 0x08;
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + sizeof(*u) + 18);
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_UDP;
		ip->src_addr = RTE_BE32(0xc6120002);
		ip->dst_addr = RTE_BE32(0xc6130005);
		u = (struct rte_udp_hdr *)(ip + 1);
		s->header_len = l3 + sizeof(*ip) + sizeof(*u) + 18;
	} else {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(f + l3);

		f[12] = 0x86;
		f[13] = 0xdd;
		ip->vtc_flow = RTE_BE32(6u << 28);
		ip->payload_len = rte_cpu_to_be_16(sizeof(*u) + 18);
		ip->proto = IPPROTO_UDP;
		ip->hop_limits = 64;
		ip->src_addr[0] = 0x20, ip->src_addr[1] = 0x01, ip->src_addr[15] = 2;
		ip->dst_addr[0] = 0x20, ip->dst_addr[1] = 0x01, ip->dst_addr[3] = 9;
		ip->dst_addr[15] = 5;
		u = (struct rte_udp_hdr *)(ip + 1);
		s->header_len = l3 + sizeof(*ip) + sizeof(*u) + 18;
	}
	u->src_port = rte_cpu_to_be_16(sport);
	u->dst_port = RTE_BE16(4791);
	s->frame_len = s->header_len;
}

/* The index of the member the dataplane sends the sample's frame by, of its route's group
 * in the FIB (group), the frame in an mbuf as a worker has it. */
static uint32_t dataplane_member(int family, const struct dp_sflow_sample *s, uint32_t group)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	const struct dp_nexthop *g = dp_nh_get(group), *nh;
	uint8_t *at;
	unsigned int i;

	assert_non_null(m);
	at = (uint8_t *)rte_pktmbuf_append(m, s->header_len);
	memcpy(at, s->header, s->header_len);
	if (family == 4)
		nh = ecmp_member(g, m, (const struct rte_ipv4_hdr *)(at + RTE_ETHER_HDR_LEN));
	else
		nh = ecmp_member6(g, m, (const struct rte_ipv6_hdr *)(at + RTE_ETHER_HDR_LEN));
	rte_pktmbuf_free(m);
	for (i = 0; i < g->nb_members; i++)
		if (dp_nh_get(g->members[i]) == nh)
			return i;
	fail_msg("the dataplane's member is none of the group's");
	return 0;
}

/* Over FLOWS flows, each sample's next hop is the member the dataplane takes, and the flows
 * spread over the members. */
static void samples_follow_the_dataplane(int family)
{
	struct rib_route_info ri;
	struct dp_sflow_count counts = { .pool = 1 };
	struct dp_sflow_sample s;
	struct sflow_flow f;
	unsigned int seen[MEMBERS] = { 0 }, used = 0, i, k;
	uint8_t dst6[16] = { 0x20, 0x01, 0, 9, [15] = 5 };

	if (family == 4)
		assert_int_equal(rib_route_lookup(0xc6130005, &ri), 0);
	else
		assert_int_equal(rib_route6_lookup(dst6, &ri), 0);
	assert_int_equal(ri.nh.type, RIB_NH_GROUP);
	assert_int_equal(ri.nh.nb_members, MEMBERS);
	for (i = 0; i < FLOWS; i++) {
		udp_frame(family, 1024 + i * 7, &s);
		sflow_flow_of(&s, 1000, &counts, i, &f);
		k = dataplane_member(family, &s, ri.nh_id);
		assert_true(f.routed);
		assert_int_equal(f.next_hop.family, family);
		if (family == 4) {
			uint32_t gw = rte_cpu_to_be_32(ri.nh.members[k].gw);

			if (memcmp(f.next_hop.bytes, &gw, 4) != 0)
				fail_msg("IPv4 flow %u: the sample names another member than the dataplane's (%u)", i, k);
		} else if (memcmp(f.next_hop.bytes, ri.nh.members[k].gw6, 16) != 0) {
			fail_msg("IPv6 flow %u: the sample names another member than the dataplane's (%u)", i, k);
		}
		seen[k]++;
	}
	for (k = 0; k < MEMBERS; k++)
		used += seen[k] > 0;
	if (used < MEMBERS)
		fail_msg("%u flows took %u of the %u members", FLOWS, used, MEMBERS);
}

static void test_an_ecmp_sample_names_the_member_its_flow_took(void **state)
{
	(void)state;
	samples_follow_the_dataplane(4);
}

static void test_an_ecmp_sample_names_the_member_its_flow_took_ipv6(void **state)
{
	(void)state;
	samples_follow_the_dataplane(6);
}

/* Cut before its UDP ports, a sample cannot say its flow: the route's first member. */
static void test_a_sample_cut_before_its_ports_names_the_first_member(void **state)
{
	struct dp_sflow_count counts = { .pool = 1 };
	struct rib_route_info ri;
	struct dp_sflow_sample s;
	struct sflow_flow f;
	uint32_t gw;
	unsigned int i;

	(void)state;
	assert_int_equal(rib_route_lookup(0xc6130005, &ri), 0);
	gw = rte_cpu_to_be_32(ri.nh.members[0].gw);
	for (i = 0; i < 8; i++) {
		udp_frame(4, 1024 + i * 7, &s);
		s.header_len = RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) + 2;
		sflow_flow_of(&s, 1000, &counts, i, &f);
		assert_true(f.routed);
		assert_memory_equal(f.next_hop.bytes, &gw, 4);
	}
}

/* 198.19.0.0/16 and 2001:0:9::/48 over four gateways each, on dp1 .. dp4. */
static int routes_add(void)
{
	const struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
					   .table = RT_TABLE_MAIN };
	struct rib_nh_spec g = { .type = RIB_NH_GROUP, .nb_members = MEMBERS };
	struct rib_nh_spec g6 = { .type = RIB_NH_GROUP, .nb_members = MEMBERS };
	uint8_t p6[16] = { 0x20, 0x01, 0, 9 };
	unsigned int i;

	for (i = 0; i < MEMBERS; i++) {
		g.members[i] = (struct rib_hop){ .port = 1 + i, .gw = 0xc6120102u + (i << 8) };
		g6.members[i] = (struct rib_hop){ .port = 1 + i, .family = AF_INET6 };
		g6.members[i].gw6[0] = 0xfe;
		g6.members[i].gw6[1] = 0x80;
		g6.members[i].gw6[15] = 2 + i;
	}
	if (rib_route_add(0xc6130000u, 16, &a, &g, RIB_ADD_REPLACE) < 0 ||
	    rib_route6_add(p6, 48, &a, &g6, RIB_ADD_REPLACE) < 0)
		return -1;
	return rib_commit();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_an_ecmp_sample_names_the_member_its_flow_took),
		cmocka_unit_test(test_an_ecmp_sample_names_the_member_its_flow_took_ipv6),
		cmocka_unit_test(test_a_sample_cut_before_its_ports_names_the_first_member),
	};
	char prefix[64];
	char *eal[] = { "test_sflow_flow", "--no-huge", "-m", "512", "--no-pci", "-l", "0",
			"--file-prefix", prefix, "--log-level", "error", NULL };
	unsigned int i;
	int rc;

	snprintf(prefix, sizeof(prefix), "tern-unit-sflow-flow-%d", getpid());
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(4096, SOCKET_ID_ANY) < 0 || dp_fib6_init(4096, SOCKET_ID_ANY) < 0 ||
	    rib_init(4096, 1024) < 0 || rib_init6(4096) < 0) {
		fprintf(stderr, "test_sflow_flow: cannot set up EAL and the tables\n");
		return 1;
	}
	pool = rte_pktmbuf_pool_create("sflow_flow", 64, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	for (i = 0; i <= MEMBERS; i++)
		snprintf(dp.ports[i].name, sizeof(dp.ports[i].name), "dp%u", i);
	dp.nb_ports = MEMBERS + 1;
	if (pool == NULL || routes_add() < 0) {
		fprintf(stderr, "test_sflow_flow: cannot add its routes\n");
		return 1;
	}
	rc = cmocka_run_group_tests_name("sflow_flow", tests, NULL, NULL);
	rte_eal_cleanup();
	return rc;
}
