/* SPDX-License-Identifier: BSD-3-Clause */
/* ip_rewrite: writes the nexthop's MACs (the EtherType stays the packet's: IPv4 or IPv6); its
 * edges are the transmit edges (node.h). */
#include <rte_errno.h>

#include "dataplane/node.h"
#include "dataplane/trace.h"

int dp_meta_offset = -1;

static uint16_t ip_rewrite_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				    uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	rte_edge_t common = (*dp_pkt_nh(objs[0]))->tx;
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		const struct dp_nexthop *nh = *dp_pkt_nh(m);

		if (i + 2 < nb)
			rte_prefetch0(*dp_pkt_nh((struct rte_mbuf *)objs[i + 2]));
		rte_memcpy(rte_pktmbuf_mtod(m, void *), &nh->eth, sizeof(nh->eth));
		nexts[i] = dp_nh_tx_edge(m, nh);
		odd |= nexts[i] ^ common;
	}
	dp_node_dispatch(graph, node, objs, nexts, nb, common, odd);
	return nb;
}

/* Edge DP_TX_VLAN is vlan_output; the others are added at start, one per port
 * (dp_node_port_tx_clones). */
static struct rte_node_register ip_rewrite_node = {
	.name = "ip_rewrite",
	.process = ip_rewrite_process,
	.nb_edges = 1,
	.next_nodes = { [DP_TX_VLAN] = "vlan_output" },
};
RTE_NODE_REGISTER(ip_rewrite_node);

int dp_node_meta_register(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "tern_nexthop",
		.size = sizeof(struct dp_nexthop *),
		.align = __alignof__(struct dp_nexthop *),
	};

	dp_meta_offset = rte_mbuf_dynfield_register(&desc);
	return dp_meta_offset < 0 ? -rte_errno : 0;
}
