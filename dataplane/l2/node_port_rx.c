/* SPDX-License-Identifier: BSD-3-Clause */
/* port_rx: a source node, one clone per (port, rx queue), that bursts packets into the graph. */
#include <rte_ethdev.h>

#include "dataplane/node.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/trace.h"

enum port_rx_next {
	PORT_RX_NEXT_IP4_FAST,
	PORT_RX_NEXT_VLAN_INPUT,	/* the port has sub-interfaces */
	PORT_RX_NEXT_MAX,
};

struct port_rx_ctx {
	uint16_t port_id;
	uint16_t queue;
	uint16_t burst;		/* packets a poll takes, at most */
	uint16_t index;		/* the port's (dp.ports) */
	uint64_t busy;		/* polls that returned packets; this worker's own */
};

static struct port_rx_ctx clone_ctx[DP_NODE_CLONES_MAX];
static rte_node_t clone_id[DP_NODE_CLONES_MAX];
static unsigned int nb_clones;

static uint16_t port_rx_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				uint16_t nb)
{
	struct port_rx_ctx *ctx = (struct port_rx_ctx *)node->ctx;
	uint16_t n;

	n = rte_eth_rx_burst(ctx->port_id, ctx->queue, (struct rte_mbuf **)node->objs, ctx->burst);
	if (n == 0)
		return 0;
	ctx->busy++;
	if (unlikely(dp_trace.on))
		dp_trace_rx(graph->id, node->id, (struct rte_mbuf **)node->objs, n);
	/* graph id = worker index */
	dp_sflow_frames(graph->id, ctx->index, (struct rte_mbuf **)node->objs, n);
	node->idx = n;
	rte_node_next_stream_move(graph, node, likely(!dp_port_map.vlans[ctx->index]) ?
				  PORT_RX_NEXT_IP4_FAST : PORT_RX_NEXT_VLAN_INPUT);
	return n;
}

static int port_rx_init(const struct rte_graph *graph, struct rte_node *node)
{
	unsigned int i;

	for (i = 0; i < nb_clones; i++) {
		if (clone_id[i] == node->id) {
			memcpy(node->ctx, &clone_ctx[i], sizeof(clone_ctx[i]));
			return 0;
		}
	}
	return -ENOENT;
}

static struct rte_node_register port_rx_node = {
	.name = "port_rx",
	.flags = RTE_NODE_SOURCE_F,
	.process = port_rx_process,
	.init = port_rx_init,
	.nb_edges = PORT_RX_NEXT_MAX,
	.next_nodes = {
		[PORT_RX_NEXT_IP4_FAST] = "ip4_fast",
		[PORT_RX_NEXT_VLAN_INPUT] = "vlan_input",
	},
};
RTE_NODE_REGISTER(port_rx_node);

int dp_node_port_rx_clone(uint16_t port_id, uint16_t queue, uint16_t burst, char *name, size_t len)
{
	char suffix[16];
	rte_node_t id;

	if (nb_clones == DP_NODE_CLONES_MAX)
		return -ENOSPC;
	snprintf(suffix, sizeof(suffix), "%u-%u", port_id, queue);
	snprintf(name, len, "port_rx-%s", suffix);
	id = rte_node_from_name(name);
	if (id == RTE_NODE_ID_INVALID)
		id = rte_node_clone(port_rx_node.id, suffix);
	if (id == RTE_NODE_ID_INVALID)
		return -EINVAL;
	clone_id[nb_clones] = id;
	clone_ctx[nb_clones].port_id = port_id;
	clone_ctx[nb_clones].queue = queue;
	clone_ctx[nb_clones].burst = burst;
	clone_ctx[nb_clones].index = dp_port_map.index[port_id];
	nb_clones++;
	return 0;
}

uint64_t dp_node_port_rx_busy(const struct rte_node *node)
{
	if (node->process != port_rx_process)
		return 0;
	return ((const struct port_rx_ctx *)node->ctx)->busy;
}
