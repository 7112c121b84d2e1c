/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_fast: IPv6's common case in one node, as ip4_fast is IPv4's. ip4_fast hands it the
 * frames that carry IPv6. A frame for the port's own MAC carrying an IPv6 packet whose
 * header passes ip6_input's checks (its extension headers walked only when it has any),
 * whose addresses are neither multicast, link-local, unspecified nor loopback, nor anything
 * else in ::/8 or ff00::/8, with a hop limit over 1, whose route forwards it out of an up
 * port within its MTU, is looked up (a vector's lookups together, dp_fib6_lookup_bulk), its
 * hop limit decremented and its MACs written here, and handed straight to port_tx.
 * Everything else goes, untouched, to eth_input, whose nodes (ip6_input .. ip_rewrite)
 * decide and count it; the outcome for a packet is the same either way. While a trace is
 * armed, or IPv6 forwarding is off, the whole vector takes the long path.
 */
#include <rte_ether.h>

#include "dataplane/acl/acl.h"
#include "dataplane/fib/ecmp.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/rpf.h"
#include "dataplane/ip6/ip6.h"
#include "dataplane/l2/fast_l2.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

/* Edge 0 is the long path, edge 1 what an access list denies, edge 2 what unicast RPF drops;
 * the transmit edges (node.h) follow. */
#define IP6_FAST_NEXT_SLOW 0
#define IP6_FAST_NEXT_DROP_ACL 1
#define IP6_FAST_NEXT_DROP_RPF 2
#define IP6_FAST_NEXT_PORT DP_IP6_FAST_TX_EDGE

/* An address the long path must see: ::/8 (unspecified, loopback, mapped), multicast,
 * link-local. */
static inline bool odd_addr(const uint8_t *a)
{
	return a[0] == 0 || a[0] == 0xff || (a[0] == 0xfe && (a[1] & 0xc0) == 0x80);
}

/* The frame's IPv6 header when the fast path may take it as far as its lookup, else NULL. */
static inline struct rte_ipv6_hdr *fast_candidate(struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + 1);
	uint16_t port = dp_port_map.index[m->port];
	uint64_t head;
	uint32_t plen;

	if (unlikely(m->data_len < sizeof(*eth) + sizeof(*ip) || !dp_port_map.up[port]))
		return NULL;
	memcpy(&head, eth, sizeof(head));	/* the destination MAC and 2 bytes after it */
	if (unlikely(dp_mac_word_differs(head, dp_port_map.mac[port].word) ||
		     eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV6)))
		return NULL;
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (unlikely((((const uint8_t *)ip)[0] >> 4) != 6 || ip->hop_limits <= 1 || plen == 0 ||
		     sizeof(*eth) + sizeof(*ip) + plen > m->pkt_len))
		return NULL;
	if (unlikely(odd_addr(ip->src_addr) || odd_addr(ip->dst_addr)))
		return NULL;
	if (unlikely(ip6_is_ext(ip->proto)) &&
	    !ip6_chain_whole((const uint8_t *)ip, m->data_len - sizeof(*eth), sizeof(*ip) + plen))
		return NULL;
	return ip;
}

/* fast_forward's frames out of a sub-interface (frame i of the vector), out of its way. */
static __rte_noinline rte_edge_t fast_forward_tagged(struct rte_mbuf *m, struct rte_ipv6_hdr *ip,
						     uint32_t len, const struct dp_nexthop *nh,
						     struct dp_fast_l2_tagged *tagged, uint16_t i)
{
	int k = dp_fast_l2_push(m, len + sizeof(struct rte_ether_hdr), nh, tagged, i);

	if (unlikely(k < 0))
		return IP6_FAST_NEXT_SLOW;
	ip->hop_limits--;
	return IP6_FAST_NEXT_PORT + k;
}

/* Forwards m (its header ip) by nh as ip6_forward, ip_rewrite and vlan_output would: its
 * transmit edge, or IP6_FAST_NEXT_SLOW, untouched, when it cannot; marks it, frame i of the
 * vector, in tagged when it leaves a sub-interface. */
static inline rte_edge_t fast_forward(struct rte_mbuf *m, struct rte_ipv6_hdr *ip,
				      const struct dp_nexthop *nh, struct dp_fast_l2_tagged *tagged,
				      uint16_t i)
{
	uint32_t len = sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len);

	if (unlikely(nh->kind != DP_NH_FORWARD)) {
		if (nh->kind != DP_NH_GROUP)
			return IP6_FAST_NEXT_SLOW;
		nh = ecmp_member6(nh, m, ip);
		if (nh->kind != DP_NH_FORWARD)
			return IP6_FAST_NEXT_SLOW;
	}
	if (unlikely(!dp_port_egress_ok(nh->port) || len > nh->mtu))
		return IP6_FAST_NEXT_SLOW;
	if (unlikely(nh->tx == DP_TX_VLAN))
		return fast_forward_tagged(m, ip, len, nh, tagged, i);
	/* Ethernet pads short frames: keep only what the IPv6 header claims. */
	len += sizeof(struct rte_ether_hdr);
	if (unlikely(m->pkt_len > len))
		rte_pktmbuf_trim(m, m->pkt_len - len);
	ip->hop_limits--;
	/* the two MACs; the frame's EtherType is already IPv6 */
	memcpy((uint8_t *)ip - sizeof(struct rte_ether_hdr), &nh->eth, 2 * RTE_ETHER_ADDR_LEN);
	return IP6_FAST_NEXT_PORT + nh->tx;
}

/* The checks of the frames forwarded here, as ip4_fast's and in the same order: the ingress
 * interface's access list, unicast RPF (the fast path takes no link-local source), the egress
 * interface's list. The others' are the long path's (ip6_input, ip6_lookup, ip6_forward). */
static __rte_noinline void filter(struct rte_graph *graph, void **objs, uint16_t nb,
				  rte_edge_t *nexts, uint8_t dir, const struct dp_fast_l2_tagged *tagged)
{
	struct dp_acl_pick pick;

	dp_fast_l2_acl_pick(&pick, DP_ACL_IPV6, dir, objs, nexts, nb, IP6_FAST_NEXT_PORT, tagged);
	dp_acl_pick_filter(graph, &pick, DP_ACL_IPV6, dir, objs, nexts, IP6_FAST_NEXT_DROP_ACL);
}

static __rte_noinline void rpf_check(struct rte_ipv6_hdr *const *hdr, void **objs, uint16_t nb,
				     rte_edge_t *nexts)
{
	uint8_t src[RTE_GRAPH_BURST_SIZE][16];
	uint32_t nh[RTE_GRAPH_BURST_SIZE];
	uint16_t at[RTE_GRAPH_BURST_SIZE], port[RTE_GRAPH_BURST_SIZE];
	uint8_t mode[RTE_GRAPH_BURST_SIZE];
	uint16_t i, n = 0;

	for (i = 0; i < nb; i++) {
		if (nexts[i] < IP6_FAST_NEXT_PORT)
			continue;
		port[n] = dp_port_map.index[((struct rte_mbuf *)objs[i])->port];
		mode[n] = dp_rpf.mode[DP_RPF_IPV6][port[n]];
		if (mode[n] == DP_RPF_OFF)
			continue;
		memcpy(src[n], hdr[i]->src_addr, 16);
		at[n++] = i;
	}
	dp_fib6_lookup_bulk((const uint8_t (*)[16])src, nh, n);
	for (i = 0; i < n; i++)
		if (unlikely(!dp_rpf_pass(dp_nh_get(nh[i]), mode[i], port[i])))
			nexts[at[i]] = IP6_FAST_NEXT_DROP_RPF;
}

static uint16_t ip6_fast_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				 uint16_t nb)
{
	struct rte_ipv6_hdr *hdr[RTE_GRAPH_BURST_SIZE];
	uint8_t dst[RTE_GRAPH_BURST_SIZE][16];	/* copied: the levels' loops read them in turn */
	uint32_t nh[RTE_GRAPH_BURST_SIZE];
	uint16_t at[RTE_GRAPH_BURST_SIZE];
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	rte_edge_t any = 0, all = UINT16_MAX;
	struct dp_fast_l2_tagged tagged;
	bool filtered = false;	/* an access list or RPF had its say after the tagging */
	uint16_t i, n = 0;

	if (unlikely(nb == 0))
		return 0;
	if (unlikely(DP_TRACE_ACTIVE(graph) || !dp_ip6_forwarding)) {
		rte_node_next_stream_move(graph, node, IP6_FAST_NEXT_SLOW);
		return nb;
	}
	dp_fast_l2_begin(&tagged, dp_vlan_stats[graph->id]);	/* graph id = worker index */
	for (i = 0; i < nb; i++) {
		if (i + 2 < nb)
			rte_prefetch0(rte_pktmbuf_mtod((struct rte_mbuf *)objs[i + 2], void *));
		hdr[i] = fast_candidate(objs[i]);
		nexts[i] = IP6_FAST_NEXT_SLOW;
		if (likely(hdr[i] != NULL)) {
			memcpy(dst[n], hdr[i]->dst_addr, 16);
			at[n++] = i;
		}
	}
	dp_fib6_lookup_bulk((const uint8_t (*)[16])dst, nh, n);
	for (i = 0; i < n; i++) {
		uint16_t k = at[i];

		nexts[k] = fast_forward(objs[k], hdr[k], dp_nh_get(nh[i]), &tagged, k);
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV6, DP_ACL_IN))) {
		filter(graph, objs, nb, nexts, DP_ACL_IN, &tagged);
		filtered = true;
	}
	if (unlikely(dp_rpf_any(DP_RPF_IPV6))) {
		rpf_check(hdr, objs, nb, nexts);
		filtered = true;
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV6, DP_ACL_OUT))) {
		filter(graph, objs, nb, nexts, DP_ACL_OUT, &tagged);
		filtered = true;
	}
	dp_fast_l2_done(&tagged, objs, nexts, nb, IP6_FAST_NEXT_PORT, filtered);
	for (i = 0; i < nb; i++) {
		any |= nexts[i];
		all &= nexts[i];
	}
	dp_node_dispatch(graph, node, objs, nexts, nb, nexts[0], any ^ all);
	return nb;
}

static struct rte_node_register ip6_fast_node = {
	.name = "ip6_fast",
	.process = ip6_fast_process,
	.nb_edges = 4,
	.next_nodes = { [IP6_FAST_NEXT_SLOW] = "eth_input", [IP6_FAST_NEXT_DROP_ACL] = "drop_acl",
			[IP6_FAST_NEXT_DROP_RPF] = "drop_rpf",
			[IP6_FAST_NEXT_PORT + DP_TX_VLAN] = "vlan_output" },
};
RTE_NODE_REGISTER(ip6_fast_node);
