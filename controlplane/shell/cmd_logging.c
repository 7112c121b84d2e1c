/* SPDX-License-Identifier: BSD-3-Clause */
/* Log levels per subsystem, changed at run time: debug netlink, no debug netlink, show logging. */
#include <errno.h>
#include <string.h>

#include <rte_log.h>

#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "controlplane/ternd/log.h"

static const struct {
	const char *word;
	int *type;
} subsystems[] = {
	{ "netlink", &tern_log_rib },
	{ "api", &tern_log_api },
	{ "main", &tern_log_main },
};

static int set_level(const char *what, uint32_t level)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(subsystems); i++)
		if (strcmp(what, "all") == 0 || strcmp(what, subsystems[i].word) == 0)
			rte_log_set_level(*subsystems[i].type, level);
	return 0;
}

static int cmd_debug(struct cmd_ctx *ctx)
{
	return set_level(cmd_arg(ctx, "what"), cmd_arg(ctx, "no") ? RTE_LOG_INFO : RTE_LOG_DEBUG);
}

static int cmd_show_logging(struct cmd_ctx *ctx)
{
	static const char *const names[] = { "", "emerg", "alert", "crit", "error", "warning",
					     "notice", "info", "debug" };
	struct render r;
	unsigned int i;

	render_begin(&r, ctx);
	for (i = 0; i < RTE_DIM(subsystems); i++) {
		int l = rte_log_get_level(*subsystems[i].type);

		render_text(&r, "%-10s ", subsystems[i].word);
		render_str(&r, subsystems[i].word, "%s\n", l > 0 && l <= (int)RTE_LOG_DEBUG ? names[l] : "?");
	}
	render_end(&r);
	return 0;
}

const struct cmd_def cmd_logging_table[] = {
	{ CMD_MODE_EXEC, "[no] debug (what:netlink|what:api|what:all)",
	  "Debug logging of a subsystem (netlink: every mirrored change; api: the shell's clients), or of all; no: back to info",
	  cmd_debug, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "show logging", "Log level of each subsystem", cmd_show_logging, 0 },
	{ 0 },
};
