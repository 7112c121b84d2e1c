/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding pipeline without I/O: ternd's graph fed by an injector node
 * with prepared frames, sending to null ports. Used by `tern-bench pipeline`
 * (cycles per packet, FIB insert rate) and by the packet fuzz target.
 */
#ifndef TERN_PIPELINE_H
#define TERN_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#define PIPE_DST_MAC_OUT "02:00:00:00:b0:01"
#define PIPE_MAX_WORKERS 64

struct pipeline {
	struct rte_graph *graph;	/* worker 0's, walked by this thread */
	struct rte_graph *graphs[PIPE_MAX_WORKERS];
	unsigned int nb_workers;
	struct rte_mempool *pool;
	uint32_t *dsts;		/* destinations the injector cycles through (host order) */
	unsigned int nb_dsts;
	uint16_t frame_len;
};

/*
 * EAL (no hugepages, no PCI), two net_null ports, tables for routes and one
 * graph per worker: worker 0 is this thread, the others lcores 1..N-1,
 * pinned to the CPUs listed in cpus ("0,2,4"; NULL: CPUs 0..N-1).
 */
int pipeline_init(struct pipeline *p, unsigned int max_routes, const char *file_prefix,
		  unsigned int nb_workers, const char *cpus);
/* Before pipeline_init: run on 1.5 GiB of hugepages (reserved beforehand), as ternd does, instead
 * of 4 KiB pages, whose TLB misses a big FIB's lookups would otherwise pay. */
void pipeline_use_hugepages(bool on);
/* Ends EAL and removes its runtime directory, which it leaves behind (a config file and
 * memory maps, 19 MB without hugepages) when it is the one of file_prefix. */
void pipeline_fini(const char *file_prefix);
/* Installs routes (host order) all forwarding out of port 1, spread over PIPE_UPSTREAMS next
 * hops (neighbours with MACs of their own) as a router's full table is over its upstreams and
 * peers; returns seconds taken. */
#define PIPE_UPSTREAMS 8
#define PIPE_UPSTREAM_NH 16	/* their next hop ids: 16 .. 16 + PIPE_UPSTREAMS - 1 */
/* Makes the upstream next hops leave by interface port (a sub-interface of port 1). */
int pipeline_upstreams_via(unsigned int port);
double pipeline_add_routes(const uint32_t *prefixes, const uint8_t *lens, unsigned int n);
/* Withdraws those routes the same way; returns seconds taken. */
double pipeline_del_routes(const uint32_t *prefixes, const uint8_t *lens, unsigned int n);
/*
 * Installs them as ternd loads the kernel's table at start: staged on the FIB's standby
 * copy alone, published with one switch, then the other copy brought level in slices of
 * 8192. Returns the seconds until the workers forward on the whole table; *level_s, until
 * both copies hold it.
 */
double pipeline_load_routes(const uint32_t *prefixes, const uint8_t *lens, unsigned int n,
			    double *level_s);
/* Frames the injector will produce next walk: a copy of each of n frames. */
void pipeline_inject(const uint8_t *const *frames, const uint16_t *lens, unsigned int n);
/* How a driver hands a frame over: split after first_seg bytes into two chained segments
 * (0: one segment), with these receive offload flags (RTE_MBUF_F_RX_*), at its buffer's very
 * start when no_headroom (a driver may leave no room before it). */
struct pipeline_shape {
	uint16_t first_seg;
	bool no_headroom;
	uint64_t ol_flags;
};
/* The same, each frame shaped (shapes NULL: one segment, no flags). */
void pipeline_inject_shaped(const uint8_t *const *frames, const uint16_t *lens,
			    const struct pipeline_shape *shapes, unsigned int n);
/* The MAC of port 0, where the injector's frames arrive. */
struct rte_ether_addr dp_port0_mac(void);
/* Runs worker 0's graph once; returns how many packets the injector fed. */
unsigned int pipeline_walk(struct pipeline *p);
/*
 * Every worker walks its graph for the given time, as ternd's workers do;
 * injected[w] says how many packets worker w fed. Returns the seconds taken.
 */
double pipeline_run(struct pipeline *p, double seconds, uint64_t *injected);
/* The forwarding nodes, in the order a frame meets them. */
#define PIPE_STAGES 12
extern const char *const pipeline_stages[PIPE_STAGES];
/* Cycles spent in the forwarding nodes and the packets through ip4_fast, all workers; each
 * node's cycles in by_stage (PIPE_STAGES of them; NULL: not wanted). */
void pipeline_node_cycles(struct pipeline *p, uint64_t *cycles, uint64_t *packets,
			  uint64_t *by_stage);
/*
 * For the fuzz target and tests, one route per nexthop kind: 198.19.0.0/24 forward out of port 1
 * (nexthop 1), 198.19.1.0/24 ECMP over nexthops 1 and 2, 198.18.0.1/32 local, 198.19.2.0/24
 * unresolved, .3.0/24 blackhole, .4.0/24 unreachable, .5.0/24 prohibit (nexthops 3 to 8).
 */
void pipeline_route_every_kind(void);
/* A frame the pipeline sent, for tests: its port and its first bytes. */
struct pipeline_frame {
	uint16_t port;
	uint16_t len;
	uint8_t data[256];
};
/* qsort order of captured frames: by port, length, then bytes (to compare runs whose sends
 * came in different orders). */
int pipeline_frame_cmp(const void *x, const void *y);
/* Copies every frame sent into buf (at most cap; *n counts them); buf NULL stops. */
void pipeline_capture(struct pipeline_frame *buf, unsigned int cap, unsigned int *n);
/* Benchmarking: every walk injects a burst of copies of frame, to dsts in turn (n = 0 stops). */
void pipeline_stream(const uint8_t *frame, uint16_t len, const uint32_t *dsts, unsigned int n);
/* The same for an IPv6 frame. */
void pipeline_stream6(const uint8_t *frame, uint16_t len, const uint8_t (*dsts)[16], unsigned int n);

/*
 * IPv6 (pipeline6.c). pipeline_init makes an IPv6 FIB for this many routes (4096 unless set
 * before), turns IPv6 forwarding on, gives the ports the addresses below and routes the
 * sender's prefix, 2001:2::/64 (RFC 5180's benchmarking range), back out of port 0.
 */
void pipeline_set_routes6(unsigned int max_routes);
int pipeline_init6(void);
#define PIPE6_PORT0_ADDR "2001:2::1"
#define PIPE6_PORT1_ADDR "2001:2:0:ff::1"
/*
 * After pipeline_route_every_kind, the same kinds for IPv6 (its nexthops): 2001:2:0:10::/64
 * forward (1), :11::/64 ECMP (8), 2001:2::1/128 and fe80::1/128 local, :12::/64 unresolved,
 * :13::/64 blackhole, :14::/64 unreachable, :15::/64 prohibit.
 */
void pipeline_route6_every_kind(void);
/* Installs, withdraws or loads (staged, then levelled) IPv6 routes to the upstreams, as the
 * IPv4 calls above; each returns seconds taken. */
double pipeline_add_routes6(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n);
double pipeline_del_routes6(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n);
double pipeline_load_routes6(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n,
			     double *level_s);

#endif
