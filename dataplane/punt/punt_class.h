/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-plane policing classes: what a punted packet is to the router, so that each class
 * can have a policer and a ring of its own, and a flood of one class never takes another's
 * share. The class follows from the punt reason, and for a packet to the router (punt_local,
 * punt_mcast, punt_ip_options) from its protocol and ports, read from the frame as it is
 * punted (its Ethernet header first, a sub-interface's tag already taken off). Classes are
 * listed in the order the exception service serves them.
 */
#ifndef TERN_PUNT_CLASS_H
#define TERN_PUNT_CLASS_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "dataplane/ip6/ip6.h"
#include "dataplane/punt/punt.h"

#define DP_PUNT_PROTO_OSPF 89
#define DP_PUNT_PROTO_VRRP 112
#define DP_PUNT_PORT_BGP 179
#define DP_PUNT_PORT_BFD 3784		/* single hop (RFC 5881) */
#define DP_PUNT_PORT_BFD_ECHO 3785
#define DP_PUNT_PORT_BFD_MULTIHOP 4784	/* RFC 5883 */

/* The management ports, one bit each: set by the control thread before workers start. */
extern uint64_t dp_punt_mgmt_ports[65536 / 64];

static inline bool dp_punt_is_mgmt_port(uint16_t port)
{
	return dp_punt_mgmt_ports[port >> 6] >> (port & 63) & 1;
}

/* The class of an upper-layer packet to the router: its protocol, the first len bytes of its
 * header at l4 (len 0: none, as in a later fragment). */
static inline enum dp_punt_class dp_punt_class_l4(uint8_t proto, const uint8_t *l4, uint32_t len)
{
	uint16_t sport, dport;

	if (proto == DP_PUNT_PROTO_OSPF || proto == DP_PUNT_PROTO_VRRP)
		return DP_PUNT_CLASS_routing;
	if (proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6)
		return DP_PUNT_CLASS_icmp;
	if ((proto != IPPROTO_TCP && proto != IPPROTO_UDP) || len < 4)
		return DP_PUNT_CLASS_other;
	sport = (uint16_t)(l4[0] << 8 | l4[1]);
	dport = (uint16_t)(l4[2] << 8 | l4[3]);
	if (proto == IPPROTO_TCP && (sport == DP_PUNT_PORT_BGP || dport == DP_PUNT_PORT_BGP))
		return DP_PUNT_CLASS_routing;
	if (proto == IPPROTO_UDP && (dport == DP_PUNT_PORT_BFD || dport == DP_PUNT_PORT_BFD_ECHO ||
				     dport == DP_PUNT_PORT_BFD_MULTIHOP))
		return DP_PUNT_CLASS_routing;
	if (dp_punt_is_mgmt_port(dport))
		return DP_PUNT_CLASS_management;
	return DP_PUNT_CLASS_other;
}

/* The class of a frame of len bytes (its first segment) punted for reason. Anything that
 * cannot be read far enough is other. */
static inline enum dp_punt_class dp_punt_classify(unsigned int reason, const uint8_t *frame,
						   uint32_t len)
{
	uint32_t off = 12, ihl, l4;
	uint16_t type;
	int upper;

	switch (reason) {
	case DP_punt_arp:
	case DP_punt_nd:
	case DP_punt_mld:
		return DP_PUNT_CLASS_neighbour;
	case DP_punt_unresolved:
		return DP_PUNT_CLASS_resolve;
	case DP_punt_local:
	case DP_punt_mcast:
	case DP_punt_ip_options:
		break;
	default:
		return DP_PUNT_CLASS_other;
	}
	if (len < off + 2)
		return DP_PUNT_CLASS_other;
	type = (uint16_t)(frame[off] << 8 | frame[off + 1]);
	off += 2;
	if (type == RTE_ETHER_TYPE_IPV4) {
		const uint8_t *ip = frame + off;

		if (len < off + 20 || (ihl = (ip[0] & 0x0f) * 4u) < 20 || len < off + ihl)
			return DP_PUNT_CLASS_other;
		/* a later fragment carries no ports */
		l4 = ((ip[6] & 0x1f) << 8 | ip[7]) ? 0 : len - off - ihl;
		return dp_punt_class_l4(ip[9], ip + ihl, l4);
	}
	if (type == RTE_ETHER_TYPE_IPV6) {
		if (len < off + IP6_HDR_LEN)
			return DP_PUNT_CLASS_other;
		upper = ip6_walk(frame + off, len - off, &l4);
		if (upper < 0)	/* broken, or a later fragment: no header to read */
			return DP_PUNT_CLASS_other;
		return dp_punt_class_l4((uint8_t)upper, frame + off + l4,
					l4 < len - off ? len - off - l4 : 0);
	}
	return DP_PUNT_CLASS_other;
}

#endif
