/* SPDX-License-Identifier: BSD-3-Clause */
/* Builds an ICMPv6 error in front of the datagram it quotes; the interfaces' error sources. */
#include <string.h>

#include <rte_ip.h>

#include "dataplane/icmp/icmp6.h"

struct dp_port_ip6 *dp_port_ip6;

uint16_t icmp6_error_build(uint8_t *hdr, const struct rte_ipv6_hdr *orig, uint32_t quote,
			   const uint8_t src[16], uint8_t type, uint8_t code, uint32_t param)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)hdr;
	uint8_t *icmp = hdr + IP6_HDR_LEN;
	uint8_t dst[16];
	rte_be32_t p = rte_cpu_to_be_32(param);
	uint16_t ck;

	memcpy(dst, orig->src_addr, 16);	/* read before the new header may overlap it */
	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(8 + quote);
	ip->proto = IP6_NEXT_ICMP;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, dst, 16);
	icmp[0] = type;
	icmp[1] = code;
	icmp[2] = icmp[3] = 0;
	memcpy(icmp + 4, &p, 4);
	ck = rte_ipv6_udptcp_cksum(ip, icmp);
	memcpy(icmp + 2, &ck, 2);
	return ICMP6_ERROR_HDRS + quote;
}

void dp_port_ip6_set(unsigned int port, const uint8_t addr[16])
{
	struct dp_port_ip6 *p = &dp_port_ip6[port];

	if (port >= dp.max_ports)
		return;
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(p->addr, addr, 16);
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELEASE);
}
