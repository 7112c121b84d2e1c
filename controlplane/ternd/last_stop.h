/* SPDX-License-Identifier: BSD-3-Clause */
/* How long ternd's last stop took, kept in a file for the next start to report. */
#ifndef TERN_LAST_STOP_H
#define TERN_LAST_STOP_H

/* Notes that ternd begins to stop now (a signal came). */
void last_stop_begin(void);

/* Writes the stop's start and duration to path, once everything is stopped. */
void last_stop_write(const char *path);

/* Reads and removes path: how long the last stop took, and how long ago it began (seconds);
 * -ENOENT when there is none (a first start, or a stop that never finished). */
int last_stop_take(const char *path, double *took_s, double *began_ago_s);

#endif
