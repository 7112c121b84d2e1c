/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd --reserve-hugepages: the 2 MiB pages each NUMA node needs for [eal] args, before start. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controlplane/ternd/config.h"

#define MAX_NODES 8

/* MiB wanted per node from --socket-mem A,B,... or -m N (node 0); 0 with --no-huge. */
static int wanted_mib(const struct tern_config *cfg, unsigned long mib[MAX_NODES])
{
	char buf[sizeof(cfg->eal_args)], *tok, *save = NULL, *prev = NULL;
	int nodes = 0;

	memset(mib, 0, MAX_NODES * sizeof(mib[0]));
	snprintf(buf, sizeof(buf), "%s", cfg->eal_args);
	for (tok = strtok_r(buf, " \t", &save); tok; prev = tok, tok = strtok_r(NULL, " \t", &save)) {
		if (strcmp(tok, "--no-huge") == 0)
			return 0;
		if (prev && strcmp(prev, "--socket-mem") == 0) {
			char *v, *s2 = NULL;

			nodes = 0;
			for (v = strtok_r(tok, ",", &s2); v && nodes < MAX_NODES; v = strtok_r(NULL, ",", &s2))
				mib[nodes++] = strtoul(v, NULL, 10);
		} else if (prev && strcmp(prev, "-m") == 0 && nodes == 0) {
			mib[0] = strtoul(tok, NULL, 10);
			nodes = 1;
		}
	}
	if (nodes == 0) {
		mib[0] = 1024;	/* what ternd's defaults need: the FIB, the route table, the pools */
		nodes = 1;
	}
	return nodes;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f != NULL) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int tern_reserve_hugepages(const struct tern_config *cfg, FILE *out)
{
	unsigned long mib[MAX_NODES];
	int nodes = wanted_mib(cfg, mib), i, failed = 0;
	bool single_node = access("/sys/devices/system/node/node1", F_OK) != 0;
	char path[128];

	if (nodes == 0) {
		fprintf(out, "ternd: [eal] args has --no-huge: no hugepages needed\n");
		return 0;
	}
	for (i = 0; i < nodes; i++) {
		/* 2 MiB pages, a tenth more for the EAL's own structures */
		long want = (mib[i] + mib[i] / 10 + 1) / 2, have;
		FILE *f;

		if (mib[i] == 0)
			continue;
		/* one node: the global pool is that node's (and some VMs only keep that one true) */
		if (single_node && i == 0)
			snprintf(path, sizeof(path), "/proc/sys/vm/nr_hugepages");
		else
			snprintf(path, sizeof(path),
				 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages", i);
		have = read_long(path);
		if (have < 0) {
			fprintf(out, "ternd: NUMA node %d: no 2 MiB hugepage pool (%s): cannot reserve %lu MiB\n",
				i, path, mib[i]);
			failed++;
			continue;
		}
		if (have >= want) {
			fprintf(out, "ternd: node %d: %ld hugepages of 2 MiB, %ld needed\n", i, have, want);
			continue;
		}
		f = fopen(path, "we");
		if (f == NULL || fprintf(f, "%ld\n", want) < 0 || fclose(f) != 0) {
			fprintf(out, "ternd: node %d: cannot reserve %ld hugepages: %s\n", i, want,
				strerror(errno));
			failed++;
			continue;
		}
		have = read_long(path);
		fprintf(out, "ternd: node %d: %ld hugepages of 2 MiB reserved (%ld needed)%s\n", i, have,
			want, have < want ? ": memory is too fragmented; reserve them at boot" : "");
		failed += have < want;
	}
	return failed ? -ENOMEM : 0;
}
