/*
 * The workers' graph walk: rte_graph_walk with one TSC read per node call
 * instead of two.
 *
 * Debian's DPDK is built with RTE_LIBRTE_GRAPH_STATS, so rte_graph_walk reads
 * the TSC before and after every node call to fill the node's total_cycles,
 * which `show workers` and the metrics turn into cycles per stage. A TSC read
 * costs about 30 cycles on the machines we run on (12 ns on a 2.45 GHz
 * EPYC VM); a walk that forwards one burst calls four nodes (two port_rx, one
 * ip4_fast, one port_tx), so that is eight reads. Here the timestamps chain:
 * a node's cycles run from the end of the call before it (or the end of the
 * previous walk, for the first) to the end of its own, so each call reads the
 * TSC once and the walk's own bookkeeping is charged to the node that follows
 * it. The node statistics mean what they meant; the walk is rte_graph_walk's
 * (DPDK 22.11) otherwise.
 *
 * A source call that returns nothing (an rx poll that found nothing) reads
 * no TSC: its cycles are charged later, to an rx node still. Sources come
 * first in a walk; if one of them returned packets, the TSC is read once
 * before the first other node and that time goes to the last empty source,
 * and if none did, nothing else runs and the next source call that returns
 * packets, in a later walk, takes it. `rx` counts idle polling as before, and
 * an idle walk over two ports costs two polls and no TSC read instead of two
 * (l3fwd's idle loop reads it once).
 */
#ifndef TERN_GRAPH_WALK_H
#define TERN_GRAPH_WALK_H

#include <stdint.h>

#include <rte_cycles.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_prefetch.h>

/* Walks graph once; *tsc holds the end of the last node call and is carried to the next walk. */
static inline void dp_graph_walk(struct rte_graph *graph, uint64_t *tsc)
{
	const rte_graph_off_t *cir_start = graph->cir_start;
	const rte_node_t mask = graph->cir_mask;
	uint32_t head = graph->head;
	uint64_t then = *tsc, now;
	struct rte_node *node, *idle = NULL;
	int32_t at;
	uint16_t rc;
	void **objs;

	while (likely(head != graph->tail)) {
		at = (int32_t)head++;	/* sources at negative places, the rest from 0 */
		node = (struct rte_node *)RTE_PTR_ADD(graph, cir_start[at]);
		if (unlikely(idle != NULL) && at >= 0) {
			now = rte_rdtsc();
			idle->total_cycles += now - then;
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
			node->total_cycles += now - then;
			node->total_objs += rc;
			then = now;
			idle = NULL;	/* nothing is left uncharged */
		}
		node->idx = 0;
		head = likely((int32_t)head > 0) ? head & mask : head;
	}
	graph->tail = 0;
	*tsc = then;
}

#endif
