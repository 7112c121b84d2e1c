/* SPDX-License-Identifier: BSD-3-Clause */
/* readline front end: the daemon answers completion and help, the shell draws them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cli/output.h"
#include "cli/shell.h"

static struct tern_client *client;
static bool paging = true;
static char history_path[512];

static void print_paged(const char *text, size_t len, const struct out_filter *flt, bool page)
{
	struct winsize ws;
	size_t lines = 0, i;
	FILE *pager;

	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (page && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    lines >= ws.ws_row && (pager = popen(getenv("PAGER") ? getenv("PAGER") : "less -FRX", "w"))) {
		out_print(pager, text, len, flt);
		pclose(pager);
		return;
	}
	out_print(stdout, text, len, flt);
}

int shell_exec_line(struct tern_client *c, const char *line, bool json, bool page)
{
	struct out_filter flt;
	struct tern_reply r;
	char buf[1024], err[256];
	int rc;

	snprintf(buf, sizeof(buf), "%s", line);
	if (out_filter_parse(buf, &flt, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return -EINVAL;
	}
	rc = tern_client_request(c, TERN_API_COMMAND, buf, json, &r);
	if (rc < 0) {
		fprintf(stderr, "tern: lost the connection to ternd at %s: %s\n", c->path, strerror(-rc));
		return rc;
	}
	if (r.status < 0) {	/* in JSON, the error object goes where the answers go */
		fprintf(json ? stdout : stderr, "%.*s\n", (int)r.len, r.text);
		return r.status;
	}
	if (r.len)
		print_paged(r.text, r.len, &flt, page);
	return 0;
}

/* Asks ternd for the candidates of the line up to the cursor. */
static char *candidates(const char *line)
{
	struct tern_reply r;

	if (tern_client_request(client, TERN_API_COMPLETE, line, false, &r) < 0 || r.status < 0)
		return NULL;
	return strndup(r.text, r.len);
}

static char *complete_gen(const char *text, int state)
{
	static char *list, *cursor;
	char *line;

	if (state == 0) {
		free(list);
		line = strndup(rl_line_buffer, rl_point);
		list = candidates(line ? line : "");
		free(line);
		cursor = list;
	}
	while (cursor && *cursor) {
		char *nl = strchr(cursor, '\n'), *kind = cursor, *word, *tab;

		if (nl)
			*nl = '\0';
		cursor = nl ? nl + 1 : NULL;
		word = strchr(kind, '\t');
		if (word == NULL || kind[0] != 'k')
			continue;
		word++;
		tab = strchr(word, '\t');
		if (tab)
			*tab = '\0';
		if (strncmp(word, text, strlen(text)) == 0)
			return strdup(word);
	}
	return NULL;
}

static char **complete(const char *text, int start, int end)
{
	rl_attempted_completion_over = 1;
	return rl_completion_matches(text, complete_gen);
}

/* '?' lists what may come next, with help, and keeps the line as typed. */
static int help_key(int count, int key)
{
	char *line = strndup(rl_line_buffer, rl_point), *list, *p;

	list = candidates(line ? line : "");
	free(line);
	printf("\n");
	for (p = list; p && *p;) {
		char *nl = strchr(p, '\n'), *word = strchr(p, '\t'), *help;

		if (nl)
			*nl = '\0';
		if (word) {
			word++;
			help = strchr(word, '\t');
			if (help)
				*help++ = '\0';
			printf("  %-20s %s\n", word, help ? help : "");
		}
		p = nl ? nl + 1 : NULL;
	}
	if (list == NULL || *list == '\0')
		printf("  %% No command can continue this line\n");
	free(list);
	rl_on_new_line();
	return 0;
}

static bool local_command(const char *line, int *rc)
{
	char w1[32] = "", w2[32] = "", w3[32] = "";

	sscanf(line, "%31s %31s %31s", w1, w2, w3);
	if (strcmp(w1, "terminal") == 0 && strcmp(w2, "length") == 0) {
		paging = strcmp(w3, "0") != 0;
		*rc = 0;
		return true;
	}
	return false;
}

/*
 * The connection is gone (ternd restarted, or stopped): tries again for RECONNECT_S seconds.
 * A new session starts at the exec prompt, and the last command may or may not have run.
 */
#define RECONNECT_S 10

static bool reconnect(struct tern_client *c)
{
	struct tern_reply r;
	char path[sizeof(c->path)], err[512] = "";
	unsigned int i;

	snprintf(path, sizeof(path), "%s", c->path);
	tern_client_close(c);
	fprintf(stderr, "tern: connecting to ternd again (for up to %d s)\n", RECONNECT_S);
	for (i = 0; i < RECONNECT_S * 5; i++) {
		if (tern_client_connect(c, path, err, sizeof(err)) == 0 &&
		    tern_client_request(c, TERN_API_COMMAND, "", false, &r) == 0) {
			fprintf(stderr, "tern: connected to ternd again, in a new session: the last "
				"command may not have run\n");
			return true;
		}
		tern_client_close(c);
		usleep(200 * 1000);
	}
	fprintf(stderr, "tern: ternd at %s does not answer: %s\n", path, err[0] ? err : "no reply");
	return false;
}

static bool connection_lost(int rc)
{
	return rc == -ECONNRESET || rc == -EPIPE || rc == -ENOTCONN || rc == -EBADF;
}

int shell_run(struct tern_client *c)
{
	const char *home = getenv("HOME");
	struct tern_reply r;
	int last = 0;

	client = c;
	rl_readline_name = "tern";
	rl_attempted_completion_function = complete;
	rl_bind_key('?', help_key);
	if (home) {
		snprintf(history_path, sizeof(history_path), "%s/.tern_history", home);
		read_history(history_path);
	}
	/* an empty line fetches the prompt */
	if (tern_client_request(c, TERN_API_COMMAND, "", false, &r) < 0) {
		fprintf(stderr, "tern: ternd at %s closed the connection\n", c->path);
		return 1;
	}
	for (;;) {
		char prompt[128], *line, *s;
		bool in_exec;

		snprintf(prompt, sizeof(prompt), "%s ", c->prompt);
		in_exec = strchr(c->prompt, '(') == NULL;
		line = readline(prompt);
		if (line == NULL) {
			printf("\n");
			break;
		}
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s)
			add_history(s);
		if (in_exec && (strcmp(s, "exit") == 0 || strcmp(s, "quit") == 0 ||
				strcmp(s, "logout") == 0)) {
			free(line);
			break;
		}
		if (!local_command(s, &last))
			last = shell_exec_line(c, s, false, paging);
		free(line);
		if (connection_lost(last) && !reconnect(c))
			break;
	}
	if (home)
		write_history(history_path);
	return last < 0 ? 1 : 0;
}
