/* SPDX-License-Identifier: BSD-3-Clause */
/* The VLAN map vlan_input reads: which sub-interface a port's tagged frame belongs to. */
#ifndef TERN_VLAN_MAP_H
#define TERN_VLAN_MAP_H

#include <stdint.h>

#include <rte_hash.h>

#include "dataplane/dp.h"

/* A QinQ sub-interface's key: its port and its two VIDs. */
struct dp_vlan_qinq_key {
	uint16_t parent, outer_vid, inner_vid, zero;
};

struct dp_vlan_map {
	/* a port's 802.1Q sub-interfaces by VID: each one's index, 0 for none (slot 0 is
	 * always a port), DP_VLAN_VIDS of them, a frame's VID any of its 12 bits; made with
	 * the port's first sub-interface, 8 KiB, by the port's
	 * index (ports take the first slots, so fewer than RTE_MAX_ETHPORTS) */
	uint16_t *dot1q[RTE_MAX_ETHPORTS];
	/* 802.1ad sub-interfaces by dp_vlan_qinq_key, the index as data; made with the first
	 * (lock-free readers: a deleted key's slot is freed after a grace period) */
	struct rte_hash *qinq;
};
extern struct dp_vlan_map dp_vlan_map;

/* The QinQ sub-interface of port parent tagged outer.inner, or 0 (workers and the control
 * thread alike). */
static inline uint16_t dp_vlan_qinq_find(uint16_t parent, uint16_t outer, uint16_t inner)
{
	struct rte_hash *h = __atomic_load_n(&dp_vlan_map.qinq, __ATOMIC_ACQUIRE);
	struct dp_vlan_qinq_key k = { parent, outer, inner, 0 };
	void *index;

	if (h == NULL || rte_hash_lookup_data(h, &k, &index) < 0)
		return 0;
	return (uint16_t)(uintptr_t)index;
}

#endif
