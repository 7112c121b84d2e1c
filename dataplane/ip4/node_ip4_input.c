/* SPDX-License-Identifier: BSD-3-Clause */
/* ip4_input: RFC 1812 §5.2.2 header checks; options, multicast and broadcast go to the kernel. */
#include "dataplane/acl/acl.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

enum ip4_input_next {
	IP4_INPUT_NEXT_LOOKUP,
	IP4_INPUT_NEXT_PUNT_OPTIONS,
	IP4_INPUT_NEXT_PUNT_MCAST,
	IP4_INPUT_NEXT_DROP_TRUNCATED,
	IP4_INPUT_NEXT_DROP_VERSION,
	IP4_INPUT_NEXT_DROP_IHL,
	IP4_INPUT_NEXT_DROP_LENGTH,
	IP4_INPUT_NEXT_DROP_CHECKSUM,
	IP4_INPUT_NEXT_DROP_MARTIAN_SRC,
	IP4_INPUT_NEXT_DROP_MARTIAN_DST,
	IP4_INPUT_NEXT_DROP_ACL,
	IP4_INPUT_NEXT_MAX,
};

static const rte_edge_t verdict_edge[] = {
	[IP4_OK] = IP4_INPUT_NEXT_LOOKUP,
	[IP4_TRUNCATED] = IP4_INPUT_NEXT_DROP_TRUNCATED,
	[IP4_BAD_VERSION] = IP4_INPUT_NEXT_DROP_VERSION,
	[IP4_BAD_IHL] = IP4_INPUT_NEXT_DROP_IHL,
	[IP4_BAD_LENGTH] = IP4_INPUT_NEXT_DROP_LENGTH,
	[IP4_BAD_CHECKSUM] = IP4_INPUT_NEXT_DROP_CHECKSUM,
	[IP4_MARTIAN_SRC] = IP4_INPUT_NEXT_DROP_MARTIAN_SRC,
	[IP4_MARTIAN_DST] = IP4_INPUT_NEXT_DROP_MARTIAN_DST,
};

static inline rte_edge_t ip4_classify(struct rte_mbuf *m)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, m->l2_len);
	uint64_t ck = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
	uint32_t tl;
	enum ip4_verdict v;

	if (unlikely(ck == RTE_MBUF_F_RX_IP_CKSUM_BAD))
		return IP4_INPUT_NEXT_DROP_CHECKSUM;
	v = ip4_check(ip, m->data_len - m->l2_len, m->pkt_len - m->l2_len,
		      ck == RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	if (unlikely(v != IP4_OK))
		return verdict_edge[v];
	/* Ethernet pads short frames: keep only what the IP header claims. */
	tl = rte_be_to_cpu_16(ip->total_length);
	if (unlikely(m->pkt_len > m->l2_len + tl))
		rte_pktmbuf_trim(m, m->pkt_len - m->l2_len - tl);
	if (unlikely(ip->version_ihl != RTE_IPV4_VHL_DEF))
		return IP4_INPUT_NEXT_PUNT_OPTIONS;
	if (unlikely(ip4_is_mcast_or_bcast(ip->dst_addr)))
		return IP4_INPUT_NEXT_PUNT_MCAST;
	return IP4_INPUT_NEXT_LOOKUP;
}

/* The ingress interface's access list, for every packet that passed the checks (to the router
 * too). Returns the bits for odd when it denied any. */
static __rte_noinline uint16_t filter(struct rte_graph *graph, void **objs, uint16_t nb,
				      rte_edge_t *nexts)
{
	struct dp_acl_pick in;
	uint16_t i;

	in.n = 0;
	for (i = 0; i < nb; i++)
		if (nexts[i] <= IP4_INPUT_NEXT_PUNT_MCAST)	/* lookup, options, multicast */
			dp_acl_pick(&in, DP_ACL_IPV4, DP_ACL_IN, i,
				    dp_port_map.index[((struct rte_mbuf *)objs[i])->port]);
	return dp_acl_pick_filter(graph, &in, DP_ACL_IPV4, DP_ACL_IN, objs, nexts,
				  IP4_INPUT_NEXT_DROP_ACL) ? UINT16_MAX : 0;
}

static uint16_t ip4_input_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				  uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		nexts[i] = ip4_classify(objs[i]);
		odd |= nexts[i] ^ IP4_INPUT_NEXT_LOOKUP;
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV4, DP_ACL_IN)))
		odd |= filter(graph, objs, nb, nexts);
	dp_node_dispatch(graph, node, objs, nexts, nb, IP4_INPUT_NEXT_LOOKUP, odd);
	return nb;
}

static struct rte_node_register ip4_input_node = {
	.name = "ip4_input",
	.process = ip4_input_process,
	.nb_edges = IP4_INPUT_NEXT_MAX,
	.next_nodes = {
		[IP4_INPUT_NEXT_LOOKUP] = "ip4_lookup",
		[IP4_INPUT_NEXT_PUNT_OPTIONS] = "punt_ip_options",
		[IP4_INPUT_NEXT_PUNT_MCAST] = "punt_mcast",
		[IP4_INPUT_NEXT_DROP_TRUNCATED] = "drop_ip_truncated",
		[IP4_INPUT_NEXT_DROP_VERSION] = "drop_ip_version",
		[IP4_INPUT_NEXT_DROP_IHL] = "drop_ip_ihl",
		[IP4_INPUT_NEXT_DROP_LENGTH] = "drop_ip_length",
		[IP4_INPUT_NEXT_DROP_CHECKSUM] = "drop_ip_checksum",
		[IP4_INPUT_NEXT_DROP_MARTIAN_SRC] = "drop_martian_src",
		[IP4_INPUT_NEXT_DROP_MARTIAN_DST] = "drop_martian_dst",
		[IP4_INPUT_NEXT_DROP_ACL] = "drop_acl",
	},
};
RTE_NODE_REGISTER(ip4_input_node);
