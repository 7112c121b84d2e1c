/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB's routes in use, by prefix: each prefix's key and record in one
 * slot of an open-addressed table (rib_table.c), one table a family. Only
 * rib_route.c, rib_table.c and rib_unplaced.c include this.
 */
#ifndef TERN_RIB_TABLE_H
#define TERN_RIB_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

/* A route's prefix, of either family. */
struct route_key {
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint8_t len;
	uint32_t prefix;	/* AF_INET: host order, masked */
	uint8_t prefix6[16];	/* AF_INET6: masked */
};

/* The route a prefix holds in use. */
struct route_rec {
	uint32_t nh;
	uint32_t metric;
	uint32_t table;
	uint8_t src;
	uint8_t kproto;
	uint16_t gen;
};

/* Whether a is preferred to b: the table listed first, then the lower metric (rib_route.c's
 * rib_table_rank). */
bool route_rec_better(const struct route_rec *a, const struct route_rec *b);

static inline bool route_same_slot(const struct route_rec *a, const struct route_rec *b)
{
	return a->table == b->table && a->metric == b->metric;
}

static inline bool route_same_key(const struct route_key *a, const struct route_key *b)
{
	return a->family == b->family && a->len == b->len && a->prefix == b->prefix &&
	       (a->family != AF_INET6 || memcmp(a->prefix6, b->prefix6, 16) == 0);
}

/* A slot's head; the key follows it, packed for its family (8 bytes for IPv4, 20 for IPv6),
 * so an IPv4 slot is 32 bytes and an IPv6 one 64. */
struct route_slot {
	struct route_rec rec;
	uint32_t used;
	/* The FIB refused the prefix's route (no room): whichever route the prefix holds waits
	 * in rib_unplaced.c's list until it fits, and meanwhile the FIB holds none there. */
	uint32_t unplaced;
};

struct route_table {
	uint8_t *slots;
	uint32_t mask;		/* slots - 1 */
	uint32_t stride;	/* bytes a slot */
	uint32_t key_size;	/* of the packed key */
	unsigned int count, max;
	uint8_t family;
};

extern struct route_table route_tables[2];

static inline struct route_table *route_table_of(uint8_t family)
{
	return &route_tables[family == AF_INET6];
}

int route_table_init(struct route_table *t, uint8_t family, unsigned int max_routes);
void route_table_fini(struct route_table *t);
/* The position of k in its family's table, or -ENOENT. */
int32_t route_table_find(const struct route_key *k);
/* The position of k, added with its record zeroed if it was not there; -ENOSPC when max_routes
 * are there. */
int32_t route_table_add(const struct route_key *k);
/* Removes k; the positions of other keys may change. 0 or -ENOENT. */
int route_table_del(const struct route_key *k);
/* The first used position of t at or after *iter (which moves past it), or -ENOENT at the end. */
int32_t route_table_next(const struct route_table *t, uint32_t *iter);
/* Brings k's slot into the cache. */
void route_table_prefetch(const struct route_key *k);
/* The key at pos of t. */
void route_key_at(const struct route_table *t, int32_t pos, struct route_key *out);

/*
 * Kernel routes waiting aside (rib_alternates.c): at a prefix that has one in use, those of
 * other tables or metrics, and those after the first of the same table and metric, each with
 * its place in the kernel's order among those of its table and metric.
 */
#define RIB_ALTERNATES_MAX 65536

struct alternate {
	struct route_key key;
	struct route_rec rec;
	uint32_t seq;		/* the kernel's order among routes of one table and metric */
};

int alt_init(void);
void alt_fini(void);
unsigned int alt_count(void);
const struct alternate *alt_at(unsigned int i);
struct route_rec *alt_rec(unsigned int i);
/* The first (in the kernel's order) route aside at k in slot's table and metric; -ENOENT. */
int alt_first(const struct route_key *k, const struct route_rec *slot);
/* The route aside at k in slot's table and metric with nexthop nh; -ENOENT. */
int alt_find(const struct route_key *k, const struct route_rec *slot, uint32_t nh);
/* The route aside at k the FIB should get when the one in use goes; -ENOENT. */
int alt_best(const struct route_key *k);
/* Sets r aside at k, first or last of its table and metric; the reference r holds on its
 * nexthop moves with it. -ENOSPC when RIB_ALTERNATES_MAX wait. */
int alt_store(const struct route_key *k, const struct route_rec *r, bool first);
/* Drops alternate i and its nexthop reference; the last takes its place. */
void alt_remove(unsigned int i);
/* Takes alternate i out, its nexthop reference with it; the last takes its place. */
struct route_rec alt_take(unsigned int i);

static inline struct route_slot *route_slot_at(const struct route_table *t, int32_t pos)
{
	return (struct route_slot *)(t->slots + (size_t)pos * t->stride);
}

static inline struct route_rec *route_rec_at(const struct route_table *t, int32_t pos)
{
	return &route_slot_at(t, pos)->rec;
}

static inline uint32_t *route_unplaced_at(const struct route_table *t, int32_t pos)
{
	return &route_slot_at(t, pos)->unplaced;
}

#endif
