/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vlan_output: the transmit edge of every sub-interface. A frame's egress
 * sub-interface is in the frame (dp_pkt_out, set by the node that sent it
 * here); its tags go in after the MACs, which move 4 or 8 bytes into the
 * headroom, and the frame goes on to its port's port_tx. So a worker's graph
 * holds one port_tx per port however many sub-interfaces there are. A frame
 * with no room before it, or whose buffer is shared (never one of ternd's
 * own), is dropped (drop_no_headroom).
 */
#include <rte_ether.h>

#include "dataplane/node.h"
#include "dataplane/trace.h"
#include "dataplane/l2/vlan.h"

struct dp_tx_tags *dp_tx_tags;

/* vlan_output's edge to drop_no_headroom; the ports' port_tx follow (dp_node_port_tx_clones) */
#define VLAN_OUTPUT_NEXT_DROP 0

static inline rte_edge_t tag(struct rte_mbuf *b, uint16_t index, struct dp_vlan_run *r)
{
	const struct dp_tx_tags *t = &dp_tx_tags[index];

	if (unlikely(b->data_off < t->len || b->data_len < RTE_ETHER_HDR_LEN || RTE_MBUF_CLONED(b)))
		return VLAN_OUTPUT_NEXT_DROP;
	dp_vlan_run_add(r, index, b->pkt_len);
	/* the MACs move len bytes into the headroom */
	return dp_vlan_tags_push(b, t, rte_pktmbuf_mtod(b, const uint8_t *));
}

static uint16_t vlan_output_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				    uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	/* graph id = worker index */
	struct dp_vlan_run run = { .st = dp_vlan_stats[graph->id], .tx = true };
	uint16_t odd = 0, i;

	if (unlikely(nb == 0))
		return 0;
	if (unlikely(DP_TRACE_ACTIVE(graph))) {
		DP_TRACE_NODE(graph, node, objs, nb);
		for (i = 0; i < nb; i++)
			dp_trace_port_out(graph->id, objs[i], *dp_pkt_out(objs[i]));
	}
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];

		if (i + 2 < nb)
			rte_prefetch0(rte_pktmbuf_mtod((struct rte_mbuf *)objs[i + 2], void *));
		nexts[i] = tag(m, *dp_pkt_out(m), &run);
		odd |= nexts[i] ^ nexts[0];
	}
	dp_vlan_run_flush(&run);
	dp_node_dispatch(graph, node, objs, nexts, nb, nexts[0], odd);
	return nb;
}

static struct rte_node_register vlan_output_node = {
	.name = "vlan_output",
	.process = vlan_output_process,
	.nb_edges = 1,
	.next_nodes = { [VLAN_OUTPUT_NEXT_DROP] = "drop_no_headroom" },
};
RTE_NODE_REGISTER(vlan_output_node);
