/* SPDX-License-Identifier: BSD-3-Clause */
/* The grammar's compiled commands: what cmd_syntax.c makes of a syntax and command.c matches. */
#ifndef TERN_CMD_SYNTAX_H
#define TERN_CMD_SYNTAX_H

#include <stddef.h>

#include "controlplane/shell/command.h"

enum tok_kind {
	TOK_KEYWORD,
	TOK_IFNAME,
	TOK_IPV4,
	TOK_PREFIX,
	TOK_IPV6,
	TOK_PREFIX6,
	TOK_MAC,
	TOK_NUMBER,
	TOK_WORD,
	TOK_LINE,
	TOK_SUBIF,		/* a sub-interface to make: PORT.VLAN, no interface's name yet */
};

struct tok {
	enum tok_kind kind;
	const char *text;	/* the keyword, or the placeholder shown for a value */
	const char *name;	/* what cmd_arg finds it by (name_len characters); NULL: nothing */
	size_t name_len;
};

/* One way of saying a command: a syntax with [optional] and (alternative) parts has several. */
struct compiled {
	const struct cmd_def *def;
	int ntok;
	struct tok tok[CMD_MAX_WORDS];
};

/*
 * Compiles every way of saying def->syntax into cmds[*n..] and adds their number to *n (cmds
 * NULL: only counts). store takes the syntax's words: 2 * strlen(syntax) + 1 bytes, kept as
 * long as the commands are. -EINVAL for groups that do not close or an empty alternative,
 * -E2BIG past CMD_MAX_WORDS words.
 */
int cmd_syntax_compile(const struct cmd_def *def, char *store, struct compiled *cmds, int *n);

/* The compiled commands of every table (command.c), *n of them. */
const struct compiled *cmd_commands(int *n);
/* Whether w is a value of kind k (an IFNAME: an interface there is). */
bool cmd_value_ok(enum tok_kind k, const char *w);

/* The help of a value's placeholder ("IPv4 address" for A.B.C.D). */
const char *cmd_syntax_placeholder_help(enum tok_kind k);

/* '?' help (cmd_help.c): of a keyword that leads on, by the keywords from the start of the
 * line ("show ip"), or NULL; and of a value, how it is shown and what it is. */
const char *cmd_help_keyword(const char *path);
void cmd_help_value(const struct tok *t, const char **shown, const char **help);

#endif
