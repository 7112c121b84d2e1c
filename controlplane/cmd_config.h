/* Applying whole configurations: the startup one at start, a stored one on rollback. */
#ifndef TERN_CMD_CONFIG_H
#define TERN_CMD_CONFIG_H

#include "controlplane/outbuf.h"

/* Runs text's lines in a privileged configuration session; returns how many failed. */
int config_apply(const char *text, const char *origin, struct outbuf *errors);
int config_startup_replay(void);
/* Why write memory and friends cannot work (the database could not be opened). */
void config_store_unavailable(const char *why);

#endif
