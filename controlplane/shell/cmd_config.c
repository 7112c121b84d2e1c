/* SPDX-License-Identifier: BSD-3-Clause */
/* Configuration as a whole: show running/startup, write memory, history, rollback, startup replay. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "controlplane/shell/cmd_config.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "controlplane/shell/running_config.h"
#include "controlplane/shell/store.h"
#include "controlplane/ternd/log.h"

static char store_problem[256] = "no database is configured";

void config_store_unavailable(const char *why)
{
	snprintf(store_problem, sizeof(store_problem), "%s", why);
}

/* The lines of the startup configuration that failed at start, until a save replaces it. */
#define STARTUP_FAILURES_MAX 64

struct startup_failure {
	int line;
	char why[200];
};

static struct startup_failure startup_failures[STARTUP_FAILURES_MAX];
static unsigned int nb_startup_failed;	/* lines that failed; the first STARTUP_FAILURES_MAX kept */

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

int config_apply(const char *text, const char *origin, bool stop, struct outbuf *errors)
{
	struct cmd_session s;
	struct outbuf out;
	const char *p = text;
	int lineno = 0, failed = 0;
	bool startup = strcmp(origin, "startup-config") == 0;

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
		ob_reset(&out);
		if (cmd_execute(&s, line, false, &out) >= 0)
			continue;
		failed++;
		if (out.buf)
			chomp(out.buf);
		if (errors != NULL)
			ob_printf(errors, "%s line %d '%s': %s\n", origin, lineno, line,
				  out.buf ? out.buf : "");
		if (startup && nb_startup_failed < STARTUP_FAILURES_MAX) {
			struct startup_failure *f = &startup_failures[nb_startup_failed];

			f->line = lineno;
			snprintf(f->why, sizeof(f->why), "%s", out.buf ? out.buf : "refused");
		}
		nb_startup_failed += startup;
		if (stop)
			break;
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
	nb_startup_failed = 0;
	failed = config_apply(text, "startup-config", false, &errors);
	if (failed)
		TERN_LOG(main, WARNING, "startup configuration: %d line(s) failed; show startup-config marks them, and write memory keeps the startup configuration until told 'write memory force':\n%s",
			 failed, errors.buf);
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

#define RUNNING_HEADER "! tern running configuration"

/* The startup configuration with each line that failed at start marked beneath it, under a
 * header that names it. */
static void startup_marked(struct cmd_ctx *ctx, const char *text)
{
	const char *p = text;
	unsigned int f = 0, shown = RTE_MIN(nb_startup_failed, (unsigned int)STARTUP_FAILURES_MAX);
	int lineno = 0;

	if (nb_startup_failed)
		ob_printf(ctx->out, "! %u line(s) of this configuration failed at start, marked below\n",
			  nb_startup_failed);
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		lineno++;
		if (lineno == 1 && len == (int)strlen(RUNNING_HEADER) &&
		    strncmp(p, RUNNING_HEADER, len) == 0)	/* it was saved as the running one */
			ob_printf(ctx->out, "! tern startup configuration\n");
		else
			ob_printf(ctx->out, "%.*s\n", len, p);
		p = nl ? nl + 1 : NULL;
		for (; f < shown && startup_failures[f].line == lineno; f++)
			ob_printf(ctx->out, "! ^ failed at start: %s\n", startup_failures[f].why);
	}
}

static int cmd_show_startup(struct cmd_ctx *ctx)
{
	char *text, err[256];
	bool startup = ctx->argc <= 3;
	int rc = store_load(startup ? 0 : strtoll(ctx->argv[3], NULL, 10), &text, err,
			    sizeof(err));

	if (rc == -ENODEV)
		return cmd_error(ctx, rc, "%% The configuration database is unavailable: %s",
				 store_problem);
	if (rc == -ENOENT)
		return cmd_error(ctx, rc, !startup ? "%% No stored configuration %s" :
				 "%% No configuration has been saved yet (write memory)%s",
				 !startup ? ctx->argv[3] : "");
	if (rc < 0)
		return cmd_error(ctx, rc, "%% %s", err);
	if (startup)
		startup_marked(ctx, text);
	else
		ob_printf(ctx->out, "%s", text);
	free(text);
	return 0;
}

/* The version the newest saved configuration is, when it is text; else 0. */
static int64_t unchanged_since(const char *text)
{
	struct store_entry *e;
	unsigned int n;
	int64_t id = 0;
	char *saved, err[64];

	if (store_history(&e, &n) < 0)
		return 0;
	if (n > 0 && store_load(e[0].id, &saved, err, sizeof(err)) == 0) {
		if (strcmp(saved, text) == 0)
			id = e[0].id;
		free(saved);
	}
	free(e);
	return id;
}

static int cmd_write_memory(struct cmd_ctx *ctx)
{
	struct outbuf text;
	int64_t id;
	int rc;

	if (nb_startup_failed && cmd_arg(ctx, "force") == NULL)
		return cmd_error(ctx, -EEXIST,
				 "%% %u line(s) of the startup configuration failed at start (show startup-config marks them); saving now would replace it with a configuration that lacks them. Say 'write memory force' to save anyway",
				 nb_startup_failed);
	ob_init(&text);
	running_config(&text);
	if (!text.failed && cmd_arg(ctx, "force") == NULL && (id = unchanged_since(text.buf)) > 0) {
		ob_free(&text);
		ob_printf(ctx->out, "Configuration unchanged since version %ld: nothing saved\n",
			  (long)id);
		return 0;
	}
	rc = text.failed ? -ENOMEM : store_save(text.buf, ctx->s->user, &id);
	ob_free(&text);
	if (rc == -ENODEV)
		return cmd_error(ctx, rc, "%% The configuration database is unavailable: %s",
				 store_problem);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot save the configuration: %s", strerror(-rc));
	nb_startup_failed = 0;	/* the startup configuration is now this one */
	ob_printf(ctx->out, "Configuration saved as version %ld\n", (long)id);
	return 0;
}

static const char *synchronous_name(int v)
{
	static const char *const names[] = { "off", "normal", "full", "extra" };

	return v >= 0 && v < (int)RTE_DIM(names) ? names[v] : "unknown";
}

static int cmd_show_history(struct cmd_ctx *ctx)
{
	static const struct render_col cols[] = {
		{ "version", "Version", "%-8lu", R_UINT }, { "saved", "Saved (UTC)", "%-22s", R_STR },
		{ "user", "By", "%-16s", R_STR }, { "lines", "Lines", "%lu", R_UINT },
	};
	struct render r;
	struct store_info info;
	struct store_entry *e;
	unsigned int n, i;
	int rc = store_history(&e, &n);

	if (rc == -ENODEV)
		return cmd_error(ctx, rc, "%% The configuration database is unavailable: %s",
				 store_problem);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot read the configuration history: %s",
				 strerror(-rc));
	store_info(&info);
	render_begin(&r, ctx);
	render_object_begin(&r, "database");
	render_str(&r, "path", "Database %s: ", info.path);
	render_uint(&r, "schema_version", "schema version %lu, ", info.schema_version);
	render_str(&r, "journal_mode", "journal %s, ", info.journal_mode);
	render_str(&r, "synchronous", "synchronous %s\n", synchronous_name(info.synchronous));
	render_object_end(&r);
	render_table_begin(&r, "versions", cols, RTE_DIM(cols), true);
	for (i = 0; i < n; i++)
		render_row(&r, (union render_val[]){ RU(e[i].id), RS(e[i].created), RS(e[i].user),
			   RU(e[i].lines) });
	render_table_end(&r);
	render_end(&r);
	free(e);
	return 0;
}

/*
 * A rollback is all or nothing: when one of its commands fails, the configuration goes back
 * to what it was before (the way back is computed from where the failure left it).
 */
static int rollback_undo(struct cmd_ctx *ctx, int64_t id, const char *before, const char *why)
{
	struct outbuf now, back, errors;
	int failed = 0, rc;

	ob_init(&now);
	ob_init(&back);
	ob_init(&errors);
	running_config(&now);
	rc = config_transition(now.buf, before, &back);
	if (rc == 0)
		failed = config_apply(back.buf ? back.buf : "", "rollback undo", false, &errors);
	ob_reset(&now);
	running_config(&now);
	if (rc == 0 && failed == 0 && strcmp(now.buf, before) == 0)
		rc = cmd_error(ctx, -EIO, "%% Rollback to version %ld stopped: %sThe configuration is as it was before the rollback.",
			       (long)id, why);
	else
		rc = cmd_error(ctx, -EIO, "%% Rollback to version %ld stopped: %sand the configuration could not be put back as it was (%d command(s) failed):\n%s",
			       (long)id, why, failed, errors.buf ? errors.buf : "");
	ob_free(&now);
	ob_free(&back);
	ob_free(&errors);
	return rc;
}

static int cmd_rollback(struct cmd_ctx *ctx)
{
	struct outbuf running, cmds, errors;
	char *target, err[256];
	int64_t id = strtoll(ctx->argv[2], NULL, 10);
	int rc;

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
	if (rc < 0)
		cmd_error(ctx, rc, "%% Cannot compute the rollback: %s", strerror(-rc));
	else if (config_apply(cmds.buf ? cmds.buf : "", "rollback", true, &errors) > 0)
		rc = rollback_undo(ctx, id, running.buf, errors.buf);
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
	{ CMD_MODE_EXEC, "write memory [force]",
	  "Save the running configuration as the startup one (force: even though the startup configuration failed in part at start)",
	  cmd_write_memory, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "copy running-config startup-config", "Save the running configuration", cmd_write_memory, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "configure rollback NUMBER", "Return to a saved configuration", cmd_rollback, CMD_F_CONFIG },
	{ 0 },
};
