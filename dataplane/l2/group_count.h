/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames to a group address (multicast or broadcast), per worker and interface, in and out:
 * what IF-MIB tells apart from unicast. Received ones are counted where eth_input first sees
 * them (the fast paths take only frames to the interface's own MAC), sent ones where
 * kernel_out takes them from the kernel (forwarded frames and ICMP errors go to one host).
 * A sub-interface's frames count on its port too, as the port's own counters hold them.
 * Nothing counts a bond member's apart: its bond's frames are told apart on the bond.
 */
#ifndef TERN_GROUP_COUNT_H
#define TERN_GROUP_COUNT_H

#include <stdint.h>

#include <rte_ether.h>

#include "dataplane/dp.h"

struct dp_group_count {
	uint64_t rx_mcast, rx_bcast, tx_mcast, tx_bcast;
};
extern struct dp_group_count *dp_group_counts[DP_MAX_WORKERS];	/* [worker][interface] */

static inline void dp_group_bump(struct dp_group_count *c, bool bcast, bool rx)
{
	if (rx)
		bcast ? c->rx_bcast++ : c->rx_mcast++;
	else
		bcast ? c->tx_bcast++ : c->tx_mcast++;
}

/* Worker: counts a frame to dst in (rx) or out of interface index, when dst is a group. */
static inline void dp_group_count(struct dp_group_count *t, uint16_t index,
				  const struct rte_ether_addr *dst, bool rx)
{
	uint16_t parent = dp.ports[index].parent;
	bool bcast;

	if (likely(!rte_is_multicast_ether_addr(dst)))
		return;
	bcast = rte_is_broadcast_ether_addr(dst);
	dp_group_bump(&t[index], bcast, rx);
	if (parent != index)
		dp_group_bump(&t[parent], bcast, rx);
}

/* Control thread: interface index's counts, summed over the workers. */
void dp_group_count_get(unsigned int index, struct dp_group_count *sum);
/* Control thread: zeroes a new interface's counts. */
void dp_group_count_zero(unsigned int index);

#endif
