/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * 802.1Q and 802.1ad (QinQ) sub-interfaces: tern interfaces on a port that
 * carry its frames tagged with their VLAN. Owner: the control thread adds and
 * removes them; workers read the VLAN map (vlan_input) and the tags to write
 * (vlan_output). A sub-interface takes a slot of dp.ports like a port, so nexthops,
 * punts, counters and ICMP source addresses work by its index unchanged; its
 * frames carry DP_VLAN_IFID_BASE + index in the mbuf's port field once
 * vlan_input has taken their tags off.
 */
#ifndef TERN_VLAN_H
#define TERN_VLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>

#include <rte_ether.h>
#include <rte_graph.h>
#include <rte_mbuf.h>

#include "dataplane/dp.h"

#define DP_VLAN_IFID_BASE RTE_MAX_ETHPORTS
#define DP_VLAN_VID_MIN 1
#define DP_VLAN_VID_MAX 4094
#define DP_VLAN_VIDS 4096	/* what a tag's 12 bits can say: 0 and 4095 too */

/* What a sub-interface's frames carry: one 802.1Q tag, or an 802.1ad tag and an 802.1Q one. */
struct dp_vlan_encap {
	uint16_t outer_tpid;		/* RTE_ETHER_TYPE_VLAN or RTE_ETHER_TYPE_QINQ */
	uint16_t outer_vid;
	uint16_t inner_vid;		/* 0: no inner tag (outer_tpid is then RTE_ETHER_TYPE_VLAN) */
};

/* What vlan_output writes after the MACs of a frame leaving sub-interface i, and where it
 * sends it. */
struct dp_tx_tags {
	uint16_t parent;		/* its port (dp.ports), whose port_tx sends it */
	uint16_t len;			/* 4 or 8 */
	uint16_t tx;			/* the parent's transmit edge (dp_port_map.tx) */
	uint16_t pad;
	uint8_t tag[8];
};	/* 16 bytes: a shift to index */
extern struct dp_tx_tags *dp_tx_tags;	/* by interface */

/* Per worker, per sub-interface: frames vlan_input gave it and their bytes, and the frames
 * and bytes vlan_output handed its port (bytes without the tags, as its kernel interface
 * counts them). */
struct dp_vlan_count {
	uint64_t packets;
	uint64_t bytes;
};
struct dp_vlan_stats {
	struct dp_vlan_count rx, tx;
};
extern struct dp_vlan_stats *dp_vlan_stats[DP_MAX_WORKERS];	/* [worker][interface] */

/* A run of frames of one sub-interface in a vector, counted once it ends (no store a frame),
 * in one direction's counters (vlan_input's rx, vlan_output's tx). */
struct dp_vlan_run {
	struct dp_vlan_stats *st;	/* the worker's */
	bool tx;
	uint16_t index;
	uint32_t packets;
	uint64_t bytes;
};

static inline void dp_vlan_run_flush(struct dp_vlan_run *r)
{
	struct dp_vlan_count *c = r->tx ? &r->st[r->index].tx : &r->st[r->index].rx;

	c->packets += r->packets;
	c->bytes += r->bytes;
	r->packets = 0;
	r->bytes = 0;
}

/* Counts a frame of bytes bytes of sub-interface index. */
static inline void dp_vlan_run_add(struct dp_vlan_run *r, uint16_t index, uint32_t bytes)
{
	if (unlikely(index != r->index)) {
		dp_vlan_run_flush(r);
		r->index = index;
	}
	r->packets++;
	r->bytes += bytes;
}

/*
 * Moves a frame's two MACs from from to to (4 or 8 bytes apart, so the two overlap): both
 * are read before either is written. memmove does the same, but GCC makes it a call.
 */
static inline void dp_vlan_macs_move(uint8_t *to, const uint8_t *from)
{
	uint64_t a;
	uint32_t b;

	memcpy(&a, from, sizeof(a));
	memcpy(&b, from + sizeof(a), sizeof(b));
	memcpy(to, &a, sizeof(a));
	memcpy(to + sizeof(a), &b, sizeof(b));
}

/*
 * Pushes sub-interface tags t onto frame m, whose first segment has the room for them (the
 * caller checked): the frame grows at its front by t->len, the two MACs are copied from macs
 * to its new start (read whole first: they may be the frame's own, where they were), and the
 * tags follow them. Returns the parent's transmit edge. vlan_output's and the fast paths'.
 */
static inline rte_edge_t dp_vlan_tags_push(struct rte_mbuf *m, const struct dp_tx_tags *t,
					   const uint8_t *macs)
{
	uint16_t len = t->len;
	uint8_t *at;
	uint64_t w;

	m->data_off -= len;
	m->data_len += len;
	m->pkt_len += len;
	at = rte_pktmbuf_mtod(m, uint8_t *);
	dp_vlan_macs_move(at, macs);
	memcpy(&w, t->tag, sizeof(w));
	if (len == RTE_VLAN_HLEN)
		memcpy(at + 2 * RTE_ETHER_ADDR_LEN, &w, RTE_VLAN_HLEN);
	else
		memcpy(at + 2 * RTE_ETHER_ADDR_LEN, &w, sizeof(w));
	return t->tx;
}

/*
 * Adds sub-interface name on port parent (an index of dp.ports) with encap. Returns its
 * index, or a negative errno with one sentence in err: a VID out of 1..4094, a parent
 * that is not a port, an encapsulation the parent already has, no free slot.
 */
int dp_vlan_add(const char *name, unsigned int parent, const struct dp_vlan_encap *encap,
		char *err, size_t errlen);
/* Gives the sub-interface another encapsulation; the same checks as dp_vlan_add. */
int dp_vlan_set_encap(unsigned int index, const struct dp_vlan_encap *encap, char *err,
		      size_t errlen);
/* Unmaps the sub-interface and, once no worker can still see it, frees its slot. */
int dp_vlan_del(unsigned int index);
/* "dot1q 100" or "dot1ad 10 dot1q 20" */
int dp_vlan_encap_format(const struct dp_vlan_encap *encap, char *buf, size_t len);

#endif
