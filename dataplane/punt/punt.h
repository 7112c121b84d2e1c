/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workers' side of the exception path: per-worker rings of punted packets
 * and a per-port policer; one ring back, of frames the kernel sends out of a
 * port. Owner: each worker writes its own dp_punt entry; the exception service
 * (kni/) dequeues the punt rings and fills dp_kernel_out, which the first
 * worker's kernel_out node empties; the control thread reads the counters and
 * sets the policy before workers start.
 */
#ifndef TERN_PUNT_H
#define TERN_PUNT_H

#include <stdint.h>

#include <rte_ring.h>

#include "dataplane/dp.h"
#include "dataplane/punt/node_sink.h"

#define DP_PUNT_RING_SIZE 4096
#define DP_KERNEL_OUT_RING_SIZE 1024

enum dp_punt_reason {
#define X(reason, text) DP_##reason,
	DP_PUNT_REASONS(X)
#undef X
	DP_PUNT_REASON_MAX,
};

struct dp_punt_policy {
	uint32_t rate_pps;	/* per port, shared among workers */
	uint32_t burst;
};

struct dp_punt_worker {
	struct rte_ring *ring;
	uint64_t interval_tsc[DP_MAX_PORTS];	/* TSC ticks per token for this worker */
	uint64_t window_tsc[DP_MAX_PORTS];	/* burst, in TSC ticks */
	uint64_t tat[DP_MAX_PORTS];		/* policer: theoretical arrival time */
	uint64_t punted[DP_MAX_PORTS][DP_PUNT_REASON_MAX];
	uint64_t policed[DP_MAX_PORTS];
	uint64_t ring_full[DP_MAX_PORTS];
} __rte_cache_aligned;

extern struct dp_punt_worker dp_punt[DP_MAX_WORKERS];

/* Frames from the TAPs, m->port their port's ethdev id: one producer (the exception
 * service), one consumer (worker 0's kernel_out node). */
extern struct rte_ring *dp_kernel_out;

/* Control thread, before workers start: the rings and the policers' parameters. */
int dp_punt_init(unsigned int nb_workers, const struct dp_punt_policy *per_port,
		 unsigned int nb_ports);

/* Control thread, for an interface no worker sees yet: port's policer is like's, its
 * counters 0 (a sub-interface takes its port's policy). */
void dp_punt_port_init(unsigned int port, unsigned int like);

struct dp_punt_stats {
	uint64_t punted[DP_PUNT_REASON_MAX];
	uint64_t policed;
	uint64_t ring_full;
};
/* Sums every worker's counters for one port. */
void dp_punt_stats(unsigned int port, struct dp_punt_stats *st);

#endif
