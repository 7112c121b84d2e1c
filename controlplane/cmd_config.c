/* Configuration as a whole: show running/startup, write memory, history, rollback, startup replay. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/cmd_config.h"
#include "controlplane/command.h"
#include "controlplane/log.h"
#include "controlplane/running_config.h"
#include "controlplane/store.h"

static char store_problem[256] = "no database is configured";

void config_store_unavailable(const char *why)
{
	snprintf(store_problem, sizeof(store_problem), "%s", why);
}

int config_apply(const char *text, const char *origin, struct outbuf *errors)
{
	struct cmd_session s;
	struct outbuf out;
	const char *p = text;
	int lineno = 0, failed = 0;

	cmd_session_init(&s, 0, true);
	snprintf(s.user, sizeof(s.user), "%s", origin);
	ob_init(&out);
	cmd_execute(&s, "configure terminal", false, &out);
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		p = nl ? nl + 1 : NULL;
		lineno++;
		if (cmd_execute(&s, line, false, &out) < 0) {
			failed++;
			if (errors != NULL)
				ob_printf(errors, "%s line %d '%s': %s\n", origin, lineno, line,
					  out.buf ? out.buf : "");
		}
	}
	ob_free(&out);
	return failed;
}

int config_startup_replay(void)
{
	struct outbuf errors;
	char *text, err[256];
	int rc, failed;

	rc = store_load(0, &text, err, sizeof(err));
	if (rc == -ENOENT || rc == -ENODEV)
		return 0;
	if (rc < 0) {
		TERN_LOG(main, ERR, "%s: starting with an empty configuration", err);
		return rc;
	}
	ob_init(&errors);
	failed = config_apply(text, "startup-config", &errors);
	if (failed)
		TERN_LOG(main, WARNING, "startup configuration: %d line(s) failed:\n%s", failed,
			 errors.buf);
	else
		TERN_LOG(main, NOTICE, "startup configuration applied");
	ob_free(&errors);
	free(text);
	return 0;
}

static int cmd_show_running(struct cmd_ctx *ctx)
{
	running_config(ctx->out);
	return 0;
}

static int cmd_show_startup(struct cmd_ctx *ctx)
{
	char *text, err[256];
	int rc = store_load(ctx->argc > 3 ? strtoll(ctx->argv[3], NULL, 10) : 0, &text, err,
			    sizeof(err));

	if (rc == -ENODEV)
		return cmd_error(ctx, rc, "%% The configuration database is unavailable: %s",
				 store_problem);
	if (rc == -ENOENT)
		return cmd_error(ctx, rc, ctx->argc > 3 ? "%% No stored configuration %s" :
				 "%% No configuration has been saved yet (write memory)%s",
				 ctx->argc > 3 ? ctx->argv[3] : "");
	if (rc < 0)
		return cmd_error(ctx, rc, "%% %s", err);
	ob_printf(ctx->out, "%s", text);
	free(text);
	return 0;
}

static int cmd_write_memory(struct cmd_ctx *ctx)
{
	struct outbuf text;
	int64_t id;
	int rc;

	ob_init(&text);
	running_config(&text);
	rc = text.failed ? -ENOMEM : store_save(text.buf, ctx->s->user, &id);
	ob_free(&text);
	if (rc == -ENODEV)
		return cmd_error(ctx, rc, "%% The configuration database is unavailable: %s",
				 store_problem);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot save the configuration: %s", strerror(-rc));
	ob_printf(ctx->out, "Configuration saved as version %ld\n", (long)id);
	return 0;
}

static int cmd_show_history(struct cmd_ctx *ctx)
{
	struct store_entry *e;
	unsigned int n, i;
	int rc = store_history(&e, &n);

	if (rc == -ENODEV)
		return cmd_error(ctx, rc, "%% The configuration database is unavailable: %s",
				 store_problem);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot read the configuration history: %s",
				 strerror(-rc));
	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"versions\": [");
	} else {
		ob_printf(ctx->out, "%-8s %-22s %-16s %s\n", "Version", "Saved (UTC)", "By", "Lines");
	}
	for (i = 0; i < n; i++)
		ob_printf(ctx->out, ctx->json ? "%s{\"version\": %ld, \"saved\": \"%s\", \"user\": \"%s\", \"lines\": %u}"
					      : "%s%-8ld %-22s %-16s %u\n",
			  ctx->json && i ? ", " : "", (long)e[i].id, e[i].created, e[i].user,
			  e[i].lines);
	if (ctx->json)
		ob_printf(ctx->out, "]}");
	free(e);
	return 0;
}

static int cmd_rollback(struct cmd_ctx *ctx)
{
	struct outbuf running, cmds, errors;
	char *target, err[256];
	int64_t id = strtoll(ctx->argv[2], NULL, 10);
	int rc, failed;

	if (id <= 0)
		return cmd_error(ctx, -EINVAL, "%% Version %s: expected a version from show configuration history",
				 ctx->argv[2]);
	rc = store_load(id, &target, err, sizeof(err));
	if (rc == -ENODEV)
		return cmd_error(ctx, rc, "%% The configuration database is unavailable: %s",
				 store_problem);
	if (rc == -ENOENT)
		return cmd_error(ctx, rc, "%% No stored configuration %ld; see show configuration history",
				 (long)id);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% %s", err);
	ob_init(&running);
	ob_init(&cmds);
	ob_init(&errors);
	running_config(&running);
	rc = config_transition(running.buf, target, &cmds);
	failed = rc < 0 ? 0 : config_apply(cmds.buf ? cmds.buf : "", "rollback", &errors);
	if (rc < 0)
		cmd_error(ctx, rc, "%% Cannot compute the rollback: %s", strerror(-rc));
	else if (failed)
		rc = cmd_error(ctx, -EIO, "%% Rolled back to version %ld with %d failed command(s):\n%s",
			       (long)id, failed, errors.buf);
	else
		ob_printf(ctx->out, "Rolled back to version %ld\n", (long)id);
	ob_free(&running);
	ob_free(&cmds);
	ob_free(&errors);
	free(target);
	return rc;
}

const struct cmd_def cmd_config_table[] = {
	{ CMD_MODE_EXEC, "show running-config", "The configuration in force", cmd_show_running, 0 },
	{ CMD_MODE_EXEC, "show startup-config", "The configuration ternd applies at start", cmd_show_startup, 0 },
	{ CMD_MODE_EXEC, "show configuration history", "Saved configurations", cmd_show_history, 0 },
	{ CMD_MODE_EXEC, "show configuration version NUMBER", "One saved configuration", cmd_show_startup, 0 },
	{ CMD_MODE_EXEC, "write memory", "Save the running configuration as the startup one", cmd_write_memory, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "copy running-config startup-config", "Save the running configuration", cmd_write_memory, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "configure rollback NUMBER", "Return to a saved configuration", cmd_rollback, CMD_F_CONFIG },
	{ 0 },
};
