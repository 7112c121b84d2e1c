/* SPDX-License-Identifier: BSD-3-Clause */
/* Punt rings and policers: set up by the control thread, then used by workers alone. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "dataplane/punt/punt.h"

struct dp_punt_worker dp_punt[DP_MAX_WORKERS];
struct rte_ring *dp_kernel_out;

int dp_punt_init(unsigned int nb_workers, const struct dp_punt_policy *per_port,
		 unsigned int nb_ports)
{
	uint64_t hz = rte_get_tsc_hz();
	unsigned int w, p;
	char name[RTE_RING_NAMESIZE];

	dp_kernel_out = rte_ring_create("tern_kernel_out", DP_KERNEL_OUT_RING_SIZE, SOCKET_ID_ANY,
					RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (dp_kernel_out == NULL)
		return -rte_errno;
	for (w = 0; w < nb_workers; w++) {
		struct dp_punt_worker *pw = &dp_punt[w];

		memset(pw, 0, sizeof(*pw));
		snprintf(name, sizeof(name), "tern_punt%u", w);
		pw->ring = rte_ring_create(name, DP_PUNT_RING_SIZE, SOCKET_ID_ANY,
					   RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (pw->ring == NULL)
			return -rte_errno;
		for (p = 0; p < nb_ports; p++) {
			/* each worker gets its share of the port's rate */
			uint64_t rate = per_port[p].rate_pps / nb_workers;

			if (rate == 0)
				rate = 1;
			pw->interval_tsc[p] = hz / rate;
			pw->window_tsc[p] = pw->interval_tsc[p] *
				(per_port[p].burst > nb_workers ? per_port[p].burst / nb_workers : 1);
		}
	}
	return 0;
}

void dp_punt_stats(unsigned int port, struct dp_punt_stats *st)
{
	unsigned int w, r;

	memset(st, 0, sizeof(*st));
	for (w = 0; w < dp.nb_workers; w++) {
		for (r = 0; r < DP_PUNT_REASON_MAX; r++)
			st->punted[r] += dp_punt[w].punted[port][r];
		st->policed += dp_punt[w].policed[port];
		st->ring_full += dp_punt[w].ring_full[port];
	}
}

void dp_punt_port_init(unsigned int port, unsigned int like)
{
	unsigned int w, r;

	for (w = 0; w < dp.nb_workers; w++) {
		struct dp_punt_worker *pw = &dp_punt[w];

		pw->interval_tsc[port] = pw->interval_tsc[like];
		pw->window_tsc[port] = pw->window_tsc[like];
		pw->tat[port] = 0;
		for (r = 0; r < DP_PUNT_REASON_MAX; r++)
			pw->punted[port][r] = 0;
		pw->policed[port] = 0;
		pw->ring_full[port] = 0;
	}
}
