/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 header helpers shared by the ip4 nodes and the ICMP builder: checks and checksums. */
#ifndef TERN_IP4_H
#define TERN_IP4_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_config.h>
#include <rte_ip.h>

/* Why an IPv4 header fails RFC 1812 §5.2.2, or IP4_OK. */
enum ip4_verdict {
	IP4_OK,
	IP4_TRUNCATED,		/* frame shorter than a minimal header */
	IP4_BAD_VERSION,
	IP4_BAD_IHL,		/* IHL < 5 or past the frame */
	IP4_BAD_LENGTH,		/* total length < header or > frame */
	IP4_BAD_CHECKSUM,
	IP4_MARTIAN_SRC,	/* 0/8, 127/8, multicast, 240/4 or broadcast source */
	IP4_MARTIAN_DST,	/* 0/8 or 127/8 destination */
};

/* Sum of the header is 0xffff exactly when its checksum is right. */
static inline bool ip4_cksum_ok(const struct rte_ipv4_hdr *ip)
{
	return rte_raw_cksum(ip, rte_ipv4_hdr_len(ip)) == 0xffff;
}

/*
 * The same for a header without options (IHL 5): two 64-bit words and one
 * 32-bit word added with end-around carries (RFC 1071 §2(B)), a sum s that is
 * 0 only for 20 zero bytes. As 2^16 - 1 divides 2^64 - 1, s and the 16-bit
 * ones' complement sum are equal modulo 0xffff, and that sum, of bytes not
 * all zero, lies in 1..0xffff: it is 0xffff exactly when s is a multiple of
 * 0xffff, which the compiler tests with one multiplication by the inverse of
 * 0xffff and a compare (4 instructions where the fold to 16 bits took 8).
 */
static inline bool ip4_cksum20_ok(const struct rte_ipv4_hdr *ip)
{
	uint64_t a, b, s;
	uint32_t c;

	memcpy(&a, ip, 8);	/* the header may lie at any alignment */
	memcpy(&b, (const uint8_t *)ip + 8, 8);
	memcpy(&c, (const uint8_t *)ip + 16, 4);
#ifdef RTE_ARCH_X86_64
	/* the sums below in add-with-carry instructions, which the compiler does not
	 * make of them (callgrind: 3 instructions a packet fewer in ip4_fast) */
	s = a;
	__asm__("addq %[b], %[s]\n\tadcq %[c], %[s]\n\tadcq $0, %[s]"
		: [s] "+r"(s) : [b] "rm"(b), [c] "rm"((uint64_t)c) : "cc");
#else
	s = a + b;
	s += s < b;
	s += c;
	s += s < c;
#endif
	return s != 0 && s % 0xffff == 0;
}

/* printf of a host-order IPv4 address: printf("to " IP4_FMT "\n", IP4_ARGS(ip)). */
#define IP4_FMT "%u.%u.%u.%u"
#define IP4_ARGS(a) (unsigned int)((a) >> 24), (unsigned int)(((a) >> 16) & 255), \
	(unsigned int)(((a) >> 8) & 255), (unsigned int)((a) & 255)

/*
 * Martian addresses (RFC 1812 §5.3.7), by first octet. No source may be in 0/8, 127/8 or
 * 224/3 (multicast, class E, broadcast); no destination in 0/8 or 127/8. The fast path
 * leaves both sets to the long path with this one table: the destinations it leaves
 * (martians, multicast, 240/4 and broadcast) are exactly the sources' martians.
 */
static const uint8_t ip4_martian_src_octet[256] = { [0] = 1, [127] = 1, [224 ... 255] = 1 };

static inline bool ip4_martian_src(uint32_t src)
{
	return ip4_martian_src_octet[src >> 24];
}

static inline bool ip4_martian_dst(uint32_t dst)
{
	return (dst >> 24) == 0 || (dst >> 24) == 127;
}

/*
 * Checks a header that lies in len contiguous bytes (of a frame carrying
 * frame_len bytes of IP). cksum_known: the port already verified it.
 */
static inline enum ip4_verdict ip4_check(const struct rte_ipv4_hdr *ip, uint32_t len,
					 uint32_t frame_len, bool cksum_known)
{
	uint32_t hl, tl, src, dst;

	if (unlikely(len < sizeof(*ip)))
		return IP4_TRUNCATED;
	if (unlikely((ip->version_ihl >> 4) != 4))
		return IP4_BAD_VERSION;
	hl = (ip->version_ihl & 0xf) * 4u;
	if (unlikely(hl < sizeof(*ip) || hl > len))
		return IP4_BAD_IHL;
	tl = rte_be_to_cpu_16(ip->total_length);
	if (unlikely(tl < hl || tl > frame_len))
		return IP4_BAD_LENGTH;
	if (!cksum_known && unlikely(!ip4_cksum_ok(ip)))
		return IP4_BAD_CHECKSUM;
	src = rte_be_to_cpu_32(ip->src_addr);
	dst = rte_be_to_cpu_32(ip->dst_addr);
	/* 0.0.0.0 to the limited broadcast is a host learning its address (RFC 1122 §3.2.1.3,
	 * DHCP's discover and request): for the router (punt_mcast), never forwarded */
	if (unlikely(ip4_martian_src(src)) && !(src == 0 && dst == UINT32_MAX))
		return IP4_MARTIAN_SRC;
	if (unlikely(ip4_martian_dst(dst)))
		return IP4_MARTIAN_DST;
	return IP4_OK;
}

/*
 * Decrements TTL (at least 1) and patches the checksum incrementally (RFC 1624).
 * The TTL/protocol word drops by 0x0100, so the checksum rises by 0x0100 in
 * ones' complement: an end-around carry when it passes 0xffff. RFC 1624 eqn. 3
 * differs from that sum only where it reaches 0xffff exactly; eqn. 3 (and a
 * full recomputation, since a header's other words never sum to +0) give
 * 0x0000 there, hence ">=" (the Linux kernel's ip_decrease_ttl). Both sides
 * are in network order: ones' complement sums do not depend on byte order.
 * The checksum and the TTL are separate loads and stores; a byte store
 * followed by a word load over it would stall store forwarding.
 */
static inline void ip4_ttl_decrement(struct rte_ipv4_hdr *ip)
{
	uint32_t check = ip->hdr_checksum;

	check += rte_cpu_to_be_16(0x0100);
	ip->hdr_checksum = (uint16_t)(check + ((check + 1) >> 16));	/* + (check >= 0xffff) */
	ip->time_to_live--;
}

static inline bool ip4_is_mcast_or_bcast(uint32_t dst_be)
{
	uint32_t dst = rte_be_to_cpu_32(dst_be);

	return dst >= 0xe0000000u;	/* 224/4 multicast, 240/4 and 255.255.255.255 */
}

#endif
