/* SPDX-License-Identifier: BSD-3-Clause */
/* Punt rings and policers: set up by the control thread, then used by workers alone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "dataplane/punt/punt.h"
#include "dataplane/punt/punt_class.h"

struct dp_punt_worker dp_punt[DP_MAX_WORKERS];
uint64_t dp_punt_mgmt_ports[65536 / 64];

const struct dp_sink_info dp_punt_classes[DP_PUNT_CLASS_MAX] = {
#define X(c, text) { #c, text },
	DP_PUNT_CLASSES(X)
#undef X
};
struct rte_ring *dp_kernel_out;

/* Each port's policy as the configuration file gave it, and as it is now. */
static struct dp_punt_policy punt_file[DP_MAX_IFACES], punt_now[DP_MAX_IFACES];
static unsigned int punt_workers;
static size_t punt_bytes;	/* the workers' tables by interface */

/* Each worker's share of a class's rate and burst on a port. The worker reads the two while
 * the control thread may change them: each is one atomic store, and a packet policed with
 * one of them old is policed as under either rate. */
static void bucket_set(struct dp_punt_bucket *b, const struct dp_punt_rate *r,
		       unsigned int nb_workers, uint64_t hz)
{
	uint64_t rate = r->rate_pps / nb_workers, interval;

	if (rate == 0)
		rate = 1;
	interval = hz / rate;
	__atomic_store_n(&b->interval_tsc, interval, __ATOMIC_RELAXED);
	__atomic_store_n(&b->window_tsc, interval * (r->burst > nb_workers ? r->burst / nb_workers : 1),
			 __ATOMIC_RELAXED);
}

static void punt_tables_free(struct dp_punt_worker *pw)
{
	free(pw->bucket);
	free(pw->punted);
	free(pw->passed);
	free(pw->policed);
	free(pw->ring_full);
}

/* A worker's policers and counters for dp.max_ports interfaces, all zero. */
static int punt_tables_alloc(struct dp_punt_worker *pw)
{
	unsigned int n = dp.max_ports;

	pw->bucket = calloc(n, sizeof(*pw->bucket));
	pw->punted = calloc(n, sizeof(*pw->punted));
	pw->passed = calloc(n, sizeof(*pw->passed));
	pw->policed = calloc(n, sizeof(*pw->policed));
	pw->ring_full = calloc(n, sizeof(*pw->ring_full));
	if (!pw->bucket || !pw->punted || !pw->passed || !pw->policed || !pw->ring_full) {
		punt_tables_free(pw);
		memset(pw, 0, sizeof(*pw));
		return -ENOMEM;
	}
	punt_bytes += n * (sizeof(*pw->bucket) + sizeof(*pw->punted) + sizeof(*pw->passed) +
			   sizeof(*pw->policed) + sizeof(*pw->ring_full));
	return 0;
}

size_t dp_punt_memory(void)
{
	return punt_bytes;
}

int dp_punt_init(unsigned int nb_workers, const struct dp_punt_policy *per_port,
		 unsigned int nb_ports)
{
	uint64_t hz = rte_get_tsc_hz();
	unsigned int w, p, c;
	char name[RTE_RING_NAMESIZE];

	punt_workers = nb_workers;
	punt_bytes = 0;
	for (p = 0; p < nb_ports && p < DP_MAX_IFACES; p++)
		punt_file[p] = punt_now[p] = per_port[p];
	dp_kernel_out = rte_ring_create("tern_kernel_out", DP_KERNEL_OUT_RING_SIZE, SOCKET_ID_ANY,
					RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (dp_kernel_out == NULL)
		return -rte_errno;
	for (w = 0; w < nb_workers; w++) {
		struct dp_punt_worker *pw = &dp_punt[w];

		punt_tables_free(pw);
		memset(pw, 0, sizeof(*pw));
		if (punt_tables_alloc(pw) < 0)
			return -ENOMEM;
		for (c = 0; c < DP_PUNT_CLASS_MAX; c++) {
			snprintf(name, sizeof(name), "tern_punt%u_%u", w, c);
			pw->ring[c] = rte_ring_create(name, DP_PUNT_RING_SIZE, SOCKET_ID_ANY,
						      RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (pw->ring[c] == NULL)
				return -rte_errno;
		}
		for (p = 0; p < nb_ports; p++)
			for (c = 0; c < DP_PUNT_CLASS_MAX; c++) {
				bucket_set(&pw->bucket[p][c], &per_port[p].cls[c], nb_workers, hz);
				pw->bucket[p][c].tat = 0;
			}
		for (p = 0; p < DP_PUNT_KNOWN_SLOTS; p++) {
			pw->known[p].interval_tsc = hz / DP_PUNT_KNOWN_RATE;
			pw->known[p].window_tsc = pw->known[p].interval_tsc * DP_PUNT_KNOWN_BURST;
		}
	}
	return 0;
}

void dp_punt_stats(unsigned int port, struct dp_punt_stats *st)
{
	unsigned int w, r, c;

	memset(st, 0, sizeof(*st));
	for (w = 0; w < dp.nb_workers; w++) {
		const struct dp_punt_worker *pw = &dp_punt[w];

		for (r = 0; r < DP_PUNT_REASON_MAX; r++)
			st->punted[r] += pw->punted[port][r];
		for (c = 0; c < DP_PUNT_CLASS_MAX; c++) {
			st->passed[c] += pw->passed[port][c];
			st->policed_by_class[c] += pw->policed[port][c];
			st->ring_full_by_class[c] += pw->ring_full[port][c];
			st->policed += pw->policed[port][c];
			st->ring_full += pw->ring_full[port][c];
		}
	}
}

void dp_punt_port_init(unsigned int port, unsigned int like)
{
	unsigned int w;

	punt_file[port] = punt_file[like];
	punt_now[port] = punt_now[like];
	for (w = 0; w < dp.nb_workers; w++) {
		struct dp_punt_worker *pw = &dp_punt[w];
		unsigned int c;

		memcpy(pw->bucket[port], pw->bucket[like], sizeof(pw->bucket[port]));
		for (c = 0; c < DP_PUNT_CLASS_MAX; c++)
			pw->bucket[port][c].tat = 0;
		memset(pw->punted[port], 0, sizeof(pw->punted[port]));
		memset(pw->passed[port], 0, sizeof(pw->passed[port]));
		memset(pw->policed[port], 0, sizeof(pw->policed[port]));
		memset(pw->ring_full[port], 0, sizeof(pw->ring_full[port]));
	}
}

void dp_punt_set_rate(unsigned int port, unsigned int c, const struct dp_punt_rate *r)
{
	uint64_t hz = rte_get_tsc_hz();
	unsigned int w;

	punt_now[port].cls[c] = r ? *r : punt_file[port].cls[c];
	for (w = 0; w < punt_workers; w++)
		bucket_set(&dp_punt[w].bucket[port][c], &punt_now[port].cls[c], punt_workers, hz);
}

void dp_punt_rate(unsigned int port, unsigned int c, struct dp_punt_rate *now, struct dp_punt_rate *file)
{
	if (now)
		*now = punt_now[port].cls[c];
	if (file)
		*file = punt_file[port].cls[c];
}
