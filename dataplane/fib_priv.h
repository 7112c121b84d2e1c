/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the FIB's two files share: fib.c keeps the two copies of the table
 * (which one workers read, the switch, the grace period, bringing the other
 * level), fib_update.c the routes and the entries a change of them writes.
 * Only dataplane/fib*.c include this.
 */
#ifndef TERN_FIB_PRIV_H
#define TERN_FIB_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "dataplane/fib.h"

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
/* Bytes of the routes' own records (the copies not counted). */
size_t fib_update_memory(void);
unsigned int fib_update_routes(void);
unsigned int fib_update_groups_used(void);
/*
 * Makes one change in c, a copy no worker reads, which must hold what the
 * changes before left there; each entry written is passed to fib_dirty.
 * Deleting a route that is not there is not an error. Returns 0, -EINVAL for
 * a depth over 32 or a next hop past DP_NH_MAX, or -ENOSPC when the routes or second-level groups are all
 * taken (nothing changed then).
 */
int fib_update(struct fib_copy *c, const struct dp_fib_op *op);
/* Brings what the next n (at most FIB_WARM_MAX) changes will read into the cache. */
#define FIB_WARM_MAX 64
void fib_update_warm(const struct fib_copy *c, const struct dp_fib_op *ops, unsigned int n);

/* Notes entries [at, at + n) of table t as written to the standby copy (fib.c). */
void fib_dirty(enum fib_table t, uint32_t at, uint32_t n);

#endif
