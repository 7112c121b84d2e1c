/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames to a group address (multicast or broadcast), per worker and interface, in and out:
 * what IF-MIB tells apart from unicast. Received ones are counted where eth_input first sees
 * them (the fast paths take only frames to the interface's own MAC), sent ones where
 * kernel_out takes them from the kernel (forwarded frames and ICMP errors go to one host),
 * and taken off again when port_tx drops them (a port whose link is down, a full queue):
 * kernel_out notes the interface in the frame (dp_pkt_out) for that.
 * A sub-interface's frames count on its port too, as the port's own counters hold them.
 * Nothing counts a bond member's apart: its bond's frames are told apart on the bond.
 */
#ifndef TERN_GROUP_COUNT_H
#define TERN_GROUP_COUNT_H

#include <stdint.h>

#include <rte_ether.h>

#include "dataplane/dp.h"
#include "dataplane/node.h"

struct dp_group_count {
	uint64_t rx_mcast, rx_bcast, tx_mcast, tx_bcast;
};
extern struct dp_group_count *dp_group_counts[DP_MAX_WORKERS];	/* [worker][interface] */

static inline uint64_t *dp_group_field(struct dp_group_count *c, bool bcast, bool rx)
{
	if (rx)
		return bcast ? &c->rx_bcast : &c->rx_mcast;
	return bcast ? &c->tx_bcast : &c->tx_mcast;
}

/* Adds step to the count of a frame to dst (a group) in (rx) or out of interface index, and
 * of its port when index is a sub-interface. */
static inline void dp_group_step(struct dp_group_count *t, uint32_t index,
				 const struct rte_ether_addr *dst, bool rx, int64_t step)
{
	uint16_t parent = dp.ports[index].parent;
	bool bcast = rte_is_broadcast_ether_addr(dst);

	*dp_group_field(&t[index], bcast, rx) += step;
	if (parent != index)
		*dp_group_field(&t[parent], bcast, rx) += step;
}

/* Worker: counts a frame to dst in (rx) or out of interface index, when dst is a group. */
static inline void dp_group_count(struct dp_group_count *t, uint16_t index,
				  const struct rte_ether_addr *dst, bool rx)
{
	if (unlikely(rte_is_multicast_ether_addr(dst)))
		dp_group_step(t, index, dst, rx, 1);
}

/* Worker, port_tx: takes the group frames among n frames it could not send off their
 * interfaces' counts (the interface kernel_out noted in each; any other frame port_tx sends
 * is to one host). */
static inline void dp_group_uncount(struct dp_group_count *t, struct rte_mbuf **m, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		const struct rte_ether_addr *dst = rte_pktmbuf_mtod(m[i], struct rte_ether_addr *);
		uint32_t index = *dp_pkt_out(m[i]);

		if (m[i]->data_len >= RTE_ETHER_ADDR_LEN && rte_is_multicast_ether_addr(dst) &&
		    index < dp.max_ports)
			dp_group_step(t, index, dst, false, -1);
	}
}

/* Control thread: interface index's counts, summed over the workers. */
void dp_group_count_get(unsigned int index, struct dp_group_count *sum);
/* Control thread: zeroes a new interface's counts. */
void dp_group_count_zero(unsigned int index);

#endif
