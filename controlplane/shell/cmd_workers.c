/* SPDX-License-Identifier: BSD-3-Clause */
/* show workers: each worker's queues, rate, load, busy share, and cycles per packet by stage. */
#include <stdio.h>

#include <rte_cycles.h>

#include "controlplane/metrics/rates.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "dataplane/dp.h"
#include "dataplane/stages.h"

/* The share of its cycles a worker spent in walks that handled packets. */
static double load_pct(const struct dp_worker_perf *p)
{
	return p->cycles ? 100.0 * (double)p->busy_cycles / p->cycles : 0;
}

static void worker_render(struct render *rd, unsigned int i)
{
	const struct dp_worker *w = &dp.workers[i];
	bool rates = rates_interval_s() > 0;
	struct dp_worker_perf p;
	struct worker_rates r;
	unsigned int q, s;
	char rxq[24];	/* a name, ":" and a queue */

	dp_worker_perf(i, &p);
	rates_worker(i, &r);
	render_object_begin(rd, NULL);
	render_uint(rd, "index", "Worker %lu ", w->index);
	render_uint(rd, "lcore", "on lcore %lu, polling", w->lcore);
	render_list_begin(rd, "rx");
	for (q = 0; q < w->nb_rxq; q++) {
		snprintf(rxq, sizeof(rxq), "%s:%u", dp.ports[w->rxq[q].port].name, w->rxq[q].queue);
		render_str(rd, NULL, " %s", rxq);
	}
	render_list_end(rd);
	render_uint(rd, "rx_burst", ", bursts of up to %lu\n", w->rx_burst);
	render_double(rd, "interval_s", rates ? "  last %.1f s: " : NULL, "%.3f", rates_interval_s());
	render_double(rd, "pps", NULL, "%.0f", r.pps);
	if (rates)
		render_text(rd, "%.3f Mpps, ", r.pps / 1e6);
	render_double(rd, "recent_load_pct", rates ? "load %.1f %%, " : NULL, "%.2f", r.load_pct);
	render_double(rd, "busy_pct", rates ? "busy %.1f %% of polls " : NULL, "%.4f", r.busy_pct);
	render_double(rd, "packets_per_busy_poll", rates ? "with %.1f packets each, " : NULL, "%.2f",
		      r.burst);
	render_double(rd, "recent_cycles_per_packet", rates ? "%.1f cycles/packet\n" : NULL, "%.1f",
		      r.cycles_per_packet);
	render_uint(rd, "packets", "  since start: %lu packets, ", p.rx_packets);
	render_uint(rd, "loops", "%lu loops, ", w->stats.loops);
	render_uint(rd, "polls", "%lu polls ", p.polls);
	render_uint(rd, "busy_polls", NULL, p.busy_polls);
	render_text(rd, "(%.1f %% busy, %.1f packets each), ", p.polls ? 100.0 * p.busy_polls / p.polls : 0,
		    p.busy_polls ? (double)p.rx_packets / p.busy_polls : 0);
	render_uint(rd, "cycles", NULL, p.cycles);
	render_uint(rd, "busy_cycles", NULL, p.busy_cycles);
	render_double(rd, "load_pct", "load %.1f %%, ", "%.2f", load_pct(&p));
	render_double(rd, "cycles_per_packet", "%.1f cycles/packet\n", "%.1f",
		      p.rx_packets ? (double)p.cycles / p.rx_packets : 0);
	render_text(rd, "  %-9s %14s %12s %8s %14s\n", "Stage", "Packets", "Cycles/pkt", "Share",
		    "Recent c/rx");
	render_object_begin(rd, "stages");
	for (s = 0; s < DP_STAGE_MAX; s++) {
		const struct dp_stage_stats *st = &p.stage[s];
		bool shown = st->calls > 0;	/* text: the stages this worker ran */

		render_object_begin(rd, dp_stage_names[s]);
		if (shown)
			render_text(rd, "  %-9s ", dp_stage_names[s]);
		render_uint(rd, "packets", shown ? "%14lu " : NULL, st->objs);
		render_uint(rd, "cycles", NULL, st->cycles);
		render_double(rd, "cycles_per_packet", shown ? "%12.1f " : NULL, "%.1f",
			      st->objs ? (double)st->cycles / st->objs : 0);
		render_double(rd, "share_pct", shown ? "%7.1f%% " : NULL, "%.2f",
			      p.cycles ? 100.0 * st->cycles / p.cycles : 0);
		render_double(rd, "recent_cycles_per_packet", shown ? "%14.1f\n" : NULL, "%.1f",
			      r.stage_cpp[s]);
		render_object_end(rd);
	}
	render_object_end(rd);
	render_object_end(rd);
}

static int cmd_show_workers(struct cmd_ctx *ctx)
{
	struct render r;
	unsigned int i;

	render_begin(&r, ctx);
	render_uint(&r, "tsc_hz", NULL, rte_get_tsc_hz());
	render_list_begin(&r, "workers");
	for (i = 0; i < dp.nb_workers; i++) {
		if (i > 0)
			render_text(&r, "\n");
		worker_render(&r, i);
	}
	render_list_end(&r);
	if (dp.nb_workers == 0)
		render_text(&r, "Workers: none\n");
	else
		render_text(&r, "\nLoad: the share of its cycles a worker spent in walks that handled packets; near 100 %%,\n"
			    "it is at its limit (sampled, as the stages' cycles are).\n"
			    "Packets each: what a busy poll brought, at most the worker's rx burst ([worker N] rx_burst,\n"
			    "default %u); a sender that sends in bursts brings whole ones at any load.\n"
			    "Cycles/pkt: a stage's cycles per packet it handled (rx counts idle polls too);\n"
			    "Recent c/rx: its cycles per packet received, over the last interval.\n", DP_BURST);
	render_end(&r);
	return 0;
}

const struct cmd_def cmd_workers_table[] = {
	{ CMD_MODE_EXEC, "show workers", "Workers: queues, rate, load, busy share, cycles per packet by stage", cmd_show_workers, 0 },
	{ 0 },
};
