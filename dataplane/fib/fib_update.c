/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FIB's routes, and the DIR-24-8 entries a change of them writes.
 *
 * A change must not overwrite the entries of a more specific route, and a
 * delete must write back the route that covers it. rte_fib finds both by
 * walking a tree of the routes on every change, one tree for each copy of
 * the table: with a million routes each walk is a chain of cache misses, and
 * those walks were three quarters of what a route cost ternd. Here the
 * routes are kept once for both copies, and nothing is walked:
 * - fib_routes.c holds each route's next hop, by prefix and depth;
 * - cover24 holds, for each /24, a bit for each depth 0..24 at which a route
 *   covers it; cover8, for each address of a second-level group, a bit for
 *   each depth 25..32.
 * A route is the best at an entry when no bit above its own is set there: an
 * add writes the entries of its range where that holds, and a delete writes
 * there the route named by the highest bit below its own, which is the same
 * all over its range (a shorter route covers all of it or none).
 *
 * A /24 gets a second-level group with its first route longer than /24 and
 * gives it back with its last. The copy written is never read by workers, so
 * a group given back may be taken again at once; fib.c copies the entries
 * into the other copy only after a grace period.
 */
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>

#include "dataplane/fib/fib_priv.h"
#include "dataplane/fib/nexthop.h"

static uint32_t *cover24;	/* FIB_TBL24_ENTRIES */
static uint8_t *cover8;		/* nb_groups * FIB_GROUP_ENTRIES */
static uint16_t *group_routes;	/* routes longer than /24 in each group */
static uint32_t *free_groups;	/* a stack */
static unsigned int nb_free, nb_groups;
static size_t memory;

static inline uint32_t depth_mask(uint8_t depth)
{
	return depth ? ~0u << (32 - depth) : 0;
}

/* The highest bit set in m, which is not 0. */
static inline unsigned int top(uint32_t m)
{
	return 31 - __builtin_clz(m);
}

static inline uint32_t entry(uint32_t nh)
{
	return nh << 1;
}

static void *zalloc(const char *name, size_t size, int socket)
{
	void *p = rte_zmalloc_socket(name, size, RTE_CACHE_LINE_SIZE, socket);

	memory += p ? size : 0;
	return p;
}

int fib_update_init(unsigned int max_routes, unsigned int groups, int socket)
{
	unsigned int i;
	int rc;

	if ((rc = fib_routes_init(max_routes, socket)) < 0)
		return rc;
	cover24 = zalloc("tern_fib_cover24", (size_t)FIB_TBL24_ENTRIES * sizeof(*cover24), socket);
	cover8 = zalloc("tern_fib_cover8", (size_t)groups * FIB_GROUP_ENTRIES, socket);
	group_routes = zalloc("tern_fib_groups", (size_t)groups * sizeof(*group_routes), socket);
	free_groups = zalloc("tern_fib_free", (size_t)groups * sizeof(*free_groups), socket);
	if (!cover24 || !cover8 || !group_routes || !free_groups)
		return -ENOMEM;
	for (i = 0; i < groups; i++)	/* taken from group 0 up */
		free_groups[i] = groups - 1 - i;
	nb_free = nb_groups = groups;
	return 0;
}

void fib_update_fini(void)
{
	fib_routes_fini();
	rte_free(cover24);
	rte_free(cover8);
	rte_free(group_routes);
	rte_free(free_groups);
	cover24 = free_groups = NULL;
	cover8 = NULL;
	group_routes = NULL;
	nb_free = nb_groups = 0;
	memory = 0;
}

size_t fib_update_memory(void)
{
	return memory + fib_routes_memory();
}

unsigned int fib_update_routes(void)
{
	return fib_routes_count();
}

unsigned int fib_update_groups_used(void)
{
	return nb_groups - nb_free;
}

/* The next hop of the route prefix/depth, which is there. */
static uint32_t route_nh(uint32_t prefix, uint8_t depth)
{
	uint32_t nh = DP_NH_NONE;

	fib_routes_get(prefix & depth_mask(depth), depth, &nh);
	return nh;
}

/* The entry the routes up to /24 give /24 number i. */
static uint32_t short_entry(uint32_t i)
{
	uint32_t m = cover24[i];

	return entry(m ? route_nh(i << 8, top(m)) : DP_NH_NONE);
}

static inline void write24(struct fib_copy *c, uint32_t i, uint32_t v)
{
	if (c->tbl24[i] != v) {
		c->tbl24[i] = v;
		fib_dirty(FIB_TBL24, i, 1);
	}
}

static inline void write8(struct fib_copy *c, uint32_t j, uint32_t v)
{
	if (c->tbl8[j] != v) {
		c->tbl8[j] = v;
		fib_dirty(FIB_TBL8, j, 1);
	}
}

/* /24 number i to v, and of its group (if it has one) what no route longer than /24 holds. */
static void write_short(struct fib_copy *c, uint32_t i, uint32_t v)
{
	uint32_t e = c->tbl24[i], j, end;

	if (likely(!(e & DP_FIB_GROUP))) {
		write24(c, i, v);
		return;
	}
	for (j = (e >> 1) * FIB_GROUP_ENTRIES, end = j + FIB_GROUP_ENTRIES; j < end; j++)
		if (cover8[j] == 0)
			write8(c, j, v);
}

/* A route up to /24 added (or its next hop changed) with entry v, or deleted with v its cover's. */
static void set_short(struct fib_copy *c, uint32_t prefix, uint8_t depth, uint32_t v, bool add)
{
	uint32_t bit = 1u << depth, above = ~(2 * bit - 1);
	uint32_t i = prefix >> 8, end = i + (1u << (24 - depth));

	for (; i < end; i++) {
		uint32_t m = add ? cover24[i] | bit : cover24[i] & ~bit;

		cover24[i] = m;
		if (!(m & above))
			write_short(c, i, v);
	}
}

static void del_short(struct fib_copy *c, uint32_t prefix, uint8_t depth)
{
	uint32_t below = cover24[prefix >> 8] & ((1u << depth) - 1);

	set_short(c, prefix, depth, below ? entry(route_nh(prefix, top(below))) : entry(DP_NH_NONE),
		  false);
}

/* A route longer than /24 added (new) or its next hop changed, with entry v. */
static void add_long(struct fib_copy *c, uint32_t prefix, uint8_t depth, uint32_t v, bool new)
{
	uint32_t i = prefix >> 8, e = c->tbl24[i], g, j, end;
	uint8_t bit = 1u << (depth - 25), above = ~(2 * bit - 1);

	if (!(e & DP_FIB_GROUP)) {	/* the /24's first: a group holding what its entry did */
		g = free_groups[--nb_free];
		for (j = g * FIB_GROUP_ENTRIES; j < (g + 1) * FIB_GROUP_ENTRIES; j++)
			c->tbl8[j] = e;
		fib_dirty(FIB_TBL8, g * FIB_GROUP_ENTRIES, FIB_GROUP_ENTRIES);
		c->tbl24[i] = g << 1 | DP_FIB_GROUP;
		fib_dirty(FIB_TBL24, i, 1);
	} else {
		g = e >> 1;
	}
	group_routes[g] += new;
	j = g * FIB_GROUP_ENTRIES + (prefix & 0xff);
	for (end = j + (1u << (32 - depth)); j < end; j++) {
		uint8_t m = cover8[j] | bit;

		cover8[j] = m;
		if (!(m & above))
			write8(c, j, v);
	}
}

static void del_long(struct fib_copy *c, uint32_t prefix, uint8_t depth)
{
	uint32_t i = prefix >> 8, e = c->tbl24[i], g = e >> 1, j, end, v;
	uint8_t bit = 1u << (depth - 25), above = ~(2 * bit - 1), below;
	bool last;

	if (unlikely(!(e & DP_FIB_GROUP)))
		return;	/* never: a route longer than /24 keeps its /24's group */
	last = --group_routes[g] == 0;
	j = g * FIB_GROUP_ENTRIES + (prefix & 0xff);
	below = cover8[j] & (bit - 1);
	v = below ? entry(route_nh(prefix, 25 + top(below))) : short_entry(i);
	for (end = j + (1u << (32 - depth)); j < end; j++) {
		uint8_t m = cover8[j] & ~bit;

		cover8[j] = m;
		if (!last && !(m & above))
			write8(c, j, v);
	}
	if (last) {	/* the /24 is one entry again; its group is filled afresh when taken */
		c->tbl24[i] = v;
		fib_dirty(FIB_TBL24, i, 1);
		free_groups[nb_free++] = g;
	}
}

void fib_update_warm(const struct fib_copy *c, const struct dp_fib_op *ops, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint8_t depth = ops[i].depth > 32 ? 32 : ops[i].depth;

		fib_routes_prefetch(ops[i].prefix & depth_mask(depth), depth);
		rte_prefetch0(&cover24[ops[i].prefix >> 8]);
		rte_prefetch0(&c->tbl24[ops[i].prefix >> 8]);
	}
}

void fib_update_warm_covers(const struct dp_fib_op *ops, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t below;

		if (!ops[i].del || ops[i].depth > 24)
			continue;
		below = cover24[ops[i].prefix >> 8] & ((1u << ops[i].depth) - 1);
		if (below != 0)
			fib_routes_prefetch(ops[i].prefix & depth_mask(top(below)), top(below));
	}
}

bool fib_update_route(uint32_t prefix, uint8_t depth, uint32_t *nh)
{
	uint32_t held;

	if (depth > 32 || !fib_routes_get(prefix & depth_mask(depth), depth, &held))
		return false;
	if (nh != NULL)
		*nh = held;
	return true;
}

bool fib_update_fits(const struct fib_copy *c, uint32_t prefix, uint8_t depth)
{
	if (depth > 32 || fib_routes_count() >= fib_routes_max())
		return false;
	return depth <= 24 || nb_free > 0 || (c->tbl24[prefix >> 8] & DP_FIB_GROUP);
}

int fib_update(struct fib_copy *c, const struct dp_fib_op *op)
{
	uint8_t depth = op->depth;
	uint32_t prefix, old = DP_NH_NONE;
	int rc;

	if (depth > 32 || (!op->del && op->nh >= DP_NH_MAX))
		return -EINVAL;
	prefix = op->prefix & depth_mask(depth);
	if (op->del) {
		if (fib_routes_del(prefix, depth) < 0)
			return 0;	/* not there: the table is as asked */
		if (depth <= 24)
			del_short(c, prefix, depth);
		else
			del_long(c, prefix, depth);
		return 0;
	}
	rc = fib_routes_set(prefix, depth, op->nh, &old);
	if (rc < 0)
		return rc;
	if (rc == 0 && old == op->nh)
		return 0;
	if (depth > 24 && rc == 1 && !(c->tbl24[prefix >> 8] & DP_FIB_GROUP) && nb_free == 0) {
		fib_routes_del(prefix, depth);
		return -ENOSPC;
	}
	if (depth <= 24)
		set_short(c, prefix, depth, entry(op->nh), true);
	else
		add_long(c, prefix, depth, entry(op->nh), rc == 1);
	return 0;
}
