/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_forward: hop limit and egress MTU checks, then the hop limit's decrement (IPv6 has no
 * header checksum). A router never fragments IPv6: a datagram over the egress MTU earns the
 * sender a Packet Too Big with that MTU (RFC 8200 §5, RFC 8201).
 */
#include "dataplane/acl/acl.h"
#include "dataplane/ip6/ip6.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

enum ip6_forward_next {
	IP6_FORWARD_NEXT_REWRITE,
	IP6_FORWARD_NEXT_ICMP_TIME_EXCEEDED,
	IP6_FORWARD_NEXT_ICMP_PACKET_TOO_BIG,
	IP6_FORWARD_NEXT_ICMP_NEXTHOP_DOWN,
	IP6_FORWARD_NEXT_DROP_ACL,
	IP6_FORWARD_NEXT_MAX,
};

static inline rte_edge_t ip6_forward_one(struct rte_mbuf *m)
{
	struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *, m->l2_len);
	const struct dp_nexthop *nh = *dp_pkt_nh(m);

	if (unlikely(ip->hop_limits <= 1))
		return IP6_FORWARD_NEXT_ICMP_TIME_EXCEEDED;
	if (unlikely(!dp_port_egress_ok(nh->port)))	/* shut, or its link down */
		return IP6_FORWARD_NEXT_ICMP_NEXTHOP_DOWN;
	if (unlikely(IP6_HDR_LEN + rte_be_to_cpu_16(ip->payload_len) > nh->mtu))
		return IP6_FORWARD_NEXT_ICMP_PACKET_TOO_BIG;
	ip->hop_limits--;
	return IP6_FORWARD_NEXT_REWRITE;
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
		if (nexts[i] == IP6_FORWARD_NEXT_REWRITE)
			dp_acl_pick(&out, DP_ACL_IPV6, DP_ACL_OUT, i,
				    (*dp_pkt_nh(objs[i]))->port);
	return dp_acl_pick_filter(graph, &out, DP_ACL_IPV6, DP_ACL_OUT, objs, nexts,
				  IP6_FORWARD_NEXT_DROP_ACL) ? UINT16_MAX : 0;
}

static uint16_t ip6_forward_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				    uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		nexts[i] = ip6_forward_one(objs[i]);
		odd |= nexts[i] ^ IP6_FORWARD_NEXT_REWRITE;
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV6, DP_ACL_OUT)))
		odd |= filter(graph, objs, nb, nexts);
	dp_node_dispatch(graph, node, objs, nexts, nb, IP6_FORWARD_NEXT_REWRITE, odd);
	return nb;
}

static struct rte_node_register ip6_forward_node = {
	.name = "ip6_forward",
	.process = ip6_forward_process,
	.nb_edges = IP6_FORWARD_NEXT_MAX,
	.next_nodes = {
		[IP6_FORWARD_NEXT_REWRITE] = "ip_rewrite",
		[IP6_FORWARD_NEXT_ICMP_TIME_EXCEEDED] = "icmp6_time_exceeded",
		[IP6_FORWARD_NEXT_ICMP_PACKET_TOO_BIG] = "icmp6_packet_too_big",
		[IP6_FORWARD_NEXT_ICMP_NEXTHOP_DOWN] = "icmp6_nexthop_down",
		[IP6_FORWARD_NEXT_DROP_ACL] = "drop_acl",
	},
};
RTE_NODE_REGISTER(ip6_forward_node);
