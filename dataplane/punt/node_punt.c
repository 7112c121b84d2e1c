/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Punt nodes, one per reason: each packet is classed (punt_class.h), policed by its class's
 * bucket on its ingress port, then handed to the exception service through this worker's
 * ring of its class (never a system call). A packet over its class's rate, or finding that
 * ring full, is freed and counted under its class: a flood of one class takes nothing from
 * the others.
 */
#include <rte_cycles.h>

#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "dataplane/punt/punt_class.h"
#include "dataplane/punt/punt_known.h"
#include "dataplane/trace.h"

struct punt_ctx {
	uint16_t reason;
	uint16_t worker;
};

/* GCRA: a packet conforms when the bucket's theoretical arrival time is within the window. */
static inline bool police(struct dp_punt_bucket *b, uint64_t now)
{
	uint64_t tat = b->tat > now ? b->tat : now;

	/* the rate may change while the worker runs (dp_punt_set_rate) */
	if (tat - now > __atomic_load_n(&b->window_tsc, __ATOMIC_RELAXED))
		return false;
	b->tat = tat + __atomic_load_n(&b->interval_tsc, __ATOMIC_RELAXED);
	return true;
}

/* Whether an ARP or ND frame comes from a neighbour the router resolved, within that
 * neighbour's allowance: punt_class.h says why that is routing's, punt.h what the allowance is. */
static bool from_known_neighbour(struct dp_punt_worker *pw, unsigned int reason, const uint8_t *frame,
				 uint32_t len, uint64_t now)
{
	int slot;

	if (!dp_punt_is_resolution(reason, frame, len))
		return false;
	slot = dp_punt_known_slot((const struct rte_ether_addr *)(frame + RTE_ETHER_ADDR_LEN));
	return slot >= 0 && police(&pw->known[slot % DP_PUNT_KNOWN_SLOTS], now);
}

static uint16_t punt_process(struct rte_graph *graph, struct rte_node *node, void **objs,
			     uint16_t nb)
{
	const struct punt_ctx *ctx = (const struct punt_ctx *)node->ctx;
	struct dp_punt_worker *pw = &dp_punt[ctx->worker];
	uint64_t now = rte_rdtsc();
	unsigned int i;

	if (DP_TRACE_ACTIVE(graph))
		dp_trace_end(graph->id, node->id, objs, nb, DP_TRACE_NOT_SENT);
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		uint16_t port = dp_port_map.index[m->port];
		const uint8_t *frame = rte_pktmbuf_mtod(m, const uint8_t *);
		enum dp_punt_class c = dp_punt_classify(ctx->reason, frame, m->data_len);

		if (c == DP_PUNT_CLASS_neighbour && from_known_neighbour(pw, ctx->reason, frame, m->data_len, now))
			c = DP_PUNT_CLASS_routing;

		if (!police(&pw->bucket[port][c], now)) {
			pw->policed[port][c]++;
			rte_pktmbuf_free(m);
			continue;
		}
		pw->punted[port][ctx->reason]++;
		if (rte_ring_sp_enqueue(pw->ring[c], m) != 0) {
			pw->ring_full[port][c]++;
			rte_pktmbuf_free(m);
		} else {
			pw->passed[port][c]++;
		}
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
