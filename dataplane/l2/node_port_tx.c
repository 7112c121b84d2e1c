/* SPDX-License-Identifier: BSD-3-Clause */
/* port_tx: a sink node, one clone per port, sending on the walking worker's own tx queue. */
#include <rte_ethdev.h>

#include "dataplane/node.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/trace.h"
#include "dataplane/l2/vlan.h"

struct port_tx_ctx {
	uint16_t index;		/* the interface's (dp.ports) */
	uint16_t queue;
	uint32_t pad;
	uint64_t drops;		/* written by this worker only */
};	/* RTE_NODE_CTX_SZ: 16 bytes */

struct dp_tx_tags dp_tx_tags[DP_MAX_PORTS];
static rte_node_t tx_clone_id[DP_MAX_PORTS];

/*
 * A sub-interface's tags go in after the MACs: the MACs move 4 or 8 bytes into
 * the headroom. A frame with no room before it or whose buffer is shared
 * (never one of ternd's own) is a drop.
 */
static uint16_t tag_frames(struct port_tx_ctx *ctx, const struct dp_tx_tags *t,
			   struct rte_mbuf **m, uint16_t nb)
{
	uint64_t bytes = 0, tag;
	uint16_t i, n = 0, len = t->len;

	memcpy(&tag, t->tag, sizeof(tag));
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *b = m[i];
		uint8_t *at;

		if (unlikely(b->data_off < len || b->data_len < RTE_ETHER_HDR_LEN ||
			     RTE_MBUF_CLONED(b))) {
			ctx->drops++;
			rte_pktmbuf_free(b);
			continue;
		}
		bytes += b->pkt_len;
		b->data_off -= len;
		b->data_len += len;
		b->pkt_len += len;
		at = rte_pktmbuf_mtod(b, uint8_t *);
		memmove(at, at + len, 2 * RTE_ETHER_ADDR_LEN);
		if (len == RTE_VLAN_HLEN)
			memcpy(at + 2 * RTE_ETHER_ADDR_LEN, &tag, RTE_VLAN_HLEN);
		else
			memcpy(at + 2 * RTE_ETHER_ADDR_LEN, &tag, sizeof(tag));
		m[n++] = b;
	}
	dp_vlan_stats[ctx->queue].tx_bytes[ctx->index] += bytes;
	return n;
}

static uint16_t port_tx_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				uint16_t nb)
{
	struct port_tx_ctx *ctx = (struct port_tx_ctx *)node->ctx;
	const struct dp_tx_tags *t = &dp_tx_tags[ctx->index];
	struct rte_mbuf **m = (struct rte_mbuf **)objs;
	uint16_t sent = 0, n = nb;
	int tries = 4;

	if (DP_TRACE_ACTIVE(graph))
		dp_trace_end(graph->id, node->id, objs, nb, ctx->index);
	if (unlikely(t->len != 0))
		n = tag_frames(ctx, t, m, nb);
	while (sent < n && tries-- > 0)
		sent += rte_eth_tx_burst(t->port_id, ctx->queue, m + sent, n - sent);
	if (unlikely(sent < n)) {
		ctx->drops += n - sent;
		rte_pktmbuf_free_bulk(m + sent, n - sent);
	}
	return nb;
}

static int port_tx_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct port_tx_ctx *ctx = (struct port_tx_ctx *)node->ctx;
	unsigned int i;

	for (i = 0; i < DP_MAX_PORTS; i++) {
		if (tx_clone_id[i] == node->id && node->id != 0) {
			ctx->index = i;
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

int dp_node_port_tx_clone(uint16_t port_index, uint16_t port_id)
{
	char suffix[16], name[RTE_NODE_NAMESIZE];
	const char *edge = name;
	rte_node_t id, rewrite, fast, kernel_out;

	snprintf(suffix, sizeof(suffix), "%u", port_index);
	snprintf(name, sizeof(name), "port_tx-%s", suffix);
	id = rte_node_from_name(name);
	if (id == RTE_NODE_ID_INVALID)
		id = rte_node_clone(port_tx_node.id, suffix);
	if (id == RTE_NODE_ID_INVALID)
		return -EINVAL;
	tx_clone_id[port_index] = id;
	dp_tx_tags[port_index].port_id = port_id;
	rewrite = rte_node_from_name("ip_rewrite");
	if (rewrite == RTE_NODE_ID_INVALID)
		return -ENOENT;
	/* ip_rewrite's edge number i is port index i; ip4_fast's and ip6_fast's node.h says */
	if (rte_node_edge_update(rewrite, port_index, &edge, 1) == 0)
		return -EINVAL;
	fast = rte_node_from_name("ip4_fast");
	if (fast == RTE_NODE_ID_INVALID)
		return -ENOENT;
	if (rte_node_edge_update(fast, DP_IP4_FAST_PORT_EDGE + port_index, &edge, 1) == 0)
		return -EINVAL;
	fast = rte_node_from_name("ip6_fast");
	if (fast == RTE_NODE_ID_INVALID)
		return -ENOENT;
	if (rte_node_edge_update(fast, DP_IP6_FAST_PORT_EDGE + port_index, &edge, 1) == 0)
		return -EINVAL;
	/* kernel_out's edge number i is port index i */
	kernel_out = rte_node_from_name("kernel_out");
	if (kernel_out == RTE_NODE_ID_INVALID)
		return -ENOENT;
	if (rte_node_edge_update(kernel_out, port_index, &edge, 1) == 0)
		return -EINVAL;
	return 0;
}

uint64_t dp_node_port_tx_drops(uint16_t port_index)
{
	uint64_t sum = 0;
	unsigned int w;

	for (w = 0; w < dp.nb_workers; w++) {
		struct rte_node *n;

		if (dp.workers[w].graph == NULL)
			continue;
		n = rte_graph_node_get(dp.workers[w].graph_id, tx_clone_id[port_index]);
		if (n != NULL)
			sum += ((struct port_tx_ctx *)n->ctx)->drops;
	}
	return sum;
}
