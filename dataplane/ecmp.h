/* ECMP member choice: a hash of the flow, so every packet of a flow takes one path. */
#ifndef TERN_ECMP_H
#define TERN_ECMP_H

#include <stdint.h>
#include <string.h>

#include <rte_hash_crc.h>
#include <rte_ip.h>

#include "dataplane/nexthop.h"

/* Hash of (source, destination, protocol, and ports for TCP/UDP/SCTP of unfragmented packets
 * whose datagram holds them: the bytes after a shorter one are not its own). */
static inline uint32_t ecmp_flow_hash(const struct rte_ipv4_hdr *ip)
{
	uint32_t h = rte_hash_crc_4byte(ip->src_addr, 0x7465726e);

	h = rte_hash_crc_4byte(ip->dst_addr, h);
	h = rte_hash_crc_4byte(ip->next_proto_id, h);
	if ((ip->next_proto_id == IPPROTO_TCP || ip->next_proto_id == IPPROTO_UDP ||
	     ip->next_proto_id == IPPROTO_SCTP) &&
	    (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK | RTE_IPV4_HDR_MF_FLAG)) == 0 &&
	    rte_be_to_cpu_16(ip->total_length) >= rte_ipv4_hdr_len(ip) + 4) {
		uint32_t ports;	/* the IP header is only 2-byte aligned in the frame */

		memcpy(&ports, (const uint8_t *)ip + rte_ipv4_hdr_len(ip), sizeof(ports));
		h = rte_hash_crc_4byte(ports, h);
	}
	return h;
}

static inline unsigned int ecmp_pick(uint32_t hash, unsigned int nb_members)
{
	/* multiply-shift: uniform over members without a division */
	return (unsigned int)(((uint64_t)hash * nb_members) >> 32);
}

/* The member of group g that the flow of ip takes. */
static inline const struct dp_nexthop *ecmp_member(const struct dp_nexthop *g,
						   const struct rte_ipv4_hdr *ip)
{
	return dp_nh_get(g->members[ecmp_pick(ecmp_flow_hash(ip), g->nb_members)]);
}

#endif
