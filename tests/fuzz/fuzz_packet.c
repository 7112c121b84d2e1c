/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: any frame through ternd's forwarding graph with a populated FIB
 * (forward, ECMP, local, unresolved, blackhole, unreachable, prohibit). No
 * crash, and every mbuf comes back to the pool: sent, dropped or punted.
 * A destination MAC of 02:00:00:00:a0:00 is replaced with the port's own.
 * Each frame goes through twice: as it comes (ip4_fast takes what it can),
 * then traced (which sends it down the long path, and its record must end);
 * both must send and punt the same bytes and count the same sink nodes. It
 * goes in a vector as its first frame and again as its tenth, after eight
 * plain forwarded ones: ip4_fast checks a vector's first eight headers in a
 * pass of their own and the rest as it forwards them. Each input also picks (from a hash
 * of its bytes, so that every mutation may change it) how a driver hands the frame over:
 * in one segment or two (split inside the Ethernet header, inside the IPv4 header, right
 * after it, or halfway), and with the IP checksum flag a driver sets (none, unknown, good,
 * bad) and an L4 one. Port 0 has sub-interfaces (802.1Q VLAN 100, 802.1ad 10 with
 * 802.1Q 20), so every frame passes vlan_input, and 198.19.18.0/24 leaves by dp1.200. IPv6
 * forwarding is on, with a route of every kind (pipeline_route6_every_kind).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_ip.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "dataplane/harness/pipeline.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "dataplane/trace.h"
#include "dataplane/l2/vlan.h"

#define NB_PLAIN 8	/* forwarded frames between the two copies of the input */

static struct pipeline p;
static unsigned int baseline;
static uint8_t plain[60];	/* UDP 198.18.0.2 -> 198.19.0.5, forwarded out of port 1 */

static void plain_frame_build(void)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)plain;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);

	eth->dst_addr = dp_port0_mac();
	rte_ether_unformat_addr("02:00:00:00:b0:00", &eth->src_addr);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = RTE_BE16(sizeof(plain) - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = RTE_BE32(0xc6120002);
	ip->dst_addr = RTE_BE32(0xc6130005);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

/* A sub-interface, up; its index. */
static int subif(const char *name, unsigned int parent, uint16_t tpid, uint16_t outer, uint16_t inner)
{
	struct dp_vlan_encap e = { tpid, outer, inner };
	char err[192];
	int index = dp_vlan_add(name, parent, &e, err, sizeof(err));

	if (index >= 0)
		dp_port_map.up[index] = 1;
	return index;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct dp_nexthop nh;
	char prefix[64];
	int out;

	snprintf(prefix, sizeof(prefix), "tern-fuzz-%d", getpid());
	if (pipeline_init(&p, 65536, prefix, 1, NULL) < 0)
		__builtin_trap();
	pipeline_route_every_kind();
	pipeline_route6_every_kind();	/* and IPv6's: 2001:2:0:10::/64 forwarded ... */
	/* 198.19.16.0/24: a neighbour of its own behind port 1, which a plain frame given
	 * this route's FIB entry instead of its own would reach */
	nh = *dp_nh_get(1);
	nh.eth.dst_addr.addr_bytes[5] ^= 0x5a;
	if (dp_nh_set(20, &nh, NULL) < 0 || dp_fib_add(0xc6131000, 24, 20) < 0)
		__builtin_trap();
	if (subif("dp0.100", 0, RTE_ETHER_TYPE_VLAN, 100, 0) < 0 ||
	    subif("dp0.1020", 0, RTE_ETHER_TYPE_QINQ, 10, 20) < 0 ||
	    (out = subif("dp1.200", 1, RTE_ETHER_TYPE_VLAN, 200, 0)) < 0)
		__builtin_trap();
	nh = *dp_nh_get(1);
	nh.port = out;
	if (dp_nh_set(21, &nh, NULL) < 0 || dp_fib_add(0xc6131200, 24, 21) < 0)
		__builtin_trap();
	plain_frame_build();
	baseline = rte_mempool_avail_count(p.pool);
	return 0;
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const uint8_t *b = data;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

/* The counters of every node a packet can end in, hashed. */
static uint64_t sinks(uint64_t h, uint64_t *objs, unsigned int cap)
{
	struct rte_node *n;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned int k = 0;

	rte_graph_foreach_node(count, off, p.graph, n) {
		if (strncmp(n->name, "drop_", 5) && strncmp(n->name, "punt_", 5) &&
		    strncmp(n->name, "icmp", 4) && strncmp(n->name, "port_tx-", 8))
			continue;
		if (k == cap)
			__builtin_trap();
		h = fnv(h, &k, sizeof(k));
		objs[k] = n->total_objs - objs[k];	/* before: the count; after: what this walk added */
		h = fnv(h, &objs[k], sizeof(objs[k]));
		k++;
	}
	return h;
}

/* One walk with the frame, traced or not: a digest of everything it did. */
static uint64_t walk(const uint8_t *data, uint16_t len, const struct pipeline_shape *shape,
		     bool traced)
{
	struct pipeline_shape shapes[NB_PLAIN + 2] = { [0] = *shape, [NB_PLAIN + 1] = *shape };
	static struct pipeline_frame sent[32];
	const uint8_t *frames[NB_PLAIN + 2];
	uint16_t lens[NB_PLAIN + 2];
	uint64_t objs[256] = { 0 }, h = 0xcbf29ce484222325ull;
	unsigned int nb_sent = 0, i;
	void *m;

	frames[0] = frames[NB_PLAIN + 1] = data;
	lens[0] = lens[NB_PLAIN + 1] = len;
	for (i = 1; i <= NB_PLAIN; i++) {
		frames[i] = plain;
		lens[i] = sizeof(plain);
	}
	sinks(0, objs, RTE_DIM(objs));
	if (traced && dp_trace_arm(DP_TRACE_ANY_PORT, 1) < 0)
		__builtin_trap();
	pipeline_capture(sent, RTE_DIM(sent), &nb_sent);
	pipeline_inject_shaped(frames, lens, shapes, RTE_DIM(frames));
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	if (traced) {
		if (dp_trace_in_flight() != 0)
			__builtin_trap();	/* a traced packet's path never ended */
		dp_trace_disarm();
	}
	/* what was punted waits in the ring for the exception service: take it back */
	while (dp_punt_dequeue(0, &m) == 0) {
		struct rte_mbuf *mb = m;

		uint8_t bytes[512];
		const void *at = rte_pktmbuf_read(mb, 0, RTE_MIN(rte_pktmbuf_pkt_len(mb), sizeof(bytes)),
						  bytes);

		h = fnv(h, &mb->pkt_len, sizeof(mb->pkt_len));
		if (at != NULL)
			h = fnv(h, at, RTE_MIN(rte_pktmbuf_pkt_len(mb), sizeof(bytes)));
		rte_pktmbuf_free(mb);
	}
	if (nb_sent == RTE_DIM(sent))
		__builtin_trap();	/* more sent than a vector of frames can make */
	qsort(sent, nb_sent, sizeof(sent[0]), pipeline_frame_cmp);	/* the fast path sends first */
	for (i = 0; i < nb_sent; i++)
		h = fnv(h, &sent[i], sizeof(sent[i].port) + sizeof(sent[i].len) +
			RTE_MIN(sent[i].len, sizeof(sent[i].data)));
	h = sinks(h, objs, RTE_DIM(objs));
	if (rte_mempool_avail_count(p.pool) != baseline)
		__builtin_trap();	/* an mbuf went missing */
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* 02:00:00:00:a0:00 stands for the router's MAC, which net_null picks at random */
	static const uint8_t router_mac[6] = { 0x02, 0, 0, 0, 0xa0, 0 };
	static uint8_t frame[256];
	uint16_t len = size > 256 ? 256 : size;

	memcpy(frame, data, len);
	if (len >= 6 && memcmp(frame, router_mac, 6) == 0) {
		struct rte_ether_addr own = dp_port0_mac();

		memcpy(frame, &own, 6);
	}
	uint64_t h = fnv(0xcbf29ce484222325ull, data, size);
	static const uint16_t splits[] = { 0, 0, 0, 0, 7, 14, 24, 34, 42 };
	static const uint64_t ip_flags[] = { 0, RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN,
					     RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_IP_CKSUM_BAD,
					     RTE_MBUF_F_RX_IP_CKSUM_NONE };
	static const uint64_t l4_flags[] = { 0, RTE_MBUF_F_RX_L4_CKSUM_GOOD, RTE_MBUF_F_RX_L4_CKSUM_BAD };
	struct pipeline_shape shape = {
		.first_seg = (h & 15) < RTE_DIM(splits) ? splits[h & 15] : len / 2,
		.ol_flags = ip_flags[(h >> 4) % RTE_DIM(ip_flags)] | l4_flags[(h >> 8) % RTE_DIM(l4_flags)],
	};

	if (walk(frame, len, &shape, false) != walk(frame, len, &shape, true))
		__builtin_trap();	/* the fast path did something the long path would not */
	return 0;
}
