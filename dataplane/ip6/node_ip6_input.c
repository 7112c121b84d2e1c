/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_input: RFC 8200 header checks. Multicast goes to the kernel, Neighbour Discovery and
 * MLD under reasons of their own (the kernel drops what it has not joined); unicast is looked up.
 */
#include "dataplane/acl/acl.h"
#include "dataplane/ip6/ip6.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

enum ip6_input_next {
	IP6_INPUT_NEXT_LOOKUP,
	IP6_INPUT_NEXT_PUNT_ND,
	IP6_INPUT_NEXT_PUNT_MLD,
	IP6_INPUT_NEXT_PUNT_MCAST,
	IP6_INPUT_NEXT_DROP_TRUNCATED,
	IP6_INPUT_NEXT_DROP_VERSION,
	IP6_INPUT_NEXT_DROP_LENGTH,
	IP6_INPUT_NEXT_DROP_MARTIAN_SRC,
	IP6_INPUT_NEXT_DROP_MARTIAN_DST,
	IP6_INPUT_NEXT_DROP_HEADER_CHAIN,
	IP6_INPUT_NEXT_DROP_ACL,
	IP6_INPUT_NEXT_MAX,
};

static const rte_edge_t verdict_edge[] = {
	[IP6_OK] = IP6_INPUT_NEXT_LOOKUP,
	[IP6_MCAST] = IP6_INPUT_NEXT_PUNT_MCAST,
	[IP6_TRUNCATED] = IP6_INPUT_NEXT_DROP_TRUNCATED,
	[IP6_BAD_VERSION] = IP6_INPUT_NEXT_DROP_VERSION,
	[IP6_BAD_LENGTH] = IP6_INPUT_NEXT_DROP_LENGTH,
	[IP6_MARTIAN_SRC] = IP6_INPUT_NEXT_DROP_MARTIAN_SRC,
	[IP6_MARTIAN_DST] = IP6_INPUT_NEXT_DROP_MARTIAN_DST,
	[IP6_BAD_CHAIN] = IP6_INPUT_NEXT_DROP_HEADER_CHAIN,
};

/* Which reason a datagram to a multicast group is punted under: ND and MLD (which comes
 * behind a Hop-by-Hop header with its Router Alert) by their ICMPv6 type. */
static inline rte_edge_t mcast_reason(const uint8_t *ip, uint32_t seg)
{
	uint32_t off;

	if (ip6_upper(ip, seg, &off) != IP6_NEXT_ICMP || off >= seg)
		return IP6_INPUT_NEXT_PUNT_MCAST;
	if (icmp6_is_nd(ip[off]))
		return IP6_INPUT_NEXT_PUNT_ND;
	if (icmp6_is_mld(ip[off]))
		return IP6_INPUT_NEXT_PUNT_MLD;
	return IP6_INPUT_NEXT_PUNT_MCAST;
}

static inline rte_edge_t ip6_classify(struct rte_mbuf *m)
{
	struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *, m->l2_len);
	uint32_t seg = m->data_len - m->l2_len, len;
	enum ip6_verdict v = ip6_check(ip, seg, m->pkt_len - m->l2_len);

	if (likely(v == IP6_OK) || v == IP6_MCAST) {
		/* Ethernet pads short frames: keep only what the IPv6 header claims. */
		len = m->l2_len + IP6_HDR_LEN + rte_be_to_cpu_16(ip->payload_len);
		if (unlikely(m->pkt_len > len))
			rte_pktmbuf_trim(m, m->pkt_len - len);
		if (v == IP6_MCAST)
			return mcast_reason((const uint8_t *)ip, RTE_MIN(seg, len - m->l2_len));
	}
	return verdict_edge[v];
}

/* The ingress interface's access list, for the unicast packets and the multicast ones that
 * are neither ND nor MLD (the link's own control, as ARP is IPv4's, always reaches the
 * kernel). Returns the bits for odd when it denied any. */
static __rte_noinline uint16_t filter(struct rte_graph *graph, void **objs, uint16_t nb,
				      rte_edge_t *nexts)
{
	struct dp_acl_pick in;
	uint16_t i;

	in.n = 0;
	for (i = 0; i < nb; i++)
		if (nexts[i] == IP6_INPUT_NEXT_LOOKUP || nexts[i] == IP6_INPUT_NEXT_PUNT_MCAST)
			dp_acl_pick(&in, DP_ACL_IPV6, DP_ACL_IN, i,
				    dp_port_map.index[((struct rte_mbuf *)objs[i])->port]);
	return dp_acl_pick_filter(graph, &in, DP_ACL_IPV6, DP_ACL_IN, objs, nexts,
				  IP6_INPUT_NEXT_DROP_ACL) ? UINT16_MAX : 0;
}

static uint16_t ip6_input_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				  uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		nexts[i] = ip6_classify(objs[i]);
		odd |= nexts[i] ^ IP6_INPUT_NEXT_LOOKUP;
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV6, DP_ACL_IN)))
		odd |= filter(graph, objs, nb, nexts);
	dp_node_dispatch(graph, node, objs, nexts, nb, IP6_INPUT_NEXT_LOOKUP, odd);
	return nb;
}

static struct rte_node_register ip6_input_node = {
	.name = "ip6_input",
	.process = ip6_input_process,
	.nb_edges = IP6_INPUT_NEXT_MAX,
	.next_nodes = {
		[IP6_INPUT_NEXT_LOOKUP] = "ip6_lookup",
		[IP6_INPUT_NEXT_PUNT_ND] = "punt_nd",
		[IP6_INPUT_NEXT_PUNT_MLD] = "punt_mld",
		[IP6_INPUT_NEXT_PUNT_MCAST] = "punt_mcast",
		[IP6_INPUT_NEXT_DROP_TRUNCATED] = "drop_ip6_truncated",
		[IP6_INPUT_NEXT_DROP_VERSION] = "drop_ip6_version",
		[IP6_INPUT_NEXT_DROP_LENGTH] = "drop_ip6_length",
		[IP6_INPUT_NEXT_DROP_MARTIAN_SRC] = "drop_ip6_martian_src",
		[IP6_INPUT_NEXT_DROP_MARTIAN_DST] = "drop_ip6_martian_dst",
		[IP6_INPUT_NEXT_DROP_HEADER_CHAIN] = "drop_ip6_header_chain",
		[IP6_INPUT_NEXT_DROP_ACL] = "drop_acl",
	},
};
RTE_NODE_REGISTER(ip6_input_node);
