/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sFlow from the shell: sflow sample-rate N on every port and bond (configuration mode) or on
 * one interface (its mode), sflow collector ADDRESS [port N] (up to SFLOW_COLLECTORS_MAX),
 * sflow agent-address ADDRESS, their no forms, and show sflow.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/sflow/sflow_agent.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "dataplane/dp.h"
#include "dataplane/l2/sflow_sample.h"

#define ADDRESS "(addr:A.B.C.D|addr:X:X::X:X)"

/* The line's value named key, 1 .. max, into *v; else -EINVAL with "what W is out of range:
 * expected 1 to MAX" and unit after it. */
static int number_of(struct cmd_ctx *ctx, const char *key, unsigned int max, const char *what,
		     const char *unit, uint32_t *v)
{
	const char *w = cmd_arg(ctx, key);
	char *end;
	unsigned long n = strtoul(w, &end, 10);

	if (*end != '\0' || n < 1 || n > max)
		return cmd_error(ctx, -EINVAL, "%% %s %s is out of range: expected 1 to %u%s", what, w,
				 max, unit);
	*v = (uint32_t)n;
	return 0;
}

static int rate_of(struct cmd_ctx *ctx, uint32_t *rate)
{
	return number_of(ctx, "sample-rate", DP_SFLOW_RATE_MAX, "Sample rate",
			 " (1 in that many frames)", rate);
}

static int cmd_sample_rate(struct cmd_ctx *ctx)
{
	uint32_t rate = 0;
	int rc = rate_of(ctx, &rate);

	if (rc == 0)
		sflow_set_global_rate(rate);
	return rc;
}

static int cmd_no_sample_rate(struct cmd_ctx *ctx)
{
	(void)ctx;
	sflow_set_global_rate(0);
	return 0;
}

static struct dp_port *interface(struct cmd_ctx *ctx)
{
	return cmd_mode_iface(ctx, "sample");
}

static int cmd_if_sample_rate(struct cmd_ctx *ctx)
{
	struct dp_port *p = interface(ctx);
	uint32_t rate = 0;
	int rc;

	if (p == NULL)
		return -EINVAL;
	rc = rate_of(ctx, &rate);
	if (rc == 0)
		sflow_set_iface_rate(p - dp.ports, rate);
	return rc;
}

static int cmd_if_no_sample_rate(struct cmd_ctx *ctx)
{
	struct dp_port *p = interface(ctx);

	if (p == NULL)
		return -EINVAL;
	sflow_set_iface_rate(p - dp.ports, 0);
	return 0;
}

static int cmd_polling(struct cmd_ctx *ctx)
{
	uint32_t s = 0;
	int rc = number_of(ctx, "polling-interval", SFLOW_POLLING_MAX_S, "Polling interval",
			   " seconds", &s);

	if (rc == 0)
		sflow_set_polling(s);
	return rc;
}

static int cmd_no_polling(struct cmd_ctx *ctx)
{
	(void)ctx;
	sflow_set_polling(0);
	return 0;
}

/* The collector's address and port of the line: 0, or an error said. */
static int collector_of(struct cmd_ctx *ctx, struct sflow_addr *a, uint16_t *port)
{
	const char *addr = cmd_arg(ctx, "addr");
	uint32_t p = SFLOW_PORT;

	if (addr == NULL || sflow_addr_parse(addr, a) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an IPv4 or IPv6 address",
				 addr ? addr : "");
	if (cmd_arg(ctx, "port") != NULL && number_of(ctx, "port", 65535, "Port", "", &p) < 0)
		return -EINVAL;
	*port = (uint16_t)p;
	return 0;
}

static int cmd_collector(struct cmd_ctx *ctx)
{
	struct sflow_addr a;
	uint16_t port = 0;
	int rc = collector_of(ctx, &a, &port);

	if (rc < 0)
		return rc;
	rc = sflow_collector_add(&a, port);
	if (rc == -ENOSPC)
		return cmd_error(ctx, rc, "%% tern sends to %u sFlow collectors at most: remove one first",
				 SFLOW_COLLECTORS_MAX);
	return 0;	/* -EEXIST: it is there already */
}

static int cmd_no_collector(struct cmd_ctx *ctx)
{
	struct sflow_addr a;
	uint16_t port = 0;
	int rc = collector_of(ctx, &a, &port);

	if (rc < 0)
		return rc;
	if (sflow_collector_del(&a, port) < 0)
		return cmd_error(ctx, -ENOENT, "%% No sFlow collector %s port %u",
				 cmd_arg(ctx, "addr"), port);
	return 0;
}

static int cmd_agent_address(struct cmd_ctx *ctx)
{
	const char *w = cmd_arg(ctx, "addr");
	struct sflow_addr a;

	if (w == NULL || sflow_addr_parse(w, &a) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an IPv4 or IPv6 address", w ? w : "");
	sflow_set_agent_address(&a);
	return 0;
}

static int cmd_no_agent_address(struct cmd_ctx *ctx)
{
	(void)ctx;
	sflow_set_agent_address(NULL);
	return 0;
}

static void show_interfaces(struct render *r)
{
	struct dp_sflow_count c;
	unsigned int i;

	render_text(r, "%-16s %9s %14s %12s %10s\n", "interface", "rate", "pool", "samples", "drops");
	render_list_begin(r, "interfaces");
	DP_FOREACH_IFACE(i) {
		uint32_t rate = sflow_effective_rate(i);

		if (rate == 0)
			continue;
		dp_sflow_count_get(i, &c);
		render_object_begin(r, NULL);
		render_str(r, "name", "%-16s ", dp.ports[i].name);
		render_uint(r, "rate", "%9lu ", rate);
		render_uint(r, "pool", "%14lu ", c.pool);
		render_uint(r, "samples", "%12lu ", c.samples);
		render_uint(r, "drops", "%10lu\n", c.drops);
		render_object_end(r);
	}
	render_list_end(r);
}

static int cmd_show_sflow(struct cmd_ctx *ctx)
{
	const struct sflow_collector *c;
	unsigned int n = sflow_collectors(&c), i;
	struct sflow_stats st;
	struct sflow_addr a;
	struct render r;
	char text[48];

	sflow_stats_get(&st);
	render_begin(&r, ctx);
	if (sflow_agent_address(&a)) {
		sflow_addr_text(&a, text, sizeof(text));
		render_str(&r, "agent_address", "agent address %s\n", text);
	} else {
		render_null(&r, "agent_address");
		render_text(&r, "agent address: the kernel's source address towards the first collector\n");
	}
	render_uint(&r, "sample_rate", "sample rate 1 in %lu on every port and bond", sflow_global_rate());
	render_text(&r, "%s", sflow_global_rate() ? "" : " (off)");
	render_uint(&r, "polling_interval", ", counters every %lu s\n", sflow_polling());
	render_uint(&r, "datagrams", "%lu datagrams", st.datagrams);
	render_uint(&r, "flow_samples", ", %lu flow samples", st.flow_samples);
	render_uint(&r, "counter_samples", ", %lu counter samples\n", st.counter_samples);
	render_text(&r, "%-40s %5s %12s %12s\n", "collector", "port", "datagrams", "send errors");
	render_list_begin(&r, "collectors");
	for (i = 0; i < n; i++) {
		sflow_addr_text(&c[i].addr, text, sizeof(text));
		render_object_begin(&r, NULL);
		render_str(&r, "address", "%-40s ", text);
		render_uint(&r, "port", "%5lu ", c[i].port);
		render_uint(&r, "datagrams", "%12lu ", c[i].datagrams);
		render_uint(&r, "send_errors", "%12lu\n", c[i].send_errors);
		render_object_end(&r);
	}
	render_list_end(&r);
	show_interfaces(&r);
	render_end(&r);
	return 0;
}

const struct cmd_def cmd_sflow_table[] = {
	{ CMD_MODE_CONFIG, "sflow sample-rate NUMBER",
	  "Sample 1 in NUMBER frames (1..16777215) received on every port and bond for sFlow",
	  cmd_sample_rate, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no sflow sample-rate [NUMBER]",
	  "Stop sampling the ports and bonds that have no rate of their own", cmd_no_sample_rate,
	  CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "sflow polling-interval NUMBER",
	  "Send each sampled interface's counters every NUMBER seconds (1..3600; 20 unless set)",
	  cmd_polling, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no sflow polling-interval [NUMBER]",
	  "Send each sampled interface's counters every 20 seconds", cmd_no_polling, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "sflow collector " ADDRESS " [port NUMBER]",
	  "Send sFlow datagrams to a collector (UDP port 6343 unless given), up to 4",
	  cmd_collector, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no sflow collector " ADDRESS " [port NUMBER]",
	  "Stop sending sFlow datagrams to a collector", cmd_no_collector, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "sflow agent-address " ADDRESS,
	  "The address sFlow datagrams name as their agent, and leave from", cmd_agent_address,
	  CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no sflow agent-address [" ADDRESS "]",
	  "Datagrams name the address the kernel sends from to the first collector",
	  cmd_no_agent_address, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "sflow sample-rate NUMBER",
	  "Sample 1 in NUMBER frames (1..16777215) received on this interface for sFlow",
	  cmd_if_sample_rate, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no sflow sample-rate [NUMBER]",
	  "This interface samples at the global rate (a port or bond), or not at all",
	  cmd_if_no_sample_rate, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "show sflow", "sFlow's agent, collectors and sampled interfaces",
	  cmd_show_sflow, 0 },
	{ 0, NULL, NULL, NULL, 0 },
};
