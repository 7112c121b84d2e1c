/* IPv4 header helpers shared by the ip4 nodes and the ICMP builder: checks and checksums. */
#ifndef TERN_IP4_H
#define TERN_IP4_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
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
	if (unlikely((src >> 24) == 0 || (src >> 24) == 127 || src >= 0xe0000000u))
		return IP4_MARTIAN_SRC;
	if (unlikely((dst >> 24) == 0 || (dst >> 24) == 127))
		return IP4_MARTIAN_DST;
	return IP4_OK;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), for one 16-bit word changing from old to new. */
static inline uint16_t ip4_cksum_update16(uint16_t hc, uint16_t old, uint16_t new)
{
	uint32_t sum = (uint16_t)~hc + (uint32_t)(uint16_t)~old + new;

	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * Decrements TTL (at least 1) and patches the checksum incrementally; all in network order.
 * The TTL and protocol word is read once and written once: a byte store followed by a word
 * load of the same bytes cannot be forwarded from the store buffer, and that stall was a
 * third of the fast path's cycles.
 */
static inline void ip4_ttl_decrement(struct rte_ipv4_hdr *ip)
{
	uint16_t old, new;

	memcpy(&old, &ip->time_to_live, sizeof(old));	/* ttl, proto as they lie */
	new = old - rte_cpu_to_be_16(0x0100);
	memcpy(&ip->time_to_live, &new, sizeof(new));
	ip->hdr_checksum = ip4_cksum_update16(ip->hdr_checksum, old, new);
}

static inline bool ip4_is_mcast_or_bcast(uint32_t dst_be)
{
	uint32_t dst = rte_be_to_cpu_32(dst_be);

	return dst >= 0xe0000000u;	/* 224/4 multicast, 240/4 and 255.255.255.255 */
}

#endif
