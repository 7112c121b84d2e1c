/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One copy of the IPv6 table: a first level of 2^24 entries (the first 24 bits), then groups
 * of 256 entries, one per byte after them. An entry is a group's index (bit 0 set) or the
 * route whose range it lies in: its next hop and depth. A route is written into the entries
 * its prefix covers at the level its depth ends in, and into the groups below them, wherever
 * no longer route is; a group is made when a route ends below an entry that has none, and
 * given back when no route ends in it and no group hangs below it (the entries then all hold
 * the route around it). No worker reads a copy while it is written (fib6.c).
 */
#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "dataplane/fib/fib6_priv.h"

int fib6_copy_init(struct fib6_copy *c, unsigned int nb_groups, int socket)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->tbl24 = rte_zmalloc_socket("tern_fib6_tbl24", (size_t)FIB6_TBL24_ENTRIES * 4, RTE_CACHE_LINE_SIZE, socket);
	c->groups = rte_zmalloc_socket("tern_fib6_groups", (size_t)nb_groups * FIB6_GROUP_ENTRIES * 4,
				       RTE_CACHE_LINE_SIZE, socket);
	c->hdr = rte_zmalloc_socket("tern_fib6_hdr", (size_t)nb_groups * sizeof(*c->hdr), 0, socket);
	c->free = rte_malloc_socket("tern_fib6_free", (size_t)nb_groups * 4, 0, socket);
	if (c->tbl24 == NULL || c->groups == NULL || c->hdr == NULL || c->free == NULL) {
		fib6_copy_fini(c);
		return -ENOMEM;
	}
	for (i = 0; i < nb_groups; i++)	/* group 0 taken first */
		c->free[i] = nb_groups - 1 - i;
	c->nb_free = c->nb_groups = nb_groups;
	return 0;
}

void fib6_copy_fini(struct fib6_copy *c)
{
	rte_free(c->tbl24);
	rte_free(c->groups);
	rte_free(c->hdr);
	rte_free(c->free);
	memset(c, 0, sizeof(*c));
}

static inline uint32_t *slot_entry(struct fib6_copy *c, uint32_t slot)
{
	return slot < FIB6_TBL24_ENTRIES ? &c->tbl24[slot] : &c->groups[slot - FIB6_TBL24_ENTRIES];
}

static inline uint32_t group_slot(uint32_t g, unsigned int byte)
{
	return FIB6_TBL24_ENTRIES + g * FIB6_GROUP_ENTRIES + byte;
}

static inline uint32_t tbl24_slot(const uint8_t *a)
{
	return (uint32_t)a[0] << 16 | a[1] << 8 | a[2];
}

/* The groups a route of depth (over 24) still needs on its path. */
static unsigned int groups_missing(const struct fib6_copy *c, const uint8_t *prefix, unsigned int depth)
{
	uint32_t e = c->tbl24[tbl24_slot(prefix)];
	unsigned int levels = (depth - 24 + 7) / 8, k = 0;

	while (k < levels && (e & 1)) {
		e = c->groups[(e >> 1) * FIB6_GROUP_ENTRIES + prefix[3 + k]];
		k++;
	}
	return levels - k;
}

bool fib6_copy_fits(const struct fib6_copy *c, const uint8_t *prefix, unsigned int depth)
{
	return depth <= 24 || groups_missing(c, prefix, depth) <= c->nb_free;
}

/*
 * Writes leaf into entries [from, to) of the array at base and the groups below them
 * wherever the route there is no longer than depth (an add), or of depth exactly (a
 * withdrawal: those entries were the route's).
 */
static void fill(struct fib6_copy *c, uint32_t *base, unsigned int from, unsigned int to,
		 unsigned int depth, uint32_t leaf, bool exact)
{
	unsigned int i;

	for (i = from; i < to; i++) {
		uint32_t e = base[i];

		if (e & 1)
			fill(c, &c->groups[(e >> 1) * FIB6_GROUP_ENTRIES], 0, FIB6_GROUP_ENTRIES, depth,
			     leaf, exact);
		else if (exact ? fib6_depth(e) == depth : fib6_depth(e) <= depth)
			base[i] = leaf;
	}
}

/* The range [*from, *to) the prefix covers in an array of 256 entries indexed by byte b of it,
 * the array ending its depth at bit end. */
static void range8(const uint8_t *prefix, unsigned int b, unsigned int depth, unsigned int *from,
		   unsigned int *to)
{
	unsigned int bits = depth - b * 8;	/* 1..8 bits of this byte */

	*from = prefix[b] & (0xff00 >> bits);
	*to = *from + (1u << (8 - bits));
}

/*
 * The array (the first level, or a group) a route of depth ends in, made on the way as
 * needed (new: the route is new, and counts in the group it ends in); *byte the index of
 * its first byte.
 */
static uint32_t *path_to(struct fib6_copy *c, const uint8_t *prefix, unsigned int depth,
			 unsigned int *byte, uint32_t *group, bool make)
{
	uint32_t slot = tbl24_slot(prefix), *e = &c->tbl24[slot], g = UINT32_MAX;
	unsigned int b = 3;

	while (depth > b * 8) {
		if (!(*e & 1)) {
			uint32_t ng, *ge;
			unsigned int i;

			if (!make)
				return NULL;
			ng = c->free[--c->nb_free];
			ge = &c->groups[ng * FIB6_GROUP_ENTRIES];
			for (i = 0; i < FIB6_GROUP_ENTRIES; i++)
				ge[i] = *e;	/* the route around it, below it too */
			c->hdr[ng] = (struct fib6_group_hdr){ .parent = slot, .refs = 0 };
			if (g != UINT32_MAX)
				c->hdr[g].refs++;
			*e = ng << 1 | 1;
		}
		g = *e >> 1;
		slot = group_slot(g, prefix[b]);
		e = slot_entry(c, slot);
		b++;
	}
	*byte = b - 1;
	*group = g;
	return g == UINT32_MAX ? c->tbl24 : &c->groups[g * FIB6_GROUP_ENTRIES];
}

void fib6_copy_add(struct fib6_copy *c, const uint8_t *prefix, unsigned int depth, uint32_t nh,
		   bool is_new)
{
	unsigned int byte, from, to;
	uint32_t g, *base = path_to(c, prefix, depth, &byte, &g, true);

	if (g == UINT32_MAX) {	/* the first level */
		from = tbl24_slot(prefix) & ~((1u << (24 - depth)) - 1);
		to = from + (1u << (24 - depth));
	} else {
		range8(prefix, byte, depth, &from, &to);
		if (is_new)
			c->hdr[g].refs++;
	}
	fill(c, base, from, to, depth, fib6_leaf(nh, depth), false);
}

void fib6_copy_del(struct fib6_copy *c, const uint8_t *prefix, unsigned int depth, uint32_t cover)
{
	unsigned int byte, from, to;
	uint32_t g, *base = path_to(c, prefix, depth, &byte, &g, false);

	if (base == NULL)
		return;	/* never: the route is there */
	if (g == UINT32_MAX) {
		from = tbl24_slot(prefix) & ~((1u << (24 - depth)) - 1);
		to = from + (1u << (24 - depth));
		fill(c, base, from, to, depth, cover, true);
		return;
	}
	range8(prefix, byte, depth, &from, &to);
	fill(c, base, from, to, depth, cover, true);
	/* a group no route ends in and none hangs below holds one route throughout: it goes */
	while (g != UINT32_MAX && --c->hdr[g].refs == 0) {
		uint32_t parent = c->hdr[g].parent;

		*slot_entry(c, parent) = c->groups[g * FIB6_GROUP_ENTRIES];
		c->free[c->nb_free++] = g;
		g = parent < FIB6_TBL24_ENTRIES ? UINT32_MAX :
			(parent - FIB6_TBL24_ENTRIES) / FIB6_GROUP_ENTRIES;
	}
}
