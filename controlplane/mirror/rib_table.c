/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB's routes in use: a prefix's key and record together in a slot of
 * an open-addressed table with linear probing, at most half full; a delete
 * shifts back the slots after it that would no longer be found, so there are
 * no tombstones and probes stay short after any churn. One table a family:
 * an IPv4 slot is 32 bytes, two a cache line, and an IPv6 one (a 16-byte
 * prefix) a line of its own.
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

/* A key as a slot holds it: IPv4's prefix and length in 8 bytes, IPv6's in 20. */
struct packed_key {
	uint32_t w[5];
};

_Static_assert(sizeof(struct route_slot) + 8 == 32, "two IPv4 slots a cache line");
_Static_assert(sizeof(struct route_slot) + 20 <= 64, "an IPv6 slot in a cache line");

struct route_table route_tables[2];

static inline void pack(const struct route_key *k, struct packed_key *p)
{
	if (k->family == AF_INET6) {
		memcpy(p->w, k->prefix6, 16);
		p->w[4] = k->len;
	} else {
		p->w[0] = k->prefix;
		p->w[1] = k->len;
	}
}

static inline const void *key_of(const struct route_table *t, uint32_t i)
{
	return route_slot_at(t, i) + 1;
}

static inline uint32_t home(const struct route_table *t, const void *packed)
{
	return rte_hash_crc(packed, t->key_size, 0) & t->mask;
}

int route_table_init(struct route_table *t, uint8_t family, unsigned int max_routes)
{
	size_t n = 2;

	memset(t, 0, sizeof(*t));
	t->family = family;
	t->key_size = family == AF_INET6 ? 20 : 8;
	t->stride = family == AF_INET6 ? 64 : 32;
	while (n < 2 * (size_t)max_routes)
		n *= 2;
	/* in DPDK's memory, touched once here: from malloc the table's pages would fault in one
	 * by one as routes spread over it (a slow climb of RSS that looks like a leak) */
	t->slots = rte_zmalloc_socket(family == AF_INET6 ? "tern_rib_routes6" : "tern_rib_routes",
				      n * t->stride, RTE_CACHE_LINE_SIZE, SOCKET_ID_ANY);
	if (t->slots == NULL)
		return -ENOMEM;
	t->mask = n - 1;
	t->max = max_routes;
	return 0;
}

void route_table_fini(struct route_table *t)
{
	rte_free(t->slots);
	t->slots = NULL;
	t->count = 0;
}

void route_table_prefetch(const struct route_key *k)
{
	const struct route_table *t = route_table_of(k->family);
	struct packed_key p;

	pack(k, &p);
	rte_prefetch0(route_slot_at(t, home(t, &p)));
}

/* The slot holding the key, or the empty one where it would go. */
static uint32_t probe(const struct route_table *t, const struct packed_key *p)
{
	uint32_t i = home(t, p);

	while (route_slot_at(t, i)->used && memcmp(key_of(t, i), p, t->key_size) != 0)
		i = (i + 1) & t->mask;
	return i;
}

int32_t route_table_find(const struct route_key *k)
{
	const struct route_table *t = route_table_of(k->family);
	struct packed_key p;
	uint32_t i;

	if (t->slots == NULL)
		return -ENOENT;
	pack(k, &p);
	i = probe(t, &p);
	return route_slot_at(t, i)->used ? (int32_t)i : -ENOENT;
}

int32_t route_table_add(const struct route_key *k)
{
	struct route_table *t = route_table_of(k->family);
	struct route_slot *s;
	struct packed_key p;
	uint32_t i;

	if (t->slots == NULL)
		return -ENOSPC;
	pack(k, &p);
	i = probe(t, &p);
	s = route_slot_at(t, i);
	if (s->used)
		return i;
	if (t->count == t->max)
		return -ENOSPC;
	memset(s, 0, t->stride);
	memcpy(s + 1, &p, t->key_size);
	s->used = 1;
	t->count++;
	return i;
}

int route_table_del(const struct route_key *k)
{
	struct route_table *t = route_table_of(k->family);
	struct packed_key p;
	uint32_t i, j;

	if (t->slots == NULL)
		return -ENOENT;
	pack(k, &p);
	i = j = probe(t, &p);
	if (!route_slot_at(t, i)->used)
		return -ENOENT;
	/* each slot after the hole, up to an empty one, moves into it unless its home lies after
	 * the hole (cyclically), where a probe for it would still reach it */
	for (;;) {
		uint32_t h;

		j = (j + 1) & t->mask;
		if (!route_slot_at(t, j)->used)
			break;
		h = home(t, key_of(t, j));
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		memcpy(route_slot_at(t, i), route_slot_at(t, j), t->stride);
		i = j;
	}
	route_slot_at(t, i)->used = 0;
	t->count--;
	return 0;
}

int32_t route_table_next(const struct route_table *t, uint32_t *iter)
{
	uint32_t i;

	for (i = *iter; t->slots != NULL && i <= t->mask; i++)
		if (route_slot_at(t, i)->used) {
			*iter = i + 1;
			return i;
		}
	*iter = t->mask + 1;
	return -ENOENT;
}

void route_key_at(const struct route_table *t, int32_t pos, struct route_key *out)
{
	struct packed_key p;

	memcpy(&p, key_of(t, pos), t->key_size);
	memset(out, 0, sizeof(*out));
	out->family = t->family;
	if (t->family == AF_INET6) {
		memcpy(out->prefix6, p.w, 16);
		out->len = p.w[4];
	} else {
		out->prefix = p.w[0];
		out->len = p.w[1];
	}
}
