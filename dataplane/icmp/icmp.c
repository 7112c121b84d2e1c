/* SPDX-License-Identifier: BSD-3-Clause */
/* Builds an ICMP error in front of the datagram it quotes. */
#include <string.h>

#include <rte_ip.h>

#include "dataplane/icmp/icmp.h"

uint16_t icmp_error_build(uint8_t *hdr, const struct rte_ipv4_hdr *orig, uint32_t quote,
			  uint32_t src_be, uint8_t type, uint8_t code, uint16_t mtu)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)hdr;
	uint8_t *icmp = hdr + sizeof(*ip);
	uint32_t dst = orig->src_addr;	/* read before the new header may overlap it */
	uint16_t len = ICMP_ERROR_HDRS + quote;
	uint16_t ck;

	memset(icmp, 0, 8);
	icmp[0] = type;
	icmp[1] = code;
	if (type == 3 && code == 4) {
		icmp[6] = mtu >> 8;	/* RFC 1191: next-hop MTU */
		icmp[7] = mtu & 0xff;
	}
	ck = rte_raw_cksum(icmp, 8 + quote);
	ck = ~ck;
	memcpy(icmp + 2, &ck, 2);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = src_be;
	ip->dst_addr = dst;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return len;
}
