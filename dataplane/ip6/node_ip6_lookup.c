/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_lookup: one bulk FIB lookup per vector; the nexthop's kind decides each packet's fate.
 * A link-local source or destination never leaves its link (RFC 4291 §2.5.6): such a
 * packet reaches the router (its own link-local addresses are local routes) or is dropped.
 */
#include "dataplane/fib/ecmp.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/rpf.h"
#include "dataplane/ip6/ip6.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

enum ip6_lookup_next {
	IP6_LOOKUP_NEXT_FORWARD,
	IP6_LOOKUP_NEXT_PUNT_LOCAL,
	IP6_LOOKUP_NEXT_PUNT_UNRESOLVED,
	IP6_LOOKUP_NEXT_ICMP_NO_ROUTE,
	IP6_LOOKUP_NEXT_DROP_BLACKHOLE,
	IP6_LOOKUP_NEXT_ICMP_UNREACHABLE,
	IP6_LOOKUP_NEXT_ICMP_ADMIN_PROHIBITED,
	IP6_LOOKUP_NEXT_DROP_L2_MCAST,
	IP6_LOOKUP_NEXT_DROP_LINK_LOCAL,
	IP6_LOOKUP_NEXT_DROP_RPF,
	IP6_LOOKUP_NEXT_MAX,
};

static const rte_edge_t kind_edge[DP_NH_KIND_MAX] = {
	[DP_NH_NOROUTE] = IP6_LOOKUP_NEXT_ICMP_NO_ROUTE,
	[DP_NH_FORWARD] = IP6_LOOKUP_NEXT_FORWARD,
	[DP_NH_LOCAL] = IP6_LOOKUP_NEXT_PUNT_LOCAL,
	[DP_NH_UNRESOLVED] = IP6_LOOKUP_NEXT_PUNT_UNRESOLVED,
	[DP_NH_BLACKHOLE] = IP6_LOOKUP_NEXT_DROP_BLACKHOLE,
	[DP_NH_UNREACHABLE] = IP6_LOOKUP_NEXT_ICMP_UNREACHABLE,
	[DP_NH_PROHIBIT] = IP6_LOOKUP_NEXT_ICMP_ADMIN_PROHIBITED,
	[DP_NH_GROUP] = IP6_LOOKUP_NEXT_ICMP_NO_ROUTE,	/* a group inside a group: never made */
};

/*
 * Unicast RPF (rpf.h) on the packets of the vector that came in on an interface where it is
 * on, as ip4_lookup's: their sources in a second bulk lookup; link-local sources, which have
 * no route to check, are left alone. Returns the bits for odd when any failed.
 */
static __rte_noinline uint16_t rpf_check(void **objs, uint16_t nb, rte_edge_t *nexts)
{
	uint8_t src[RTE_GRAPH_BURST_SIZE][16];
	uint32_t nh[RTE_GRAPH_BURST_SIZE];
	uint16_t at[RTE_GRAPH_BURST_SIZE], port[RTE_GRAPH_BURST_SIZE];
	uint8_t mode[RTE_GRAPH_BURST_SIZE];
	uint16_t i, n = 0, failed = 0;

	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		const uint8_t *s;

		if (nexts[i] == IP6_LOOKUP_NEXT_DROP_L2_MCAST ||
		    nexts[i] == IP6_LOOKUP_NEXT_DROP_LINK_LOCAL)
			continue;
		port[n] = dp_port_map.index[m->port];
		mode[n] = dp_rpf.mode[DP_RPF_IPV6][port[n]];
		s = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, m->l2_len)->src_addr;
		if (mode[n] == DP_RPF_OFF || ip6_is_link_local(s))
			continue;
		memcpy(src[n], s, 16);
		at[n++] = i;
	}
	dp_fib6_lookup_bulk((const uint8_t (*)[16])src, nh, n);
	for (i = 0; i < n; i++)
		if (unlikely(!dp_rpf_pass(dp_nh_get(nh[i]), mode[i], port[i]))) {
			nexts[at[i]] = IP6_LOOKUP_NEXT_DROP_RPF;
			failed++;
		}
	return failed ? UINT16_MAX : 0;
}

static uint16_t ip6_lookup_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				   uint16_t nb)
{
	uint8_t dst[RTE_GRAPH_BURST_SIZE][16];
	uint32_t nh_id[RTE_GRAPH_BURST_SIZE];
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];

		memcpy(dst[i], rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
						       m->l2_len)->dst_addr, 16);
	}
	dp_fib6_lookup_bulk((const uint8_t (*)[16])dst, nh_id, nb);
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		const struct rte_ipv6_hdr *ip =
			rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, m->l2_len);
		const struct dp_nexthop *nh = dp_nh_get(nh_id[i]);

		if (unlikely(nh->kind == DP_NH_GROUP))
			nh = ecmp_member6(nh, m, ip);
		*dp_pkt_nh(m) = nh;
		nexts[i] = kind_edge[nh->kind];
		if (unlikely(nh->kind != DP_NH_LOCAL)) {
			/* as for IPv4 (RFC 1812 5.3.4): a link-layer broadcast or multicast
			 * reaches the router alone */
			if (rte_is_multicast_ether_addr(
				    &rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->dst_addr))
				nexts[i] = IP6_LOOKUP_NEXT_DROP_L2_MCAST;
			else if (ip6_is_link_local(ip->src_addr) || ip6_is_link_local(dst[i]))
				nexts[i] = IP6_LOOKUP_NEXT_DROP_LINK_LOCAL;
		}
		odd |= nexts[i] ^ IP6_LOOKUP_NEXT_FORWARD;
	}
	if (unlikely(dp_rpf_any(DP_RPF_IPV6)))
		odd |= rpf_check(objs, nb, nexts);
	if (DP_TRACE_ACTIVE(graph))
		for (i = 0; i < nb; i++)
			dp_trace_nexthop(graph->id, objs[i], *dp_pkt_nh(objs[i]));
	dp_node_dispatch(graph, node, objs, nexts, nb, IP6_LOOKUP_NEXT_FORWARD, odd);
	return nb;
}

static struct rte_node_register ip6_lookup_node = {
	.name = "ip6_lookup",
	.process = ip6_lookup_process,
	.nb_edges = IP6_LOOKUP_NEXT_MAX,
	.next_nodes = {
		[IP6_LOOKUP_NEXT_FORWARD] = "ip6_forward",
		[IP6_LOOKUP_NEXT_PUNT_LOCAL] = "punt_local",
		[IP6_LOOKUP_NEXT_PUNT_UNRESOLVED] = "punt_unresolved",
		[IP6_LOOKUP_NEXT_ICMP_NO_ROUTE] = "icmp6_no_route",
		[IP6_LOOKUP_NEXT_DROP_BLACKHOLE] = "drop_blackhole",
		[IP6_LOOKUP_NEXT_ICMP_UNREACHABLE] = "icmp6_unreachable_route",
		[IP6_LOOKUP_NEXT_ICMP_ADMIN_PROHIBITED] = "icmp6_admin_prohibited",
		[IP6_LOOKUP_NEXT_DROP_L2_MCAST] = "drop_l2_mcast",
		[IP6_LOOKUP_NEXT_DROP_LINK_LOCAL] = "drop_ip6_link_local",
		[IP6_LOOKUP_NEXT_DROP_RPF] = "drop_rpf",
	},
};
RTE_NODE_REGISTER(ip6_lookup_node);
