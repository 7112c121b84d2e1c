/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMPv6 error nodes, one per kind: turn the offending packet into the error in place (prepend
 * the new IPv6 and ICMPv6 headers, quote as much of the original as fits in 1280 bytes) and send
 * it back through ip6_lookup. Rate-limited per worker with the ICMP errors' bucket (RFC 4443
 * §2.4(f)); never about an ICMPv6 error.
 */
#include "dataplane/icmp/icmp6.h"
#include "dataplane/node.h"
#include "dataplane/icmp/node_icmp.h"
#include "dataplane/trace.h"

static const struct icmp_kind kinds[] = {
#define X(kind, type, code, text) { #kind, type, code },
	DP_ICMP6_ERRORS(X)
#undef X
};

static rte_edge_t icmp6_error_one(const struct icmp_ctx *ctx, struct dp_icmp_limit *lim,
			       struct rte_mbuf *m, uint64_t now)
{
	const struct rte_ipv6_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, m->l2_len);
	const struct dp_nexthop *nh = *dp_pkt_nh(m);
	uint32_t quote = icmp6_quote_len(m->pkt_len - m->l2_len);
	uint8_t src[16], *hdr;
	uint16_t len;

	if (!icmp6_error_allowed(ip, m->data_len - m->l2_len))
		return ICMP_ERROR_NEXT_DROP_SUPPRESSED;
	if (!icmp_error_unchain(m, quote))
		return ICMP_ERROR_NEXT_DROP_SUPPRESSED;
	if (!dp_port_ip6_get(dp_port_map.index[m->port], src))
		return ICMP_ERROR_NEXT_DROP_NO_SOURCE;
	if (!dp_icmp_rate_ok(lim, now))
		return ICMP_ERROR_NEXT_DROP_RATE_LIMITED;
	if (rte_pktmbuf_prepend(m, ICMP6_ERROR_HDRS) == NULL)
		return ICMP_ERROR_NEXT_DROP_SUPPRESSED;
	/* the frame's own link header in front, as for IPv4 (node_icmp_error.c) */
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_mtod_offset(m, uint8_t *, ICMP6_ERROR_HDRS),
	       m->l2_len);
	hdr = rte_pktmbuf_mtod_offset(m, uint8_t *, m->l2_len);
	len = icmp6_error_build(hdr, ip, quote, src, ctx->type, ctx->code,
				ctx->type == 2 ? nh->mtu : 0);
	m->data_len = m->pkt_len = m->l2_len + len;
	return ICMP_ERROR_NEXT_LOOKUP;
}

static uint16_t icmp6_error_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				    uint16_t nb)
{
	return icmp_error_walk(graph, node, objs, nb, icmp6_error_one);
}

static int icmp6_error_init(const struct rte_graph *graph, struct rte_node *node)
{
	return icmp_error_ctx_init(graph, node, kinds, RTE_DIM(kinds));
}

#define X(kind, type, code, text)                                                \
	static struct rte_node_register kind##_node = {                         \
		.name = #kind,                                                   \
		.process = icmp6_error_process,                                  \
		.init = icmp6_error_init,                                        \
		.nb_edges = ICMP_ERROR_NEXT_MAX,                                \
		.next_nodes = {                                                  \
			[ICMP_ERROR_NEXT_LOOKUP] = "ip6_lookup",                \
			[ICMP_ERROR_NEXT_DROP_SUPPRESSED] = "drop_icmp_suppressed", \
			[ICMP_ERROR_NEXT_DROP_RATE_LIMITED] = "drop_icmp_rate_limited", \
			[ICMP_ERROR_NEXT_DROP_NO_SOURCE] = "drop_icmp_no_source", \
		},                                                               \
	};                                                                       \
	RTE_NODE_REGISTER(kind##_node);
DP_ICMP6_ERRORS(X)
#undef X
