/* SPDX-License-Identifier: BSD-3-Clause */
/* ECMP member choice: a hash of the flow, so every packet of a flow takes one path. */
#ifndef TERN_ECMP_H
#define TERN_ECMP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "dataplane/fib/nexthop.h"
#include "dataplane/node.h"

/* Whether the flow has ports: TCP, UDP or SCTP, unfragmented, and a datagram that holds
 * them (the bytes after a shorter one are not its own). */
static inline bool ecmp_has_ports(const struct rte_ipv4_hdr *ip)
{
	return (ip->next_proto_id == IPPROTO_TCP || ip->next_proto_id == IPPROTO_UDP ||
		ip->next_proto_id == IPPROTO_SCTP) &&
	       (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK | RTE_IPV4_HDR_MF_FLAG)) == 0 &&
	       rte_be_to_cpu_16(ip->total_length) >= rte_ipv4_hdr_len(ip) + 4;
}

/* Hash of (source, destination, protocol, and the 4 bytes of ports when given). */
static inline uint32_t ecmp_hash(const struct rte_ipv4_hdr *ip, const void *ports)
{
	uint32_t h = rte_hash_crc_4byte(ip->src_addr, 0x7465726e);

	h = rte_hash_crc_4byte(ip->dst_addr, h);
	h = rte_hash_crc_4byte(ip->next_proto_id, h);
	if (ports != NULL) {
		uint32_t p;	/* the IP header is only 2-byte aligned in the frame */

		memcpy(&p, ports, sizeof(p));
		h = rte_hash_crc_4byte(p, h);
	}
	return h;
}

/* The flow hash of a header whose datagram follows it in the same buffer. */
static inline uint32_t ecmp_flow_hash(const struct rte_ipv4_hdr *ip)
{
	return ecmp_hash(ip, ecmp_has_ports(ip) ? (const uint8_t *)ip + rte_ipv4_hdr_len(ip) : NULL);
}

static inline unsigned int ecmp_pick(uint32_t hash, unsigned int nb_members)
{
	/* multiply-shift: uniform over members without a division */
	return (unsigned int)(((uint64_t)hash * nb_members) >> 32);
}

/*
 * The member of g the flow of hash takes: of all members, or, when that one's port cannot
 * send (its link is down), of those whose port can, so that the flows of a member that goes
 * down spread over the others at once and the others' flows stay where they were. With no
 * member up, the first choice (ip4_forward answers it with ICMP).
 */
static inline const struct dp_nexthop *ecmp_member_live(const struct dp_nexthop *g, uint32_t hash)
{
	const struct dp_nexthop *nh = dp_nh_get(g->members[ecmp_pick(hash, g->nb_members)]);
	const struct dp_nexthop *live[DP_NH_GROUP_MAX];
	unsigned int i, n = 0;

	if (likely(nh->kind != DP_NH_FORWARD || dp_port_egress_ok(nh->port)))
		return nh;
	for (i = 0; i < g->nb_members; i++) {
		const struct dp_nexthop *m = dp_nh_get(g->members[i]);

		if (m->kind != DP_NH_FORWARD || dp_port_egress_ok(m->port))
			live[n++] = m;
	}
	/* hashed again: the flows that picked this member are one slice of the hash's range,
	 * which the same pick over fewer members would give to one or two of them only */
	return n ? live[ecmp_pick(rte_hash_crc_4byte(hash, 0x646f776e), n)] : nh;
}

/*
 * The member of group g that the flow of m takes (ip: its IPv4 header, in m's first
 * segment). The ports are read wherever they are: a frame whose first segment ends at its
 * IPv4 header hashes as the same frame in one segment does.
 */
static inline const struct dp_nexthop *ecmp_member(const struct dp_nexthop *g,
						   const struct rte_mbuf *m,
						   const struct rte_ipv4_hdr *ip)
{
	const void *ports = NULL;
	uint32_t buf;

	if (ecmp_has_ports(ip))
		ports = rte_pktmbuf_read(m, (const uint8_t *)ip - rte_pktmbuf_mtod(m, const uint8_t *) +
					 rte_ipv4_hdr_len(ip), sizeof(buf), &buf);
	return ecmp_member_live(g, ecmp_hash(ip, ports));
}

/* Whether an IPv6 flow's hash takes the ports: TCP, UDP or SCTP right after the fixed header,
 * a datagram that holds them. */
static inline bool ecmp_has_ports6(const struct rte_ipv6_hdr *ip)
{
	return (ip->proto == IPPROTO_TCP || ip->proto == IPPROTO_UDP ||
		ip->proto == IPPROTO_SCTP) && rte_be_to_cpu_16(ip->payload_len) >= 4;
}

/*
 * IPv6: hash of (source, destination, next header, flow label, and the 4 bytes of ports
 * when given), in the same words as IPv4's.
 */
static inline uint32_t ecmp_hash6(const struct rte_ipv6_hdr *ip, const void *ports)
{
	const uint32_t *w;
	uint32_t h = 0x7465726e, p;
	unsigned int i;

	w = (const uint32_t *)(const void *)ip->src_addr;	/* the header is 2-byte aligned */
	for (i = 0; i < 8; i++) {
		uint32_t v;

		memcpy(&v, &w[i], sizeof(v));	/* src then dst: they are adjacent */
		h = rte_hash_crc_4byte(v, h);
	}
	h = rte_hash_crc_4byte((rte_be_to_cpu_32(ip->vtc_flow) & 0xfffff) << 8 | ip->proto, h);
	if (ports != NULL) {
		memcpy(&p, ports, sizeof(p));
		h = rte_hash_crc_4byte(p, h);
	}
	return h;
}

/* IPv6: the same choice as ecmp_member, by ecmp_hash6. */
static inline const struct dp_nexthop *ecmp_member6(const struct dp_nexthop *g,
						    const struct rte_mbuf *m,
						    const struct rte_ipv6_hdr *ip)
{
	const void *ports = NULL;
	uint32_t buf;

	if (ecmp_has_ports6(ip))
		ports = rte_pktmbuf_read(m, (const uint8_t *)ip - rte_pktmbuf_mtod(m, const uint8_t *) +
					 sizeof(*ip), sizeof(buf), &buf);
	return ecmp_member_live(g, ecmp_hash6(ip, ports));
}

#endif
