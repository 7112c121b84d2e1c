/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the FIB's two files share: fib.c keeps the two copies of the table
 * (which one workers read, the switch, the grace period, bringing the other
 * level), fib_update.c the routes and the entries a change of them writes.
 * Only dataplane/fib*.c include this.
 */
#ifndef TERN_FIB_PRIV_H
#define TERN_FIB_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/fib/fib.h"

#define FIB_TBL24_ENTRIES (1u << 24)
#define FIB_GROUP_ENTRIES 256u

/* One copy of the table. */
struct fib_copy {
	uint32_t *tbl24;
	uint32_t *tbl8;		/* nb_groups groups of FIB_GROUP_ENTRIES */
};

enum fib_table {
	FIB_TBL24,
	FIB_TBL8,
};

int fib_update_init(unsigned int max_routes, unsigned int nb_groups, int socket);
void fib_update_fini(void);
/* Bytes of the routes' own records (the copies not counted). */
size_t fib_update_memory(void);
unsigned int fib_update_routes(void);
unsigned int fib_update_groups_used(void);
/*
 * Makes one change in c, a copy no worker reads, which must hold what the
 * changes before left there; each entry written is passed to fib_dirty.
 * Deleting a route that is not there is not an error. Returns 0, -EINVAL for
 * a depth over 32 or a next hop past DP_NH_MAX, or -ENOSPC when the routes or
 * second-level groups are all taken (nothing changed then).
 */
int fib_update(struct fib_copy *c, const struct dp_fib_op *op);
bool fib_update_route(uint32_t prefix, uint8_t depth, uint32_t *nh);
/* Whether a new route prefix/depth would find room; c: the copy the last change went to. */
bool fib_update_fits(const struct fib_copy *c, uint32_t prefix, uint8_t depth);
/*
 * Brings what the changes ops[0..n) will read into the cache, in two steps
 * taken a while apart: fib_update_warm their routes and entries, then
 * fib_update_warm_covers (it reads what the first step fetched) the routes a
 * delete among them falls back to.
 */
#define FIB_AHEAD 16	/* changes ahead (tern-bench pipeline: 8, 16 and 32 alike) */
void fib_update_warm(const struct fib_copy *c, const struct dp_fib_op *ops, unsigned int n);
void fib_update_warm_covers(const struct dp_fib_op *ops, unsigned int n);

/* The routes (fib_routes.c): prefix and depth to next hop. */
int fib_routes_init(unsigned int max_routes, int socket);
void fib_routes_fini(void);
size_t fib_routes_memory(void);
unsigned int fib_routes_count(void);
unsigned int fib_routes_max(void);
void fib_routes_prefetch(uint32_t prefix, uint8_t depth);
bool fib_routes_get(uint32_t prefix, uint8_t depth, uint32_t *nh);
/* 1 when new, 0 when it was there (*old its next hop), or -ENOSPC. */
int fib_routes_set(uint32_t prefix, uint8_t depth, uint32_t nh, uint32_t *old);
int fib_routes_del(uint32_t prefix, uint8_t depth);

/*
 * The 64-byte lines of entries written to the standby copy and not yet to
 * the other (fib.c copies them): a bit for each line of the first level, then
 * of the second, and the lines in the order first written. Kept by line, not
 * by entry, so noting a write is a bit tested in a small map and a copy is
 * one line's move.
 */
#define FIB_LINE 16u		/* entries in a line */
#define FIB_TBL24_LINES (FIB_TBL24_ENTRIES / FIB_LINE)
struct fib_lag {
	uint64_t *bits;
	uint32_t *lines;
	uint32_t n, done, lines_max;
};
extern struct fib_lag fib_lag;

/* Notes entries [at, at + n) of table t as written to the standby copy. */
static inline void fib_dirty(enum fib_table t, uint32_t at, uint32_t n)
{
	uint32_t base = t == FIB_TBL24 ? 0 : FIB_TBL24_LINES;
	uint32_t l = base + at / FIB_LINE, last = base + (at + n - 1) / FIB_LINE;

	for (; l <= last; l++) {
		uint64_t bit = 1ull << (l % 64);

		if (!(fib_lag.bits[l / 64] & bit)) {
			fib_lag.bits[l / 64] |= bit;
			fib_lag.lines[fib_lag.n++] = l;
		}
	}
}

#endif
