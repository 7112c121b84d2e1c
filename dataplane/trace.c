/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet trace: picking packets at port_rx and following them, per worker, through the graph. */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>
#include <rte_rcu_qsbr.h>

#include "dataplane/fib/nexthop.h"
#include "dataplane/node.h"
#include "dataplane/rcu.h"
#include "dataplane/trace.h"

struct dp_trace_state dp_trace;
struct dp_trace_worker *dp_trace_workers;
int dp_trace_slot_offset = -1;
static unsigned int trace_nb_workers;

/* The mbuf's slot: generation << 16 | record index + 1; anything else is not traced. */
static inline uint32_t *slot(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, dp_trace_slot_offset, uint32_t *);
}

int dp_trace_init(unsigned int nb_workers)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "tern_trace_slot",
		.size = sizeof(uint32_t),
		.align = __alignof__(uint32_t),
	};

	dp_trace_slot_offset = rte_mbuf_dynfield_register(&desc);
	if (dp_trace_slot_offset < 0)
		return -rte_errno;
	dp_trace_workers = rte_zmalloc("tern_trace", nb_workers * sizeof(*dp_trace_workers),
				       RTE_CACHE_LINE_SIZE);
	if (dp_trace_workers == NULL)
		return -ENOMEM;
	trace_nb_workers = nb_workers;
	memset(&dp_trace, 0, sizeof(dp_trace));
	return 0;
}

/* The record this worker keeps for m, or NULL when m is not traced (or from an older trace). */
static inline struct dp_trace_rec *rec_of(unsigned int worker, struct rte_mbuf *m)
{
	uint32_t s = *slot(m), idx = (s & 0xffff) - 1;
	struct dp_trace_worker *tw = &dp_trace_workers[worker];

	if ((s >> 16) != dp_trace.gen || idx >= tw->n)
		return NULL;
	if (tw->rec[idx].m != m || tw->rec[idx].done)
		return NULL;
	return &tw->rec[idx];
}

static inline void path_add(struct dp_trace_rec *r, rte_node_t node)
{
	if (r->nb_path < DP_TRACE_PATH)
		r->path[r->nb_path++] = node;
}

void dp_trace_rx(unsigned int worker, rte_node_t node, struct rte_mbuf **m, uint16_t n)
{
	struct dp_trace_worker *tw = &dp_trace_workers[worker];
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct dp_trace_rec *r;
		const struct rte_ether_hdr *eth;

		*slot(m[i]) = 0;
		if (dp_trace.port != DP_TRACE_ANY_PORT && dp_port_map.index[m[i]->port] != dp_trace.port)
			continue;
		if (tw->n == DP_TRACE_PER_WORKER ||
		    __atomic_sub_fetch(&dp_trace.left, 1, __ATOMIC_RELAXED) < 0)
			continue;
		r = &tw->rec[tw->n];
		memset(r, 0, sizeof(*r));
		r->m = m[i];
		r->tsc = rte_rdtsc();
		r->seq = __atomic_fetch_add(&dp_trace.seq, 1, __ATOMIC_RELAXED);
		r->gen = dp_trace.gen;
		r->port_in = dp_port_map.index[m[i]->port];
		r->len = rte_pktmbuf_pkt_len(m[i]);
		r->port_out = DP_TRACE_NOT_SENT;
		if (rte_pktmbuf_data_len(m[i]) >= sizeof(*eth)) {
			eth = rte_pktmbuf_mtod(m[i], const struct rte_ether_hdr *);
			r->ether_type = rte_be_to_cpu_16(eth->ether_type);
			if (r->ether_type == RTE_ETHER_TYPE_IPV4 &&
			    rte_pktmbuf_data_len(m[i]) >= sizeof(*eth) + sizeof(struct rte_ipv4_hdr)) {
				const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);

				r->ip4 = true;
				r->proto = ip->next_proto_id;
				r->ttl = ip->time_to_live;
				r->src = ip->src_addr;
				r->dst = ip->dst_addr;
			}
		}
		path_add(r, node);
		*slot(m[i]) = (uint32_t)dp_trace.gen << 16 | (tw->n + 1);
		tw->in_flight++;
		/* a record is counted once it is whole: the control thread reads up to n */
		__atomic_store_n(&tw->n, tw->n + 1, __ATOMIC_RELEASE);
	}
}

void dp_trace_node(unsigned int worker, rte_node_t node, void **objs, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct dp_trace_rec *r = rec_of(worker, objs[i]);

		if (r)
			path_add(r, node);
	}
}

void dp_trace_nexthop(unsigned int worker, struct rte_mbuf *m, const struct dp_nexthop *nh)
{
	struct dp_trace_rec *r = rec_of(worker, m);

	if (r == NULL)
		return;
	r->looked_up = true;
	r->nh_kind = nh->kind;
	r->nh_port = nh->port;
	r->nh_mac = nh->eth.dst_addr;
}

void dp_trace_port_out(unsigned int worker, struct rte_mbuf *m, uint16_t port_out)
{
	struct dp_trace_rec *r = rec_of(worker, m);

	if (r)
		r->port_out = port_out;
}

void dp_trace_end(unsigned int worker, rte_node_t node, void **objs, uint16_t n, uint16_t port_out)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct dp_trace_rec *r = rec_of(worker, objs[i]);

		if (r == NULL)
			continue;
		path_add(r, node);
		if (r->port_out == DP_TRACE_NOT_SENT)
			r->port_out = port_out;
		dp_trace_workers[worker].in_flight--;
		__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	}
}

int dp_trace_arm(uint16_t port, unsigned int count)
{
	unsigned int w;

	if (dp_trace_workers == NULL)
		return -ENODEV;
	if (count == 0 || count > DP_TRACE_PER_WORKER)
		return -ERANGE;
	dp_trace_disarm();
	for (w = 0; w < trace_nb_workers; w++)
		dp_trace_workers[w].n = dp_trace_workers[w].in_flight = 0;
	dp_trace.gen++;
	dp_trace.port = port;
	dp_trace.seq = 0;
	__atomic_store_n(&dp_trace.left, (int32_t)count, __ATOMIC_RELAXED);
	__atomic_store_n(&dp_trace.on, 1, __ATOMIC_RELEASE);
	return 0;
}

void dp_trace_disarm(void)
{
	if (!dp_trace.on)
		return;
	__atomic_store_n(&dp_trace.on, 0, __ATOMIC_RELEASE);
	/* once every worker has finished the walk it was in, none writes a record */
	if (dp_rcu)
		rte_rcu_qsbr_synchronize(dp_rcu, RTE_QSBR_THRID_INVALID);
}

unsigned int dp_trace_in_flight(void)
{
	unsigned int w, i, busy = 0;

	for (w = 0; w < trace_nb_workers; w++) {
		const struct dp_trace_worker *tw = &dp_trace_workers[w];
		uint32_t n = __atomic_load_n(&tw->n, __ATOMIC_ACQUIRE);

		for (i = 0; i < n; i++)
			busy += !__atomic_load_n(&tw->rec[i].done, __ATOMIC_ACQUIRE);
	}
	return busy;
}

bool dp_trace_complete(void)
{
	return __atomic_load_n(&dp_trace.left, __ATOMIC_RELAXED) <= 0 && dp_trace_in_flight() == 0;
}
