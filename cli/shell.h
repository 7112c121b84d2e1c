/* SPDX-License-Identifier: BSD-3-Clause */
/* The interactive shell: readline, history, TAB completion and '?' help. */
#ifndef TERN_CLI_SHELL_H
#define TERN_CLI_SHELL_H

#include "cli/client.h"

/* Runs until exit or end of input; returns the process exit status. */
int shell_run(struct tern_client *c);
/* Runs one line (with its filter) and prints the result; 0 or the reply's status. */
int shell_exec_line(struct tern_client *c, const char *line, bool json, bool page);

#endif
