/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMP error nodes, one per kind: turn the offending packet into the error
 * in place (prepend the new IPv4 and ICMP headers, quote the original header
 * and 8 bytes) and send it back through ip4_lookup. Per-worker rate limit
 * (RFC 1812 §4.3.2.8); errors about errors and non-first fragments are never sent.
 */
#include <rte_cycles.h>

#include "dataplane/icmp/icmp.h"
#include "dataplane/icmp/icmp6.h"
#include "dataplane/node.h"
#include "dataplane/icmp/node_icmp.h"
#include "dataplane/punt/node_sink.h"
#include "dataplane/trace.h"

volatile uint32_t *dp_port_ip4;
struct dp_icmp_limit dp_icmp_limit[DP_MAX_WORKERS];

static const struct icmp_kind kinds[] = {
#define X(kind, type, code, text) { #kind, type, code },
	DP_ICMP_ERRORS(X)
#undef X
};

static rte_edge_t icmp_error_one(const struct icmp_ctx *ctx, struct dp_icmp_limit *lim,
			      struct rte_mbuf *m, uint64_t now)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, m->l2_len);
	uint32_t src = dp_port_ip4[dp_port_map.index[m->port]], quote;
	const struct dp_nexthop *nh = *dp_pkt_nh(m);
	uint8_t *hdr;
	uint16_t len;

	if (!icmp_error_allowed(ip))
		return ICMP_ERROR_NEXT_DROP_SUPPRESSED;
	quote = icmp_quote_len(ip);
	if (!icmp_error_unchain(m, quote))
		return ICMP_ERROR_NEXT_DROP_SUPPRESSED;
	if (src == 0)
		return ICMP_ERROR_NEXT_DROP_NO_SOURCE;
	if (!dp_icmp_rate_ok(lim, now))
		return ICMP_ERROR_NEXT_DROP_RATE_LIMITED;
	if (rte_pktmbuf_prepend(m, ICMP_ERROR_HDRS) == NULL)
		return ICMP_ERROR_NEXT_DROP_SUPPRESSED;
	/*
	 * The frame's own link header goes in front of the error, before the new headers
	 * overwrite it: an error to one of the router's addresses is punted as it stands,
	 * and the kernel takes a frame for the port's MAC. (ip_rewrite writes its own for
	 * an error that is forwarded.) Left as it was, the headroom's stale bytes went. The
	 * header (14 bytes, 18 with a VLAN tag) is shorter than the gap, so the two never overlap.
	 */
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_mtod_offset(m, uint8_t *, ICMP_ERROR_HDRS),
	       m->l2_len);
	hdr = rte_pktmbuf_mtod_offset(m, uint8_t *, m->l2_len);
	len = icmp_error_build(hdr, ip, quote, src, ctx->type, ctx->code,
			       ctx->type == 3 && ctx->code == 4 ? nh->mtu : 0);
	m->data_len = m->pkt_len = m->l2_len + len;
	return ICMP_ERROR_NEXT_LOOKUP;
}

uint16_t icmp_error_walk(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb,
			 icmp_error_fn one)
{
	const struct icmp_ctx *ctx = (const struct icmp_ctx *)node->ctx;
	struct dp_icmp_limit *lim = &dp_icmp_limit[ctx->worker];
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint64_t now = rte_rdtsc();
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		nexts[i] = one(ctx, lim, objs[i], now);
		odd |= nexts[i] ^ ICMP_ERROR_NEXT_LOOKUP;
	}
	dp_node_dispatch(graph, node, objs, nexts, nb, ICMP_ERROR_NEXT_LOOKUP, odd);
	return nb;
}

int icmp_error_ctx_init(const struct rte_graph *graph, struct rte_node *node,
			const struct icmp_kind *kinds, unsigned int n)
{
	struct icmp_ctx *ctx = (struct icmp_ctx *)node->ctx;
	unsigned int k;

	for (k = 0; k < n; k++)
		if (strcmp(kinds[k].name, node->name) == 0)
			break;
	if (k == n)
		return -ENOENT;
	ctx->type = kinds[k].type;
	ctx->code = kinds[k].code;
	ctx->worker = graph->id;
	return 0;
}

static uint16_t icmp_error_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				   uint16_t nb)
{
	return icmp_error_walk(graph, node, objs, nb, icmp_error_one);
}

static int icmp_error_init(const struct rte_graph *graph, struct rte_node *node)
{
	return icmp_error_ctx_init(graph, node, kinds, RTE_DIM(kinds));
}

#define X(kind, type, code, text)                                                \
	static struct rte_node_register kind##_node = {                         \
		.name = #kind,                                                   \
		.process = icmp_error_process,                                   \
		.init = icmp_error_init,                                         \
		.nb_edges = ICMP_ERROR_NEXT_MAX,                                 \
		.next_nodes = {                                                  \
			[ICMP_ERROR_NEXT_LOOKUP] = "ip4_lookup",                 \
			[ICMP_ERROR_NEXT_DROP_SUPPRESSED] = "drop_icmp_suppressed", \
			[ICMP_ERROR_NEXT_DROP_RATE_LIMITED] = "drop_icmp_rate_limited", \
			[ICMP_ERROR_NEXT_DROP_NO_SOURCE] = "drop_icmp_no_source", \
		},                                                               \
	};                                                                       \
	RTE_NODE_REGISTER(kind##_node);
DP_ICMP_ERRORS(X)
#undef X

const struct dp_sink_info dp_icmp_errors[] = {
#define X(kind, type, code, text) { #kind, text },
	DP_ICMP_ERRORS(X)
	DP_ICMP6_ERRORS(X)
#undef X
	{ NULL, NULL },
};

void dp_icmp_limit_init(unsigned int nb_workers, uint32_t rate_pps, uint32_t burst)
{
	uint64_t hz = rte_get_tsc_hz();
	unsigned int w;

	for (w = 0; w < nb_workers; w++) {
		dp_icmp_limit[w].tat = 0;
		dp_icmp_limit[w].interval_tsc = hz / (rate_pps ? rate_pps : 1);
		dp_icmp_limit[w].window_tsc = dp_icmp_limit[w].interval_tsc * burst;
	}
}
