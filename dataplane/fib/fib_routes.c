/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FIB's routes: prefix and depth to next hop, in one 64-bit word each, in
 * an open-addressed table with linear probing at most half full.
 *
 * Written here rather than taken from rte_hash because of what a route costs
 * the control thread with a full table: a lookup in rte_hash reads a bucket, a
 * key in its key store, and the next hop in an array beside it, three cache
 * lines in three places, and it cannot be told to fetch them ahead of time
 * but through a bulk lookup that does the work twice. Here a route is one
 * word, nearly always in the line its hash points at, which fib_update_warm
 * prefetches ahead of each change. With the line map of fib_priv.h, which came
 * with it, 1M routes went into both copies in 0.152 s where rte_hash (warmed by
 * bulk lookups) took 0.203 s (tern-bench pipeline --routes 1000000 --hugepages).
 *
 * A word: bit 63 set when used, then the prefix (32 bits), the depth (6), and
 * the next hop (20: DP_NH_MAX). A delete shifts back the words after it that
 * would no longer be found (no tombstones), so probes stay short after any
 * churn.
 */
#include <errno.h>

#include <rte_common.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>

#include "dataplane/fib/fib_priv.h"
#include "dataplane/fib/nexthop.h"

_Static_assert(DP_NH_MAX <= 1u << 20, "a next hop fits in 20 bits of a route's word");

#define USED (1ull << 63)
#define NH_BITS 20

static uint64_t *slots;
static uint32_t mask;		/* slots - 1, a power of two less one */
static unsigned int count, max;

static inline uint64_t key_of(uint32_t prefix, uint8_t depth)
{
	return (uint64_t)prefix << 6 | depth;
}

static inline uint32_t home(uint64_t key)
{
	return rte_hash_crc_8byte(key, 0) & mask;
}

static inline uint64_t word_key(uint64_t w)
{
	return (w & ~USED) >> NH_BITS;
}

int fib_routes_init(unsigned int max_routes, int socket)
{
	size_t n = 2;

	while (n < 2 * (size_t)max_routes)
		n *= 2;
	slots = rte_zmalloc_socket("tern_fib_routes", n * sizeof(*slots), RTE_CACHE_LINE_SIZE, socket);
	if (slots == NULL)
		return -ENOMEM;
	mask = n - 1;
	max = max_routes;
	return 0;
}

void fib_routes_fini(void)
{
	rte_free(slots);
	slots = NULL;
	mask = count = max = 0;
}

size_t fib_routes_memory(void)
{
	return slots ? ((size_t)mask + 1) * sizeof(*slots) : 0;
}

unsigned int fib_routes_count(void)
{
	return count;
}

unsigned int fib_routes_max(void)
{
	return max;
}

void fib_routes_prefetch(uint32_t prefix, uint8_t depth)
{
	rte_prefetch0(&slots[home(key_of(prefix, depth))]);
}

/* The slot holding prefix/depth, or the empty one where it would go. */
static uint32_t find(uint64_t key)
{
	uint32_t i = home(key);

	while ((slots[i] & USED) && word_key(slots[i]) != key)
		i = (i + 1) & mask;
	return i;
}

bool fib_routes_get(uint32_t prefix, uint8_t depth, uint32_t *nh)
{
	uint64_t w = slots[find(key_of(prefix, depth))];

	if (!(w & USED))
		return false;
	*nh = w & ((1u << NH_BITS) - 1);
	return true;
}

int fib_routes_set(uint32_t prefix, uint8_t depth, uint32_t nh, uint32_t *old)
{
	uint64_t key = key_of(prefix, depth);
	uint32_t i = find(key);

	if (slots[i] & USED) {
		*old = slots[i] & ((1u << NH_BITS) - 1);
		slots[i] = USED | key << NH_BITS | nh;
		return 0;
	}
	if (count == max)
		return -ENOSPC;
	slots[i] = USED | key << NH_BITS | nh;
	count++;
	return 1;
}

int fib_routes_del(uint32_t prefix, uint8_t depth)
{
	uint32_t i = find(key_of(prefix, depth)), j = i;

	if (!(slots[i] & USED))
		return -ENOENT;
	/* each word after the hole, up to an empty slot, moves into it unless its home lies
	 * after the hole (cyclically), where a probe for it would still reach it */
	for (;;) {
		uint32_t k;

		j = (j + 1) & mask;
		if (!(slots[j] & USED))
			break;
		k = home(word_key(slots[j]));
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		slots[i] = slots[j];
		i = j;
	}
	slots[i] = 0;
	count--;
	return 0;
}
