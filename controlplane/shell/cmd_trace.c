/* SPDX-License-Identifier: BSD-3-Clause */
/* trace IFNAME [count N], no trace, show trace: the next packets' paths through the workers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_graph.h>
#include <rte_ip.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "dataplane/dp.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/punt/node_sink.h"
#include "dataplane/trace.h"

#define TRACE_DEFAULT_COUNT 10

static unsigned int trace_count;	/* what the last `trace` asked for */
static char trace_port[16];

static int cmd_trace(struct cmd_ctx *ctx)
{
	const struct dp_port *p = dp_port_by_name(cmd_arg(ctx, "port"));
	const char *count = cmd_arg(ctx, "count");
	unsigned long n = TRACE_DEFAULT_COUNT;
	int rc;

	if (p == NULL)
		return cmd_error(ctx, -ENODEV, "%% No port named %s", cmd_arg(ctx, "port"));
	if (count != NULL) {
		n = strtoul(count, NULL, 10);
		if (n < 1 || n > DP_TRACE_PER_WORKER)
			return cmd_error(ctx, -ERANGE, "%% A trace takes 1 to %d packets",
					 DP_TRACE_PER_WORKER);
	}
	rc = dp_trace_arm(p - dp.ports, n);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot start a trace: %s", strerror(-rc));
	trace_count = n;
	snprintf(trace_port, sizeof(trace_port), "%s", p->name);
	if (!ctx->json)
		ob_printf(ctx->out, "Tracing the next %lu packets received on %s; see show trace\n", n,
			  p->name);
	return 0;
}

static int cmd_no_trace(struct cmd_ctx *ctx)
{
	dp_trace_disarm();
	return 0;
}

/* Called from the control thread's tick: a finished trace costs the workers nothing more. */
void cmd_trace_tick(void)
{
	if (dp_trace.on && dp_trace_complete())
		dp_trace_disarm();
}

struct trace_line {
	const struct dp_trace_rec *r;
	unsigned int worker;
};

static int by_seq(const void *a, const void *b)
{
	const struct trace_line *x = a, *y = b;

	return x->r->seq < y->r->seq ? -1 : x->r->seq > y->r->seq;
}

static const char *sink_text(const char *node)
{
	const struct dp_sink_info *tables[] = { dp_drop_reasons, dp_punt_reasons, dp_icmp_errors };
	unsigned int t, i;

	for (t = 0; t < RTE_DIM(tables); t++)
		for (i = 0; tables[t][i].node; i++)
			if (strcmp(tables[t][i].node, node) == 0)
				return tables[t][i].description;
	return "";
}

static const char *const kind_names[DP_NH_KIND_MAX] = {
	[DP_NH_NOROUTE] = "no route", [DP_NH_FORWARD] = "forward", [DP_NH_LOCAL] = "local",
	[DP_NH_UNRESOLVED] = "unresolved", [DP_NH_BLACKHOLE] = "blackhole",
	[DP_NH_UNREACHABLE] = "unreachable", [DP_NH_PROHIBIT] = "prohibit", [DP_NH_GROUP] = "group",
};

/* What became of the packet: the last node of its path says it. */
static void fate(const struct dp_trace_rec *r, bool icmp, char *buf, size_t len)
{
	const char *last = r->nb_path ? rte_node_id_to_name(r->path[r->nb_path - 1]) : NULL;

	if (!r->done)
		snprintf(buf, len, "in flight");
	else if (r->port_out != DP_TRACE_NOT_SENT)
		snprintf(buf, len, "%s %s", icmp ? "ICMP error sent on" : "forwarded to",
			 dp.ports[r->port_out].name);
	else if (last && strncmp(last, "drop_", 5) == 0)
		snprintf(buf, len, "dropped: %s (%s)", last, sink_text(last));
	else if (last && strncmp(last, "punt_", 5) == 0)
		snprintf(buf, len, "punted to the kernel: %s (%s)", last, sink_text(last));
	else
		snprintf(buf, len, "ended in %s", last ? last : "?");
}

static void print_one(struct render *rd, unsigned int no, const struct trace_line *l,
		      uint64_t t0)
{
	const struct dp_trace_rec *r = l->r;
	char src[16], dst[16], what[160], mac[RTE_ETHER_ADDR_FMT_SIZE] = "-", route[24] = "-";
	bool icmp = false;
	unsigned int i;
	double us = (double)(r->tsc - t0) * 1e6 / rte_get_tsc_hz();
	struct rib_route_info ri;

	for (i = 0; i < r->nb_path; i++)
		icmp |= strncmp(rte_node_id_to_name(r->path[i]), "icmp_", 5) == 0;
	fate(r, icmp, what, sizeof(what));
	cmd_fmt_ip(rte_be_to_cpu_32(r->src), src, sizeof(src));
	cmd_fmt_ip(rte_be_to_cpu_32(r->dst), dst, sizeof(dst));
	if (r->looked_up && r->nh_kind == DP_NH_FORWARD)
		rte_ether_format_addr(mac, sizeof(mac), &r->nh_mac);
	if (r->ip4 && rib_route_lookup(rte_be_to_cpu_32(r->dst), &ri) == 0) {
		cmd_fmt_ip(ri.prefix, route, sizeof(route));
		snprintf(route + strlen(route), sizeof(route) - strlen(route), "/%u", ri.len);
	}
	render_object_begin(rd, NULL);
	render_uint(rd, "packet", "Packet %lu  ", no);
	render_double(rd, "us", "+%.1f us  ", "%.3f", us);
	render_uint(rd, "worker", "worker %lu  ", l->worker);
	render_str(rd, "in", "in %s, ", dp.ports[r->port_in].name);
	render_uint(rd, "length", "%lu bytes, ", r->len);
	render_uint(rd, "ether_type", r->ip4 ? NULL : "ethertype 0x%04lx\n", r->ether_type);
	if (r->ip4) {
		render_str(rd, "src", "%s > ", src);
		render_str(rd, "dst", "%s ", dst);
		render_uint(rd, "protocol", "proto %lu ", r->proto);
		render_uint(rd, "ttl", "ttl %lu\n", r->ttl);
	}
	render_text(rd, "  path:");
	render_list_begin(rd, "path");
	for (i = 0; i < r->nb_path; i++)
		render_str(rd, NULL, " %s", rte_node_id_to_name(r->path[i]));
	render_list_end(rd);
	render_text(rd, "\n");
	if (r->looked_up) {
		bool fwd = r->nh_kind == DP_NH_FORWARD;

		render_object_begin(rd, "fib");
		render_str(rd, "kind", "  fib:  %s", kind_names[r->nh_kind]);
		render_str(rd, "port", fwd ? " via %s" : NULL, fwd ? dp.ports[r->nh_port].name : "-");
		render_str(rd, "mac", fwd ? " to %s" : NULL, mac);
		render_str(rd, "route_now", " (route %s now)\n", route);
		render_object_end(rd);
	} else {
		render_null(rd, "fib");
	}
	if (r->port_out != DP_TRACE_NOT_SENT)
		render_str(rd, "out", NULL, dp.ports[r->port_out].name);
	else
		render_null(rd, "out");
	render_bool(rd, "done", NULL, r->done);
	render_str(rd, "fate", "  fate: %s\n", what);
	render_object_end(rd);
}

static int cmd_show_trace(struct cmd_ctx *ctx)
{
	struct render rd;
	struct trace_line *lines;
	unsigned int w, i, n = 0;
	uint64_t t0 = UINT64_MAX;

	if (dp_trace_workers == NULL)
		return cmd_error(ctx, -ENODEV, "%% The dataplane has no trace buffers");
	lines = calloc(dp.nb_workers * DP_TRACE_PER_WORKER, sizeof(*lines));
	if (lines == NULL)
		return cmd_error(ctx, -ENOMEM, "%% Out of memory");
	for (w = 0; w < dp.nb_workers; w++) {
		const struct dp_trace_worker *tw = &dp_trace_workers[w];
		uint32_t k = __atomic_load_n(&tw->n, __ATOMIC_ACQUIRE);

		for (i = 0; i < k; i++) {
			lines[n].r = &tw->rec[i];
			lines[n++].worker = w;
			t0 = tw->rec[i].tsc < t0 ? tw->rec[i].tsc : t0;
		}
	}
	qsort(lines, n, sizeof(*lines), by_seq);
	render_begin(&rd, ctx);
	render_str(&rd, "port", NULL, trace_port);
	render_uint(&rd, "asked", NULL, trace_count);
	render_bool(&rd, "armed", NULL, dp_trace.on);
	if (trace_count == 0)
		render_text(&rd, "No trace yet: trace IFNAME [count N] starts one\n");
	else
		render_text(&rd, "Trace of %s: %u of %u packets picked%s\n\n", trace_port, n,
			    trace_count, dp_trace.on ? ", still armed" : "");
	render_list_begin(&rd, "packets");
	for (i = 0; i < n; i++) {
		if (i > 0)
			render_text(&rd, "\n");
		print_one(&rd, i + 1, &lines[i], t0);
	}
	render_list_end(&rd);
	render_end(&rd);
	free(lines);
	return 0;
}

const struct cmd_def cmd_trace_table[] = {
	{ CMD_MODE_EXEC, "trace port:IFNAME [count NUMBER]", "Trace the next packets received on a port (10 unless count says)",
	  cmd_trace, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "no trace", "Stop tracing", cmd_no_trace, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "show trace", "Traced packets: path, FIB answer, fate", cmd_show_trace, 0 },
	{ 0 },
};
