/* SPDX-License-Identifier: BSD-3-Clause */
/* The running configuration as commands, and the commands that turn one configuration into another. */
#ifndef TERN_RUNNING_CONFIG_H
#define TERN_RUNNING_CONFIG_H

#include "controlplane/ternd/outbuf.h"

/* What tern would have to replay to rebuild the router's configuration. */
void running_config(struct outbuf *out);
/* cmd_copp.c: the control-plane section, the classes whose rate the shell changed (none: nothing). */
void copp_running_config(struct outbuf *out);
/*
 * The commands (for configuration mode, one per line) that take a router
 * configured as `from` to `to`: removals first, then additions.
 */
int config_transition(const char *from, const char *to, struct outbuf *cmds);

#endif
