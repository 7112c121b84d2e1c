/*
 * dp_graph_walk's cycle accounting: an empty rx poll reads no TSC, and its
 * cycles still land on an rx (source) node, never on the nodes that handle
 * packets after it. Three sources: two that find nothing and spin for a known
 * time, one that always brings packets; they feed a sink that does nothing.
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

#include "dataplane/graph_walk.h"

#define SPIN 200000		/* TSC cycles an empty poll takes */
#define WALKS 200
#define BURST 4

static void *fake_objs[BURST] = { (void *)1, (void *)2, (void *)3, (void *)4 };

static uint16_t idle_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb)
{
	uint64_t end = rte_rdtsc() + SPIN;

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
	uint64_t src_cycles = 0, tsc;
	struct rte_graph *graph;
	struct rte_node *n, *sink = NULL;
	rte_graph_off_t off;
	rte_node_t count;
	rte_graph_t id;
	int i, busy_at = -1, pos = 0, idle_after_busy = 0;

	(void)state;
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

	tsc = rte_rdtsc();
	for (i = 0; i < WALKS; i++)
		dp_graph_walk(graph, &tsc);
	rte_graph_foreach_node(count, off, graph, n) {
		if (strcmp(n->name, "walk_sink") == 0)
			sink = n;
		else
			src_cycles += n->total_cycles;
	}
	assert_non_null(sink);
	assert_int_equal(sink->total_objs, (uint64_t)WALKS * BURST);
	/* two empty polls of SPIN each per walk: all of it on the sources */
	printf("# sources %.0f cycles a walk, sink %.0f (an empty poll spins %d)\n",
	       (double)src_cycles / WALKS, (double)sink->total_cycles / WALKS, SPIN);
	assert_true(src_cycles >= (uint64_t)WALKS * 2 * SPIN);
	assert_true(sink->total_cycles < (uint64_t)WALKS * SPIN / 10);
	rte_graph_destroy(id);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_graph_walk", "--no-huge", "-m", "128", "--no-pci", "-l", "0",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_polls_are_charged_to_sources),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-walk-%d", getpid());
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0) {
		fprintf(stderr, "test_graph_walk: EAL init failed\n");
		return 1;
	}
	return cmocka_run_group_tests_name("graph_walk", tests, NULL, NULL);
}
