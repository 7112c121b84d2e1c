/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the ICMP and ICMPv6 error nodes share (node_icmp_error.c, node_icmp6_error.c): their
 * edges, their context, the walk over a vector and the context's setup from a table of kinds.
 */
#ifndef TERN_NODE_ICMP_H
#define TERN_NODE_ICMP_H

#include <stdint.h>

#include <rte_graph.h>
#include <rte_mbuf.h>

#include "dataplane/node.h"

enum icmp_error_next {
	ICMP_ERROR_NEXT_LOOKUP,		/* ip4_lookup or ip6_lookup: the error goes out */
	ICMP_ERROR_NEXT_DROP_SUPPRESSED,
	ICMP_ERROR_NEXT_DROP_RATE_LIMITED,
	ICMP_ERROR_NEXT_DROP_NO_SOURCE,
	ICMP_ERROR_NEXT_MAX,
};

struct icmp_ctx {
	uint8_t type;
	uint8_t code;
	uint16_t worker;
};

struct icmp_kind {
	const char *name;
	uint8_t type, code;
};

/*
 * A chained frame (a jumbo frame in buffers shorter than it: the commonest frame an error is
 * about, being too big) is cut to its first buffer, which the quote must lie in (false when it
 * does not): the error is built in place there.
 */
static inline bool icmp_error_unchain(struct rte_mbuf *m, uint32_t quote)
{
	if (m->nb_segs == 1)
		return true;
	if (m->data_len < m->l2_len + quote)
		return false;
	rte_pktmbuf_free(m->next);
	m->next = NULL;
	m->nb_segs = 1;
	m->pkt_len = m->data_len;
	return true;
}

/* Turns m into its error in place, or says why not. */
typedef rte_edge_t (*icmp_error_fn)(const struct icmp_ctx *ctx, struct dp_icmp_limit *lim,
				    struct rte_mbuf *m, uint64_t now);

/* An error node's process: each packet of the vector through one (errors are the slow path:
 * a call a packet). */
uint16_t icmp_error_walk(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb,
			 icmp_error_fn one);
/* An error node's init: its type and code from the kind of its name. */
int icmp_error_ctx_init(const struct rte_graph *graph, struct rte_node *node,
			const struct icmp_kind *kinds, unsigned int n);

#endif
