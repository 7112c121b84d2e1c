/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vlan_input: on a port with sub-interfaces, between port_rx and ip4_fast.
 * A frame tagged with a sub-interface's VLAN loses its tags and becomes that
 * sub-interface's (the mbuf's port field: DP_VLAN_IFID_BASE + its index), so
 * every node after sees it as any port's frame; a tagged frame of no
 * sub-interface's VLAN is dropped (drop_unknown_vlan). Untagged frames pass
 * as they are, and so do priority-tagged ones (VID 0) once their tag is off.
 */
#include <rte_ether.h>

#include "dataplane/node.h"
#include "dataplane/trace.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/l2/vlan_map.h"

enum vlan_input_next {
	VLAN_INPUT_NEXT_IP4_FAST,
	VLAN_INPUT_NEXT_DROP_UNKNOWN_VLAN,
	VLAN_INPUT_NEXT_MAX,
};

#define VID_MASK 0x0fff

static inline uint16_t tag_vid(const uint8_t *tci)
{
	return ((tci[0] << 8) | tci[1]) & VID_MASK;
}

/* Takes len bytes of tags off after the MACs (the first segment holds them: checked). */
static inline void tags_strip(struct rte_mbuf *m, uint8_t *d, uint16_t len)
{
	dp_vlan_macs_move(d + len, d);
	m->data_off += len;
	m->data_len -= len;
	m->pkt_len -= len;
}

/* sflow: sub-interfaces are sampled (dp_sflow_subifs), read once a burst */
static inline rte_edge_t vlan_classify(struct rte_mbuf *m, struct dp_vlan_run *r,
				       unsigned int worker, bool sflow)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	uint16_t port = dp_port_map.index[m->port], index, len;
	rte_be16_t type;

	/* too short to hold a tag, or its port down: ip4_fast and eth_input say so */
	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN || !dp_port_map.up[port]))
		return VLAN_INPUT_NEXT_IP4_FAST;
	memcpy(&type, d + 2 * RTE_ETHER_ADDR_LEN, sizeof(type));
	if (likely(type == RTE_BE16(RTE_ETHER_TYPE_VLAN))) {
		uint16_t vid = tag_vid(d + 14);

		len = RTE_VLAN_HLEN;
		if (unlikely(vid == 0)) {	/* priority-tagged: an untagged frame of the port */
			tags_strip(m, d, len);
			return VLAN_INPUT_NEXT_IP4_FAST;
		}
		/* port_rx sends only a port's frames, and only once its table is made */
		index = __atomic_load_n(&dp_vlan_map.dot1q[port][vid], __ATOMIC_ACQUIRE);
	} else if (type == RTE_BE16(RTE_ETHER_TYPE_QINQ)) {
		rte_be16_t inner;

		len = 2 * RTE_VLAN_HLEN;
		if (m->data_len < RTE_ETHER_HDR_LEN + len)
			return VLAN_INPUT_NEXT_DROP_UNKNOWN_VLAN;
		memcpy(&inner, d + 16, sizeof(inner));
		index = inner == RTE_BE16(RTE_ETHER_TYPE_VLAN) ?
			dp_vlan_qinq_find(port, tag_vid(d + 14), tag_vid(d + 18)) : 0;
	} else {
		return VLAN_INPUT_NEXT_IP4_FAST;
	}
	if (unlikely(index == 0))
		return VLAN_INPUT_NEXT_DROP_UNKNOWN_VLAN;
	if (unlikely(sflow))
		dp_sflow_subif(worker, index, m);
	tags_strip(m, d, len);
	m->port = DP_VLAN_IFID_BASE + index;
	dp_vlan_run_add(r, index, m->pkt_len);
	return VLAN_INPUT_NEXT_IP4_FAST;
}

static uint16_t vlan_input_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				   uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	/* graph id = worker index */
	struct dp_vlan_run run = { .st = dp_vlan_stats[graph->id], .tx = false };
	bool sflow = __atomic_load_n(&dp_sflow_subifs, __ATOMIC_RELAXED) != 0;
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		if (i + 2 < nb)
			rte_prefetch0(rte_pktmbuf_mtod((struct rte_mbuf *)objs[i + 2], void *));
		nexts[i] = vlan_classify(objs[i], &run, graph->id, sflow);
		odd |= nexts[i] ^ VLAN_INPUT_NEXT_IP4_FAST;
	}
	dp_vlan_run_flush(&run);
	dp_node_dispatch(graph, node, objs, nexts, nb, VLAN_INPUT_NEXT_IP4_FAST, odd);
	return nb;
}

static struct rte_node_register vlan_input_node = {
	.name = "vlan_input",
	.process = vlan_input_process,
	.nb_edges = VLAN_INPUT_NEXT_MAX,
	.next_nodes = {
		[VLAN_INPUT_NEXT_IP4_FAST] = "ip4_fast",
		[VLAN_INPUT_NEXT_DROP_UNKNOWN_VLAN] = "drop_unknown_vlan",
	},
};
RTE_NODE_REGISTER(vlan_input_node);
