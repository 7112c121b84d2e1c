/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace: the next N packets from a port, followed through the graph.
 * Owner: the control thread arms and reads; each worker writes its own
 * records. Disarmed, a node pays one predictable branch per burst
 * (dp_trace_on); armed, port_rx picks packets and every node appends itself
 * to the path of the picked packets it sees.
 */
#ifndef TERN_TRACE_H
#define TERN_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_graph.h>
#include <rte_mbuf.h>

#include "dataplane/dp.h"

#define DP_TRACE_PER_WORKER 256
#define DP_TRACE_PATH 16
#define DP_TRACE_ANY_PORT 0xffff
#define DP_TRACE_NOT_SENT 0xffff

struct dp_nexthop;

struct dp_trace_rec {
	const struct rte_mbuf *m;
	uint64_t tsc;
	uint32_t seq;			/* order of picking, all workers */
	uint16_t gen;
	uint16_t port_in, len;
	uint16_t ether_type;		/* host order */
	bool ip4;			/* the fields below hold an IPv4 header's */
	uint8_t proto, ttl;
	uint32_t src, dst;		/* network order */
	uint8_t nb_path;
	rte_node_t path[DP_TRACE_PATH];
	bool looked_up;			/* ip4_lookup's answer below */
	uint8_t nh_kind;
	uint16_t nh_port;
	struct rte_ether_addr nh_mac;
	uint16_t port_out;		/* DP_TRACE_NOT_SENT unless port_tx took it */
	volatile uint8_t done;		/* written last: the record is complete */
};

struct dp_trace_worker {
	uint32_t n;
	uint32_t in_flight;		/* picked, not yet ended: the nodes' hooks run only then */
	struct dp_trace_rec rec[DP_TRACE_PER_WORKER];
} __rte_cache_aligned;

struct dp_trace_state {
	volatile int on;
	int32_t left;			/* packets still to pick (atomic) */
	uint32_t seq;			/* atomic */
	uint16_t gen;
	uint16_t port;			/* dp port index, or DP_TRACE_ANY_PORT */
};

extern struct dp_trace_state dp_trace;
extern struct dp_trace_worker *dp_trace_workers;
extern int dp_trace_slot_offset;

int dp_trace_init(unsigned int nb_workers);

/* Workers: port_rx picks; every node marks; ip4_lookup notes its answer; sinks end the record. */
void dp_trace_rx(unsigned int worker, rte_node_t node, struct rte_mbuf **m, uint16_t n);
void dp_trace_node(unsigned int worker, rte_node_t node, void **objs, uint16_t n);
void dp_trace_nexthop(unsigned int worker, struct rte_mbuf *m, const struct dp_nexthop *nh);
/* Records the interface m leaves by, where that is not the port whose port_tx sends it (a
 * sub-interface's frame). */
void dp_trace_port_out(unsigned int worker, struct rte_mbuf *m, uint16_t port_out);
void dp_trace_end(unsigned int worker, rte_node_t node, void **objs, uint16_t n, uint16_t port_out);

/* Whether this worker has traced packets in the graph: the nodes' hooks run only then. */
#define DP_TRACE_ACTIVE(graph) \
	(unlikely(dp_trace.on) && dp_trace_workers[(graph)->id].in_flight)

#define DP_TRACE_NODE(graph, node, objs, nb)                                  \
	do {                                                                  \
		if (DP_TRACE_ACTIVE(graph))                                   \
			dp_trace_node((graph)->id, (node)->id, (objs), (nb)); \
	} while (0)

/*
 * Control thread: arm for count packets from a port (or any), after every
 * worker has left the walk it was in; disarm; whether all picked packets are done.
 */
int dp_trace_arm(uint16_t port, unsigned int count);
void dp_trace_disarm(void);
bool dp_trace_complete(void);
/* Packets picked whose record has not ended yet. */
unsigned int dp_trace_in_flight(void);

#endif
