/*
 * ip4_fast: the common case in one node. A frame for the port's own MAC
 * carrying a plain IPv4 packet (no options, a good checksum, TTL > 1, no
 * martian address, not for multicast or broadcast) whose route forwards it
 * out of an up port within its MTU is parsed, looked up, TTL-decremented and
 * rewritten here and handed straight to port_tx: three node calls per vector
 * instead of seven. Everything else goes, untouched, to eth_input, whose
 * nodes check it again, count it under its reason and deal with it; the
 * outcome for a packet is the same either way. While a trace is armed the
 * whole vector takes that long path, which is the one a trace records.
 */
#include <rte_ether.h>
#include <rte_fib.h>

#include "dataplane/ecmp.h"
#include "dataplane/fib.h"
#include "dataplane/ip4.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

/* Edge 0 is the long path; edge 1 + i is port i's port_tx (added by dp_node_port_tx_clone). */
#define IP4_FAST_NEXT_SLOW 0

/* Whether the long path would take the frame as far as its FIB lookup, with nothing to note. */
static inline bool fast_candidate(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	uint16_t port = dp_port_index[m->port];
	uint64_t ck = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	if (unlikely(m->data_len < sizeof(*eth) + sizeof(*ip) || !dp_port_up[port]))
		return false;
	if (unlikely(!rte_is_same_ether_addr(&eth->dst_addr, &dp_port_mac[port]) ||
		     eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4)))
		return false;
	if (unlikely(ip->version_ihl != RTE_IPV4_VHL_DEF || ip->time_to_live <= 1 ||
		     ck == RTE_MBUF_F_RX_IP_CKSUM_BAD || ip4_is_mcast_or_bcast(ip->dst_addr)))
		return false;
	return ip4_check(ip, m->data_len - sizeof(*eth), m->pkt_len - sizeof(*eth),
			 ck == RTE_MBUF_F_RX_IP_CKSUM_GOOD) == IP4_OK;
}

/* Forwards m by nh the way ip4_input, ip4_forward and ip4_rewrite would: the edge to its
 * port_tx, or IP4_FAST_NEXT_SLOW, untouched, when it cannot. */
static inline rte_edge_t fast_forward(struct rte_mbuf *m, const struct dp_nexthop *nh)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *,
							  sizeof(struct rte_ether_hdr));
	uint32_t tl = rte_be_to_cpu_16(ip->total_length);

	if (unlikely(nh->kind == DP_NH_GROUP))
		nh = ecmp_member(nh, ip);
	if (unlikely(nh->kind != DP_NH_FORWARD || !dp_port_up[nh->port] || tl > nh->mtu))
		return IP4_FAST_NEXT_SLOW;
	m->l2_len = sizeof(struct rte_ether_hdr);
	/* Ethernet pads short frames: keep only what the IP header claims. */
	if (unlikely(m->pkt_len > m->l2_len + tl))
		rte_pktmbuf_trim(m, m->pkt_len - m->l2_len - tl);
	ip4_ttl_decrement(ip);
	rte_memcpy(rte_pktmbuf_mtod(m, void *), &nh->eth, sizeof(nh->eth));
	return 1 + nh->port;
}

static uint16_t ip4_fast_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				 uint16_t nb)
{
	uint32_t dst[RTE_GRAPH_BURST_SIZE];
	uint64_t nh_id[RTE_GRAPH_BURST_SIZE];
	uint16_t which[RTE_GRAPH_BURST_SIZE];
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	uint16_t n = 0, odd = 0, i;

	if (unlikely(nb == 0))
		return 0;
	if (unlikely(DP_TRACE_ACTIVE(graph))) {
		rte_node_next_stream_move(graph, node, IP4_FAST_NEXT_SLOW);
		return nb;
	}
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];

		if (i + 2 < nb)
			rte_prefetch0(rte_pktmbuf_mtod((struct rte_mbuf *)objs[i + 2], void *));
		nexts[i] = IP4_FAST_NEXT_SLOW;
		if (likely(fast_candidate(m))) {
			dst[n] = rte_be_to_cpu_32(rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
						  sizeof(struct rte_ether_hdr))->dst_addr);
			which[n++] = i;
		}
	}
	if (n > 0)
		rte_fib_lookup_bulk(dp_fib_active(), dst, nh_id, n);
	for (i = 0; i < n; i++)
		nexts[which[i]] = fast_forward(objs[which[i]], dp_nh_get(nh_id[i]));
	for (i = 1; i < nb; i++)
		odd |= nexts[i] ^ nexts[0];
	dp_node_dispatch(graph, node, objs, nexts, nb, nexts[0], odd);
	return nb;
}

static struct rte_node_register ip4_fast_node = {
	.name = "ip4_fast",
	.process = ip4_fast_process,
	.nb_edges = 1,
	.next_nodes = { [IP4_FAST_NEXT_SLOW] = "eth_input" },
};
RTE_NODE_REGISTER(ip4_fast_node);
