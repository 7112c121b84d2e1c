/* SPDX-License-Identifier: BSD-3-Clause */
/* eth_input: keeps frames for our MAC (or broadcast/multicast) and sorts them by ethertype. */
#include <rte_ether.h>

#include "dataplane/node.h"
#include "dataplane/l2/group_count.h"
#include "dataplane/trace.h"

enum eth_input_next {
	ETH_INPUT_NEXT_IP4_INPUT,
	ETH_INPUT_NEXT_IP6_INPUT,
	ETH_INPUT_NEXT_PUNT_ARP,
	ETH_INPUT_NEXT_PUNT_NON_IP,
	ETH_INPUT_NEXT_DROP_RUNT,
	ETH_INPUT_NEXT_DROP_OTHER_HOST,
	ETH_INPUT_NEXT_DROP_PORT_DOWN,
	ETH_INPUT_NEXT_MAX,
};

struct dp_port_map dp_port_map;
volatile uint8_t dp_ip6_forwarding;

static inline rte_edge_t eth_classify(struct rte_mbuf *m, struct dp_group_count *groups)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint16_t port = dp_port_map.index[m->port];
	const struct rte_ether_addr *own = &dp_port_map.mac[port].addr;

	if (unlikely(m->data_len < sizeof(*eth)))
		return ETH_INPUT_NEXT_DROP_RUNT;
	dp_group_count(groups, port, &eth->dst_addr, true);	/* received, even if dropped */
	if (unlikely(!dp_port_map.up[port]))
		return ETH_INPUT_NEXT_DROP_PORT_DOWN;
	if (unlikely(!rte_is_same_ether_addr(&eth->dst_addr, own) &&
		     !rte_is_multicast_ether_addr(&eth->dst_addr)))
		return ETH_INPUT_NEXT_DROP_OTHER_HOST;
	m->l2_len = sizeof(*eth);
	if (likely(eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)))
		return ETH_INPUT_NEXT_IP4_INPUT;
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) && dp_ip6_forwarding)
		return ETH_INPUT_NEXT_IP6_INPUT;
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_ARP))
		return ETH_INPUT_NEXT_PUNT_ARP;
	return ETH_INPUT_NEXT_PUNT_NON_IP;
}

static uint16_t eth_input_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				  uint16_t nb)
{
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	struct dp_group_count *groups = dp_group_counts[graph->id];	/* graph id = worker */
	uint16_t odd = 0, i;

	DP_TRACE_NODE(graph, node, objs, nb);

	for (i = 0; i < nb; i++) {
		if (i + 2 < nb)
			rte_prefetch0(rte_pktmbuf_mtod((struct rte_mbuf *)objs[i + 2], void *));
		nexts[i] = eth_classify(objs[i], groups);
		odd |= nexts[i] ^ ETH_INPUT_NEXT_IP4_INPUT;
	}
	dp_node_dispatch(graph, node, objs, nexts, nb, ETH_INPUT_NEXT_IP4_INPUT, odd);
	return nb;
}

static struct rte_node_register eth_input_node = {
	.name = "eth_input",
	.process = eth_input_process,
	.nb_edges = ETH_INPUT_NEXT_MAX,
	.next_nodes = {
		[ETH_INPUT_NEXT_IP4_INPUT] = "ip4_input",
		[ETH_INPUT_NEXT_IP6_INPUT] = "ip6_input",
		[ETH_INPUT_NEXT_PUNT_ARP] = "punt_arp",
		[ETH_INPUT_NEXT_PUNT_NON_IP] = "punt_non_ip",
		[ETH_INPUT_NEXT_DROP_RUNT] = "drop_runt",
		[ETH_INPUT_NEXT_DROP_OTHER_HOST] = "drop_other_host",
		[ETH_INPUT_NEXT_DROP_PORT_DOWN] = "drop_port_down",
	},
};
RTE_NODE_REGISTER(eth_input_node);
