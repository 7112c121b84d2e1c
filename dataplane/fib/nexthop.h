/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Nexthops: what the FIB's answer means for a packet.
 * Owner: the control thread writes, workers read. Each slot holds a pointer to
 * an immutable entry; a change publishes a new entry and frees the old one
 * after a QSBR grace period, so a worker never sees a torn nexthop.
 */
#ifndef TERN_NEXTHOP_H
#define TERN_NEXTHOP_H

#include <stdint.h>

#include <rte_ether.h>

#define DP_NH_MAX (1u << 20)
#define DP_NH_GROUP_MAX 64
#define DP_NH_NONE 0		/* the FIB's default: no route */

enum dp_nh_kind {
	DP_NH_NOROUTE = 0,	/* no route: ICMP net unreachable */
	DP_NH_FORWARD,		/* rewrite L2 and send on port */
	DP_NH_LOCAL,		/* one of our addresses: punt to the kernel */
	DP_NH_UNRESOLVED,	/* next hop's MAC unknown: punt, the kernel resolves it */
	DP_NH_BLACKHOLE,	/* drop silently */
	DP_NH_UNREACHABLE,	/* drop with ICMP host unreachable */
	DP_NH_PROHIBIT,		/* drop with ICMP administratively prohibited */
	DP_NH_GROUP,		/* ECMP: members chosen by flow hash */
	DP_NH_KIND_MAX,
};

struct dp_nexthop {
	uint8_t kind;
	uint8_t nb_members;
	uint16_t port;		/* dp port index */
	uint16_t mtu;
	uint16_t tx;		/* the transmit edge to port (node.h): set by dp_nh_set */
	uint32_t gw;		/* network order; 0 for connected */
	/* the two MACs, copied onto the packet; its EtherType stays the packet's own, so one
	 * neighbour's entry serves IPv4 and IPv6 alike */
	struct {
		struct rte_ether_addr dst_addr;
		struct rte_ether_addr src_addr;
	} eth;
	uint32_t members[];	/* nexthop ids, DP_NH_GROUP only */
} __rte_aligned(8);

extern struct dp_nexthop **dp_nh_table;

int dp_nh_init(void);
/* Control thread: publish a copy of nh at id (replacing what was there). */
int dp_nh_set(uint32_t id, const struct dp_nexthop *nh, const uint32_t *members);
/* Control thread: unpublish id; its entry is freed after a grace period. */
void dp_nh_clear(uint32_t id);
const char *dp_nh_kind_name(enum dp_nh_kind k);

static inline const struct dp_nexthop *dp_nh_get(uint32_t id)
{
	return __atomic_load_n(&dp_nh_table[id], __ATOMIC_ACQUIRE);
}

#endif
