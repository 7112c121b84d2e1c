/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB's routes in use, by prefix: each prefix's key and record in one
 * slot of an open-addressed table (rib_table.c). Only rib_route.c,
 * rib_table.c and rib_unplaced.c include this.
 */
#ifndef TERN_RIB_TABLE_H
#define TERN_RIB_TABLE_H

#include <stdint.h>

struct route_key {
	uint32_t prefix;
	uint32_t len;
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

struct route_slot {
	struct route_key key;
	struct route_rec rec;
	uint32_t used;
	/* The FIB refused the prefix's route (no room): whichever route the prefix holds waits
	 * in rib_unplaced.c's list until it fits, and meanwhile the FIB holds none there. */
	uint32_t unplaced;
};

extern struct route_slot *route_slots;

int route_table_init(unsigned int max_routes);
void route_table_fini(void);
/* The position of k, or -ENOENT. */
int32_t route_table_find(const struct route_key *k);
/* The position of k, added with its record zeroed if it was not there; -ENOSPC when max_routes
 * are there. */
int32_t route_table_add(const struct route_key *k);
/* Removes k; the positions of other keys may change. 0 or -ENOENT. */
int route_table_del(const struct route_key *k);
/* The first used position at or after *iter (which moves past it), or -ENOENT at the end. */
int32_t route_table_next(uint32_t *iter);
unsigned int route_table_count(void);
/* Brings k's slot into the cache. */
void route_table_prefetch(const struct route_key *k);

static inline struct route_rec *route_rec_at(int32_t pos)
{
	return &route_slots[pos].rec;
}

static inline uint32_t *route_unplaced_at(int32_t pos)
{
	return &route_slots[pos].unplaced;
}

static inline const struct route_key *route_key_at(int32_t pos)
{
	return &route_slots[pos].key;
}

#endif
