/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workers' walk and its cycle accounting. A timed walk: an empty rx poll
 * reads no TSC, and its cycles still land on an rx (source) node, never on
 * the nodes that handle packets after it. Three sources: two that find nothing
 * and spin for a known time, one that always brings packets; they feed a sink
 * that does nothing. Sampled walks, as a worker makes them: the untimed ones
 * add no cycles, and the timed ones, scaled, estimate the cycles of all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>

#include "dataplane/workarounds/graph_walk.h"

#define SPIN 200000		/* TSC cycles an empty poll takes */
#define WALKS 200
#define BURST 4

static void *fake_objs[BURST] = { (void *)1, (void *)2, (void *)3, (void *)4 };
static uint64_t spin = SPIN;

static uint16_t idle_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb)
{
	uint64_t end = rte_rdtsc() + spin;

	(void)graph, (void)node, (void)objs, (void)nb;
	while (rte_rdtsc() < end)
		;
	return 0;
}

static uint16_t busy_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb)
{
	(void)objs, (void)nb;
	memcpy(node->objs, fake_objs, sizeof(fake_objs));
	node->idx = BURST;
	rte_node_next_stream_move(graph, node, 0);
	return BURST;
}

static uint16_t sink_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb)
{
	(void)graph, (void)node, (void)objs;
	return nb;
}

static struct rte_node_register walk_idle_a = {
	.name = "walk_idle_a", .flags = RTE_NODE_SOURCE_F, .process = idle_process,
	.nb_edges = 1, .next_nodes = { "walk_sink" },
};
RTE_NODE_REGISTER(walk_idle_a);
static struct rte_node_register walk_busy = {
	.name = "walk_busy", .flags = RTE_NODE_SOURCE_F, .process = busy_process,
	.nb_edges = 1, .next_nodes = { "walk_sink" },
};
RTE_NODE_REGISTER(walk_busy);
static struct rte_node_register walk_idle_b = {
	.name = "walk_idle_b", .flags = RTE_NODE_SOURCE_F, .process = idle_process,
	.nb_edges = 1, .next_nodes = { "walk_sink" },
};
RTE_NODE_REGISTER(walk_idle_b);
static struct rte_node_register walk_sink = {
	.name = "walk_sink", .process = sink_process,
};
RTE_NODE_REGISTER(walk_sink);

static void test_empty_polls_are_charged_to_sources(void **state)
{
	static const char *patterns[] = { "walk_idle_a", "walk_busy", "walk_idle_b", "walk_sink" };
	struct rte_graph_param prm = { .node_patterns = patterns, .nb_node_patterns = 4,
				       .socket_id = SOCKET_ID_ANY };
	uint64_t src_cycles = 0;
	struct rte_graph *graph;
	struct rte_node *n, *sink = NULL;
	rte_graph_off_t off;
	rte_node_t count;
	rte_graph_t id;
	int i, busy_at = -1, pos = 0, idle_after_busy = 0;

	id = rte_graph_create("walk_test", &prm);
	assert_int_not_equal(id, RTE_GRAPH_ID_INVALID);
	graph = rte_graph_lookup("walk_test");
	assert_non_null(graph);
	/* the case that matters: an empty source walked after one that brought packets */
	for (i = graph->head; i < 0; i++, pos++) {
		n = (struct rte_node *)RTE_PTR_ADD(graph, graph->cir_start[i]);
		if (strcmp(n->name, "walk_busy") == 0)
			busy_at = pos;
		else if (busy_at >= 0)
			idle_after_busy++;
	}
	assert_int_equal(pos, 3);
	assert_true(idle_after_busy > 0);

	for (i = 0; i < WALKS; i++)
		dp_graph_walk_timed(graph, 1, dp_walk_call_max());
	rte_graph_foreach_node(count, off, graph, n) {
		if (strcmp(n->name, "walk_sink") == 0)
			sink = n;
		else
			src_cycles += n->total_cycles;
	}
	assert_non_null(sink);
	assert_int_equal(sink->total_objs, (uint64_t)WALKS * BURST);
	/* two empty polls of SPIN each per walk: all of it on the sources. A call the scheduler
	 * cut into passes dp_walk_call_max() and is left out, so on a loaded machine a few are
	 * missing: nine tenths of them must be there, and none on the sink. */
	printf("# sources %.0f cycles a walk, sink %.0f (an empty poll spins %d)\n",
	       (double)src_cycles / WALKS, (double)sink->total_cycles / WALKS, SPIN);
	assert_true(src_cycles >= (uint64_t)WALKS * 2 * SPIN * 9 / 10);
	assert_true(sink->total_cycles < (uint64_t)WALKS * SPIN / 10);
	rte_graph_destroy(id);
}

/* A timed walk returns its cycles, scaled, when a node in it handled packets; else 0.
 * Calls longer than the cap are left out of both. */
static void test_timed_walks_tell_the_load(void **state)
{
	static const char *idle_only[] = { "walk_idle_a", "walk_idle_b", "walk_sink" };
	static const char *with_busy[] = { "walk_idle_a", "walk_busy", "walk_idle_b", "walk_sink" };
	struct rte_graph_param prm = { .node_patterns = idle_only, .nb_node_patterns = 3,
				       .socket_id = SOCKET_ID_ANY };
	uint64_t busy = 0, cycles = 0;
	struct rte_graph *graph;
	struct rte_node *n;
	rte_graph_off_t off;
	rte_node_t count;
	rte_graph_t id;
	int i;

	spin = SPIN / 10;
	id = rte_graph_create("walk_idle_only", &prm);
	assert_int_not_equal(id, RTE_GRAPH_ID_INVALID);
	graph = rte_graph_lookup("walk_idle_only");
	for (i = 0; i < 16; i++)
		busy += dp_graph_walk_timed(graph, DP_WALK_SAMPLE, dp_walk_call_max());
	rte_graph_foreach_node(count, off, graph, n)
		cycles += n->total_cycles;
	assert_int_equal(busy, 0);			/* nothing handled: no load */
	/* yet the time is counted (nine tenths at least: a preempted call is left out) */
	assert_true(cycles >= 16ULL * 2 * (SPIN / 10) * DP_WALK_SAMPLE * 9 / 10);
	rte_graph_destroy(id);

	prm.node_patterns = with_busy;
	prm.nb_node_patterns = 4;
	id = rte_graph_create("walk_with_busy", &prm);
	assert_int_not_equal(id, RTE_GRAPH_ID_INVALID);
	graph = rte_graph_lookup("walk_with_busy");
	busy = cycles = 0;
	for (i = 0; i < 16; i++)
		busy += dp_graph_walk_timed(graph, DP_WALK_SAMPLE, dp_walk_call_max());
	rte_graph_foreach_node(count, off, graph, n)
		cycles += n->total_cycles;
	/* every walk handled packets: all of its cycles, as its nodes were charged */
	assert_int_equal(busy, cycles);
	assert_true(busy >= 16ULL * 2 * (SPIN / 10) * DP_WALK_SAMPLE * 9 / 10);

	/* a call longer than the cap (its thread lost the CPU) is charged nothing, busy or not */
	busy = cycles = 0;
	rte_graph_foreach_node(count, off, graph, n)
		n->total_cycles = 0;
	for (i = 0; i < 16; i++)
		busy += dp_graph_walk_timed(graph, DP_WALK_SAMPLE, SPIN / 20);
	rte_graph_foreach_node(count, off, graph, n) {
		if (strncmp(n->name, "walk_idle", 9) == 0)
			assert_int_equal(n->total_cycles, 0);
		cycles += n->total_cycles;
	}
	assert_int_equal(busy, cycles);
	assert_true(busy < 16ULL * (SPIN / 20) * 2 * DP_WALK_SAMPLE);
	rte_graph_destroy(id);
	spin = SPIN;
}

static void test_sampled_walks_estimate_the_cycles(void **state)
{
	static const char *patterns[] = { "walk_idle_a", "walk_busy", "walk_idle_b", "walk_sink" };
	struct rte_graph_param prm = { .node_patterns = patterns, .nb_node_patterns = 4,
				       .socket_id = SOCKET_ID_ANY };
	enum { SAMPLED_WALKS = 4096 };
	struct dp_walk_sampler sampler;
	uint64_t cycles = 0, calls = 0;
	unsigned int i, timed = 0, gap = 0, gap_min = ~0u, gap_max = 0;
	struct rte_graph *graph;
	struct rte_node *n;
	rte_graph_off_t off;
	rte_node_t count;
	rte_graph_t id;
	double est;

	id = rte_graph_create("walk_sampled", &prm);
	assert_int_not_equal(id, RTE_GRAPH_ID_INVALID);
	graph = rte_graph_lookup("walk_sampled");
	assert_non_null(graph);
	/* untimed: counts, and not a cycle */
	for (i = 0; i < 8; i++)
		dp_graph_walk(graph);
	rte_graph_foreach_node(count, off, graph, n) {
		cycles += n->total_cycles;
		if (strcmp(n->name, "walk_sink") == 0)
			assert_int_equal(n->total_objs, 8 * BURST);
	}
	assert_int_equal(cycles, 0);

	/* as a worker walks: the two empty polls spin SPIN / 10 each, every walk */
	spin = SPIN / 10;
	dp_walk_sampler_init(&sampler, 12345);
	for (i = 0; i < SAMPLED_WALKS; i++) {
		gap++;
		if (dp_walk_sample(&sampler)) {
			dp_graph_walk_timed(graph, DP_WALK_SAMPLE, dp_walk_call_max());
			timed++;
			gap_min = gap < gap_min ? gap : gap_min;
			gap_max = gap > gap_max ? gap : gap_max;
			gap = 0;
		} else {
			dp_graph_walk(graph);
		}
	}
	rte_graph_foreach_node(count, off, graph, n) {
		if (strcmp(n->name, "walk_sink") != 0)	/* an empty poll's time is a source's */
			cycles += n->total_cycles;
		if (strncmp(n->name, "walk_idle", 9) == 0)
			calls += n->total_calls;
	}
	est = (double)cycles / ((double)SAMPLED_WALKS * 2 * spin);
	printf("# %u of %u walks timed (gaps %u to %u); the empty polls' cycles estimated at %.3f of what they spun\n",
	       timed, SAMPLED_WALKS, gap_min, gap_max, est);
	assert_int_equal(calls, 2 * (8 + SAMPLED_WALKS));
	assert_true(timed > SAMPLED_WALKS / DP_WALK_SAMPLE * 3 / 4 && timed < SAMPLED_WALKS / DP_WALK_SAMPLE * 5 / 4);
	assert_true(gap_min >= 1 && gap_max <= 2 * DP_WALK_SAMPLE - 1 && gap_max > DP_WALK_SAMPLE);
	/* what they spun: a sample scaled once (a time slice lost inside a timed walk may add
	 * up to one more on a busy machine) */
	assert_true(est > 0.8 && est < 3);
	rte_graph_destroy(id);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_graph_walk", "--no-huge", "-m", "128", "--no-pci", "-l", "0",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_polls_are_charged_to_sources),
		cmocka_unit_test(test_timed_walks_tell_the_load),
		cmocka_unit_test(test_sampled_walks_estimate_the_cycles),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-walk-%d", getpid());
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0) {
		fprintf(stderr, "test_graph_walk: EAL init failed\n");
		return 1;
	}
	return cmocka_run_group_tests_name("graph_walk", tests, NULL, NULL);
}
