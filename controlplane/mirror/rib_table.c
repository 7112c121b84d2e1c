/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB's routes in use: a prefix's key and record together in a 32-byte
 * slot of an open-addressed table with linear probing, at most half full; a
 * delete shifts back the slots after it that would no longer be found, so
 * there are no tombstones and probes stay short after any churn.
 *
 * Written here rather than taken from rte_hash for what a route costs with
 * a full table arriving: rte_hash reads a bucket, then a key in its key store,
 * then the record in an array beside it, and can be fetched ahead only by a
 * bulk lookup that does the work twice; here a route is one slot, nearly
 * always in the line its hash points at, prefetched for a run of messages
 * (mirror_prepare). bench/mirror_scale.sh, 1M routes: the RIB's share of a
 * route, warmed bulk lookups and all, was 190-230 ns on rte_hash, 100-130 ns
 * here.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>

#include "controlplane/mirror/rib_table.h"

_Static_assert(sizeof(struct route_slot) == 32, "two slots a cache line");

struct route_slot *route_slots;
static uint32_t mask;		/* slots - 1 */
static unsigned int count, max;

static inline uint32_t home(const struct route_key *k)
{
	return rte_hash_crc_8byte((uint64_t)k->prefix << 8 | k->len, 0) & mask;
}

static inline bool same(const struct route_key *a, const struct route_key *b)
{
	return a->prefix == b->prefix && a->len == b->len;
}

int route_table_init(unsigned int max_routes)
{
	size_t n = 2;

	while (n < 2 * (size_t)max_routes)
		n *= 2;
	/* in DPDK's memory, touched once here: from malloc the table's pages would fault in one
	 * by one as routes spread over it (a slow climb of RSS that looks like a leak) */
	route_slots = rte_zmalloc_socket("tern_rib_routes", n * sizeof(*route_slots),
					 RTE_CACHE_LINE_SIZE, SOCKET_ID_ANY);
	if (route_slots == NULL)
		return -ENOMEM;
	mask = n - 1;
	max = max_routes;
	count = 0;
	return 0;
}

void route_table_fini(void)
{
	rte_free(route_slots);
	route_slots = NULL;
	count = 0;
}

void route_table_prefetch(const struct route_key *k)
{
	rte_prefetch0(&route_slots[home(k)]);
}

/* The slot holding k, or the empty one where it would go. */
static uint32_t probe(const struct route_key *k)
{
	uint32_t i = home(k);

	while (route_slots[i].used && !same(&route_slots[i].key, k))
		i = (i + 1) & mask;
	return i;
}

int32_t route_table_find(const struct route_key *k)
{
	uint32_t i = probe(k);

	return route_slots[i].used ? (int32_t)i : -ENOENT;
}

int32_t route_table_add(const struct route_key *k)
{
	uint32_t i = probe(k);

	if (route_slots[i].used)
		return i;
	if (count == max)
		return -ENOSPC;
	route_slots[i] = (struct route_slot){ .key = *k, .used = 1 };
	count++;
	return i;
}

int route_table_del(const struct route_key *k)
{
	uint32_t i = probe(k), j = i;

	if (!route_slots[i].used)
		return -ENOENT;
	/* each slot after the hole, up to an empty one, moves into it unless its home lies after
	 * the hole (cyclically), where a probe for it would still reach it */
	for (;;) {
		uint32_t h;

		j = (j + 1) & mask;
		if (!route_slots[j].used)
			break;
		h = home(&route_slots[j].key);
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		route_slots[i] = route_slots[j];
		i = j;
	}
	route_slots[i].used = 0;
	count--;
	return 0;
}

int32_t route_table_next(uint32_t *iter)
{
	uint32_t i;

	for (i = *iter; i <= mask; i++)
		if (route_slots[i].used) {
			*iter = i + 1;
			return i;
		}
	*iter = mask + 1;
	return -ENOENT;
}

unsigned int route_table_count(void)
{
	return count;
}
