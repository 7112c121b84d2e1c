/* SPDX-License-Identifier: BSD-3-Clause */
/* ICMPv6 error messages built by the dataplane (RFC 4443). */
#ifndef TERN_ICMP6_H
#define TERN_ICMP6_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ip.h>

#include "dataplane/dp.h"
#include "dataplane/ip6/ip6.h"

/* The error kinds, each a graph node of the same name: name, ICMPv6 type, code. An unreachable
 * route answers as the kernel's does (code 0, no route). */
#define DP_ICMP6_ERRORS(X)                                                                 \
	X(icmp6_no_route, 1, 0, "no route: ICMPv6 destination unreachable (no route) sent") \
	X(icmp6_unreachable_route, 1, 0, "unreachable route: ICMPv6 destination unreachable (no route) sent") \
	X(icmp6_admin_prohibited, 1, 1, "prohibit route: ICMPv6 administratively prohibited sent") \
	X(icmp6_nexthop_down, 1, 3, "next hop's interface shut or its link down: ICMPv6 address unreachable sent") \
	X(icmp6_packet_too_big, 2, 0, "larger than the egress MTU: ICMPv6 packet too big sent") \
	X(icmp6_time_exceeded, 3, 0, "hop limit expired in transit: ICMPv6 time exceeded sent")

#define ICMP6_ERROR_HDRS (IP6_HDR_LEN + 8)
/* RFC 4443 §2.4(c): an error is at most the minimum IPv6 MTU */
#define ICMP6_ERROR_MAX 1280

/*
 * RFC 4443 §2.4(e): no error about an ICMPv6 error (types below 128), nor about a datagram
 * whose upper layer cannot be told (an ICMPv6 message whose type is not in the first
 * segment may be an error). Multicast and unspecified sources, and multicast destinations,
 * never reach the error nodes.
 */
static inline bool icmp6_error_allowed(const struct rte_ipv6_hdr *ip, uint32_t seg)
{
	uint32_t off;
	int upper = ip6_upper((const uint8_t *)ip, seg, &off);

	if (upper < 0)
		return false;
	if (upper == IP6_NEXT_ICMP)
		return off < seg && ((const uint8_t *)ip)[off] >= 128;
	return true;
}

/* Bytes of the offending datagram (len in all) quoted: as much as fits in 1280. */
static inline uint32_t icmp6_quote_len(uint32_t len)
{
	return len < ICMP6_ERROR_MAX - ICMP6_ERROR_HDRS ? len : ICMP6_ERROR_MAX - ICMP6_ERROR_HDRS;
}

/*
 * Writes at hdr, in front of the offending datagram at orig (quote bytes of it follow), an
 * IPv6 header from src to the offender's source and an ICMPv6 header of type/code with the
 * 4-byte field param (the MTU of Packet Too Big). Returns the new datagram's length.
 */
uint16_t icmp6_error_build(uint8_t *hdr, const struct rte_ipv6_hdr *orig, uint32_t quote,
			   const uint8_t src[16], uint8_t type, uint8_t code, uint32_t param);

/*
 * Each interface's source for the errors it sends: its first global IPv6 address. Written by
 * the control thread (dp_port_ip6_set), read by workers through a sequence count, so that a
 * worker never takes half of an old address and half of a new one.
 */
struct dp_port_ip6 {
	uint32_t seq;		/* odd while written */
	uint8_t addr[16];	/* all zero: none */
};
extern struct dp_port_ip6 *dp_port_ip6;

void dp_port_ip6_set(unsigned int port, const uint8_t addr[16]);

/* Worker: port's source into out; false when it has none. */
static inline bool dp_port_ip6_get(unsigned int port, uint8_t out[16])
{
	const struct dp_port_ip6 *p = &dp_port_ip6[port];
	uint32_t s;

	do {
		while ((s = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE)) & 1)
			;
		memcpy(out, p->addr, 16);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) != s);
	return !ip6_is_unspec_or_loopback(out, 0);
}

#endif
