/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workers' side of the exception path: punted packets in control-plane
 * policing classes (punt_class.h), each class with a policer on every port and
 * a ring in every worker; one ring back, of frames the kernel sends out of a
 * port. Owner: each worker writes its own dp_punt entry; the exception service
 * (kni/) dequeues the punt rings and fills dp_kernel_out, which the first
 * worker's kernel_out node empties; the control thread reads the counters and
 * sets the policy and the management ports before workers start.
 */
#ifndef TERN_PUNT_H
#define TERN_PUNT_H

#include <errno.h>
#include <stdint.h>

#include <rte_ring.h>

#include "dataplane/dp.h"
#include "dataplane/punt/node_sink.h"

#define DP_PUNT_RING_SIZE 1024	/* a class's, in each worker */
#define DP_KERNEL_OUT_RING_SIZE 1024

enum dp_punt_reason {
#define X(reason, text) DP_##reason,
	DP_PUNT_REASONS(X)
#undef X
	DP_PUNT_REASON_MAX,
};

#define DP_PUNT_CLASSES(X)                                                                   \
	X(routing, "routing and liveness: BGP (TCP 179), OSPF (89), BFD (UDP 3784, 3785, 4784), VRRP (112)") \
	X(neighbour, "neighbour resolution: ARP, IPv6 Neighbour Discovery and MLD")         \
	X(management, "TCP or UDP to the router on a management port")                    \
	X(icmp, "ICMP and ICMPv6 to the router")                                           \
	X(resolve, "transit waiting for the kernel to resolve its next hop")               \
	X(other, "everything else punted")

enum dp_punt_class {
#define X(c, text) DP_PUNT_CLASS_##c,
	DP_PUNT_CLASSES(X)
#undef X
	DP_PUNT_CLASS_MAX,
};

/* A class's policer on one port: rate and burst shared among the workers. */
struct dp_punt_rate {
	uint32_t rate_pps;
	uint32_t burst;
};

struct dp_punt_policy {
	struct dp_punt_rate cls[DP_PUNT_CLASS_MAX];
};

/* One class's policer on one port, in one worker (GCRA). */
struct dp_punt_bucket {
	uint64_t interval_tsc;	/* TSC ticks per token for this worker */
	uint64_t window_tsc;	/* burst, in TSC ticks */
	uint64_t tat;		/* theoretical arrival time */
};

/*
 * ARP and ND from a neighbour the router resolved go with the routing class (punt_class.h),
 * up to an allowance per neighbour: a few frames a second, what confirming each other takes.
 * The neighbour's MAC's slot in dp_punt_known picks its bucket; what is over the allowance
 * stays in the neighbour class, so a host that floods from its own known MAC gains nothing.
 */
#define DP_PUNT_KNOWN_SLOTS 256
#define DP_PUNT_KNOWN_RATE 10	/* frames a second, each neighbour, each worker */
#define DP_PUNT_KNOWN_BURST 10

struct dp_punt_worker {
	struct rte_ring *ring[DP_PUNT_CLASS_MAX];	/* served in class order */
	struct dp_punt_bucket known[DP_PUNT_KNOWN_SLOTS];	/* by the neighbour's MAC's slot */
	/* by interface, dp.max_ports of each (dp_punt_init) */
	struct dp_punt_bucket (*bucket)[DP_PUNT_CLASS_MAX];
	uint64_t (*punted)[DP_PUNT_REASON_MAX];
	uint64_t (*passed)[DP_PUNT_CLASS_MAX];
	uint64_t (*policed)[DP_PUNT_CLASS_MAX];
	uint64_t (*ring_full)[DP_PUNT_CLASS_MAX];
} __rte_cache_aligned;

extern struct dp_punt_worker dp_punt[DP_MAX_WORKERS];
/* Each class's name and what it takes, in class order. */
extern const struct dp_sink_info dp_punt_classes[DP_PUNT_CLASS_MAX];

/* Frames from the TAPs, m->port their port's ethdev id: one producer (the exception
 * service), one consumer (worker 0's kernel_out node). */
extern struct rte_ring *dp_kernel_out;

/* Control thread, before workers start: the rings and the policers' parameters. */
int dp_punt_init(unsigned int nb_workers, const struct dp_punt_policy *per_port,
		 unsigned int nb_ports);

/* Bytes the workers' tables by interface take. */
size_t dp_punt_memory(void);

/* Control thread, for an interface no worker sees yet: port's policer is like's, its
 * counters 0 (a sub-interface takes its port's policy). */
void dp_punt_port_init(unsigned int port, unsigned int like);

/* Control thread, while workers run: class c on port polices at r from the next packet on
 * (NULL: back to the configuration file's rate). */
void dp_punt_set_rate(unsigned int port, unsigned int c, const struct dp_punt_rate *r);
/* Class c's rate on port now and as the configuration file gave it (either may be NULL). */
void dp_punt_rate(unsigned int port, unsigned int c, struct dp_punt_rate *now, struct dp_punt_rate *file);

struct dp_punt_stats {
	uint64_t punted[DP_PUNT_REASON_MAX];
	uint64_t passed[DP_PUNT_CLASS_MAX];
	uint64_t policed_by_class[DP_PUNT_CLASS_MAX];
	uint64_t ring_full_by_class[DP_PUNT_CLASS_MAX];
	uint64_t policed;	/* of every class */
	uint64_t ring_full;
};
/* Takes a packet from worker w's punt rings, the classes in order: 0, or -ENOENT when all are
 * empty. For the exception service's consumer only (and tests). */
static inline int dp_punt_dequeue(unsigned int w, void **m)
{
	unsigned int c;

	for (c = 0; c < DP_PUNT_CLASS_MAX; c++)
		if (dp_punt[w].ring[c] != NULL && rte_ring_sc_dequeue(dp_punt[w].ring[c], m) == 0)
			return 0;
	return -ENOENT;
}

/* Sums every worker's counters for one port. */
void dp_punt_stats(unsigned int port, struct dp_punt_stats *st);

#endif
