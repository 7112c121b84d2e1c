/* SPDX-License-Identifier: BSD-3-Clause */
/* What every graph node shares: packet metadata, port tables, and the enqueue helper. */
#ifndef TERN_NODE_H
#define TERN_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "dataplane/dp.h"
#include "dataplane/fib/nexthop.h"

/*
 * Transmit: one port_tx clone per port (an ethdev of its own, or a bond), none per
 * sub-interface, so a worker's graph does not grow with the sub-interfaces. A node that
 * sends a frame out of interface i takes its transmit edge dp_port_map.tx[i], counted from
 * its first transmit edge: DP_TX_VLAN, vlan_output, for a sub-interface (dp_tx_edge notes i
 * in the frame; vlan_output writes its tags and hands it to its parent's port_tx), and
 * k >= 1 for the k-th port_tx: a port takes its edge when it is made (dp_tx_edge_take),
 * before any nexthop, which holds its port's edge (dp_nh_set). ip4_fast and ip6_fast write
 * a sub-interface's tags themselves and take its parent's edge (l2/fast_l2.h).
 */
#define DP_TX_VLAN 0
#define DP_IP4_FAST_TX_EDGE 4	/* ip4_fast's first transmit edge */
#define DP_IP6_FAST_TX_EDGE 3	/* ip6_fast's */

/* Set by ip4_lookup, read by ip4_forward and ip_rewrite within the same graph walk. */
extern int dp_meta_offset;

static inline const struct dp_nexthop **dp_pkt_nh(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, dp_meta_offset, const struct dp_nexthop **);
}

/*
 * A frame's egress sub-interface, set by the node that sends it to vlan_output (ip4_fast and
 * ip6_fast set it for every frame they send, port or sub-interface): in the
 * mbuf's field for the application's own tags (hash.usr; nothing of tern's reads the RSS
 * hash it shares), on the cache line every node reads, where a dynamic field would make
 * the fast path write the mbuf's second line.
 */
static inline uint32_t *dp_pkt_out(struct rte_mbuf *m)
{
	return &m->hash.usr;
}

union dp_port_mac {
	struct rte_ether_addr addr;
	uint64_t word;		/* the address in its first 6 bytes, 0 after: see dp_mac_word_differs */
};

/*
 * What a worker reads of a port for every frame, in one object so that one
 * base register reaches all three arrays (the fast path's loop has few to
 * spare): each port's MAC and the ethdev port id -> dp port index, written
 * before workers start; each port's administrative state (its kernel
 * interface up or down), written by the control thread.
 */
struct dp_port_map {
	union dp_port_mac *mac;
	uint16_t *index;	/* RTE_MAX_ETHPORTS + dp.max_ports; sub-interfaces: l2/vlan.h */
	volatile uint8_t *up;	/* administratively: its kernel interface is up */
	/* its link is down (a pulled cable): nothing is sent out of it; set by the control
	 * thread each tick (dp_port_links_refresh) */
	volatile uint8_t *link_down;
	volatile uint8_t *vlans;	/* a port has sub-interfaces: port_rx -> vlan_input */
	uint16_t *tx;		/* the transmit edge to it (DP_TX_VLAN: a sub-interface) */
};	/* each table dp.max_ports long (dataplane/ifaces.h) */
extern struct dp_port_map dp_port_map;
/* The port behind each transmit edge k >= 1 (dp_port_map.tx's inverse for ports). */
extern uint16_t dp_tx_port[RTE_MAX_ETHPORTS + 1];

/* The transmit edge to interface i for frame m, noting i in m when it is a sub-interface. */
static inline rte_edge_t dp_tx_edge(struct rte_mbuf *m, uint16_t i)
{
	rte_edge_t k = dp_port_map.tx[i];

	if (k == DP_TX_VLAN)
		*dp_pkt_out(m) = i;
	return k;
}

/* The same for a frame leaving by nh: its edge is in it, on the line the fast path reads. */
static inline rte_edge_t dp_nh_tx_edge(struct rte_mbuf *m, const struct dp_nexthop *nh)
{
	if (nh->tx == DP_TX_VLAN)
		*dp_pkt_out(m) = nh->port;
	return nh->tx;
}

/* Whether a packet may leave by port: administratively up, and its link up. */
static inline bool dp_port_egress_ok(uint16_t port)
{
	return dp_port_map.up[port] & !dp_port_map.link_down[port];
}

/*
 * Whether the destination MAC in head, a 64-bit word read from a frame's
 * start, differs from the port's word: the shift drops the 2 bytes after the
 * MAC, and costs no 64-bit mask constant to hold in a register.
 */
static inline bool dp_mac_word_differs(uint64_t head, uint64_t word)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return ((head ^ word) << 16) != 0;
#else
	return ((head ^ word) >> 16) != 0;
#endif
}

/* Each port's primary IPv4 address (network order, 0: none), the source of its ICMP errors:
 * written by the control thread. */
extern volatile uint32_t *dp_port_ip4;

/* Per-worker ICMP error rate limit (GCRA on the TSC): written by that worker only. */
struct dp_icmp_limit {
	uint64_t tat;
	uint64_t interval_tsc;
	uint64_t window_tsc;
} __rte_cache_aligned;
extern struct dp_icmp_limit dp_icmp_limit[DP_MAX_WORKERS];

/* Whether an error may go now (one bucket a worker for ICMP and ICMPv6); takes its token. */
static inline bool dp_icmp_rate_ok(struct dp_icmp_limit *l, uint64_t now)
{
	uint64_t tat = l->tat > now ? l->tat : now;

	if (tat - now > l->window_tsc)
		return false;
	l->tat = tat + l->interval_tsc;
	return true;
}

/* Whether eth_input hands IPv6 to ip6_input: set by the control thread once it feeds the IPv6
 * FIB; until then IPv6 frames go to the kernel (punt_non_ip). */
extern volatile uint8_t dp_ip6_forwarding;
void dp_icmp_limit_init(unsigned int nb_workers, uint32_t rate_pps, uint32_t burst);

int dp_node_meta_register(void);

/*
 * Hands a vector to its next nodes. odd is non-zero when some packet's next
 * differs from common: the common case (all alike) moves the whole vector
 * with no per-packet enqueue, the way DPDK's own ip4 nodes do.
 */
static inline void dp_node_dispatch(struct rte_graph *graph, struct rte_node *node, void **objs,
				    const rte_edge_t *nexts, uint16_t nb, rte_edge_t common,
				    uint16_t odd)
{
	uint16_t start = 0, i;

	if (likely(odd == 0)) {
		rte_node_next_stream_move(graph, node, common);
		return;
	}
	for (i = 1; i <= nb; i++) {
		if (i < nb && nexts[i] == nexts[start])
			continue;
		rte_node_enqueue(graph, node, nexts[start], &objs[start], i - start);
		start = i;
	}
}

#endif
