/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-plane policing classes: what a punted packet is to the router, so that each class
 * can have a policer and a ring of its own, and a flood of one class never takes another's
 * share. IPv6 neighbour discovery and MLD are the neighbour class's whether they came to a
 * group (punt_nd, punt_mld) or to one of the router's own addresses (punt_local). The class follows from the punt reason, and for a packet to the router (punt_local,
 * punt_mcast, punt_ip_options) from its protocol and ports, read from the frame as it is
 * punted (its Ethernet header first, a sub-interface's tag already taken off). Classes are
 * listed in the order the exception service serves them.
 *
 * ARP and neighbour discovery from a neighbour the router has already resolved (the frame's
 * source MAC is one of its neighbours', punt_known.h) are the routing class's, up to an
 * allowance each (punt.h): a router and its peers must keep confirming each other (the kernel
 * probes a stale entry and gives it up after three unanswered probes, from a link-local
 * address in IPv6) while a flood of strangers' requests fills the neighbour class.
 * dp_punt_is_resolution says which frames may be; the punt node looks their source up.
 */
#ifndef TERN_PUNT_CLASS_H
#define TERN_PUNT_CLASS_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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

/* Whether a frame punted for reason is a neighbour's resolution traffic whose frame source
 * speaks for its sender: ARP over Ethernet and IPv4 whose sender MAC is the frame's source,
 * or an IPv6 neighbour solicitation or advertisement not from the unspecified address (a
 * duplicate address probe names no neighbour). */
static inline bool dp_punt_is_resolution(unsigned int reason, const uint8_t *frame, uint32_t len)
{
	static const uint8_t arp_eth_ip4[6] = { 0, 1, 8, 0, RTE_ETHER_ADDR_LEN, 4 };
	const uint8_t *arp = frame + RTE_ETHER_HDR_LEN, *ip6 = frame + RTE_ETHER_HDR_LEN;
	static const uint8_t unspecified[16];
	uint32_t l4;

	if (reason == DP_punt_arp)
		return len >= RTE_ETHER_HDR_LEN + 28 && memcmp(arp, arp_eth_ip4, sizeof(arp_eth_ip4)) == 0 &&
		       memcmp(arp + 8, frame + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN) == 0;
	return (reason == DP_punt_nd || reason == DP_punt_local) && len >= RTE_ETHER_HDR_LEN + IP6_HDR_LEN &&
	       (frame[12] << 8 | frame[13]) == RTE_ETHER_TYPE_IPV6 &&
	       ip6_walk(ip6, len - RTE_ETHER_HDR_LEN, &l4) == IPPROTO_ICMPV6 &&
	       l4 < len - RTE_ETHER_HDR_LEN && (ip6[l4] == 135 || ip6[l4] == 136) &&
	       memcmp(ip6 + 8, unspecified, 16) != 0;
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
		/* ND and MLD addressed to one of the router's own addresses (a unicast probe) */
		if (upper == IPPROTO_ICMPV6 && l4 < len - off &&
		    (icmp6_is_nd(frame[off + l4]) || icmp6_is_mld(frame[off + l4])))
			return DP_PUNT_CLASS_neighbour;
		return dp_punt_class_l4((uint8_t)upper, frame + off + l4,
					l4 < len - off ? len - off - l4 : 0);
	}
	return DP_PUNT_CLASS_other;
}

#endif
