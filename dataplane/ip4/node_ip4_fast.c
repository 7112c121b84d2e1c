/* SPDX-License-Identifier: BSD-3-Clause */
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

#include "dataplane/acl/acl.h"
#include "dataplane/fib/ecmp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/rpf.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/l2/fast_l2.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

/* Edge 0 is the long path, edge 1 IPv6's fast path, edge 2 what an access list denies, edge 3
 * what unicast RPF drops; the transmit edges (node.h) follow. */
#define IP4_FAST_NEXT_SLOW 0
#define IP4_FAST_NEXT_IP6 1
#define IP4_FAST_NEXT_DROP_ACL 2
#define IP4_FAST_NEXT_DROP_RPF 3
#define IP4_FAST_NEXT_PORT DP_IP4_FAST_TX_EDGE

/*
 * rte_be_to_cpu_16 swaps a variable through inline assembly, which the
 * compiler can neither fold into the load (movbe) nor into a comparison; the
 * builtin lets it do both.
 */
static inline uint16_t be16_to_cpu(rte_be16_t v)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return __builtin_bswap16(v);
#else
	return v;
#endif
}

/*
 * The frame's IPv4 header when the long path would take it as far as its FIB
 * lookup with nothing to note, else NULL: ip4_check's tests for the one
 * header shape the fast path takes (version 4, IHL 5), each field read once.
 */
static inline struct rte_ipv4_hdr *fast_candidate(struct rte_mbuf *m, uint32_t *total_length)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	uint16_t port = dp_port_map.index[m->port];
	uint64_t ck = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
	uint64_t head;
	uint32_t tl;

	if (unlikely(m->data_len < sizeof(*eth) + sizeof(*ip) || !dp_port_map.up[port]))
		return NULL;
	memcpy(&head, eth, sizeof(head));	/* the destination MAC and 2 bytes after it */
	if (unlikely(dp_mac_word_differs(head, dp_port_map.mac[port].word) ||
		     eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4)))
		return NULL;
	tl = be16_to_cpu(ip->total_length);
	if (unlikely(ip->version_ihl != RTE_IPV4_VHL_DEF || ip->time_to_live <= 1 ||
		     tl < sizeof(*ip) || tl + sizeof(*eth) > m->pkt_len))
		return NULL;
	/* martian sources; martian, multicast, 240/4 and broadcast destinations (ip4.h) */
	if (unlikely(ip4_martian_src_octet[((const uint8_t *)&ip->src_addr)[0]] |
		     ip4_martian_src_octet[((const uint8_t *)&ip->dst_addr)[0]]))
		return NULL;
	if (unlikely(ck == RTE_MBUF_F_RX_IP_CKSUM_BAD ||
		     (ck != RTE_MBUF_F_RX_IP_CKSUM_GOOD && !ip4_cksum20_ok(ip))))
		return NULL;
	*total_length = tl;
	return ip;
}

/* fast_forward's frames out of a sub-interface (frame i of the vector), out of its way. */
static __rte_noinline rte_edge_t fast_forward_tagged(struct rte_mbuf *m, struct rte_ipv4_hdr *ip,
						     uint32_t tl, const struct dp_nexthop *nh,
						     struct dp_fast_l2_tagged *tagged, uint16_t i)
{
	int k = dp_fast_l2_push(m, tl + sizeof(struct rte_ether_hdr), nh, tagged, i);

	if (unlikely(k < 0))
		return IP4_FAST_NEXT_SLOW;
	ip4_ttl_decrement(ip);
	return IP4_FAST_NEXT_PORT + k;
}

/* Forwards m (its header ip, total length tl) by nh the way ip4_input, ip4_forward,
 * ip_rewrite and vlan_output would: its transmit edge, or IP4_FAST_NEXT_SLOW, untouched, when
 * it cannot; marks it, frame i of the vector, in tagged when it leaves a sub-interface. */
static inline rte_edge_t fast_forward(struct rte_mbuf *m, struct rte_ipv4_hdr *ip, uint32_t tl,
				      const struct dp_nexthop *nh, struct dp_fast_l2_tagged *tagged,
				      uint16_t i)
{
	if (unlikely(nh->kind != DP_NH_FORWARD)) {
		if (nh->kind != DP_NH_GROUP)
			return IP4_FAST_NEXT_SLOW;
		nh = ecmp_member(nh, m, ip);
		if (nh->kind != DP_NH_FORWARD)
			return IP4_FAST_NEXT_SLOW;
	}
	if (unlikely(!dp_port_egress_ok(nh->port) || tl > nh->mtu))
		return IP4_FAST_NEXT_SLOW;
	if (unlikely(nh->tx == DP_TX_VLAN))
		return fast_forward_tagged(m, ip, tl, nh, tagged, i);
	/* Ethernet pads short frames: keep only what the IP header claims. */
	tl += sizeof(struct rte_ether_hdr);
	if (unlikely(m->pkt_len > tl))
		rte_pktmbuf_trim(m, m->pkt_len - tl);
	ip4_ttl_decrement(ip);
	/* the two MACs; the frame's EtherType is already IPv4 */
	memcpy((uint8_t *)ip - sizeof(struct rte_ether_hdr), &nh->eth, 2 * RTE_ETHER_ADDR_LEN);
	return IP4_FAST_NEXT_PORT + nh->tx;
}

/* Whether the frame holds IPv6 (ip6_fast takes it, or passes it on to eth_input). */
static inline bool frame_is_ip6(const struct rte_mbuf *m)
{
	return m->data_len >= sizeof(struct rte_ether_hdr) &&
	       rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->ether_type ==
		       RTE_BE16(RTE_ETHER_TYPE_IPV6);
}

/* The frame's IPv4 destination, host order, or 0 when the frame is too short to hold one. */
static inline uint32_t frame_dst(const struct rte_mbuf *m)
{
	rte_be32_t d = 0;

	if (likely(m->data_len >= sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr)))
		d = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
					    sizeof(struct rte_ether_hdr))->dst_addr;
	return rte_be_to_cpu_32(d);
}

/*
 * Frames from .. to - 1 of the vector, each in one go: its checks (or, when
 * checked, the ones a pass before made: hdr and tl, from from on), its FIB lookup, its
 * rewrite and its next. The lookup starts from each frame's first-level FIB
 * entry, found and prefetched before (entries): the next hop shifted left by
 * one or, with bit 0 set, a second-level group's index (dp_fib_entry_nh).
 * Inlined once for each case, so the test on checked is made at compile
 * time; any and all collect the nexts' bits (they differ where the nexts do).
 */
static __rte_always_inline void
fast_frames(void **objs, uint16_t from, uint16_t to, unsigned int copy,
	    const uint32_t *const *entries, bool checked, struct rte_ipv4_hdr *const *hdr,
	    const uint32_t *tl, rte_edge_t *nexts, rte_edge_t *any, rte_edge_t *all,
	    struct dp_fast_l2_tagged *tagged)
{
	uint16_t i;

	for (i = from; i < to; i++) {
		struct rte_mbuf *m = objs[i];
		rte_edge_t next = IP4_FAST_NEXT_SLOW;
		struct rte_ipv4_hdr *ip;
		uint32_t len;

		if (checked) {	/* hdr and tl are given exactly when checked */
			/* cppcheck-suppress nullPointer */
			ip = hdr[i - from];
			/* cppcheck-suppress nullPointer */
			len = tl[i - from];
		} else {
			ip = fast_candidate(m, &len);
		}
		if (likely(ip != NULL))
			next = fast_forward(m, ip, len,
					    dp_nh_get(dp_fib_entry_nh(copy, *entries[i],
								      rte_be_to_cpu_32(ip->dst_addr))),
					    tagged, i);
		else if (frame_is_ip6(m))
			next = IP4_FAST_NEXT_IP6;
		nexts[i] = next;
		*any |= next;
		*all &= next;
	}
}

/*
 * The checks made after the lookups on the frames the passes above forward, in the long
 * path's order: the ingress interface's access list (ip4_input's), unicast RPF (ip4_lookup's),
 * the egress interface's list (ip4_forward's). They are not ip4_fast's frames until then: the
 * others go to the long path, which checks them the same way (and counts them once). A frame
 * that fails, already rewritten, is dropped. Each returns the bit a dropped frame's next adds
 * to any (the vector is no longer all alike), or 0.
 */
static __rte_noinline rte_edge_t filter(struct rte_graph *graph, void **objs, uint16_t nb,
					rte_edge_t *nexts, uint8_t dir,
					const struct dp_fast_l2_tagged *tagged)
{
	struct dp_acl_pick pick;

	dp_fast_l2_acl_pick(&pick, DP_ACL_IPV4, dir, objs, nexts, nb, IP4_FAST_NEXT_PORT, tagged);
	return dp_acl_pick_filter(graph, &pick, DP_ACL_IPV4, dir, objs, nexts,
				  IP4_FAST_NEXT_DROP_ACL) ? UINT16_MAX : 0;
}

static __rte_noinline rte_edge_t rpf_check(void **objs, uint16_t nb, rte_edge_t *nexts,
					   const struct dp_fast_l2_tagged *tagged)
{
	uint32_t src[RTE_GRAPH_BURST_SIZE], nh[RTE_GRAPH_BURST_SIZE];
	uint16_t at[RTE_GRAPH_BURST_SIZE], port[RTE_GRAPH_BURST_SIZE];
	uint8_t mode[RTE_GRAPH_BURST_SIZE];
	uint16_t i, n = 0, failed = 0;

	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = objs[i];

		if (nexts[i] < IP4_FAST_NEXT_PORT)
			continue;
		port[n] = dp_port_map.index[m->port];
		mode[n] = dp_rpf.mode[DP_RPF_IPV4][port[n]];
		if (mode[n] == DP_RPF_OFF)
			continue;
		src[n] = rte_be_to_cpu_32(rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
						dp_fast_l2_len(tagged, m, i))->src_addr);
		at[n++] = i;
	}
	dp_fib_lookup_bulk(src, nh, n);
	for (i = 0; i < n; i++)
		if (unlikely(!dp_rpf_pass(dp_nh_get(nh[i]), mode[i], port[i]))) {
			nexts[at[i]] = IP4_FAST_NEXT_DROP_RPF;
			failed++;
		}
	return failed ? UINT16_MAX : 0;
}

/* Frames at the head of a chunk whose headers are checked in a pass of their own. */
#define IP4_FAST_HEAD_START 8
/*
 * A vector is taken in chunks of this many frames, each through all the
 * passes below before the next: a worker's rx burst is 128 by default, and a
 * first pass over 128 frames had the first ones' lines cooling by the time the
 * last pass came back to them. The pipeline benchmark (1k routes, 65 536
 * destinations, runs of two builds alternating, a noisy day) took 28.8-30.5
 * cycles a packet with bursts of 128 and no chunks, 23.8-28.9 with chunks of
 * 32, and 23.2-33.8 with bursts of 32.
 */
#define IP4_FAST_CHUNK 32

static uint16_t ip4_fast_process(struct rte_graph *graph, struct rte_node *node, void **objs,
				 uint16_t nb)
{
	const uint32_t *entries[RTE_GRAPH_BURST_SIZE];
	struct rte_ipv4_hdr *hdr[IP4_FAST_HEAD_START];
	uint32_t tl[IP4_FAST_HEAD_START];
	rte_edge_t nexts[RTE_GRAPH_BURST_SIZE];
	rte_edge_t any = 0, all = UINT16_MAX;
	struct dp_fast_l2_tagged tagged;
	bool filtered = false;	/* an access list or RPF had its say after the tagging */
	const uint32_t *tbl24;
	unsigned int copy;
	uint16_t i, head, at, end;

	if (unlikely(nb == 0))
		return 0;
	if (unlikely(DP_TRACE_ACTIVE(graph))) {
		rte_node_next_stream_move(graph, node, IP4_FAST_NEXT_SLOW);
		return nb;
	}
	/* a vector of IPv6 alone (a port that carries only IPv6, or a generator's) goes to
	 * ip6_fast whole: the passes below would only find that each frame is not theirs */
	if (unlikely(frame_is_ip6(objs[0]))) {
		for (i = 1; i < nb && frame_is_ip6(objs[i]); i++)
			;
		if (i == nb) {
			rte_node_next_stream_move(graph, node, IP4_FAST_NEXT_IP6);
			return nb;
		}
	}
	dp_fast_l2_begin(&tagged, dp_vlan_stats[graph->id]);	/* graph id = worker index */
	copy = dp_fib_active_index();
	tbl24 = dp_fib_tbl24[copy];
	/*
	 * A first pass finds each frame's first-level entry (what a frame too
	 * short to hold a destination, or one that then fails its checks, points
	 * at is not read) and prefetches it. Its loads of the headers do not
	 * depend on each other, so the core overlaps their cache misses as it
	 * would prefetches. With a full table the entries are spread over
	 * 64 MiB, and the first frames' entries would be read before they
	 * arrive: those frames' headers are checked in a pass of their own
	 * first; the others' entries have the frames before them to arrive.
	 * Against checking every header in a pass of its own (callgrind: 122.3
	 * instructions a packet, here 120.5), the pipeline benchmark took 0.91x
	 * the cycles with 1k routes and the same (1.005x) with 1M; with every
	 * frame in one pass (113.9), 0.92x and 1.14x.
	 */
	for (at = 0; at < nb; at = end) {
		end = RTE_MIN(nb, at + IP4_FAST_CHUNK);
		for (i = at; i < end; i++) {
			entries[i] = &tbl24[frame_dst(objs[i]) >> 8];
			rte_prefetch0(entries[i]);
		}
		head = RTE_MIN(end, at + IP4_FAST_HEAD_START);
		for (i = at; i < head; i++)
			hdr[i - at] = fast_candidate(objs[i], &tl[i - at]);
		fast_frames(objs, at, head, copy, entries, true, hdr, tl, nexts, &any, &all,
			    &tagged);
		fast_frames(objs, head, end, copy, entries, false, NULL, NULL, nexts, &any, &all,
			    &tagged);
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV4, DP_ACL_IN))) {
		any |= filter(graph, objs, nb, nexts, DP_ACL_IN, &tagged);
		filtered = true;
	}
	if (unlikely(dp_rpf_any(DP_RPF_IPV4))) {
		any |= rpf_check(objs, nb, nexts, &tagged);
		filtered = true;
	}
	if (unlikely(dp_acl_any(DP_ACL_IPV4, DP_ACL_OUT))) {
		any |= filter(graph, objs, nb, nexts, DP_ACL_OUT, &tagged);
		filtered = true;
	}
	dp_fast_l2_done(&tagged, objs, nexts, nb, IP4_FAST_NEXT_PORT, filtered);
	dp_node_dispatch(graph, node, objs, nexts, nb, nexts[0], any ^ all);
	return nb;
}

static struct rte_node_register ip4_fast_node = {
	.name = "ip4_fast",
	.process = ip4_fast_process,
	.nb_edges = 5,
	.next_nodes = { [IP4_FAST_NEXT_SLOW] = "eth_input", [IP4_FAST_NEXT_IP6] = "ip6_fast",
			[IP4_FAST_NEXT_DROP_ACL] = "drop_acl", [IP4_FAST_NEXT_DROP_RPF] = "drop_rpf",
			[IP4_FAST_NEXT_PORT + DP_TX_VLAN] = "vlan_output" },
};
RTE_NODE_REGISTER(ip4_fast_node);
