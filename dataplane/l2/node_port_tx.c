/* SPDX-License-Identifier: BSD-3-Clause */
/* port_tx: a sink node, one clone per port, sending on the walking worker's own tx queue. */
#include <rte_ethdev.h>

#include "dataplane/node.h"
#include "dataplane/l2/group_count.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/trace.h"

struct port_tx_ctx {
	uint16_t index;		/* the port's (dp.ports) */
	uint16_t port_id;	/* its ethdev */
	uint16_t queue;
	uint16_t pad;
	uint64_t drops;		/* written by this worker only */
};	/* RTE_NODE_CTX_SZ: 16 bytes */

uint16_t dp_tx_port[RTE_MAX_ETHPORTS + 1];
/* Transmit edge k's clone (k >= 1; 0 is vlan_output; 0 until made), and how many edges
 * there are. */
static rte_node_t tx_clone_id[RTE_MAX_ETHPORTS + 1];
static unsigned int nb_tx_edges = 1;

static uint16_t port_tx_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				uint16_t nb)
{
	struct port_tx_ctx *ctx = (struct port_tx_ctx *)node->ctx;
	struct rte_mbuf **m = (struct rte_mbuf **)objs;
	uint16_t sent = 0;
	int tries = 4;

	if (DP_TRACE_ACTIVE(graph))
		dp_trace_end(graph->id, node->id, objs, nb, ctx->index);
	while (sent < nb && tries-- > 0)
		sent += rte_eth_tx_burst(ctx->port_id, ctx->queue, m + sent, nb - sent);
	if (unlikely(sent < nb)) {
		ctx->drops += nb - sent;
		dp_group_uncount(dp_group_counts[graph->id], m + sent, nb - sent);
		rte_pktmbuf_free_bulk(m + sent, nb - sent);
	}
	return nb;
}

static int port_tx_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct port_tx_ctx *ctx = (struct port_tx_ctx *)node->ctx;
	unsigned int k;

	for (k = 1; k < nb_tx_edges; k++) {
		if (tx_clone_id[k] == node->id) {
			ctx->index = dp_tx_port[k];
			ctx->port_id = dp.ports[ctx->index].port_id;
			/* graphs are created in worker order: graph id = worker index = tx queue */
			ctx->queue = graph->id;
			ctx->drops = 0;
			return 0;
		}
	}
	return -ENOENT;
}

static struct rte_node_register port_tx_node = {
	.name = "port_tx",
	.process = port_tx_process,
	.init = port_tx_init,
	.nb_edges = 0,
};
RTE_NODE_REGISTER(port_tx_node);

/* Makes edge at of node name lead to node edge. */
static int edge_add(const char *name, rte_edge_t at, const char *edge)
{
	rte_node_t id = rte_node_from_name(name);

	if (id == RTE_NODE_ID_INVALID)
		return -ENOENT;
	return rte_node_edge_update(id, at, &edge, 1) == 0 ? -EINVAL : 0;
}

int dp_tx_edge_take(uint16_t port_index)
{
	if (dp_port_map.tx[port_index] != DP_TX_VLAN)
		return 0;	/* a slot claimed again after a failure keeps its edge */
	if (nb_tx_edges == RTE_DIM(dp_tx_port))
		return -ENOSPC;
	dp_port_map.tx[port_index] = nb_tx_edges;
	dp_tx_port[nb_tx_edges++] = port_index;
	return 0;
}

static int port_tx_clone(unsigned int k)
{
	/* each node that sends, and its first transmit edge (vlan_output's 0 is a drop: it has
	 * no edge to itself) */
	static const struct {
		const char *node;
		rte_edge_t base;
	} senders[] = {
		{ "ip4_fast", DP_IP4_FAST_TX_EDGE }, { "ip6_fast", DP_IP6_FAST_TX_EDGE },
		{ "ip_rewrite", 0 }, { "kernel_out", 0 }, { "vlan_output", 0 },
	};
	char suffix[16], name[RTE_NODE_NAMESIZE];
	rte_node_t id;
	unsigned int i;
	int rc;

	snprintf(suffix, sizeof(suffix), "%u", dp_tx_port[k]);
	snprintf(name, sizeof(name), "port_tx-%s", suffix);
	id = rte_node_from_name(name);
	if (id == RTE_NODE_ID_INVALID)
		id = rte_node_clone(port_tx_node.id, suffix);
	if (id == RTE_NODE_ID_INVALID)
		return -EINVAL;
	for (i = 0; i < RTE_DIM(senders); i++) {
		rc = edge_add(senders[i].node, senders[i].base + k, name);
		if (rc < 0)
			return rc;
	}
	tx_clone_id[k] = id;
	return 0;
}

int dp_node_port_tx_clones(void)
{
	unsigned int k;
	int rc;

	for (k = 1; k < nb_tx_edges; k++)
		if (tx_clone_id[k] == 0 && (rc = port_tx_clone(k)) < 0)
			return rc;
	return 0;
}

uint64_t dp_node_port_tx_drops(uint16_t port_index)
{
	rte_edge_t k = dp_port_map.tx[port_index];
	uint64_t sum = 0;
	unsigned int w;

	if (k == DP_TX_VLAN)
		return 0;
	for (w = 0; w < dp.nb_workers; w++) {
		struct rte_node *n;

		if (dp.workers[w].graph == NULL)
			continue;
		n = rte_graph_node_get(dp.workers[w].graph_id, tx_clone_id[k]);
		if (n != NULL)
			sum += ((struct port_tx_ctx *)n->ctx)->drops;
	}
	return sum;
}
