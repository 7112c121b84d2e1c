/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The grammar's syntax strings: words, values, [optional] and (alternative) parts, each
 * syntax compiled into every way of saying it, so that matching walks plain word lists.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "controlplane/shell/cmd_syntax.h"

static const struct {
	const char *text;
	enum tok_kind kind;
	const char *help;
} placeholders[] = {
	{ "IFNAME", TOK_IFNAME, "Interface name" },
	{ "IFNAME.VLAN", TOK_SUBIF, "A new sub-interface: port.VLAN id (dp0.100)" },
	{ "A.B.C.D", TOK_IPV4, "IPv4 address" },
	{ "A.B.C.D/M", TOK_PREFIX, "IPv4 prefix" },
	{ "X:X::X:X", TOK_IPV6, "IPv6 address" },
	{ "X:X::X:X/M", TOK_PREFIX6, "IPv6 prefix" },
	{ "MAC", TOK_MAC, "MAC address (aa:bb:cc:dd:ee:ff)" },
	{ "NUMBER", TOK_NUMBER, "Number" },
	{ "WORD", TOK_WORD, "A word" },
	{ "LINE", TOK_LINE, "Text to the end of the line" },
};

const char *cmd_syntax_placeholder_help(enum tok_kind k)
{
	unsigned int i;

	for (i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (placeholders[i].kind == k)
			return placeholders[i].help;
	return "";
}

/*
 * A syntax is cut into words and the marks [ ] ( ) |, each its own string in store.
 * Returns how many, or -E2BIG.
 */
static int syntax_words(const char *syntax, char *store, const char **w, int max)
{
	int n = 0;

	while (*syntax) {
		if (*syntax == ' ') {
			syntax++;
			continue;
		}
		if (n == max)
			return -E2BIG;
		w[n++] = store;
		if (strchr("[]()|", *syntax) != NULL) {
			*store++ = *syntax++;
		} else {
			while (*syntax && strchr(" []()|", *syntax) == NULL)
				*store++ = *syntax++;
		}
		*store++ = '\0';
	}
	return n;
}

static bool is_mark(const char *w, char c)
{
	return w[0] == c && w[1] == '\0';
}

/* The index of the mark closing the group opened at w[at], or -EINVAL. */
static int group_end(const char **w, int at, int n)
{
	int depth = 0, i;

	for (i = at; i < n; i++) {
		if (is_mark(w[i], '[') || is_mark(w[i], '('))
			depth++;
		else if (is_mark(w[i], ']') || is_mark(w[i], ')'))
			depth--;
		if (depth == 0)
			return (is_mark(w[at], '[') ? is_mark(w[i], ']') : is_mark(w[i], ')')) ? i : -EINVAL;
	}
	return -EINVAL;
}

struct span {
	int from, to;
};

/* What expansion writes to: the commands made so far (cmds NULL: only counted). */
struct expansion {
	const char **w;
	const struct cmd_def *def;
	struct compiled *cmds;
	int n;
};

static void tok_set(struct tok *t, const char *word, const struct tok *before)
{
	const char *colon = strchr(word, ':');
	unsigned int i;

	t->text = colon ? colon + 1 : word;
	t->kind = TOK_KEYWORD;
	for (i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (strcmp(t->text, placeholders[i].text) == 0)
			t->kind = placeholders[i].kind;
	if (colon) {
		t->name = word;
		t->name_len = colon - word;
	} else if (t->kind == TOK_KEYWORD) {
		t->name = t->text;
		t->name_len = strlen(t->text);
	} else if (before != NULL && before->kind == TOK_KEYWORD) {
		t->name = before->text;	/* a value is named for the keyword before it: weight NUMBER */
		t->name_len = strlen(before->text);
	} else {
		t->name = NULL;
		t->name_len = 0;
	}
}

#define SPANS_MAX (4 * CMD_MAX_WORDS)	/* words and marks: [ ] ( ) | */

/*
 * Every way of saying a syntax. todo[0..ntodo) are the spans of words still to say, the last
 * one first; out[0..nout) the words chosen so far. Each call works on its own copy of todo.
 */
static int expand(struct expansion *x, const struct span *todo_in, int ntodo, const char **out,
		  int nout)
{
	struct span todo[SPANS_MAX + 1], s;
	int m, i, from, rc = 0;

	memcpy(todo, todo_in, ntodo * sizeof(*todo));
	while (ntodo > 0 && todo[ntodo - 1].from == todo[ntodo - 1].to)
		ntodo--;
	if (ntodo == 0) {
		if (x->cmds != NULL) {
			struct compiled *c = &x->cmds[x->n];

			c->def = x->def;
			c->ntok = nout;
			for (i = 0; i < nout; i++)
				tok_set(&c->tok[i], out[i], i > 0 ? &c->tok[i - 1] : NULL);
		}
		x->n++;
		return 0;
	}
	if (ntodo >= SPANS_MAX)
		return -E2BIG;
	s = todo[ntodo - 1];
	if (!is_mark(x->w[s.from], '[') && !is_mark(x->w[s.from], '(')) {
		if (is_mark(x->w[s.from], ']') || is_mark(x->w[s.from], ')') || is_mark(x->w[s.from], '|'))
			return -EINVAL;
		if (nout == CMD_MAX_WORDS)
			return -E2BIG;
		out[nout] = x->w[s.from];
		todo[ntodo - 1].from++;
		return expand(x, todo, ntodo, out, nout + 1);
	}
	m = group_end(x->w, s.from, s.to);
	if (m < 0)
		return m;
	todo[ntodo - 1].from = m + 1;
	if (is_mark(x->w[s.from], '[')) {
		rc = expand(x, todo, ntodo, out, nout);	/* without it */
		todo[ntodo] = (struct span){ s.from + 1, m };
		return rc < 0 ? rc : expand(x, todo, ntodo + 1, out, nout);
	}
	for (from = s.from + 1, i = from; i <= m; i++) {
		if (i < m && (is_mark(x->w[i], '[') || is_mark(x->w[i], '('))) {
			int end = group_end(x->w, i, m);

			if (end < 0)
				return end;
			i = end;
			continue;
		}
		if (i < m && !is_mark(x->w[i], '|'))
			continue;
		if (i == from)
			return -EINVAL;	/* an empty alternative */
		todo[ntodo] = (struct span){ from, i };
		rc = expand(x, todo, ntodo + 1, out, nout);
		if (rc < 0)
			return rc;
		from = i + 1;
	}
	return 0;
}

int cmd_syntax_compile(const struct cmd_def *def, char *store, struct compiled *cmds, int *n)
{
	struct expansion x = { .def = def, .cmds = cmds, .n = *n };
	const char *w[SPANS_MAX], *out[CMD_MAX_WORDS];
	struct span todo[1];
	int nw = syntax_words(def->syntax, store, w, SPANS_MAX), rc;

	if (nw < 0)
		return nw;
	x.w = w;
	todo[0] = (struct span){ 0, nw };
	rc = expand(&x, todo, 1, out, 0);
	*n = x.n;
	return rc;
}
