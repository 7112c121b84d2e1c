/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * kernel_out: a source node in the first worker's graph that sends out of the
 * ports what the kernel sends through their TAPs. The exception service reads
 * the TAPs and fills dp_kernel_out; this node moves the frames to port_tx of
 * their port, so they leave on the worker's own tx queue and a port needs no
 * queue of its own for the exception path (a real NIC's queues are few, and
 * a memif peer need not poll one more).
 */
#include <rte_ring.h>

#include "dataplane/node.h"
#include "dataplane/l2/group_count.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/punt/punt.h"

/* Its edges are the transmit edges (node.h): vlan_output, then the ports' port_tx, added as
 * they are cloned. */

static uint16_t kernel_out_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				   uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	struct dp_group_count *groups = dp_group_counts[graph->id];	/* graph id = worker */
	struct rte_mbuf **m = (struct rte_mbuf **)node->objs;
	uint16_t n, odd = 0, i;

	n = rte_ring_sc_dequeue_burst(dp_kernel_out, node->objs, RTE_GRAPH_BURST_SIZE, NULL);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		uint16_t index = dp_port_map.index[m[i]->port];

		if (likely(m[i]->data_len >= RTE_ETHER_ADDR_LEN))
			dp_group_count(groups, index, rte_pktmbuf_mtod(m[i], struct rte_ether_addr *),
				       false);
		*dp_pkt_out(m[i]) = index;	/* where a drop at port_tx takes it off again */
		nexts[i] = dp_tx_edge(m[i], index);
		odd |= nexts[i] ^ nexts[0];
	}
	node->idx = n;
	dp_node_dispatch(graph, node, node->objs, nexts, n, nexts[0], odd);
	return n;
}

static struct rte_node_register kernel_out_node = {
	.name = "kernel_out",
	.flags = RTE_NODE_SOURCE_F,
	.process = kernel_out_process,
	.nb_edges = 1,
	.next_nodes = { [DP_TX_VLAN] = "vlan_output" },
};
RTE_NODE_REGISTER(kernel_out_node);
