/* SPDX-License-Identifier: BSD-3-Clause */
/* ip4_forward: TTL and egress MTU checks, then TTL decrement with an incremental checksum. */
#include "dataplane/acl/acl.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

enum ip4_forward_next {
	IP4_FORWARD_NEXT_REWRITE,
	IP4_FORWARD_NEXT_ICMP_TIME_EXCEEDED,
	IP4_FORWARD_NEXT_ICMP_FRAG_NEEDED,
	IP4_FORWARD_NEXT_PUNT_FRAGMENT,
	IP4_FORWARD_NEXT_ICMP_NEXTHOP_DOWN,
	IP4_FORWARD_NEXT_DROP_ACL,
	IP4_FORWARD_NEXT_MAX,
};

static inline rte_edge_t ip4_forward_one(struct rte_mbuf *m)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, m->l2_len);
	const struct dp_nexthop *nh = *dp_pkt_nh(m);

	if (unlikely(ip->time_to_live <= 1))
		return IP4_FORWARD_NEXT_ICMP_TIME_EXCEEDED;
	if (unlikely(!dp_port_egress_ok(nh->port)))	/* shut, or its link down */
		return IP4_FORWARD_NEXT_ICMP_NEXTHOP_DOWN;
	if (unlikely(rte_be_to_cpu_16(ip->total_length) > nh->mtu)) {
		/* DF set: the sender must learn the MTU; else the kernel fragments it. */
		if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG))
			return IP4_FORWARD_NEXT_ICMP_FRAG_NEEDED;
		return IP4_FORWARD_NEXT_PUNT_FRAGMENT;
	}
	ip4_ttl_decrement(ip);
	return IP4_FORWARD_NEXT_REWRITE;
}

/* The egress interface's access list, for every packet on its way out. Returns the bits for odd
 * when it denied any. */
static __rte_noinline uint16_t filter(struct rte_graph *graph, void **objs, uint16_t nb,
				      rte_edge_t *nexts)
{
	struct dp_acl_pick out;
	uint16_t i;

	out.n = 0;
	for (i = 0; i < nb; i++)
		if (nexts[i] == IP4_FORWARD_NEXT_REWRITE)
			dp_acl_pick(&out, DP_ACL_IPV4, DP_ACL_OUT, i,
				    (*dp_pkt_nh(objs[i]))->port);
	return dp_acl_pick_filter(graph, &out, DP_ACL_IPV4, DP_ACL_OUT, objs, nexts,
				  IP4_FORWARD_NEXT_DROP_ACL) ? UINT16_MAX : 0;
}

static uint16_t ip4_forward_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				    uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		nexts[i] = ip4_forward_one(objs[i]);
		odd |= nexts[i] ^ IP4_FORWARD_NEXT_REWRITE;
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV4, DP_ACL_OUT)))
		odd |= filter(graph, objs, nb, nexts);
	dp_node_dispatch(graph, node, objs, nexts, nb, IP4_FORWARD_NEXT_REWRITE, odd);
	return nb;
}

static struct rte_node_register ip4_forward_node = {
	.name = "ip4_forward",
	.process = ip4_forward_process,
	.nb_edges = IP4_FORWARD_NEXT_MAX,
	.next_nodes = {
		[IP4_FORWARD_NEXT_REWRITE] = "ip_rewrite",
		[IP4_FORWARD_NEXT_ICMP_TIME_EXCEEDED] = "icmp_time_exceeded",
		[IP4_FORWARD_NEXT_ICMP_FRAG_NEEDED] = "icmp_frag_needed",
		[IP4_FORWARD_NEXT_PUNT_FRAGMENT] = "punt_fragment",
		[IP4_FORWARD_NEXT_ICMP_NEXTHOP_DOWN] = "icmp_nexthop_down",
		[IP4_FORWARD_NEXT_DROP_ACL] = "drop_acl",
	},
};
RTE_NODE_REGISTER(ip4_forward_node);
