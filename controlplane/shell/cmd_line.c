/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The running configuration's lines, written by the grammar's own rows (cmd_line): a
 * command's leading keywords and its words by name, spelled as the row that reads them, so
 * every line written is one the grammar takes.
 */
#include <errno.h>
#include <string.h>

#include "controlplane/shell/cmd_syntax.h"
#include "controlplane/shell/command.h"

/* Whether t takes the named word w: a value of its kind, or a keyword named apart as w's value. */
static bool takes(const struct tok *t, const struct cmd_word *w)
{
	if (t->name == NULL || strlen(w->name) != t->name_len ||
	    strncmp(t->name, w->name, t->name_len) != 0)
		return false;
	if (t->kind == TOK_KEYWORD)
		return strcmp(t->text, w->value) == 0;
	return cmd_value_ok(t->kind, w->value);
}

/*
 * The shortest way of saying a command of mode that starts with the keywords of head and takes
 * every named word given, each where its name stands; keywords named only by themselves
 * ([force]) come only when given. Returns the compiled command, or NULL.
 */
static const struct compiled *line_for(enum cmd_mode mode, const char *head,
				       const struct cmd_word *w, unsigned int nw)
{
	const struct compiled *best = NULL, *cmds;
	int i, t, nb_cmds;

	cmds = cmd_commands(&nb_cmds);
	for (i = 0; i < nb_cmds; i++) {
		const struct compiled *c = &cmds[i];
		unsigned int taken = 0, k;
		const char *h = head;
		bool ok = c->def->mode == mode;

		for (t = 0; ok && t < c->ntok; t++) {
			if (*h != '\0') {	/* the head's keywords first, a word at a time */
				size_t n = strcspn(h, " ");

				ok = c->tok[t].kind == TOK_KEYWORD && strlen(c->tok[t].text) == n &&
				     strncmp(h, c->tok[t].text, n) == 0;
				for (h += n; *h == ' '; h++)
					;
				continue;
			}
			for (k = 0; k < nw && !takes(&c->tok[t], &w[k]); k++)
				;
			if (k < nw)
				taken++;
			else if (c->tok[t].kind != TOK_KEYWORD || c->tok[t].name != c->tok[t].text)
				ok = false;	/* a value, or a keyword named apart, that nobody gave */
		}
		if (ok && *h == '\0' && taken == nw && (best == NULL || c->ntok < best->ntok))
			best = c;
	}
	return best;
}

int cmd_line(struct outbuf *out, enum cmd_mode mode, const char *head, const struct cmd_word *w,
	     unsigned int nw)
{
	const struct compiled *c = line_for(mode, head, w, nw);
	unsigned int k;
	int t;

	if (c == NULL)
		return -EINVAL;
	if (cmd_mode_is_sub(mode))
		ob_printf(out, " ");
	for (t = 0; t < c->ntok; t++) {
		const char *word = c->tok[t].text;

		for (k = 0; k < nw && c->tok[t].kind != TOK_KEYWORD; k++)
			if (takes(&c->tok[t], &w[k]))
				word = w[k].value;
		ob_printf(out, "%s%s", t ? " " : "", word);
	}
	ob_printf(out, "\n");
	return 0;
}
