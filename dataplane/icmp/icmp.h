/* SPDX-License-Identifier: BSD-3-Clause */
/* ICMP error messages built by the dataplane (RFC 792 layout, RFC 1812 rules). */
#ifndef TERN_ICMP_H
#define TERN_ICMP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ip.h>

/* The error kinds, each a graph node of the same name: name, ICMP type, code. */
#define DP_ICMP_ERRORS(X)                                                               \
	X(icmp_net_unreachable, 3, 0, "no route: ICMP net unreachable sent")            \
	X(icmp_host_unreachable, 3, 1, "unreachable route: ICMP host unreachable sent") \
	X(icmp_nexthop_down, 3, 1, "next hop's interface shut or its link down: ICMP host unreachable sent") \
	X(icmp_admin_prohibited, 3, 13, "prohibit route: ICMP administratively prohibited sent") \
	X(icmp_frag_needed, 3, 4, "larger than the egress MTU with DF: ICMP fragmentation needed sent") \
	X(icmp_time_exceeded, 11, 0, "TTL expired in transit: ICMP time exceeded sent")

/* Bytes of the offending datagram quoted: its header and 8 bytes of payload (RFC 792). */
static inline uint32_t icmp_quote_len(const struct rte_ipv4_hdr *ip)
{
	uint32_t want = rte_ipv4_hdr_len(ip) + 8, tl = rte_be_to_cpu_16(ip->total_length);

	return tl < want ? tl : want;
}

/* RFC 1812 §4.3.2.7: no error about an ICMP error, a non-first fragment, or a packet
 * from or to a multicast/broadcast address (those never reach here). An ICMP datagram
 * too short to hold its type may be an error: none about it either (its type byte would
 * be read from past the datagram, whatever the buffer held there). */
static inline bool icmp_error_allowed(const struct rte_ipv4_hdr *ip)
{
	if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK))
		return false;
	if (ip->next_proto_id == IPPROTO_ICMP) {
		const uint8_t *icmp = (const uint8_t *)ip + rte_ipv4_hdr_len(ip);

		if (rte_be_to_cpu_16(ip->total_length) <= rte_ipv4_hdr_len(ip))
			return false;
		/* only queries (echo, timestamp, ...) may cause errors */
		return icmp[0] == 0 || icmp[0] == 8 || icmp[0] == 13 || icmp[0] == 14 ||
		       icmp[0] == 15 || icmp[0] == 16 || icmp[0] == 17 || icmp[0] == 18;
	}
	return true;
}

/*
 * Writes, in front of the offending IPv4 header at orig, a new IPv4 header
 * from src to the offender's source and an ICMP header of type/code (with
 * mtu for "fragmentation needed"). quote bytes of the original follow it.
 * Returns the length of the new datagram.
 */
uint16_t icmp_error_build(uint8_t *hdr, const struct rte_ipv4_hdr *orig, uint32_t quote,
			  uint32_t src_be, uint8_t type, uint8_t code, uint16_t mtu);

#define ICMP_ERROR_HDRS (sizeof(struct rte_ipv4_hdr) + 8)

#endif
