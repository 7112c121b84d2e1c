/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the IPv6 FIB's files share: fib6.c keeps the two copies, the batches, the routes and
 * the log of changes the lagging copy lacks; fib6_table.c makes a change in one copy. Only
 * dataplane/fib6*.c include this.
 */
#ifndef TERN_FIB6_PRIV_H
#define TERN_FIB6_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "dataplane/fib/fib6.h"

#define FIB6_GROUP_ENTRIES 256u
#define FIB6_TBL24_ENTRIES (1u << 24)

/* A group's place: the entry that points at it (its parent's slot) and what keeps it. */
struct fib6_group_hdr {
	uint32_t parent;	/* a slot: < 2^24 an entry of the first level, else of a group */
	uint32_t refs;		/* routes that end in it, and groups below it */
};

/* One copy of the table. */
struct fib6_copy {
	uint32_t *tbl24;
	uint32_t *groups;	/* nb_groups groups of 256 entries */
	struct fib6_group_hdr *hdr;
	uint32_t *free;		/* a stack of the free groups' indexes */
	uint32_t nb_free;
	uint32_t nb_groups;
};

/* An entry that is a route's: its next hop and depth. */
static inline uint32_t fib6_leaf(uint32_t nh, unsigned int depth)
{
	return nh << 9 | depth << 1;
}

static inline unsigned int fib6_depth(uint32_t e)
{
	return (e >> 1) & 0xff;
}

/* A change as it was made in the first copy, to be made the same way in the other: a
 * withdrawal's entries go to the route that covered it then (cover, a leaf; 0: none). */
struct fib6_change {
	struct dp_fib6_op op;
	uint32_t cover;
	bool is_new;		/* an added route that was not there: it counts in its group */
};

int fib6_copy_init(struct fib6_copy *c, unsigned int nb_groups, int socket);
void fib6_copy_fini(struct fib6_copy *c);
/* Whether c has the groups a new route prefix/depth needs. */
bool fib6_copy_fits(const struct fib6_copy *c, const uint8_t *prefix, unsigned int depth);
/* Adds or changes (new: it was not there) a route of depth 1..128; c must have room. */
void fib6_copy_add(struct fib6_copy *c, const uint8_t *prefix, unsigned int depth, uint32_t nh,
		   bool is_new);
/* Withdraws a route of depth 1..128 that c holds: its entries go to cover. */
void fib6_copy_del(struct fib6_copy *c, const uint8_t *prefix, unsigned int depth, uint32_t cover);

#endif
