/* SPDX-License-Identifier: BSD-3-Clause */
/* Drop nodes, one per reason, so rte_graph's per-node object counters are the drop statistics. */
#include "dataplane/node.h"
#include "dataplane/punt/node_sink.h"
#include "dataplane/trace.h"

static uint16_t sink_process(struct rte_graph *graph, struct rte_node *node, void **objs,
			     uint16_t nb)
{
	if (DP_TRACE_ACTIVE(graph))
		dp_trace_end(graph->id, node->id, objs, nb, DP_TRACE_NOT_SENT);
	rte_pktmbuf_free_bulk((struct rte_mbuf **)objs, nb);
	return nb;
}

#define SINK_NODE(reason)                                            \
	static struct rte_node_register sink_##reason = {           \
		.name = #reason,                                     \
		.process = sink_process,                             \
	};                                                           \
	RTE_NODE_REGISTER(sink_##reason)

#define X(reason, text) SINK_NODE(reason);
DP_DROP_REASONS(X)
#undef X

const struct dp_sink_info dp_drop_reasons[] = {
#define X(reason, text) { #reason, text },
	DP_DROP_REASONS(X)
#undef X
	{ NULL, NULL },
};
