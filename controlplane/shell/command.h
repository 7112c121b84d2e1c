/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command grammar: one table of commands serves the shell, `tern -c`
 * and the startup configuration. Syntax strings are words: lowercase words
 * are keywords (matched by unique prefix), uppercase ones are values:
 * IFNAME, A.B.C.D, A.B.C.D/M, MAC, NUMBER, WORD, LINE (rest of the line).
 * [words] may be left out, (a|b c|d) takes one of its alternatives, and groups
 * nest: "ip route A.B.C.D/M (A.B.C.D|IFNAME) [NUMBER] [weight NUMBER]".
 * Handlers find words by name (cmd_arg): a keyword by itself, a value by the
 * keyword before it ("weight NUMBER" is "weight"), or by the name given as
 * name:WORD ("distance:NUMBER", "target:blackhole").
 */
#ifndef TERN_COMMAND_H
#define TERN_COMMAND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "controlplane/ternd/outbuf.h"

#define CMD_MAX_WORDS 24

enum cmd_mode {
	CMD_MODE_EXEC,
	CMD_MODE_CONFIG,
	CMD_MODE_CONFIG_IF,
	CMD_MODE_CONFIG_CP,	/* control-plane */
	CMD_MODE_CONFIG_ACL,	/* ip access-list NAME */
	CMD_MODE_CONFIG_ACL6,	/* ipv6 access-list NAME */
	CMD_MODE_MAX,
};

/* A command that runs a program (ping, traceroute): its output pipe and process. */
struct cmd_job {
	int fd;
	int pid;
	char note[320];		/* said before the job's own output */
	void (*finish)(struct outbuf *out);	/* edits the output once the job ended; NULL: none */
};

#define CMD_ASYNC 1	/* a handler started s->job; the reply comes when it ends */

struct cmd_session {
	enum cmd_mode mode;
	bool jobs_allowed;	/* the caller can wait for a job (the API server can) */
	struct cmd_job job;
	char ifname[16];
	char acl[32];		/* the access list of CMD_MODE_CONFIG_ACL and _ACL6 */
	bool privileged;	/* may configure */
	uid_t uid;
	char user[32];
};

struct cmd_ctx {
	struct cmd_session *s;
	struct outbuf *out;
	bool json;		/* JSON asked for */
	bool wrote_json;	/* the handler answered in JSON; else its text is wrapped */
	int argc;
	const char *argv[CMD_MAX_WORDS];	/* keywords in full, values as typed */
	const char *argn[CMD_MAX_WORDS];	/* each word's name in the syntax (argn_len long); NULL: none */
	size_t argn_len[CMD_MAX_WORDS];
	char line[1024];			/* LINE value */
};

typedef int (*cmd_fn)(struct cmd_ctx *ctx);

#define CMD_F_CONFIG (1u << 0)	/* changes the router: needs privilege */

struct cmd_def {
	enum cmd_mode mode;
	const char *syntax;
	const char *help;
	cmd_fn fn;
	unsigned int flags;
};

/* Each command file exports a table ending with an entry whose syntax is NULL. */
extern const struct cmd_def cmd_show_table[];
extern const struct cmd_def cmd_route_table[];
extern const struct cmd_def cmd_mode_table[];
extern const struct cmd_def cmd_ip_table[];
extern const struct cmd_def cmd_exception_table[];
extern const struct cmd_def cmd_consistency_table[];
extern const struct cmd_def cmd_config_table[];
extern const struct cmd_def cmd_tools_table[];
extern const struct cmd_def cmd_logging_table[];
extern const struct cmd_def cmd_trace_table[];
extern const struct cmd_def cmd_workers_table[];
extern const struct cmd_def cmd_resources_table[];
extern const struct cmd_def cmd_users_table[];
extern const struct cmd_def cmd_subif_table[];
extern const struct cmd_def cmd_ipv6_table[];
extern const struct cmd_def cmd_copp_table[];
extern const struct cmd_def cmd_acl_table[];
extern const struct cmd_def cmd_rpf_table[];
extern const struct cmd_def cmd_sflow_table[];

/* Whether a mode is one within configuration mode (an interface's, control-plane, a list's),
 * which exit leaves for configuration mode. */
static inline bool cmd_mode_is_sub(enum cmd_mode m)
{
	return m >= CMD_MODE_CONFIG_IF;
}

/* cmd_show.c's, shared with cmd_ipv6.c: an interface's administrative state in words, and the
 * neighbour table of one family (AF_INET or AF_INET6). */
struct dp_port;
const char *cmd_admin_word(const struct dp_port *p);
int cmd_show_neighbors(struct cmd_ctx *ctx, uint8_t family);

/* Where capture writes its files ([capture] dir). */
void cmd_tools_set_capture_dir(const char *dir);

/* The control thread's tick for the trace commands: ends a trace once it is complete. */
void cmd_trace_tick(void);

/* Compiles every command table; -EINVAL for a syntax whose groups do not close or hold an
 * empty alternative, -E2BIG for one that says more than CMD_MAX_WORDS words. */
int cmd_init(void);
/* The same with other tables (NULL-terminated), for tests. */
int cmd_init_tables(const struct cmd_def *const *tables);
void cmd_fini(void);
void cmd_session_init(struct cmd_session *s, uid_t uid, bool privileged);
/* Runs one line; 0 or a negative errno, with the output or one error sentence in out. */
int cmd_execute(struct cmd_session *s, const char *line, bool json, struct outbuf *out);
/* Matches a line without running it: 0 when some command takes it, else the error cmd_execute gives. */
int cmd_validate(struct cmd_session *s, const char *line, struct outbuf *out);
/* Candidates for the next word of a partial line: "kind\tword\thelp" lines,
 * kind k (keyword or live value), p (value placeholder), c (line complete). */
int cmd_complete(struct cmd_session *s, const char *line, struct outbuf *out);
/* The prompt for the session's mode, e.g. "tern(config-if)#". */
void cmd_prompt(const struct cmd_session *s, char *buf, size_t len);

/* For handlers: the word of the line named name in the syntax (the last, if several), or NULL
 * when the line left it out. */
const char *cmd_arg(const struct cmd_ctx *ctx, const char *name);

/* A word of a command line by its name in the syntax, for cmd_line. */
struct cmd_word {
	const char *name;
	const char *value;
};

/*
 * Writes the command of mode beginning with the keywords head ("ip route") that says the
 * words given, as the grammar spells it, on one line (indented in interface mode): the
 * running configuration is written by the rows that read it. -EINVAL when no row takes them.
 */
int cmd_line(struct outbuf *out, enum cmd_mode mode, const char *head, const struct cmd_word *w,
	     unsigned int nw);

/* The interface of the interface mode, when it is not a bond's member; else NULL with the
 * error written: that it is gone, or that what (a verb phrase: "sample") goes on the bond. */
struct dp_port *cmd_mode_iface(struct cmd_ctx *ctx, const char *what);

/* For handlers: replace the output with one error sentence and return rc. */
int cmd_error(struct cmd_ctx *ctx, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* cmd_values.c: whether a word is an IPv4 address, a prefix A.B.C.D/M, a MAC, a number of at
 * most 10 digits; and, for handlers, IPv4 values parsed and printed (host order). */
bool cmd_value_is_ipv4(const char *w);
bool cmd_value_is_prefix(const char *w);
bool cmd_value_is_ipv6(const char *w);
bool cmd_value_is_prefix6(const char *w);
/* An IPv6 prefix X:X::X:X/M; exact: refused with host bits set (the error is the operator's). */
int cmd_parse_prefix6(struct cmd_ctx *ctx, const char *s, uint8_t ip6[16], uint8_t *len, bool exact);
bool cmd_value_is_mac(const char *w);
bool cmd_value_is_number(const char *w);
int cmd_parse_prefix(struct cmd_ctx *ctx, const char *s, uint32_t *ip, uint8_t *len, bool exact);
int cmd_parse_ip(const char *s, uint32_t *ip);
void cmd_fmt_ip(uint32_t ip, char *buf, size_t len);

/* Live values the grammar completes (interface names); provided by the command files. */
int cmd_ifname_candidates(const char *prefix, struct outbuf *out);
bool cmd_ifname_exists(const char *name);
/* "dp0, dp1" */
/* The interfaces' names (ports_only: not the sub-interfaces), the first CMD_IFNAMES_LISTED of
 * them and how many more, for an error's sentence. */
#define CMD_IFNAMES_LISTED 16
void cmd_ifname_list(struct outbuf *out, bool ports_only);

extern char cmd_hostname[64];

#endif
