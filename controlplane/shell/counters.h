/* SPDX-License-Identifier: BSD-3-Clause */
/* A port's counters as the shell shows them: from the last clear counters (counters.c). */
#ifndef TERN_SHELL_COUNTERS_H
#define TERN_SHELL_COUNTERS_H

#include "dataplane/punt/punt.h"
#include "kni/exception.h"

void counters_punt(unsigned int port, struct dp_punt_stats *st);
void counters_kni(unsigned int port, struct kni_port_stats *st);
/* clear counters for one port: its packet, punt and exception-path counters. */
void counters_clear(unsigned int port);
/* A port slot given to a new interface starts with no baseline. */
void counters_forget(unsigned int port);

#endif
