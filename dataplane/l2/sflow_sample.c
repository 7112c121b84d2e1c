/* SPDX-License-Identifier: BSD-3-Clause */
/* sFlow's packet sampling on the workers (sflow_sample.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ring.h>
#include <rte_ring_elem.h>

#include "dataplane/l2/sflow_sample.h"

uint32_t *dp_sflow_rate;
struct dp_sflow_count *dp_sflow_counts[DP_MAX_WORKERS];
uint32_t dp_sflow_subifs;

/* Each worker's ring (single producer, single consumer: rte_ring on memory of our own, so
 * that it needs no EAL) and its random state. */
static struct {
	struct rte_ring *ring;
	uint64_t random;
} __rte_cache_aligned workers[DP_MAX_WORKERS];
static unsigned int nb_workers;

int dp_sflow_init(unsigned int n)
{
	ssize_t size = rte_ring_get_memsize_elem(sizeof(struct dp_sflow_sample), DP_SFLOW_RING);
	unsigned int w;
	char name[RTE_RING_NAMESIZE];

	if (n > DP_MAX_WORKERS || size < 0)
		return -EINVAL;
	for (w = 0; w < n; w++) {
		if (workers[w].ring == NULL) {
			workers[w].ring = aligned_alloc(RTE_CACHE_LINE_SIZE,
							RTE_ALIGN_CEIL((size_t)size, RTE_CACHE_LINE_SIZE));
			if (workers[w].ring == NULL)
				return -ENOMEM;
		}
		snprintf(name, sizeof(name), "tern_sflow%u", w);
		if (rte_ring_init(workers[w].ring, name, DP_SFLOW_RING,
				  RING_F_SP_ENQ | RING_F_SC_DEQ) < 0)
			return -EINVAL;
		/* any odd seed that differs between workers and between runs */
		workers[w].random = (rte_rdtsc() ^ ((uint64_t)w << 32) ^ 0x9e3779b97f4a7c15ull) | 1;
	}
	nb_workers = n;
	return 0;
}

/* xorshift64*: fast, and good enough that samples show no pattern a sender could use. */
static inline uint32_t random32(unsigned int worker)
{
	uint64_t x = workers[worker].random;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	workers[worker].random = x;
	return (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 32);
}

/* Frames to the next sample: uniform over 1 .. 2 rate - 1, so rate on average. */
static inline uint32_t skip_draw(unsigned int worker, uint32_t rate)
{
	uint32_t span = 2 * rate - 1;

	return 1 + (uint32_t)(((uint64_t)random32(worker) * span) >> 32);
}

static void take(unsigned int worker, struct dp_sflow_count *c, uint16_t index,
		 const struct rte_mbuf *m)
{
	struct dp_sflow_sample s;
	uint16_t len = RTE_MIN(m->data_len, (uint16_t)DP_SFLOW_HEADER);

	s.index = index;
	s.header_len = len;
	s.frame_len = m->pkt_len;
	memcpy(s.header, rte_pktmbuf_mtod(m, const uint8_t *), len);
	if (rte_ring_sp_enqueue_elem(workers[worker].ring, &s, sizeof(s)) == 0)
		c->samples++;
	else
		c->drops++;
}

void dp_sflow_burst(unsigned int worker, uint16_t index, uint32_t rate, struct rte_mbuf **m,
		    uint16_t n)
{
	struct dp_sflow_count *c = &dp_sflow_counts[worker][index];
	uint32_t left = n, at = 0;

	if (unlikely(c->rate != rate)) {
		c->rate = rate;
		c->skip = skip_draw(worker, rate);
	}
	c->pool += n;
	while (c->skip <= left) {
		at += c->skip;
		left -= c->skip;
		take(worker, c, index, m[at - 1]);
		c->skip = skip_draw(worker, rate);
	}
	c->skip -= left;
}

unsigned int dp_sflow_drain(struct dp_sflow_sample *out, unsigned int max)
{
	unsigned int w, n = 0;

	for (w = 0; w < nb_workers && n < max; w++)
		n += rte_ring_sc_dequeue_burst_elem(workers[w].ring, out + n, sizeof(*out),
						    max - n, NULL);
	return n;
}

void dp_sflow_count_get(unsigned int index, struct dp_sflow_count *sum)
{
	unsigned int w;

	memset(sum, 0, sizeof(*sum));
	for (w = 0; w < DP_MAX_WORKERS && dp_sflow_counts[w] != NULL; w++) {
		const struct dp_sflow_count *c = &dp_sflow_counts[w][index];

		sum->pool += __atomic_load_n(&c->pool, __ATOMIC_RELAXED);
		sum->samples += __atomic_load_n(&c->samples, __ATOMIC_RELAXED);
		sum->drops += __atomic_load_n(&c->drops, __ATOMIC_RELAXED);
	}
}

void dp_sflow_rate_set(unsigned int index, uint32_t rate)
{
	uint32_t old = dp_sflow_rate[index];

	if (old == rate)
		return;
	if (index < dp.nb_ports && dp.ports[index].kind == DP_PORT_VLAN)
		dp_sflow_subifs += (rate != 0) - (old != 0);
	__atomic_store_n(&dp_sflow_rate[index], rate, __ATOMIC_RELAXED);
}

void dp_sflow_zero(unsigned int index)
{
	unsigned int w;

	dp_sflow_rate_set(index, 0);
	for (w = 0; w < DP_MAX_WORKERS && dp_sflow_counts[w] != NULL; w++)
		memset(&dp_sflow_counts[w][index], 0, sizeof(dp_sflow_counts[w][index]));
}
