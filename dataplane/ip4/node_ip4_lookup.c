/* SPDX-License-Identifier: BSD-3-Clause */
/* ip4_lookup: one bulk FIB lookup per vector; the nexthop's kind decides each packet's fate
 * (and a link-layer broadcast or multicast reaches only the router). */
#include "dataplane/fib/ecmp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/rpf.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

enum ip4_lookup_next {
	IP4_LOOKUP_NEXT_FORWARD,
	IP4_LOOKUP_NEXT_PUNT_LOCAL,
	IP4_LOOKUP_NEXT_PUNT_UNRESOLVED,
	IP4_LOOKUP_NEXT_ICMP_NET_UNREACHABLE,
	IP4_LOOKUP_NEXT_DROP_BLACKHOLE,
	IP4_LOOKUP_NEXT_ICMP_HOST_UNREACHABLE,
	IP4_LOOKUP_NEXT_ICMP_ADMIN_PROHIBITED,
	IP4_LOOKUP_NEXT_DROP_L2_MCAST,
	IP4_LOOKUP_NEXT_DROP_RPF,
	IP4_LOOKUP_NEXT_MAX,
};

static const rte_edge_t kind_edge[DP_NH_KIND_MAX] = {
	[DP_NH_NOROUTE] = IP4_LOOKUP_NEXT_ICMP_NET_UNREACHABLE,
	[DP_NH_FORWARD] = IP4_LOOKUP_NEXT_FORWARD,
	[DP_NH_LOCAL] = IP4_LOOKUP_NEXT_PUNT_LOCAL,
	[DP_NH_UNRESOLVED] = IP4_LOOKUP_NEXT_PUNT_UNRESOLVED,
	[DP_NH_BLACKHOLE] = IP4_LOOKUP_NEXT_DROP_BLACKHOLE,
	[DP_NH_UNREACHABLE] = IP4_LOOKUP_NEXT_ICMP_HOST_UNREACHABLE,
	[DP_NH_PROHIBIT] = IP4_LOOKUP_NEXT_ICMP_ADMIN_PROHIBITED,
	[DP_NH_GROUP] = IP4_LOOKUP_NEXT_ICMP_NET_UNREACHABLE,	/* a group inside a group: never made */
};

/*
 * Unicast RPF (rpf.h) on the packets of the vector that came in on an interface where it is
 * on, whatever their destination's route said (to the router too): a second bulk lookup, of
 * their sources. Returns the bits for odd when any failed.
 */
static __rte_noinline uint16_t rpf_check(void **objs, uint16_t nb, rte_edge_t *nexts)
{
	uint32_t src[RTE_GRAPH_BURST_SIZE], nh[RTE_GRAPH_BURST_SIZE];
	uint16_t at[RTE_GRAPH_BURST_SIZE], port[RTE_GRAPH_BURST_SIZE];
	uint8_t mode[RTE_GRAPH_BURST_SIZE];
	uint16_t i, n = 0, failed = 0;

	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];

		if (nexts[i] == IP4_LOOKUP_NEXT_DROP_L2_MCAST)
			continue;
		port[n] = dp_port_map.index[m->port];
		mode[n] = dp_rpf.mode[DP_RPF_IPV4][port[n]];
		if (mode[n] == DP_RPF_OFF)
			continue;
		src[n] = rte_be_to_cpu_32(rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
								  m->l2_len)->src_addr);
		at[n++] = i;
	}
	dp_fib_lookup_bulk(src, nh, n);
	for (i = 0; i < n; i++)
		if (unlikely(!dp_rpf_pass(dp_nh_get(nh[i]), mode[i], port[i]))) {
			nexts[at[i]] = IP4_LOOKUP_NEXT_DROP_RPF;
			failed++;
		}
	return failed ? UINT16_MAX : 0;
}

static uint16_t ip4_lookup_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				   uint16_t nb)
{
	uint32_t dst[RTE_GRAPH_BURST_SIZE];
	uint32_t nh_id[RTE_GRAPH_BURST_SIZE];
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		const struct rte_ipv4_hdr *ip =
			rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, m->l2_len);

		dst[i] = rte_be_to_cpu_32(ip->dst_addr);
	}
	dp_fib_lookup_bulk(dst, nh_id, nb);
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		const struct dp_nexthop *nh = dp_nh_get(nh_id[i]);

		if (unlikely(nh->kind == DP_NH_GROUP))
			nh = ecmp_member(nh, m, rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
									m->l2_len));
		*dp_pkt_nh(m) = nh;
		nexts[i] = kind_edge[nh->kind];
		/* RFC 1812 5.3.4: what came as a link-layer broadcast or multicast is never
		 * forwarded, and (4.3.2.7) earns no ICMP error; only the router takes it.
		 * ip4_fast takes only frames for the port's own MAC. */
		if (unlikely(rte_is_multicast_ether_addr(
				&rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->dst_addr)) &&
		    nh->kind != DP_NH_LOCAL)
			nexts[i] = IP4_LOOKUP_NEXT_DROP_L2_MCAST;
		odd |= nexts[i] ^ IP4_LOOKUP_NEXT_FORWARD;
	}
	if (unlikely(dp_rpf_any(DP_RPF_IPV4)))
		odd |= rpf_check(objs, nb, nexts);
	if (DP_TRACE_ACTIVE(graph))
		for (i = 0; i < nb; i++)
			dp_trace_nexthop(graph->id, objs[i], *dp_pkt_nh(objs[i]));
	dp_node_dispatch(graph, node, objs, nexts, nb, IP4_LOOKUP_NEXT_FORWARD, odd);
	return nb;
}

static struct rte_node_register ip4_lookup_node = {
	.name = "ip4_lookup",
	.process = ip4_lookup_process,
	.nb_edges = IP4_LOOKUP_NEXT_MAX,
	.next_nodes = {
		[IP4_LOOKUP_NEXT_FORWARD] = "ip4_forward",
		[IP4_LOOKUP_NEXT_PUNT_LOCAL] = "punt_local",
		[IP4_LOOKUP_NEXT_PUNT_UNRESOLVED] = "punt_unresolved",
		[IP4_LOOKUP_NEXT_ICMP_NET_UNREACHABLE] = "icmp_net_unreachable",
		[IP4_LOOKUP_NEXT_DROP_BLACKHOLE] = "drop_blackhole",
		[IP4_LOOKUP_NEXT_ICMP_HOST_UNREACHABLE] = "icmp_host_unreachable",
		[IP4_LOOKUP_NEXT_ICMP_ADMIN_PROHIBITED] = "icmp_admin_prohibited",
		[IP4_LOOKUP_NEXT_DROP_L2_MCAST] = "drop_l2_mcast",
		[IP4_LOOKUP_NEXT_DROP_RPF] = "drop_rpf",
	},
};
RTE_NODE_REGISTER(ip4_lookup_node);
