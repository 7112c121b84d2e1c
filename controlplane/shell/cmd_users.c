/* SPDX-License-Identifier: BSD-3-Clause */
/* show users: the shell sessions connected to ternd, who they are and what they wait for. */
#include <stdio.h>

#include <rte_common.h>

#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "controlplane/ternd/api_server.h"

static const char *const mode_names[CMD_MODE_MAX] = {
	[CMD_MODE_EXEC] = "exec", [CMD_MODE_CONFIG] = "config", [CMD_MODE_CONFIG_IF] = "config-if",
	[CMD_MODE_CONFIG_CP] = "config-cp", [CMD_MODE_CONFIG_ACL] = "config-acl",
	[CMD_MODE_CONFIG_ACL6] = "config-ipv6-acl",
};

static int cmd_show_users(struct cmd_ctx *ctx)
{
	static const struct render_col cols[] = {
		{ "self", NULL, "", R_BOOL }, { NULL, " ", "%s", R_STR },
		{ "user", "User", "%-16s", R_STR }, { "uid", "Uid", "%6lu", R_UINT },
		{ "may_configure", "Configure", "%-9s", R_BOOL }, { "mode", "Mode", "%-10s", R_STR },
		{ "connected_s", "Connected", "%9lus", R_UINT }, { "idle_s", "Idle", "%7lus", R_UINT },
		{ "requests", "Requests", "%9lu", R_UINT }, { "job", NULL, "", R_BOOL },
		{ NULL, "", "%s", R_STR }, { "tx_queued", NULL, "", R_UINT },
	};
	struct api_user u[API_MAX_CLIENTS];
	unsigned int n = api_server_users(u, API_MAX_CLIENTS, ctx->s), i;
	struct render r;

	render_begin(&r, ctx);
	render_uint(&r, "limit", NULL, API_MAX_CLIENTS);
	render_uint(&r, "root_slots", NULL, API_ROOT_SLOTS);
	render_uint(&r, "tx_queued", NULL, api_server_tx_queued());
	render_table_begin(&r, "users", cols, RTE_DIM(cols), true);
	for (i = 0; i < n; i++)
		render_row(&r, (union render_val[]){ RB(u[i].self), RS(u[i].self ? "*" : " "),
			   RS(u[i].user), RU(u[i].uid), RB(u[i].privileged), RS(mode_names[u[i].mode]),
			   RU(u[i].connected_s), RU(u[i].idle_s), RU(u[i].requests), RB(u[i].job),
			   RS(u[i].job ? "  (job running)" : ""), RU(u[i].tx_queued) });
	render_table_end(&r);
	render_text(&r, "%u of %u sessions (the last %u are root's)\n", n, API_MAX_CLIENTS,
		    API_ROOT_SLOTS);
	render_end(&r);
	return 0;
}

const struct cmd_def cmd_users_table[] = {
	{ CMD_MODE_EXEC, "show users", "Shell sessions connected to ternd: user, mode, idle time", cmd_show_users, 0 },
	{ 0 },
};
