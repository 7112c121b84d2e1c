/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Punt nodes, one per reason: police per ingress port, then hand the packets
 * to the exception service through this worker's ring (never a system call).
 * A packet over the policer's rate or finding the ring full is freed and counted.
 */
#include <rte_cycles.h>

#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "dataplane/trace.h"

struct punt_ctx {
	uint16_t reason;
	uint16_t worker;
};

/* GCRA: a packet conforms when the bucket's theoretical arrival time is within the window. */
static inline bool police(struct dp_punt_worker *pw, uint16_t port, uint64_t now)
{
	uint64_t tat = pw->tat[port] > now ? pw->tat[port] : now;

	if (tat - now > pw->window_tsc[port])
		return false;
	pw->tat[port] = tat + pw->interval_tsc[port];
	return true;
}

static uint16_t punt_process(struct rte_graph *graph, struct rte_node *node, void **objs,
			     uint16_t nb)
{
	const struct punt_ctx *ctx = (const struct punt_ctx *)node->ctx;
	struct dp_punt_worker *pw = &dp_punt[ctx->worker];
	struct rte_mbuf *keep[RTE_GRAPH_BURST_SIZE];
	uint64_t now = rte_rdtsc();
	unsigned int n = 0, sent, i;

	if (DP_TRACE_ACTIVE(graph))
		dp_trace_end(graph->id, node->id, objs, nb, DP_TRACE_NOT_SENT);
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		uint16_t port = dp_port_map.index[m->port];

		if (!police(pw, port, now)) {
			pw->policed[port]++;
			rte_pktmbuf_free(m);
			continue;
		}
		pw->punted[port][ctx->reason]++;
		keep[n++] = m;
	}
	sent = rte_ring_sp_enqueue_burst(pw->ring, (void **)keep, n, NULL);
	for (i = sent; i < n; i++) {
		pw->ring_full[dp_port_map.index[keep[i]->port]]++;
		rte_pktmbuf_free(keep[i]);
	}
	return nb;
}

static int punt_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct punt_ctx *ctx = (struct punt_ctx *)node->ctx;
	unsigned int r;

	for (r = 0; dp_punt_reasons[r].node; r++)
		if (strcmp(dp_punt_reasons[r].node, node->name) == 0)
			break;
	if (dp_punt_reasons[r].node == NULL)
		return -ENOENT;
	ctx->reason = r;
	ctx->worker = graph->id;	/* graphs are created in worker order */
	return 0;
}

#define X(reason, text)                                          \
	static struct rte_node_register punt_##reason = {       \
		.name = #reason,                                 \
		.process = punt_process,                         \
		.init = punt_init,                               \
	};                                                       \
	RTE_NODE_REGISTER(punt_##reason);
DP_PUNT_REASONS(X)
#undef X

const struct dp_sink_info dp_punt_reasons[] = {
#define X(reason, text) { #reason, text },
	DP_PUNT_REASONS(X)
#undef X
	{ NULL, NULL },
};
