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

struct gen_params {
	uint16_t tx_port;
	uint16_t rx_port;
	uint16_t nb_rxq;	/* queues polled on the receiving port (a memif peer may use several) */
	struct rte_ether_addr dst_mac;
	uint32_t src_ip;	/* host order */
	uint32_t dst_ip;	/* first destination; flows use dst_ip + i */
	uint32_t flows;
	uint16_t frame_size;	/* on the wire, CRC included: 64 .. 1518 */
	double rate_pps;	/* 0: as fast as the port takes them */
	double duration_s;
	double warmup_s;	/* learning frames at a low rate before the trial */
};

struct gen_result {
	uint64_t tx;
	uint64_t rx;
	uint64_t foreign;	/* frames received that were not ours */
	uint64_t reordered;
	double elapsed_s;
	double tx_pps;
	double rx_pps;
	struct histogram latency_ns;
};

/* Stamp carried in each frame's UDP payload. */
struct gen_stamp {
	uint32_t magic;
	uint32_t seq;
	uint64_t tsc;
} __attribute__((packed));

int gen_run(const struct gen_params *p, struct rte_mempool *mp, struct gen_result *r);
/* Builds one frame of the stream into buf (frame_size - 4 bytes); used by the tests. */
unsigned int gen_build_frame(const struct gen_params *p, const struct rte_ether_addr *src_mac,
			     uint32_t flow, uint32_t seq, uint64_t tsc, uint8_t *buf);

#endif
