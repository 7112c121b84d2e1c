/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workers' graph walk: rte_graph_walk (DPDK 22.11) with the cycles of
 * each node timed on a sample of the walks, not on every one.
 *
 * Debian's DPDK is built with RTE_LIBRTE_GRAPH_STATS, so rte_graph_walk reads
 * the TSC before and after every node call to fill the node's total_cycles,
 * which `show workers` and the metrics turn into cycles per stage. A TSC read
 * costs about 30 cycles on the machines we run on; a walk that forwards one
 * burst calls four nodes (two port_rx, ip4_fast, port_tx). A ternd that read
 * it once per node call (three reads for such a walk) forwarded 1.9 % less
 * than one that read none (bench/bench.sh, 100 rounds). So a worker
 * walks untimed (dp_graph_walk: packet and call counts only) and times one
 * walk in DP_WALK_SAMPLE on average (dp_graph_walk_timed), at gaps drawn at
 * random so that no periodic traffic pattern can line up with them, and
 * charges each timed call DP_WALK_SAMPLE times its cycles: the cycles per
 * stage are an unbiased estimate, within a fraction of a percent over the
 * millions of walks of a second.
 *
 * Within a timed walk the timestamps chain: a node's cycles run from the end
 * of the call before it (or the walk's start, for the first) to the end of
 * its own, so each call reads the TSC once. A source call that returns
 * nothing (an rx poll that found nothing) reads no TSC: its cycles are
 * charged to the last empty source before the first other node runs, or at
 * the walk's end if none does. The pipeline benchmark times every walk
 * (scale 1).
 */
#ifndef TERN_GRAPH_WALK_H
#define TERN_GRAPH_WALK_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_prefetch.h>

#define DP_WALK_SAMPLE 16	/* one walk in this many is timed, on average */

/* Walks graph once; counts each node's calls and objects, reads no TSC. */
static inline void dp_graph_walk(struct rte_graph *graph)
{
	const rte_graph_off_t *cir_start = graph->cir_start;
	const rte_node_t mask = graph->cir_mask;
	uint32_t head = graph->head;
	struct rte_node *node;
	uint16_t rc;
	void **objs;

	while (likely(head != graph->tail)) {
		node = (struct rte_node *)RTE_PTR_ADD(graph, cir_start[(int32_t)head++]);
		objs = node->objs;
		rte_prefetch0(objs);
		rc = node->process(graph, node, objs, node->idx);
		node->total_calls++;
		node->total_objs += rc;
		node->idx = 0;
		head = likely((int32_t)head > 0) ? head & mask : head;
	}
	graph->tail = 0;
}

/*
 * A node call's cycles are charged only up to this many microseconds: a longer
 * one lost its CPU (a time slice to another thread, or the whole process
 * stopped) rather than worked, and one such call, scaled by DP_WALK_SAMPLE,
 * would outweigh millions of real ones. The slowest real call, a node on a
 * full vector of 256 packets, takes some tens of microseconds.
 */
#define DP_WALK_CALL_MAX_US 1000

/* DP_WALK_CALL_MAX_US in TSC cycles. */
static inline uint64_t dp_walk_call_max(void)
{
	return rte_get_tsc_hz() / 1000000 * DP_WALK_CALL_MAX_US;
}

/* Charges node the cycles from then to now, scaled, unless they are more than max. */
static inline uint64_t dp_walk_charge(struct rte_node *node, uint64_t then, uint64_t now,
				      uint32_t scale, uint64_t max)
{
	uint64_t c = now - then;

	if (unlikely(c > max))
		return 0;
	node->total_cycles += c * scale;
	return c;
}

/*
 * Walks graph once and adds scale times each node call's cycles (up to
 * max_call each, see DP_WALK_CALL_MAX_US) to the node's total_cycles. Returns
 * scale times the cycles it charged if any node call in the walk handled
 * objects (a busy walk), else 0: the worker's load is the busy walks' share
 * of all cycles.
 */
static inline uint64_t dp_graph_walk_timed(struct rte_graph *graph, uint32_t scale,
					   uint64_t max_call)
{
	const rte_graph_off_t *cir_start = graph->cir_start;
	const rte_node_t mask = graph->cir_mask;
	uint32_t head = graph->head;
	uint64_t then = rte_rdtsc(), now, charged = 0;
	struct rte_node *node, *idle = NULL;
	bool busy = false;
	int32_t at;
	uint16_t rc;
	void **objs;

	while (likely(head != graph->tail)) {
		at = (int32_t)head++;	/* sources at negative places, the rest from 0 */
		node = (struct rte_node *)RTE_PTR_ADD(graph, cir_start[at]);
		if (unlikely(idle != NULL) && at >= 0) {
			now = rte_rdtsc();
			charged += dp_walk_charge(idle, then, now, scale, max_call);
			then = now;
			idle = NULL;
		}
		objs = node->objs;
		rte_prefetch0(objs);
		rc = node->process(graph, node, objs, node->idx);
		node->total_calls++;
		if (rc == 0 && at < 0) {
			idle = node;
		} else {
			now = rte_rdtsc();
			charged += dp_walk_charge(node, then, now, scale, max_call);
			node->total_objs += rc;
			then = now;
			idle = NULL;	/* nothing is left uncharged */
			busy |= rc != 0;
		}
		node->idx = 0;
		head = likely((int32_t)head > 0) ? head & mask : head;
	}
	if (idle != NULL)	/* every source came back empty */
		charged += dp_walk_charge(idle, then, rte_rdtsc(), scale, max_call);
	graph->tail = 0;
	return busy ? charged * scale : 0;
}

/* Which walks a worker times: gaps drawn uniformly from 1 .. 2 * DP_WALK_SAMPLE - 1. */
struct dp_walk_sampler {
	uint32_t left;		/* walks until the next timed one */
	uint32_t rng;		/* xorshift32 state, never 0 */
};

static inline void dp_walk_sampler_init(struct dp_walk_sampler *s, uint32_t seed)
{
	s->rng = seed ? seed : 0x9e3779b9u;
	s->left = 1;
}

/* Whether this walk is to be timed (with scale DP_WALK_SAMPLE). */
static inline bool dp_walk_sample(struct dp_walk_sampler *s)
{
	uint32_t x;

	if (likely(--s->left != 0))
		return false;
	x = s->rng;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	s->rng = x;
	s->left = 1 + x % (2 * DP_WALK_SAMPLE - 1);
	return true;
}

#endif
