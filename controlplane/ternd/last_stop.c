/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How long ternd's last stop took: a restart costs forwarding from the stop's first step to
 * the next ternd's first forwarded frame, and the part before the new process is invisible
 * to it. The stopping ternd writes when its stop began and how long it took (wall clock,
 * which both processes share) beside its API socket; the next one reports both in its
 * "ready" line and removes the file.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "controlplane/ternd/last_stop.h"

static double began;	/* wall clock, s; 0: not stopping */

static double wall_clock_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void last_stop_begin(void)
{
	if (began == 0)
		began = wall_clock_s();
}

void last_stop_write(const char *path)
{
	FILE *f;

	if (began == 0)
		return;
	f = fopen(path, "we");
	if (f == NULL)
		return;
	fprintf(f, "%.6f %.6f\n", began, wall_clock_s() - began);
	fclose(f);
}

int last_stop_take(const char *path, double *took_s, double *began_ago_s)
{
	double at, took;
	FILE *f = fopen(path, "re");
	int n;

	if (f == NULL)
		return -ENOENT;
	n = fscanf(f, "%lf %lf", &at, &took);
	fclose(f);
	unlink(path);
	if (n != 2 || took < 0)
		return -EINVAL;
	*took_s = took;
	*began_ago_s = wall_clock_s() - at;
	return 0;
}
