/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-plane policing from the shell: control-plane mode, class NAME rate PPS burst N on
 * every port at once (the workers take it from their next packet), no class NAME back to
 * ternd.conf's, show control-plane. The running configuration names the classes changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "controlplane/shell/running_config.h"
#include "controlplane/ternd/config.h"
#include "dataplane/dp.h"
#include "dataplane/punt/punt.h"

/* A port with policers of its own (a bond's member has none: its bond polices). */
static bool policed_port(unsigned int p)
{
	struct dp_punt_rate file;

	dp_punt_rate(p, 0, NULL, &file);
	return file.rate_pps != 0;
}

static int class_index(struct cmd_ctx *ctx)
{
	const char *name = cmd_arg(ctx, "cls");
	unsigned int c;

	for (c = 0; c < DP_PUNT_CLASS_MAX; c++)
		if (name && strcmp(name, dp_punt_classes[c].node) == 0)
			return (int)c;
	return cmd_error(ctx, -EINVAL, "%% Unknown class '%s'", name ? name : "");
}

static int cmd_control_plane(struct cmd_ctx *ctx)
{
	ctx->s->mode = CMD_MODE_CONFIG_CP;
	return 0;
}

static int cmd_class(struct cmd_ctx *ctx)
{
	const char *rate_w = cmd_arg(ctx, "rate"), *burst_w = cmd_arg(ctx, "burst");
	unsigned long rate = strtoul(rate_w, NULL, 10), burst = strtoul(burst_w, NULL, 10);
	struct dp_punt_rate r;
	unsigned int p;
	int c = class_index(ctx);

	if (c < 0)
		return c;
	if (rate < 1 || rate > TERN_PUNT_RATE_MAX)
		return cmd_error(ctx, -EINVAL, "%% Rate %s is out of range: expected 1 to %u packets a second",
				 rate_w, TERN_PUNT_RATE_MAX);
	if (burst < 1 || burst > TERN_PUNT_BURST_MAX)
		return cmd_error(ctx, -EINVAL, "%% Burst %s is out of range: expected 1 to %u packets",
				 burst_w, TERN_PUNT_BURST_MAX);
	r = (struct dp_punt_rate){ (uint32_t)rate, (uint32_t)burst };
	DP_FOREACH_IFACE(p)
		if (policed_port(p))
			dp_punt_set_rate(p, c, &r);
	return 0;
}

static int cmd_no_class(struct cmd_ctx *ctx)
{
	unsigned int p;
	int c = class_index(ctx);

	if (c < 0)
		return c;
	DP_FOREACH_IFACE(p)
		if (policed_port(p))
			dp_punt_set_rate(p, c, NULL);
	return 0;
}

/* The first policed port's rate of class c now and in the file; false when there is none. */
static bool class_rate(unsigned int c, struct dp_punt_rate *now, struct dp_punt_rate *file)
{
	unsigned int p;

	DP_FOREACH_IFACE(p)
		if (policed_port(p)) {
			dp_punt_rate(p, c, now, file);
			return true;
		}
	return false;
}

void copp_running_config(struct outbuf *out)
{
	struct dp_punt_rate now, file;
	char rate[12], burst[12];
	bool any = false;
	unsigned int c;

	for (c = 0; c < DP_PUNT_CLASS_MAX; c++) {
		if (!class_rate(c, &now, &file) || (now.rate_pps == file.rate_pps && now.burst == file.burst))
			continue;
		if (!any)
			cmd_line(out, CMD_MODE_CONFIG, "control-plane", NULL, 0);
		any = true;
		snprintf(rate, sizeof(rate), "%u", now.rate_pps);
		snprintf(burst, sizeof(burst), "%u", now.burst);
		cmd_line(out, CMD_MODE_CONFIG_CP, "class",
			 (struct cmd_word[]){ { "cls", dp_punt_classes[c].node }, { "rate", rate },
			 { "burst", burst } }, 3);
	}
	if (any)
		ob_printf(out, "!\n");
}

static int cmd_show_control_plane(struct cmd_ctx *ctx)
{
	struct dp_punt_rate now, file;
	struct render r;
	unsigned int c;

	render_begin(&r, ctx);
	render_text(&r, "%-11s %10s %8s   %s\n", "class", "rate", "burst", "(ternd.conf's)");
	render_object_begin(&r, "classes");	/* in the order the exception service serves them */
	for (c = 0; c < DP_PUNT_CLASS_MAX; c++) {
		if (!class_rate(c, &now, &file))
			continue;
		render_object_begin(&r, dp_punt_classes[c].node);
		render_text(&r, "%-11s ", dp_punt_classes[c].node);
		render_uint(&r, "rate", "%10lu ", now.rate_pps);
		render_uint(&r, "burst", "%8lu   ", now.burst);
		render_uint(&r, "file_rate", "(%lu", file.rate_pps);
		render_uint(&r, "file_burst", " %lu)\n", file.burst);
		render_object_end(&r);
	}
	render_object_end(&r);
	render_end(&r);
	return 0;
}

#define COPP_CLASSES "(cls:routing|cls:neighbour|cls:management|cls:icmp|cls:resolve|cls:other)"
_Static_assert(DP_PUNT_CLASS_MAX == 6, "COPP_CLASSES names every class");

const struct cmd_def cmd_copp_table[] = {
	{ CMD_MODE_CONFIG, "control-plane", "Configure control-plane policing", cmd_control_plane, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_CP, "class " COPP_CLASSES " rate NUMBER burst NUMBER",
	  "Police a class on every port: packets a second (1..10000000) and burst (1..1000000)",
	  cmd_class, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_CP, "no class " COPP_CLASSES, "Back to ternd.conf's rate and burst for the class",
	  cmd_no_class, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "show control-plane", "Control-plane policing: each class's rate and burst on every port",
	  cmd_show_control_plane, 0 },
	{ 0 },
};
