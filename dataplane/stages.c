/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-stage cycles and packets of each worker, from rte_graph's per-node counters. */
#include <stdbool.h>
#include <string.h>

#include <rte_graph.h>
#include <rte_graph_worker.h>

#include "dataplane/dp.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/stages.h"

const char *const dp_stage_names[DP_STAGE_MAX] = {
	[DP_STAGE_RX] = "rx", [DP_STAGE_FAST] = "fastpath", [DP_STAGE_PARSE] = "parse", [DP_STAGE_LOOKUP] = "lookup",
	[DP_STAGE_REWRITE] = "rewrite", [DP_STAGE_TX] = "tx", [DP_STAGE_PUNT] = "punt",
	[DP_STAGE_ICMP] = "icmp", [DP_STAGE_DROP] = "drop",
};

/* A node's stage, and whether its packets are the stage's (a stage of two nodes counts the first). */
static int stage_of(const char *name, bool *counts)
{
	static const struct {
		const char *prefix;
		enum dp_stage stage;
		bool counts;
	} map[] = {
		{ "port_rx-", DP_STAGE_RX, true }, { "pipeline_inject", DP_STAGE_RX, true },
		{ "kernel_out", DP_STAGE_RX, false },	/* the kernel's frames: counted at tx */
		{ "ip4_fast", DP_STAGE_FAST, true }, { "ip6_fast", DP_STAGE_FAST, false }, { "eth_input", DP_STAGE_PARSE, true }, { "ip4_input", DP_STAGE_PARSE, false },
		{ "ip4_lookup", DP_STAGE_LOOKUP, true }, { "ip4_forward", DP_STAGE_REWRITE, true },
		{ "ip6_input", DP_STAGE_PARSE, false }, { "ip6_lookup", DP_STAGE_LOOKUP, true },
		{ "ip6_forward", DP_STAGE_REWRITE, true },
		{ "ip_rewrite", DP_STAGE_REWRITE, false }, { "port_tx-", DP_STAGE_TX, true },
		{ "punt_", DP_STAGE_PUNT, true }, { "icmp_", DP_STAGE_ICMP, true },
		{ "icmp6_", DP_STAGE_ICMP, true },
		{ "drop_", DP_STAGE_DROP, true },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(map); i++) {
		if (strncmp(name, map[i].prefix, strlen(map[i].prefix)) == 0) {
			*counts = map[i].counts;
			return map[i].stage;
		}
	}
	return -1;
}

void dp_worker_perf(unsigned int w, struct dp_worker_perf *p)
{
	struct rte_graph *graph = w < dp.nb_workers ? dp.workers[w].graph : NULL;
	struct rte_node *n;
	rte_graph_off_t off;
	rte_node_t count;

	memset(p, 0, sizeof(*p));
	if (graph == NULL)
		return;
	p->busy_cycles = dp.workers[w].stats.busy_cycles;
	rte_graph_foreach_node(count, off, graph, n) {
		bool counts;
		int s = stage_of(n->name, &counts);

		if (s < 0)
			continue;
		if (counts)
			p->stage[s].objs += n->total_objs;
		p->stage[s].cycles += n->total_cycles;
		p->stage[s].calls += n->total_calls;
		p->cycles += n->total_cycles;
		if (s == DP_STAGE_RX && counts) {
			p->polls += n->total_calls;
			p->rx_packets += n->total_objs;
			p->busy_polls += dp_node_port_rx_busy(n);
		}
	}
}
