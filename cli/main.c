/* SPDX-License-Identifier: BSD-3-Clause */
/* tern: the operator's shell for ternd, interactive or scripted (-c, -f, --json). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/tern_version.h"
#include "cli/client.h"
#include "cli/shell.h"

#define MAX_COMMANDS 256

static void usage(FILE *f)
{
	fprintf(f, "usage: tern [-s PATH] [--json] [-c COMMAND]... [-f FILE]\n"
		   "  -c, --command CMD  run CMD (repeatable; modes carry across)\n"
		   "  -f, --file FILE    run the commands in FILE ('-' for standard input)\n"
		   "  -j, --json         answer each command with one JSON object\n"
		   "  -s, --socket PATH  ternd's socket (default $%s or %s)\n"
		   "  -V, --version      print the version\n",
		TERN_API_SOCKET_ENV, TERN_API_DEFAULT_SOCKET);
}

static int run_file(struct tern_client *c, const char *path, bool json)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char line[1024];
	int lineno = 0, rc;

	if (f == NULL) {
		fprintf(stderr, "tern: cannot open %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		rc = shell_exec_line(c, line, json, false);
		if (rc < 0) {
			fprintf(stderr, "tern: %s line %d: '%s' failed\n", path, lineno, line);
			if (f != stdin)
				fclose(f);
			return rc;
		}
	}
	if (f != stdin)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "command", required_argument, NULL, 'c' },
		{ "file", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "socket", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *commands[MAX_COMMANDS], *file = NULL, *sock = NULL;
	struct tern_client c;
	int nb_commands = 0, opt, i, rc = 0;
	bool json = false;
	char err[512];

	while ((opt = getopt_long(argc, argv, "c:f:js:Vh", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (nb_commands == MAX_COMMANDS) {
				fprintf(stderr, "tern: too many -c commands; at most %d\n", MAX_COMMANDS);
				return 2;
			}
			commands[nb_commands++] = optarg;
			break;
		case 'f': file = optarg; break;
		case 'j': json = true; break;
		case 's': sock = optarg; break;
		case 'V': printf("tern %s\n", TERN_VERSION); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	/* a write to a ternd that went away (or to a pager that was quit) fails with EPIPE, which
	 * tern reports in a sentence, instead of killing tern silently */
	signal(SIGPIPE, SIG_IGN);
	if (optind != argc) {
		fprintf(stderr, "tern: unexpected argument '%s'; commands go after -c\n", argv[optind]);
		return 2;
	}
	if (tern_client_connect(&c, tern_client_socket_path(sock), err, sizeof(err)) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		return 1;
	}
	if (nb_commands == 0 && file == NULL) {
		if (isatty(STDIN_FILENO))
			rc = shell_run(&c);
		else
			rc = run_file(&c, "-", json) < 0;
		tern_client_close(&c);
		return rc;
	}
	for (i = 0; i < nb_commands && rc == 0; i++)
		rc = shell_exec_line(&c, commands[i], json, false);
	if (rc == 0 && file != NULL)
		rc = run_file(&c, file, json);
	tern_client_close(&c);
	return rc < 0 ? 1 : 0;
}
