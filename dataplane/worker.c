/* SPDX-License-Identifier: BSD-3-Clause */
/* Workers: one rte_graph per pinned lcore, walked until told to stop. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_cycles.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "dataplane/l2/bond.h"
#include "dataplane/dp.h"
#include "dataplane/node.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/rcu.h"
#include "dataplane/workarounds/graph_walk.h"

int dp_worker_add(unsigned int lcore, const struct dp_rxq *rxq, unsigned int nb_rxq,
		  unsigned int rx_burst)
{
	struct dp_worker *w;

	if (rx_burst > DP_BURST_MAX)
		return -EINVAL;
	if (dp.nb_workers == DP_MAX_WORKERS || nb_rxq > DP_MAX_RXQ_PER_WORKER)
		return -ENOSPC;
	w = &dp.workers[dp.nb_workers];
	memset(w, 0, sizeof(*w));
	w->lcore = lcore;
	w->index = dp.nb_workers;
	w->nb_rxq = nb_rxq;
	w->rx_burst = rx_burst ? rx_burst : DP_BURST;
	memcpy(w->rxq, rxq, nb_rxq * sizeof(*rxq));
	dp.nb_workers++;
	return 0;
}

static int worker_main(void *arg)
{
	struct dp_worker *w = arg;
	struct rte_graph *graph = w->graph;
	struct rte_rcu_qsbr *rcu = dp_rcu;
	unsigned int id = w->index;
	uint64_t call_max = dp_walk_call_max();
	struct dp_walk_sampler sampler;

	dp_walk_sampler_init(&sampler, 0x9e3779b9u * (id + 1));
	rte_rcu_qsbr_thread_register(rcu, id);
	rte_rcu_qsbr_thread_online(rcu, id);
	while (!__atomic_load_n(&w->quit, __ATOMIC_RELAXED)) {
		if (unlikely(dp_walk_sample(&sampler)))
			w->stats.busy_cycles += dp_graph_walk_timed(graph, DP_WALK_SAMPLE, call_max);
		else
			dp_graph_walk(graph);
		/* Nothing from the tables is held between walks. */
		rte_rcu_qsbr_quiescent(rcu, id);
		/* some 0.1 to 15 ms apart, idle or busy: DPDK's 802.3ad wants one each 100 ms */
		if (unlikely((++w->stats.loops & 1023) == 0))
			dp_bond_tx_idle(id);
	}
	rte_rcu_qsbr_thread_offline(rcu, id);
	rte_rcu_qsbr_thread_unregister(rcu, id);
	return 0;
}

static int graph_create(struct dp_worker *w, char *err, size_t errlen)
{
	static const char *const common[] = { "eth_input", "vlan_input", "ip4_*", "ip6_*", "ip_rewrite",
					      "icmp_*", "icmp6_*", "vlan_output", "port_tx-*", "drop_*",
					      "punt_*" };
	const char *patterns[DP_MAX_RXQ_PER_WORKER + RTE_DIM(common) + 1];
	char names[DP_MAX_RXQ_PER_WORKER][RTE_NODE_NAMESIZE];
	struct rte_graph_param prm = { 0 };
	unsigned int i, n = 0;
	int rc;

	for (i = 0; i < w->nb_rxq; i++) {
		const struct dp_port *p = &dp.ports[w->rxq[i].port];

		rc = dp_node_port_rx_clone(p->port_id, w->rxq[i].queue, w->rx_burst, names[i],
					   sizeof(names[i]));
		if (rc < 0) {
			snprintf(err, errlen, "worker %u: cannot make the rx node for %s:%u",
				 w->lcore, p->name, w->rxq[i].queue);
			return rc;
		}
		patterns[n++] = names[i];
	}
	for (i = 0; i < RTE_DIM(common); i++)
		patterns[n++] = common[i];
	if (w->index == 0)	/* it sends what the kernel sends out of the ports */
		patterns[n++] = "kernel_out";
	snprintf(w->graph_name, sizeof(w->graph_name), "worker%u", w->lcore);
	prm.socket_id = rte_lcore_to_socket_id(w->lcore);
	prm.nb_node_patterns = n;
	prm.node_patterns = patterns;
	w->graph_id = rte_graph_create(w->graph_name, &prm);
	if (w->graph_id == RTE_GRAPH_ID_INVALID) {
		snprintf(err, errlen, "worker %u: cannot create its graph: %s", w->lcore,
			 rte_strerror(rte_errno));
		return -EINVAL;
	}
	if (w->graph_id != w->index) {
		snprintf(err, errlen, "worker %u: graph id %u differs from worker index %u",
			 w->lcore, w->graph_id, w->index);
		return -EINVAL;
	}
	w->graph = rte_graph_lookup(w->graph_name);
	return w->graph ? 0 : -ENOENT;
}

int dp_workers_start(char *err, size_t errlen)
{
	unsigned int i;
	int rc;

	/* ports have a port_tx each; sub-interfaces share vlan_output */
	rc = dp_node_port_tx_clones();
	if (rc < 0) {
		snprintf(err, errlen, "cannot make the ports' tx nodes: %s", strerror(-rc));
		return rc;
	}
	for (i = 0; i < dp.nb_workers; i++) {
		rc = graph_create(&dp.workers[i], err, errlen);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < dp.nb_workers; i++) {
		struct dp_worker *w = &dp.workers[i];

		if (!rte_lcore_is_enabled(w->lcore) || w->lcore == rte_get_main_lcore()) {
			snprintf(err, errlen, "worker %u: lcore %u is not available to EAL as a worker",
				 w->lcore, w->lcore);
			return -EINVAL;
		}
		rc = rte_eal_remote_launch(worker_main, w, w->lcore);
		if (rc < 0) {
			snprintf(err, errlen, "worker %u: cannot launch: %s", w->lcore,
				 rte_strerror(-rc));
			return rc;
		}
		w->running = true;
	}
	return 0;
}

void dp_workers_stop(void)
{
	unsigned int i;

	for (i = 0; i < dp.nb_workers; i++)
		__atomic_store_n(&dp.workers[i].quit, true, __ATOMIC_RELAXED);
	for (i = 0; i < dp.nb_workers; i++) {
		if (dp.workers[i].running)
			rte_eal_wait_lcore(dp.workers[i].lcore);
		dp.workers[i].running = false;
	}
}

uint64_t dp_node_objs(const char *pattern)
{
	uint64_t sum = 0;
	unsigned int w;

	for (w = 0; w < dp.nb_workers; w++) {
		struct rte_graph *graph = dp.workers[w].graph;
		struct rte_node *n;
		rte_graph_off_t off;
		rte_node_t count;

		if (graph == NULL)
			continue;
		rte_graph_foreach_node(count, off, graph, n)
			if (fnmatch(pattern, n->name, 0) == 0)
				sum += n->total_objs;
	}
	return sum;
}
