/* SPDX-License-Identifier: BSD-3-Clause */
/* show workers: each worker's queues, rate, load, busy share, and cycles per packet by stage. */
#include <stdio.h>

#include <rte_cycles.h>

#include "controlplane/metrics/rates.h"
#include "controlplane/shell/command.h"
#include "dataplane/dp.h"
#include "dataplane/stages.h"

/* The share of its cycles a worker spent in walks that handled packets. */
static double load_pct(const struct dp_worker_perf *p)
{
	return p->cycles ? 100.0 * (double)p->busy_cycles / p->cycles : 0;
}

static void worker_json(struct cmd_ctx *ctx, unsigned int i, const struct dp_worker_perf *p,
			const struct worker_rates *r)
{
	const struct dp_worker *w = &dp.workers[i];
	unsigned int q, s;

	ob_printf(ctx->out, "%s{\"index\": %u, \"lcore\": %u, \"loops\": %lu, \"rx_burst\": %u, \"rx\": [",
		  i ? ", " : "", w->index, w->lcore, w->stats.loops, w->rx_burst);
	for (q = 0; q < w->nb_rxq; q++)
		ob_printf(ctx->out, "%s\"%s:%u\"", q ? ", " : "", dp.ports[w->rxq[q].port].name,
			  w->rxq[q].queue);
	ob_printf(ctx->out, "], \"packets\": %lu, \"polls\": %lu, \"busy_polls\": %lu, "
		  "\"cycles\": %lu, \"busy_cycles\": %lu, \"load_pct\": %.2f, "
		  "\"cycles_per_packet\": %.1f, \"interval_s\": %.3f, \"pps\": %.0f, \"recent_load_pct\": %.2f, "
		  "\"busy_pct\": %.4f, \"packets_per_busy_poll\": %.2f, \"recent_cycles_per_packet\": %.1f, "
		  "\"stages\": {",
		  p->rx_packets, p->polls, p->busy_polls, p->cycles, p->busy_cycles, load_pct(p),
		  p->rx_packets ? (double)p->cycles / p->rx_packets : 0, rates_interval_s(), r->pps,
		  r->load_pct, r->busy_pct, r->burst, r->cycles_per_packet);
	for (s = 0; s < DP_STAGE_MAX; s++) {
		const struct dp_stage_stats *st = &p->stage[s];

		ob_printf(ctx->out, "%s\"%s\": {\"packets\": %lu, \"cycles\": %lu, "
			  "\"cycles_per_packet\": %.1f, \"share_pct\": %.2f, \"recent_cycles_per_packet\": %.1f}",
			  s ? ", " : "", dp_stage_names[s], st->objs, st->cycles,
			  st->objs ? (double)st->cycles / st->objs : 0,
			  p->cycles ? 100.0 * st->cycles / p->cycles : 0, r->stage_cpp[s]);
	}
	ob_printf(ctx->out, "}}");
}

static void worker_text(struct cmd_ctx *ctx, unsigned int i, const struct dp_worker_perf *p,
			const struct worker_rates *r)
{
	const struct dp_worker *w = &dp.workers[i];
	unsigned int q, s;

	ob_printf(ctx->out, "Worker %u on lcore %u, polling", w->index, w->lcore);
	for (q = 0; q < w->nb_rxq; q++)
		ob_printf(ctx->out, " %s:%u", dp.ports[w->rxq[q].port].name, w->rxq[q].queue);
	ob_printf(ctx->out, ", bursts of up to %u\n", w->rx_burst);
	if (rates_interval_s() > 0)
		ob_printf(ctx->out, "  last %.1f s: %.3f Mpps, load %.1f %%, busy %.1f %% of polls with %.1f packets each, "
			  "%.1f cycles/packet\n", rates_interval_s(), r->pps / 1e6, r->load_pct, r->busy_pct,
			  r->burst, r->cycles_per_packet);
	ob_printf(ctx->out, "  since start: %lu packets, %lu loops, %lu polls (%.1f %% busy, %.1f packets each), "
		  "load %.1f %%, %.1f cycles/packet\n", p->rx_packets, w->stats.loops, p->polls,
		  p->polls ? 100.0 * p->busy_polls / p->polls : 0,
		  p->busy_polls ? (double)p->rx_packets / p->busy_polls : 0, load_pct(p),
		  p->rx_packets ? (double)p->cycles / p->rx_packets : 0);
	ob_printf(ctx->out, "  %-9s %14s %12s %8s %14s\n", "Stage", "Packets", "Cycles/pkt", "Share",
		  "Recent c/rx");
	for (s = 0; s < DP_STAGE_MAX; s++) {
		const struct dp_stage_stats *st = &p->stage[s];

		if (st->calls == 0)
			continue;
		ob_printf(ctx->out, "  %-9s %14lu %12.1f %7.1f%% %14.1f\n", dp_stage_names[s], st->objs,
			  st->objs ? (double)st->cycles / st->objs : 0,
			  p->cycles ? 100.0 * st->cycles / p->cycles : 0, r->stage_cpp[s]);
	}
}

static int cmd_show_workers(struct cmd_ctx *ctx)
{
	unsigned int i;

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"tsc_hz\": %lu, \"workers\": [", rte_get_tsc_hz());
	}
	for (i = 0; i < dp.nb_workers; i++) {
		struct dp_worker_perf p;
		struct worker_rates r;

		dp_worker_perf(i, &p);
		rates_worker(i, &r);
		if (ctx->json) {
			worker_json(ctx, i, &p, &r);
		} else {
			worker_text(ctx, i, &p, &r);
			if (i + 1 < dp.nb_workers)
				ob_printf(ctx->out, "\n");
		}
	}
	if (ctx->json)
		ob_printf(ctx->out, "]}");
	else if (dp.nb_workers == 0)
		ob_printf(ctx->out, "Workers: none\n");
	else
		ob_printf(ctx->out, "\nLoad: the share of its cycles a worker spent in walks that handled packets; near 100 %%,\n"
			  "it is at its limit (sampled, as the stages' cycles are).\n"
			  "Packets each: what a busy poll brought, at most the worker's rx burst ([worker N] rx_burst,\n"
			  "default %u); a sender that sends in bursts brings whole ones at any load.\n"
			  "Cycles/pkt: a stage's cycles per packet it handled (rx counts idle polls too);\n"
			  "Recent c/rx: its cycles per packet received, over the last interval.\n", DP_BURST);
	return 0;
}

const struct cmd_def cmd_workers_table[] = {
	{ CMD_MODE_EXEC, "show workers", "Workers: queues, rate, load, busy share, cycles per packet by stage", cmd_show_workers, 0 },
	{ 0 },
};
