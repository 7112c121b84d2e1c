/*
 * Fuzz target: any frame through ternd's forwarding graph with a populated FIB
 * (forward, ECMP, local, unresolved, blackhole, unreachable, prohibit). No
 * crash, and every mbuf comes back to the pool: sent, dropped or punted.
 * The packet trace is armed throughout, and every traced packet's record
 * must end (each path reaches a sink).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_mempool.h>

#include "bench/pipeline.h"
#include "dataplane/fib.h"
#include "dataplane/nexthop.h"
#include "dataplane/punt.h"
#include "dataplane/trace.h"

static struct pipeline p;
static unsigned int baseline;

static void nexthops(void)
{
	static const uint32_t members[] = { 1, 2 };
	struct dp_nexthop nh = { .port = 1, .mtu = 1400 };

	nh.kind = DP_NH_LOCAL;
	dp_nh_set(3, &nh, NULL);
	nh.kind = DP_NH_UNRESOLVED;
	dp_nh_set(4, &nh, NULL);
	nh.kind = DP_NH_BLACKHOLE;
	dp_nh_set(5, &nh, NULL);
	nh.kind = DP_NH_UNREACHABLE;
	dp_nh_set(6, &nh, NULL);
	nh.kind = DP_NH_PROHIBIT;
	dp_nh_set(7, &nh, NULL);
	nh.kind = DP_NH_GROUP;
	nh.nb_members = 2;
	dp_nh_set(8, &nh, members);
	dp_fib_add(0xc6130000, 24, 1);	/* 198.19.0.0/24 forward */
	dp_fib_add(0xc6130100, 24, 8);	/* ECMP */
	dp_fib_add(0xc6120001, 32, 3);	/* local */
	dp_fib_add(0xc6130200, 24, 4);
	dp_fib_add(0xc6130300, 24, 5);
	dp_fib_add(0xc6130400, 24, 6);
	dp_fib_add(0xc6130500, 24, 7);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char prefix[64];

	(void)argc;
	(void)argv;
	snprintf(prefix, sizeof(prefix), "tern-fuzz-%d", getpid());
	if (pipeline_init(&p, 65536, prefix, 1, NULL) < 0)
		__builtin_trap();
	nexthops();
	baseline = rte_mempool_avail_count(p.pool);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *frames[1] = { data };
	uint16_t len = size > 256 ? 256 : size;
	void *m;

	if (__atomic_load_n(&dp_trace.left, __ATOMIC_RELAXED) <= 0)
		dp_trace_arm(DP_TRACE_ANY_PORT, DP_TRACE_PER_WORKER);
	pipeline_inject(frames, &len, 1);
	pipeline_walk(&p);
	/* what was punted waits in the ring for the exception service: take it back */
	while (rte_ring_dequeue(dp_punt[0].ring, &m) == 0)
		rte_pktmbuf_free(m);
	if (rte_mempool_avail_count(p.pool) != baseline)
		__builtin_trap();	/* an mbuf went missing */
	if (dp_trace_in_flight() != 0)
		__builtin_trap();	/* a traced packet's path never ended */
	return 0;
}
