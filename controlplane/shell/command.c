/* SPDX-License-Identifier: BSD-3-Clause */
/* The grammar engine: matches a line against the command tables by unique prefix. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/shell/cmd_syntax.h"
#include "controlplane/shell/command.h"

static const struct cmd_def *const *tables;
static const struct cmd_def *const all_tables[] = { cmd_mode_table, cmd_show_table, cmd_route_table, cmd_ip_table,
						     cmd_exception_table, cmd_consistency_table, cmd_config_table,
						     cmd_tools_table, cmd_logging_table, cmd_trace_table,
						     cmd_workers_table, cmd_resources_table, cmd_users_table,
						     cmd_subif_table, cmd_ipv6_table, cmd_copp_table, cmd_acl_table,
						     cmd_rpf_table, cmd_sflow_table,
						     NULL };
static struct compiled *cmds;
static int nb_cmds;
static char *syntax_copies;
char cmd_hostname[64] = "tern";

bool cmd_value_ok(enum tok_kind k, const char *w)
{
	switch (k) {
	case TOK_IPV4: return cmd_value_is_ipv4(w);
	case TOK_PREFIX: return cmd_value_is_prefix(w);
	case TOK_IPV6: return cmd_value_is_ipv6(w);
	case TOK_PREFIX6: return cmd_value_is_prefix6(w);
	case TOK_MAC: return cmd_value_is_mac(w);
	case TOK_NUMBER: return cmd_value_is_number(w);
	case TOK_IFNAME: return cmd_ifname_exists(w);
	case TOK_SUBIF: return strchr(w, '.') != NULL && !cmd_ifname_exists(w);
	case TOK_WORD:
	case TOK_LINE: return true;
	case TOK_KEYWORD: break;
	}
	return false;
}

const struct compiled *cmd_commands(int *n)
{
	*n = nb_cmds;
	return cmds;
}

int cmd_init(void)
{
	return cmd_init_tables(all_tables);
}

int cmd_init_tables(const struct cmd_def *const *with)
{
	const struct cmd_def *const *t;
	const struct cmd_def *d;
	size_t chars = 0;
	char *store, *scratch;
	int n = 0, rc;

	tables = with;
	for (t = tables; *t; t++)
		for (d = *t; d->syntax; d++)
			chars += 2 * strlen(d->syntax) + 1;
	scratch = malloc(chars);
	syntax_copies = malloc(chars);
	if (scratch == NULL || syntax_copies == NULL) {
		free(scratch);
		return -ENOMEM;
	}
	for (t = tables; *t; t++)
		for (d = *t; d->syntax; d++)
			if ((rc = cmd_syntax_compile(d, scratch, NULL, &n)) < 0) {
				free(scratch);
				return rc;
			}
	free(scratch);
	cmds = calloc(n, sizeof(*cmds));
	if (cmds == NULL)
		return -ENOMEM;
	store = syntax_copies;
	for (t = tables; *t; t++)
		for (d = *t; d->syntax; d++) {
			rc = cmd_syntax_compile(d, store, cmds, &nb_cmds);
			if (rc < 0)
				return rc;
			store += 2 * strlen(d->syntax) + 1;
		}
	return 0;
}

void cmd_fini(void)
{
	free(cmds);
	free(syntax_copies);
	cmds = NULL;
	syntax_copies = NULL;
	nb_cmds = 0;
}

void cmd_session_init(struct cmd_session *s, uid_t uid, bool privileged)
{
	memset(s, 0, sizeof(*s));
	s->mode = CMD_MODE_EXEC;
	s->uid = uid;
	s->privileged = privileged;
}

void cmd_prompt(const struct cmd_session *s, char *buf, size_t len)
{
	static const char *const suffix[CMD_MODE_MAX] = { "", "(config)", "(config-if)", "(config-cp)",
							   "(config-acl)", "(config-ipv6-acl)" };

	snprintf(buf, len, "%s%s%c", cmd_hostname, suffix[s->mode], s->privileged ? '#' : '>');
}

int cmd_error(struct cmd_ctx *ctx, int rc, const char *fmt, ...)
{
	va_list ap;

	ob_reset(ctx->out);
	va_start(ap, fmt);
	ob_vprintf(ctx->out, fmt, ap);
	va_end(ap);
	return rc;
}

static int split(const char *line, char *buf, size_t len, char **words)
{
	char *save = NULL, *w;
	int n = 0;

	snprintf(buf, len, "%s", line);
	for (w = strtok_r(buf, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == CMD_MAX_WORDS)
			return -E2BIG;
		words[n++] = w;
	}
	return n;
}

/* Lists the distinct tokens that may come at position pos among live commands. */
static void expected_at(const bool *live, int pos, struct outbuf *out)
{
	int i, j, shown = 0;

	for (i = 0; i < nb_cmds; i++) {
		const char *t;
		bool dup = false;

		if (!live[i] || cmds[i].ntok <= pos)
			continue;
		t = cmds[i].tok[pos].text;
		for (j = 0; j < i && !dup; j++)
			dup = live[j] && cmds[j].ntok > pos && strcmp(cmds[j].tok[pos].text, t) == 0;
		if (dup)
			continue;
		ob_printf(out, "%s%s", shown++ ? ", " : "", t);
	}
}

static bool expects_ifname(const bool *live, int pos)
{
	int i;

	for (i = 0; i < nb_cmds; i++)
		if (live[i] && cmds[i].ntok > pos && cmds[i].tok[pos].kind == TOK_IFNAME)
			return true;
	return false;
}

struct match_result {
	int cmd;		/* index into cmds, or -1 */
	int error;		/* -EINVAL (unknown or invalid), -ENOENT (incomplete), -EAGAIN (ambiguous) */
	int bad_word;
};

/* Narrows live to the commands that accept words[0..n); returns the first failure. */
static int narrow(bool *live, char **words, int n, struct match_result *r, struct outbuf *err)
{
	int pos, i;

	for (pos = 0; pos < n; pos++) {
		const char *w = words[pos], *kw = NULL;
		bool exact = false, kw_match = false, ambiguous = false;
		size_t wl = strlen(w);

		for (i = 0; i < nb_cmds; i++) {
			const struct tok *t;

			if (!live[i])
				continue;
			if (cmds[i].ntok <= pos) {
				/* a LINE value swallows the rest */
				live[i] = cmds[i].ntok > 0 && cmds[i].tok[cmds[i].ntok - 1].kind == TOK_LINE;
				continue;
			}
			t = &cmds[i].tok[pos];
			if (t->kind != TOK_KEYWORD || strncmp(w, t->text, wl) != 0)
				continue;
			kw_match = true;
			if (strlen(t->text) == wl)
				exact = true;
			else if (kw != NULL && strcmp(kw, t->text) != 0)
				ambiguous = true;
			if (kw == NULL || strlen(t->text) == wl)
				kw = t->text;
		}
		if (kw_match && !exact && ambiguous) {
			if (err) {
				ob_printf(err, "%% Ambiguous command: '%s' could be: ", w);
				for (i = 0; i < nb_cmds; i++)
					if (live[i] && cmds[i].ntok > pos &&
					    cmds[i].tok[pos].kind == TOK_KEYWORD &&
					    strncmp(w, cmds[i].tok[pos].text, wl) != 0)
						live[i] = false;
				expected_at(live, pos, err);
			}
			r->error = -EAGAIN;
			r->bad_word = pos;
			return r->error;
		}
		for (i = 0; i < nb_cmds; i++) {
			const struct tok *t;
			bool keep;

			if (!live[i] || cmds[i].ntok <= pos)
				continue;
			t = &cmds[i].tok[pos];
			if (kw_match)
				keep = t->kind == TOK_KEYWORD && strcmp(t->text, kw) == 0;
			else
				keep = t->kind != TOK_KEYWORD && cmd_value_ok(t->kind, w);
			if (t->kind == TOK_LINE && !kw_match)
				keep = true;
			if (!keep)
				live[i] = false;
		}
		for (i = 0; i < nb_cmds && !live[i]; i++)
			;
		if (i == nb_cmds) {
			r->error = -EINVAL;
			r->bad_word = pos;
			return r->error;
		}
		if (!kw_match) {
			/* stop at a LINE: the rest belongs to it */
			for (i = 0; i < nb_cmds; i++)
				if (live[i] && cmds[i].tok[pos].kind == TOK_LINE)
					return 0;
		}
	}
	return 0;
}

static void mark_mode(bool *live, enum cmd_mode mode)
{
	int i;

	for (i = 0; i < nb_cmds; i++)
		live[i] = cmds[i].def->mode == mode;
}

static int match(enum cmd_mode mode, char **words, int n, struct match_result *r,
		 struct outbuf *err)
{
	bool *live = calloc(nb_cmds, sizeof(bool)), *before = calloc(nb_cmds, sizeof(bool));
	int i, rc;

	r->cmd = -1;
	r->error = 0;
	if (live == NULL || before == NULL) {
		free(live);
		free(before);
		return -ENOMEM;
	}
	mark_mode(live, mode);
	rc = narrow(live, words, n, r, err);
	if (rc == -EINVAL && err) {
		int pos = r->bad_word;

		/* say what was expected where the line went wrong */
		mark_mode(before, mode);
		narrow(before, words, pos, r, NULL);
		r->error = -EINVAL;
		r->bad_word = pos;
		if (pos == 0)
			ob_printf(err, "%% Unknown command: '%s'; expected one of: ", words[0]);
		else
			ob_printf(err, "%% Invalid input '%s' after '%s'; expected: ", words[pos],
				  words[pos - 1]);
		expected_at(before, pos, err);
		if (expects_ifname(before, pos)) {
			ob_printf(err, " (known interfaces: ");
			cmd_ifname_list(err, false);
			ob_printf(err, ")");
		}
	}
	if (rc == 0) {
		for (i = 0; i < nb_cmds; i++) {
			if (!live[i])
				continue;
			if (cmds[i].ntok == n ||
			    (cmds[i].ntok <= n && cmds[i].tok[cmds[i].ntok - 1].kind == TOK_LINE)) {
				r->cmd = i;
				break;
			}
		}
		if (r->cmd < 0) {
			r->error = rc = -ENOENT;
			if (err) {
				ob_printf(err, "%% Incomplete command: after '%s' expected: ",
					  n ? words[n - 1] : "");
				expected_at(live, n, err);
			}
		}
	}
	free(live);
	free(before);
	return rc;
}

static int run(struct cmd_session *s, const struct compiled *c, char **words, int n, bool json,
	       struct outbuf *out)
{
	struct cmd_ctx ctx = { .s = s, .out = out, .json = json };
	int i, rc;

	if ((c->def->flags & CMD_F_CONFIG) && !s->privileged)
		return cmd_error(&ctx, -EPERM,
				 "%% Permission denied: '%s' changes the router; only root and members of group 'tern' may configure",
				 c->def->syntax);
	for (i = 0; i < c->ntok && i < n; i++) {
		if (c->tok[i].kind == TOK_LINE) {
			int j, len = 0;

			ctx.argn[ctx.argc] = c->tok[i].name;
			ctx.argn_len[ctx.argc] = c->tok[i].name_len;
			for (j = i; j < n; j++)
				len += snprintf(ctx.line + len, sizeof(ctx.line) - len, "%s%s",
						j > i ? " " : "", words[j]);
			ctx.argv[ctx.argc++] = ctx.line;
			break;
		}
		ctx.argn[ctx.argc] = c->tok[i].name;
		ctx.argn_len[ctx.argc] = c->tok[i].name_len;
		ctx.argv[ctx.argc++] = c->tok[i].kind == TOK_KEYWORD ? c->tok[i].text : words[i];
	}
	rc = c->def->fn(&ctx);
	if (json && !ctx.wrote_json) {
		/* commands without a JSON form still answer in JSON */
		struct outbuf text = *out;

		ob_init(out);
		ob_printf(out, "{\"%s\": ", rc < 0 ? "error" : "output");
		ob_json_str(out, text.buf ? text.buf : "");
		ob_printf(out, "}");
		ob_free(&text);
	}
	return rc;
}

const char *cmd_arg(const struct cmd_ctx *ctx, const char *name)
{
	size_t len = strlen(name);
	int i;

	for (i = ctx->argc - 1; i >= 0; i--)
		if (ctx->argn[i] != NULL && ctx->argn_len[i] == len && strncmp(ctx->argn[i], name, len) == 0)
			return ctx->argv[i];
	return NULL;
}

static int execute(struct cmd_session *s, const char *line, bool json, struct outbuf *out);

/* In JSON, every error is an object, {"error": "..."}, those of the grammar included. */
int cmd_execute(struct cmd_session *s, const char *line, bool json, struct outbuf *out)
{
	int rc = execute(s, line, json, out);

	if (rc < 0 && json && (out->len == 0 || out->buf[0] != '{')) {
		struct outbuf text = *out;

		ob_init(out);
		ob_printf(out, "{\"error\": ");
		ob_json_str(out, text.buf ? text.buf : "");
		ob_printf(out, "}");
		ob_free(&text);
	}
	return rc;
}

static int execute(struct cmd_session *s, const char *line, bool json, struct outbuf *out)
{
	char buf[1024], *words[CMD_MAX_WORDS];
	struct match_result r;
	enum cmd_mode mode = s->mode;
	int n, rc;

	ob_reset(out);
	if (strlen(line) >= sizeof(buf)) {
		ob_printf(out, "%% Line too long: %zu characters; at most %zu", strlen(line),
			  sizeof(buf) - 1);
		return -E2BIG;
	}
	n = split(line, buf, sizeof(buf), words);
	if (n < 0) {
		ob_printf(out, "%% Too many words: at most %d", CMD_MAX_WORDS);
		return n;
	}
	if (n == 0 || words[0][0] == '!' || words[0][0] == '#')
		return 0;
	/* "do CMD" runs an exec command from a configuration mode. */
	if (mode != CMD_MODE_EXEC && strcmp(words[0], "do") == 0 && n > 1) {
		struct cmd_session tmp = *s;

		tmp.mode = CMD_MODE_EXEC;
		rc = match(CMD_MODE_EXEC, words + 1, n - 1, &r, out);
		if (rc < 0)
			return rc;
		rc = run(&tmp, &cmds[r.cmd], words + 1, n - 1, json, out);
		s->job = tmp.job;
		return rc;
	}
	rc = match(mode, words, n, &r, out);
	/* like vtysh: a config command typed in a mode within configuration mode leaves it */
	if (rc < 0 && cmd_mode_is_sub(mode)) {
		struct match_result r2;
		struct outbuf scratch;

		ob_init(&scratch);
		if (match(CMD_MODE_CONFIG, words, n, &r2, &scratch) == 0) {
			ob_reset(out);
			s->mode = CMD_MODE_CONFIG;
			rc = 0;
			r = r2;
		}
		ob_free(&scratch);
	}
	/* like vtysh: show and write work in every mode, without do */
	if (rc < 0 && mode != CMD_MODE_EXEC) {
		struct match_result r2;
		struct outbuf scratch;

		ob_init(&scratch);
		if (match(CMD_MODE_EXEC, words, n, &r2, &scratch) == 0 &&
		    (strcmp(cmds[r2.cmd].tok[0].text, "show") == 0 ||
		     strcmp(cmds[r2.cmd].tok[0].text, "write") == 0)) {
			struct cmd_session tmp = *s;

			ob_free(&scratch);
			ob_reset(out);
			tmp.mode = CMD_MODE_EXEC;
			rc = run(&tmp, &cmds[r2.cmd], words, n, json, out);
			s->job = tmp.job;
			return rc;
		}
		ob_free(&scratch);
	}
	if (rc < 0)
		return rc;
	ob_reset(out);
	return run(s, &cmds[r.cmd], words, n, json, out);
}

int cmd_validate(struct cmd_session *s, const char *line, struct outbuf *out)
{
	char buf[1024], *words[CMD_MAX_WORDS];
	struct match_result r;
	int n;

	ob_reset(out);
	if (strlen(line) >= sizeof(buf))
		return -E2BIG;
	n = split(line, buf, sizeof(buf), words);
	if (n <= 0)
		return n;
	return match(s->mode, words, n, &r, out);
}

/* The help of keyword pos of live command i: the help of a command it ends, else its own
 * (the keywords up to it, as a path), else that of the first command through it. */
static const char *keyword_help(const bool *live, int i, int pos)
{
	const char *text = cmds[i].tok[pos].text, *help;
	char path[256] = "";
	int j, t;

	for (j = 0; j < nb_cmds; j++)
		if (live[j] && cmds[j].ntok == pos + 1 && strcmp(cmds[j].tok[pos].text, text) == 0)
			return cmds[j].def->help;
	for (t = 0; t <= pos; t++)
		if (cmds[i].tok[t].kind == TOK_KEYWORD)
			snprintf(path + strlen(path), sizeof(path) - strlen(path), "%s%s",
				 path[0] ? " " : "", cmds[i].tok[t].text);
	help = cmd_help_keyword(path);
	return help ? help : cmds[i].def->help;
}

int cmd_complete(struct cmd_session *s, const char *line, struct outbuf *out)
{
	char buf[1024], *words[CMD_MAX_WORDS];
	bool *live;
	struct match_result r;
	const char *partial = "";
	size_t len = strlen(line);
	int n, pos, i, j;

	ob_reset(out);
	n = split(line, buf, sizeof(buf), words);
	if (n < 0)
		return n;
	pos = n;
	if (n > 0 && len > 0 && !isspace((unsigned char)line[len - 1])) {
		pos = n - 1;
		partial = words[pos];
	}
	live = calloc(nb_cmds, sizeof(bool));
	if (live == NULL)
		return -ENOMEM;
	mark_mode(live, s->mode);
	if (narrow(live, words, pos, &r, NULL) < 0) {
		free(live);
		return 0;
	}
	for (i = 0; i < nb_cmds; i++) {
		const struct tok *t;
		bool dup = false;

		if (!live[i])
			continue;
		if (cmds[i].ntok == pos && *partial == '\0') {
			ob_printf(out, "c\t<cr>\t%s\n", cmds[i].def->help);
			continue;
		}
		if (cmds[i].ntok <= pos)
			continue;
		t = &cmds[i].tok[pos];
		for (j = 0; j < i && !dup; j++)
			dup = live[j] && cmds[j].ntok > pos && strcmp(cmds[j].tok[pos].text, t->text) == 0;
		if (dup)
			continue;
		if (t->kind == TOK_KEYWORD) {
			if (strncmp(t->text, partial, strlen(partial)) == 0)
				ob_printf(out, "k\t%s\t%s\n", t->text, keyword_help(live, i, pos));
		} else {
			const char *shown, *help;

			if (t->kind == TOK_IFNAME)
				cmd_ifname_candidates(partial, out);
			cmd_help_value(t, &shown, &help);
			ob_printf(out, "p\t%s\t%s\n", shown, help);
		}
	}
	free(live);
	return 0;
}
