/*
 * Fuzz target: any frame through ternd's forwarding graph with a populated FIB
 * (forward, ECMP, local, unresolved, blackhole, unreachable, prohibit). No
 * crash, and every mbuf comes back to the pool: sent, dropped or punted.
 * A destination MAC of 02:00:00:00:a0:00 is replaced with the port's own.
 * Each frame goes through twice: as it comes (ip4_fast takes what it can),
 * then traced (which sends it down the long path, and its record must end);
 * both must send and punt the same bytes and count the same sink nodes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "bench/pipeline.h"
#include "dataplane/punt.h"
#include "dataplane/trace.h"

static struct pipeline p;
static unsigned int baseline;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char prefix[64];

	(void)argc;
	(void)argv;
	snprintf(prefix, sizeof(prefix), "tern-fuzz-%d", getpid());
	if (pipeline_init(&p, 65536, prefix, 1, NULL) < 0)
		__builtin_trap();
	pipeline_route_every_kind();
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
		    strncmp(n->name, "icmp_", 5) && strncmp(n->name, "port_tx-", 8))
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
static uint64_t walk(const uint8_t *data, uint16_t len, bool traced)
{
	static struct pipeline_frame sent[16];
	const uint8_t *frames[1] = { data };
	uint64_t objs[256] = { 0 }, h = 0xcbf29ce484222325ull;
	unsigned int nb_sent = 0, i;
	void *m;

	sinks(0, objs, RTE_DIM(objs));
	if (traced && dp_trace_arm(DP_TRACE_ANY_PORT, 1) < 0)
		__builtin_trap();
	pipeline_capture(sent, RTE_DIM(sent), &nb_sent);
	pipeline_inject(frames, &len, 1);
	pipeline_walk(&p);
	pipeline_capture(NULL, 0, NULL);
	if (traced) {
		if (dp_trace_in_flight() != 0)
			__builtin_trap();	/* a traced packet's path never ended */
		dp_trace_disarm();
	}
	/* what was punted waits in the ring for the exception service: take it back */
	while (rte_ring_dequeue(dp_punt[0].ring, &m) == 0) {
		struct rte_mbuf *mb = m;

		h = fnv(h, rte_pktmbuf_mtod(mb, void *), rte_pktmbuf_data_len(mb));
		rte_pktmbuf_free(mb);
	}
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
	if (walk(frame, len, false) != walk(frame, len, true))
		__builtin_trap();	/* the fast path did something the long path would not */
	return 0;
}
