/* SPDX-License-Identifier: BSD-3-Clause */
/* show users: the shell sessions connected to ternd, who they are and what they wait for. */
#include <stdio.h>

#include "controlplane/shell/command.h"
#include "controlplane/ternd/api_server.h"

static const char *const mode_names[CMD_MODE_MAX] = {
	[CMD_MODE_EXEC] = "exec", [CMD_MODE_CONFIG] = "config", [CMD_MODE_CONFIG_IF] = "config-if",
};

static int cmd_show_users(struct cmd_ctx *ctx)
{
	struct api_user u[API_MAX_CLIENTS];
	unsigned int n = api_server_users(u, API_MAX_CLIENTS, ctx->s), i;

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"limit\": %u, \"root_slots\": %u, \"tx_queued\": %zu, \"users\": [",
			  API_MAX_CLIENTS, API_ROOT_SLOTS, api_server_tx_queued());
		for (i = 0; i < n; i++) {
			ob_printf(ctx->out, "%s{\"user\": ", i ? ", " : "");
			ob_json_str(ctx->out, u[i].user);
			ob_printf(ctx->out, ", \"uid\": %u, \"may_configure\": %s, \"self\": %s, "
				  "\"mode\": \"%s\", \"connected_s\": %lu, \"idle_s\": %lu, \"job\": %s, "
				  "\"requests\": %lu, \"tx_queued\": %zu}", u[i].uid,
				  u[i].privileged ? "true" : "false", u[i].self ? "true" : "false",
				  mode_names[u[i].mode], u[i].connected_s, u[i].idle_s,
				  u[i].job ? "true" : "false", u[i].requests, u[i].tx_queued);
		}
		ob_printf(ctx->out, "]}");
		return 0;
	}
	ob_printf(ctx->out, "  %-16s %6s %-9s %-10s %10s %8s %9s\n", "User", "Uid", "Configure",
		  "Mode", "Connected", "Idle", "Requests");
	for (i = 0; i < n; i++)
		ob_printf(ctx->out, "%c %-16s %6u %-9s %-10s %9lus %7lus %9lu%s\n", u[i].self ? '*' : ' ',
			  u[i].user, u[i].uid, u[i].privileged ? "yes" : "no", mode_names[u[i].mode],
			  u[i].connected_s, u[i].idle_s, u[i].requests, u[i].job ? "  (job running)" : "");
	ob_printf(ctx->out, "%u of %u sessions (the last %u are root's)\n", n, API_MAX_CLIENTS,
		  API_ROOT_SLOTS);
	return 0;
}

const struct cmd_def cmd_users_table[] = {
	{ CMD_MODE_EXEC, "show users", "Shell sessions connected to ternd: user, mode, idle time", cmd_show_users, 0 },
	{ 0 },
};
