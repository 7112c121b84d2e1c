/*
 * Sink nodes: one node per drop reason and per punt reason, so rte_graph's
 * per-node object counters are the drop and punt statistics.
 * Punt nodes free packets until the exception path (kni/) takes them.
 */
#include "dataplane/node.h"
#include "dataplane/node_sink.h"

static uint16_t sink_process(struct rte_graph *graph, struct rte_node *node, void **objs,
			     uint16_t nb)
{
	(void)graph;
	(void)node;
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
DP_PUNT_REASONS(X)
#undef X

const struct dp_sink_info dp_drop_reasons[] = {
#define X(reason, text) { #reason, text },
	DP_DROP_REASONS(X)
#undef X
	{ NULL, NULL },
};

const struct dp_sink_info dp_punt_reasons[] = {
#define X(reason, text) { #reason, text },
	DP_PUNT_REASONS(X)
#undef X
	{ NULL, NULL },
};
