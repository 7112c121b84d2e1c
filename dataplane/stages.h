/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the workers spend their cycles, by stage of the forwarding path.
 * rte_graph (built with RTE_LIBRTE_GRAPH_STATS, as Debian's is) already
 * times every node call with the TSC; this groups those counters by stage.
 */
#ifndef TERN_STAGES_H
#define TERN_STAGES_H

#include <stdint.h>

enum dp_stage {
	DP_STAGE_RX,		/* port_rx-*: polling, busy or not */
	DP_STAGE_FAST,		/* ip4_fast: the common case parsed, looked up and rewritten at once */
	DP_STAGE_PARSE,		/* eth_input, ip4_input */
	DP_STAGE_LOOKUP,	/* ip4_lookup */
	DP_STAGE_REWRITE,	/* ip4_forward, ip_rewrite */
	DP_STAGE_TX,		/* port_tx-* */
	DP_STAGE_PUNT,		/* punt_* */
	DP_STAGE_ICMP,		/* icmp_* */
	DP_STAGE_DROP,		/* drop_* */
	DP_STAGE_MAX,
};

extern const char *const dp_stage_names[DP_STAGE_MAX];

struct dp_stage_stats {
	uint64_t objs;		/* packets handed to the stage */
	uint64_t cycles;
	uint64_t calls;
};

struct dp_worker_perf {
	struct dp_stage_stats stage[DP_STAGE_MAX];
	uint64_t polls;		/* rx node calls */
	uint64_t busy_polls;	/* of which returned packets */
	uint64_t rx_packets;
	uint64_t cycles;	/* all stages */
	uint64_t busy_cycles;	/* of which in walks that handled packets: the load */
};

/* Sums worker w's node counters; read by the control thread while the worker runs. */
void dp_worker_perf(unsigned int w, struct dp_worker_perf *p);

#endif
