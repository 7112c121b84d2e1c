/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench's generator: stamped UDP frames out of one port, counted and timed on another. */
#ifndef TERN_BENCH_GEN_H
#define TERN_BENCH_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mempool.h>

#include "bench/histogram.h"

#define GEN_MAGIC 0x7465726eu
#define GEN_MAX_FLOWS 65536
#define GEN_MAX_DIRS 2
#define GEN_MAX_RXQ 16		/* rx queues polled on the receiving port */

struct gen_params {
	uint16_t tx_port;
	uint16_t rx_port;
	uint16_t nb_rxq;	/* queues polled on the receiving port (a memif peer may use several) */
	struct rte_ether_addr dst_mac;
	uint32_t src_ip;	/* host order */
	uint32_t dst_ip;	/* first destination; flows use dst_ip + i */
	bool ipv6;		/* IPv6/UDP frames, from src_ip6 to dst_ip6 (flows: + i in its last
				 * 32 bits) instead of IPv4: GEN_IPV6_MIN_FRAME bytes at least */
	uint8_t src_ip6[16];
	uint8_t dst_ip6[16];
	uint32_t flows;
	uint16_t frame_size;	/* on the wire, CRC included: 64 .. 1518 (a tag adds 4) */
	uint16_t vlan;		/* 1..4094: 802.1Q-tag the frames; 0: untagged */
	uint16_t vlans;		/* with vlan: the frames' VLANs go round vlan .. vlan + vlans - 1,
				 * one frame each in turn (0 or 1: vlan alone) */
	double rate_pps;	/* 0: as fast as the port takes them */
	double duration_s;
	double warmup_s;	/* learning frames at a low rate before the trial */
	uint32_t flood_ip;	/* host order; with flood_share, that share of the frames goes there */
	unsigned int flood_share;	/* percent, 0..99: frames to flood_ip, never counted as ours */
	bool reconnect;		/* a port whose link is down is stopped and started again (a
				 * memif client then connects anew to a router that restarted) */
};

/* The longest time without a frame received during a trial, and the last time a link was
 * down: seconds from the trial's start (start_unix, the wall clock then). */
struct gen_gap {
	double start_unix;
	double longest_s, from_s, to_s;	/* from the frame before the gap to the one after */
	double link_down_s, link_up_s;	/* the last outage, < 0: none */
	unsigned int port_restarts;
};

struct gen_result {
	uint64_t tx;		/* ours, the flood's excluded */
	uint64_t flood_tx;
	uint64_t rx;
	uint64_t foreign;	/* frames received that were not ours */
	uint64_t reordered;
	double elapsed_s;
	double tx_pps;
	double rx_pps;
	struct histogram latency_ns;
	struct gen_gap gap;
};

/* Stamp carried in each frame's UDP payload. */
struct gen_stamp {
	uint32_t magic;
	uint32_t seq;
	uint64_t tsc;
} __attribute__((packed));

/* The smallest IPv6 frame that carries the stamp (RFC 5180 §5: the smallest that holds the
 * tester's signature): Ethernet, IPv6, UDP, stamp and CRC. */
#define GEN_IPV6_MIN_FRAME (14 + 40 + 8 + (int)sizeof(struct gen_stamp) + 4)

int gen_run(const struct gen_params *p, struct rte_mempool *mp, struct gen_result *r);

/* One trial of a series (RFC 2544): no learning frames, the caller sends those once. */
struct gen_trial {
	double rate_pps;	/* 0: as fast as the port takes them */
	double duration_s;
	uint64_t frames;	/* > 0: send exactly this many, flat out, then stop (burst) */
	double rate2_pps;	/* > 0: then this rate for duration2_s (recovery) */
	double duration2_s;
	double settle_s;	/* waiting for late frames after the trial */
};

struct gen_trial_result {
	uint64_t tx, rx, foreign, reordered;
	double elapsed_s;	/* of the first phase */
	double tx_pps;		/* offered during the first phase */
	double recovery_s;	/* second phase: from its start to the last frame lost */
	struct histogram *latency_ns;	/* filled when given */
};

/*
 * p[0..nb_dirs-1]: one stream per direction (two: each port sends to the
 * other); rates, bursts and results are the sums over the directions.
 */
int gen_trial(const struct gen_params *p, unsigned int nb_dirs, struct rte_mempool *mp,
	      const struct gen_trial *t, struct gen_trial_result *r);
/* Learning frames (RFC 2544 §23) at 1000 pps for the given time, so neighbours are resolved. */
int gen_learn(const struct gen_params *p, struct rte_mempool *mp, double seconds);
/* The frames' link header: 14 bytes, 18 with a VLAN tag. */
unsigned int gen_l2_len(const struct gen_params *p);
/* Builds one frame of the stream into buf (frame_size - 4 bytes, 4 more with a tag); used by
 * the tests. */
unsigned int gen_build_frame(const struct gen_params *p, const struct rte_ether_addr *src_mac,
			     uint32_t flow, uint32_t seq, uint64_t tsc, uint8_t *buf);

#endif
