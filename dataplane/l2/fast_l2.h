/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Ethernet header ip4_fast and ip6_fast write, sub-interfaces' tags included: a frame of
 * theirs leaving a sub-interface goes straight to its parent's port_tx, and vlan_output (one
 * node visit more, the MACs moved a second time) is the long path's and the kernel's.
 */
#ifndef TERN_FAST_L2_H
#define TERN_FAST_L2_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "dataplane/acl/acl.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/node.h"

/* The frames of a vector that ip4_fast or ip6_fast tagged, a bit each: only they carry
 * their egress interface (dp_pkt_out), so the untagged ones cost no store. They are counted
 * as they are tagged, in a run (dp_fast_l2_done ends it). */
struct dp_fast_l2_tagged {
	uint64_t bits[RTE_GRAPH_BURST_SIZE / 64];
	struct dp_vlan_run run;
	bool any;
};

/* A vector's, counted in st (the worker's). */
static inline void dp_fast_l2_begin(struct dp_fast_l2_tagged *t, struct dp_vlan_stats *st)
{
	memset(t->bits, 0, sizeof(t->bits));
	t->run = (struct dp_vlan_run){ .st = st, .tx = true };
	t->any = false;
}

/* Frame i of the vector, m, leaves sub-interface out, tagged: its bytes not yet. */
static inline void dp_fast_l2_mark(struct dp_fast_l2_tagged *t, struct rte_mbuf *m, uint16_t i,
				   uint16_t out)
{
	*dp_pkt_out(m) = out;
	t->bits[i / 64] |= UINT64_C(1) << (i % 64);
	t->any = true;
	dp_vlan_run_add(&t->run, out, m->pkt_len);
}

static inline bool dp_fast_l2_is_tagged(const struct dp_fast_l2_tagged *t, uint16_t i)
{
	return (t->bits[i / 64] >> (i % 64)) & 1;
}

/* The egress interface of frame i of the vector, which takes transmit edge k. */
static inline uint16_t dp_fast_l2_egress(const struct dp_fast_l2_tagged *t, void *const *objs,
					 uint16_t i, rte_edge_t k)
{
	return dp_fast_l2_is_tagged(t, i) ? *dp_pkt_out(objs[i]) : dp_tx_port[k];
}

/*
 * Where frame i of the vector, m, has its IP header once the fast path wrote its Ethernet
 * header: after the tags it pushed when it leaves a sub-interface, as many as its outer
 * tag's TPID says (an 802.1ad tag comes with an 802.1Q one). The access lists and RPF read
 * it there.
 */
static inline uint16_t dp_fast_l2_len(const struct dp_fast_l2_tagged *t, const struct rte_mbuf *m,
				      uint16_t i)
{
	rte_be16_t tpid;

	if (!dp_fast_l2_is_tagged(t, i))
		return RTE_ETHER_HDR_LEN;
	memcpy(&tpid, rte_pktmbuf_mtod_offset(m, const uint8_t *, 2 * RTE_ETHER_ADDR_LEN),
	       sizeof(tpid));
	return RTE_ETHER_HDR_LEN +
	       (tpid == RTE_BE16(RTE_ETHER_TYPE_QINQ) ? 2 * RTE_VLAN_HLEN : RTE_VLAN_HLEN);
}

/*
 * Gathers in pick the frames of the vector that a fast path forwards (their next first, its
 * first transmit edge, or after) whose ingress (dir DP_ACL_IN) or egress interface has a list
 * of family, each with l2_len set to where dp_acl_filter finds its IP header.
 */
static inline void dp_fast_l2_acl_pick(struct dp_acl_pick *pick, uint8_t family, uint8_t dir,
				       void *const *objs, const rte_edge_t *nexts, uint16_t nb,
				       rte_edge_t first, const struct dp_fast_l2_tagged *tagged)
{
	uint16_t i;

	pick->n = 0;
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];

		if (nexts[i] < first)
			continue;
		m->l2_len = dp_fast_l2_len(tagged, m, i);
		dp_acl_pick(pick, family, dir, i, dir == DP_ACL_IN ? dp_port_map.index[m->port] :
				  dp_fast_l2_egress(tagged, objs, i, nexts[i] - first));
	}
}

/*
 * Ends the vector's count. When filtered (an access list or RPF had its say after the
 * frames were tagged), the tagged frames it dropped (their next below first, the node's
 * first transmit edge) are taken off their sub-interfaces' counts again: they never left.
 */
static inline void dp_fast_l2_done(struct dp_fast_l2_tagged *t, void *const *objs,
				   const rte_edge_t *nexts, uint16_t nb, rte_edge_t first,
				   bool filtered)
{
	uint16_t i;

	if (likely(!t->any))
		return;
	dp_vlan_run_flush(&t->run);
	for (i = 0; filtered && i < nb; i++) {
		struct rte_mbuf *m = objs[i];
		uint32_t out = *dp_pkt_out(m);

		if (dp_fast_l2_is_tagged(t, i) && nexts[i] < first) {
			t->run.st[out].tx.packets--;
			t->run.st[out].tx.bytes -= m->pkt_len - dp_tx_tags[out].len;
		}
	}
}

/*
 * Sends frame m, frame i of the vector, out of sub-interface nh->port as the fast paths do:
 * trimmed to frame_len (the Ethernet frame its network header claims; Ethernet pads short
 * ones), counted and marked in tagged, and its tags pushed after nh's MACs. Returns the
 * transmit edge, or -1 with the frame untouched when it has no room for the tags: the long
 * way counts its drop. Its TTL or hop limit is the caller's.
 */
static inline int dp_fast_l2_push(struct rte_mbuf *m, uint32_t frame_len, const struct dp_nexthop *nh,
				  struct dp_fast_l2_tagged *tagged, uint16_t i)
{
	const struct dp_tx_tags *t = &dp_tx_tags[nh->port];

	if (unlikely(m->data_off < t->len))
		return -1;
	if (unlikely(m->pkt_len > frame_len))
		rte_pktmbuf_trim(m, m->pkt_len - frame_len);
	dp_fast_l2_mark(tagged, m, i, nh->port);
	return dp_vlan_tags_push(m, t, (const uint8_t *)&nh->eth);
}

#endif
