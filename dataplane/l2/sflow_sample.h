/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sFlow's packet sampling on the workers: on each interface whose rate the control thread set
 * (dp_sflow_rate, 1 in N, 0 off), 1 in N of the frames received, drawn at random, has its first
 * DP_SFLOW_HEADER bytes copied, with the interface and the frame's length, into the worker's
 * ring, which the control thread drains (controlplane/sflow/). A port's frames are sampled as
 * port_rx receives them, a sub-interface's as vlan_input finds its VLAN (tags as received).
 *
 * The draw is a skip count, as VPP's sFlow plugin and hsflowd's kernel module do it: after
 * each sample, the number of frames to the next one is drawn uniformly from 1 .. 2N-1 (mean
 * N), and each burst takes it down by its frames. A burst with no sample costs a subtraction,
 * not a random number a frame; the samples fall as they would with one draw a frame, at 1 in
 * N on average, with no pattern a sender could aim at.
 *
 * A full ring drops the sample and counts it. The pool (frames seen while sampling) and the
 * drops are per worker and interface, summed by the control thread for sFlow's sample_pool and
 * drops fields.
 */
#ifndef TERN_SFLOW_SAMPLE_H
#define TERN_SFLOW_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "dataplane/dp.h"

#define DP_SFLOW_HEADER 128		/* bytes of a sampled frame kept, at most */
#define DP_SFLOW_RATE_MAX 16777215u	/* 1 in 2^24 - 1: the draw's 2N-1 fits its 32 bits */
#define DP_SFLOW_RING 4096		/* samples a worker holds for the control thread */

struct dp_sflow_sample {
	uint16_t index;			/* the interface that received it */
	uint16_t header_len;		/* bytes of header held */
	uint32_t frame_len;		/* the frame's, as received */
	uint8_t header[DP_SFLOW_HEADER];
};

/* A worker's state for one interface: its own, summed by the control thread. */
struct dp_sflow_count {
	uint32_t skip;			/* frames to the next sample, this one included */
	uint32_t rate;			/* the rate skip was drawn for */
	uint64_t pool;			/* frames seen while sampling */
	uint64_t samples;		/* taken into the ring */
	uint64_t drops;			/* lost: the ring was full */
};

extern uint32_t *dp_sflow_rate;				/* [interface]: 1 in N, 0 off */
extern struct dp_sflow_count *dp_sflow_counts[DP_MAX_WORKERS];	/* [worker][interface] */
/* Sub-interfaces sampled, so that vlan_input looks a frame's rate up only when one is. */
extern uint32_t dp_sflow_subifs;

/* Makes each worker's ring; before the workers start. 0 or -ENOMEM. */
int dp_sflow_init(unsigned int nb_workers);

/* Worker: samples among the n frames of m[] received on interface index at rate (not 0). */
void dp_sflow_burst(unsigned int worker, uint16_t index, uint32_t rate, struct rte_mbuf **m,
		    uint16_t n);

/* Worker, port_rx: the n frames of m[] received on interface index; a burst with no sample
 * in it costs a subtraction here, and one with a sample goes to dp_sflow_burst. */
static inline void dp_sflow_frames(unsigned int worker, uint16_t index, struct rte_mbuf **m,
				   uint16_t n)
{
	uint32_t rate = __atomic_load_n(&dp_sflow_rate[index], __ATOMIC_RELAXED);
	struct dp_sflow_count *c;

	if (likely(rate == 0))
		return;
	c = &dp_sflow_counts[worker][index];
	if (likely(c->skip > n && c->rate == rate)) {
		c->pool += n;
		c->skip -= n;
		return;
	}
	dp_sflow_burst(worker, index, rate, m, n);
}

/* Worker, vlan_input: one frame of sub-interface index, its tags still on. */
static inline void dp_sflow_subif(unsigned int worker, uint16_t index, struct rte_mbuf *m)
{
	dp_sflow_frames(worker, index, &m, 1);
}

/* Control thread: takes up to max samples from the workers' rings. */
unsigned int dp_sflow_drain(struct dp_sflow_sample *out, unsigned int max);
/* Control thread: interface index's counts summed over the workers (skip and rate unset). */
void dp_sflow_count_get(unsigned int index, struct dp_sflow_count *sum);
/* Control thread: sets interface index's rate (0: off). */
void dp_sflow_rate_set(unsigned int index, uint32_t rate);
/* Control thread: zeroes a new interface's counts and rate. */
void dp_sflow_zero(unsigned int index);

#endif
