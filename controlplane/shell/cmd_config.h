/* SPDX-License-Identifier: BSD-3-Clause */
/* Applying whole configurations: the startup one at start, a stored one on rollback. */
#ifndef TERN_CMD_CONFIG_H
#define TERN_CMD_CONFIG_H

#include "controlplane/ternd/outbuf.h"

#include <stdbool.h>

/* Runs text's lines in a privileged configuration session, to the end or (stop) to the
 * first that fails; returns how many failed, each named in errors. */
int config_apply(const char *text, const char *origin, bool stop, struct outbuf *errors);
int config_startup_replay(void);
/* Why write memory and friends cannot work (the database could not be opened). */
void config_store_unavailable(const char *why);

#endif
