/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 header checks (RFC 8200) and address classes (RFC 4291), shared by the IPv6 nodes. */
#ifndef TERN_IP6_H
#define TERN_IP6_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ip.h>

#define IP6_HDR_LEN 40
#define IP6_NEXT_HOP_BY_HOP 0
#define IP6_NEXT_ICMP 58
#define IP6_NEXT_FRAGMENT 44
#define IP6_EXT_HEADERS_MAX 8

enum ip6_verdict {
	IP6_OK,			/* unicast destination: to be looked up */
	IP6_MCAST,		/* multicast destination: for the kernel */
	IP6_TRUNCATED,
	IP6_BAD_VERSION,
	IP6_BAD_LENGTH,
	IP6_MARTIAN_SRC,
	IP6_MARTIAN_DST,
	IP6_BAD_CHAIN,
};

static inline bool ip6_is_mcast(const uint8_t *a)
{
	return a[0] == 0xff;
}

static inline bool ip6_is_link_local(const uint8_t *a)
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

/* :: (last 0) or ::1 (last 1). */
static inline bool ip6_is_unspec_or_loopback(const uint8_t *a, uint8_t last)
{
	uint64_t hi, lo;

	memcpy(&hi, a, 8);
	memcpy(&lo, a + 8, 8);
	return hi == 0 && lo == rte_cpu_to_be_64(last);
}

/* Hop-by-Hop (0), Routing (43), Fragment (44) and Destination Options (60): the extension
 * headers that come before the upper-layer header and say what follows them. */
static inline bool ip6_is_ext(uint8_t next)
{
	return next < 64 && (((1ull << 0) | (1ull << 43) | (1ull << 44) | (1ull << 60)) >> next & 1);
}

#define IP6_WALK_BROKEN -1		/* a header past the bytes given, or too many headers */
#define IP6_WALK_LATER_FRAGMENT -2	/* a fragment's later piece: no header after its own */

/*
 * Walks the extension headers of the datagram at ip, limit bytes of it readable, past at
 * most IP6_EXT_HEADERS_MAX of them (RFC 8200 §4.1: each once, Destination Options twice):
 * the upper-layer protocol, its offset in *off (which may be at or past limit), or one of
 * IP6_WALK_BROKEN and IP6_WALK_LATER_FRAGMENT.
 */
static inline int ip6_walk(const uint8_t *ip, uint32_t limit, uint32_t *off)
{
	uint32_t at = IP6_HDR_LEN;
	uint8_t next = ip[6];
	int n;

	for (n = 0; ip6_is_ext(next); n++) {
		if (n == IP6_EXT_HEADERS_MAX || at + 8 > limit)
			return IP6_WALK_BROKEN;
		if (next == IP6_NEXT_FRAGMENT) {	/* 8 bytes; only the first piece holds what follows */
			if ((ip[at + 2] << 8 | (ip[at + 3] & 0xf8)) != 0)
				return IP6_WALK_LATER_FRAGMENT;
			next = ip[at];
			at += 8;
		} else {
			next = ip[at];
			at += (ip[at + 1] + 1) * 8;
		}
	}
	*off = at;
	return next;
}

/*
 * Whether the extension headers of the datagram at ip (end bytes long, seg of them in the
 * first segment) are whole (RFC 8200 §4, RFC 7112): each within the datagram and the first
 * segment (a chain of over 2 KB is no datagram's), a first fragment holding them all, and no
 * more than IP6_EXT_HEADERS_MAX of them. A later fragment has nothing past its Fragment
 * header to check.
 */
static inline bool ip6_chain_whole(const uint8_t *ip, uint32_t seg, uint32_t end)
{
	uint32_t limit = seg < end ? seg : end, off;
	int upper = ip6_walk(ip, limit, &off);

	return upper == IP6_WALK_LATER_FRAGMENT || (upper >= 0 && off <= limit);
}

/*
 * RFC 8200 §3 and RFC 4291 §2.5, 2.7 for a header with seg bytes of it in the first segment
 * and len bytes in the frame after the link header: version 6, a payload length within the
 * frame (0, a jumbogram, never travels on Ethernet), its extension headers whole
 * (ip6_chain_whole); no multicast or loopback source, and an unspecified one only to a
 * multicast group (Duplicate Address Detection); no unspecified or loopback destination, nor
 * a multicast one of interface-local or reserved scope.
 */
static inline enum ip6_verdict ip6_check(const struct rte_ipv6_hdr *ip, uint32_t seg, uint32_t len)
{
	const uint8_t *src = ip->src_addr, *dst = ip->dst_addr;
	uint32_t plen;

	if (seg < IP6_HDR_LEN)
		return IP6_TRUNCATED;
	if ((((const uint8_t *)ip)[0] >> 4) != 6)
		return IP6_BAD_VERSION;
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen == 0 || IP6_HDR_LEN + plen > len)
		return IP6_BAD_LENGTH;
	if (unlikely(ip6_is_ext(ip->proto)) &&
	    !ip6_chain_whole((const uint8_t *)ip, seg, IP6_HDR_LEN + plen))
		return IP6_BAD_CHAIN;
	if (ip6_is_mcast(src) || ip6_is_unspec_or_loopback(src, 1))
		return IP6_MARTIAN_SRC;
	if (ip6_is_mcast(dst))
		return (dst[1] & 0x0f) <= 1 ? IP6_MARTIAN_DST : IP6_MCAST;
	if (ip6_is_unspec_or_loopback(src, 0))
		return IP6_MARTIAN_SRC;
	if (ip6_is_unspec_or_loopback(dst, 0) || ip6_is_unspec_or_loopback(dst, 1))
		return IP6_MARTIAN_DST;
	return IP6_OK;
}

/*
 * The upper-layer protocol of the datagram at ip (seg bytes of it readable) and its offset,
 * past its extension headers (ip6_walk); a fragment's later pieces have none: -1 when it
 * cannot be told from the first segment.
 */
static inline int ip6_upper(const uint8_t *ip, uint32_t seg, uint32_t *off)
{
	int upper = ip6_walk(ip, seg, off);

	return upper < 0 ? -1 : upper;
}

/* ICMPv6 types the kernel must get: Neighbour Discovery (RFC 4861) and MLD (RFC 2710, 3810). */
static inline bool icmp6_is_nd(uint8_t type)
{
	return type >= 133 && type <= 137;
}

static inline bool icmp6_is_mld(uint8_t type)
{
	return (type >= 130 && type <= 132) || type == 143;
}

#endif
