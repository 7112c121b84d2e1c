/* SPDX-License-Identifier: BSD-3-Clause */
/* Counters sampled once a second; rates are the difference of the last two samples. */
#include <string.h>

#include <rte_cycles.h>

#include "controlplane/metrics/rates.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/punt/node_sink.h"
#include "dataplane/punt/punt.h"

#define RATES_EVERY_TICKS 10	/* of 100 ms */
#define RATES_MAX_NODES 64

struct sample {
	uint64_t tsc;
	struct dp_port_stats port[DP_MAX_IFACES];
	struct dp_worker_perf worker[DP_MAX_WORKERS];
	uint64_t node[RATES_MAX_NODES];
	uint64_t policed[DP_MAX_IFACES], ring_full[DP_MAX_IFACES];
};

static struct sample samples[2];
static unsigned int cur, nb_samples, ticks;
static const char *node_names[RATES_MAX_NODES];
static unsigned int nb_nodes;

static void names_init(void)
{
	const struct dp_sink_info *tables[] = { dp_drop_reasons, dp_punt_reasons, dp_icmp_errors };
	unsigned int t, i;

	for (t = 0; t < RTE_DIM(tables); t++)
		for (i = 0; tables[t][i].node && nb_nodes < RATES_MAX_NODES; i++)
			node_names[nb_nodes++] = tables[t][i].node;
}

/* Packets the punt path refused in the last second: a flood at the router, said in the log. */
static void warn_floods(void)
{
	const struct sample *a = &samples[cur ^ 1], *b = &samples[cur];
	unsigned int i;

	DP_FOREACH_IFACE(i) {
		uint64_t policed = b->policed[i] - a->policed[i], full = b->ring_full[i] - a->ring_full[i];

		if (b->policed[i] > a->policed[i] && policed)
			TERN_LOG_RATELIMITED(main, WARNING, "%s: %lu packets for the kernel over the punt "
					     "policer in the last second (a flood at the router?)",
					     dp.ports[i].name, policed);
		if (b->ring_full[i] > a->ring_full[i] && full)
			TERN_LOG_RATELIMITED(main, WARNING, "%s: %lu packets lost at a full punt ring in "
					     "the last second (the exception path is behind)",
					     dp.ports[i].name, full);
	}
}

void rates_tick(void)
{
	struct sample *s;
	unsigned int i;

	if (ticks++ % RATES_EVERY_TICKS != 0)
		return;
	if (nb_nodes == 0)
		names_init();
	cur ^= 1;
	s = &samples[cur];
	s->tsc = rte_rdtsc();
	DP_FOREACH_IFACE(i)
		dp_port_stats_get(&dp.ports[i], &s->port[i]);
	for (i = 0; i < dp.nb_workers; i++)
		dp_worker_perf(i, &s->worker[i]);
	for (i = 0; i < nb_nodes; i++)
		s->node[i] = dp_node_objs(node_names[i]);
	DP_FOREACH_IFACE(i) {
		struct dp_punt_stats ps;

		dp_punt_stats(i, &ps);
		s->policed[i] = ps.policed;
		s->ring_full[i] = ps.ring_full;
	}
	if (nb_samples < 2)
		nb_samples++;
	else
		warn_floods();
}

double rates_interval_s(void)
{
	const struct sample *a = &samples[cur ^ 1], *b = &samples[cur];

	return nb_samples < 2 ? 0 : (double)(b->tsc - a->tsc) / rte_get_tsc_hz();
}

/* Counters that went back (clear counters) give a zero rate, not a negative one. */
static double per_s(uint64_t before, uint64_t after, double dt)
{
	return dt > 0 && after > before ? (double)(after - before) / dt : 0;
}

void rates_port(unsigned int port, struct port_rates *r)
{
	const struct dp_port_stats *a = &samples[cur ^ 1].port[port], *b = &samples[cur].port[port];
	double dt = rates_interval_s();

	memset(r, 0, sizeof(*r));
	if (port >= dp.nb_ports || dt <= 0)
		return;
	r->rx_pps = per_s(a->ipackets, b->ipackets, dt);
	r->tx_pps = per_s(a->opackets, b->opackets, dt);
	r->rx_bps = per_s(a->ibytes, b->ibytes, dt) * 8;
	r->tx_bps = per_s(a->obytes, b->obytes, dt) * 8;
}

void rates_worker(unsigned int worker, struct worker_rates *r)
{
	const struct dp_worker_perf *a = &samples[cur ^ 1].worker[worker];
	const struct dp_worker_perf *b = &samples[cur].worker[worker];
	double dt = rates_interval_s();
	uint64_t pkts, polls, busy;
	unsigned int s;

	memset(r, 0, sizeof(*r));
	if (worker >= dp.nb_workers || dt <= 0)
		return;
	pkts = b->rx_packets - a->rx_packets;
	polls = b->polls - a->polls;
	r->pps = pkts / dt;
	if (b->cycles > a->cycles)
		r->load_pct = 100.0 * (double)(b->busy_cycles - a->busy_cycles) / (b->cycles - a->cycles);
	busy = b->busy_polls - a->busy_polls;
	r->busy_pct = polls ? 100.0 * busy / polls : 0;
	r->burst = busy ? (double)pkts / busy : 0;
	if (pkts == 0)
		return;
	r->cycles_per_packet = (double)(b->cycles - a->cycles) / pkts;
	for (s = 0; s < DP_STAGE_MAX; s++)
		r->stage_cpp[s] = (double)(b->stage[s].cycles - a->stage[s].cycles) / pkts;
}

double rates_node(const char *node)
{
	unsigned int i;

	for (i = 0; i < nb_nodes; i++)
		if (strcmp(node_names[i], node) == 0)
			return per_s(samples[cur ^ 1].node[i], samples[cur].node[i], rates_interval_s());
	return 0;
}
