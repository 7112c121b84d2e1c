/* SPDX-License-Identifier: BSD-3-Clause */
/* Two copies of the DIR-24-8 table switched under QSBR, so workers never read a half-updated one. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "dataplane/fib_priv.h"
#include "dataplane/nexthop.h"
#include "dataplane/rcu.h"

_Static_assert(DP_NH_NONE == 0, "a zeroed table is one with no routes");

unsigned int dp_fib_active_idx;
const uint32_t *dp_fib_tbl24[2];
const uint32_t *dp_fib_tbl8[2];
static struct fib_copy copies[2];
static unsigned int nb_groups;
static uint64_t updates;
static size_t memory;

/* Entries [at, at + n) of one table, written to the standby copy and not yet to the other. */
struct dirty {
	uint32_t at, n;
	enum fib_table t;
};

/*
 * The entries the standby copy lacks. While staging they are the ones
 * written to the standby alone; after a switch, the ones the new standby (the
 * copy workers read before) has yet to get, copied a slice at a time by
 * dp_fib_level, or all at once before the next change. Ranges next to each
 * other are one (a batch is written in address order); when the list cannot
 * grow, it becomes both tables whole.
 */
static struct {
	struct dirty *r;
	unsigned int n, cap;
	unsigned int done;	/* ranges copied */
	uint32_t part;		/* entries of r[done] copied */
	uint64_t entries;	/* entries yet to copy */
	bool all;
	bool staging;
} lag;

#define LAG_FIRST_CAP 4096

static struct dp_fib_cost cost;

void dp_fib_cost(struct dp_fib_cost *c)
{
	*c = cost;
}

uint64_t dp_fib_cycles(void)
{
	return cost.standby + cost.grace + cost.level;
}

int dp_fib_init(unsigned int max_routes, int socket)
{
	/* prefixes longer than /24 are rare in Internet tables */
	unsigned int groups = RTE_MIN(RTE_MAX(max_routes / 64, 1024u), 1u << 22);
	size_t s24 = (size_t)FIB_TBL24_ENTRIES * sizeof(uint32_t);
	size_t s8 = (size_t)groups * FIB_GROUP_ENTRIES * sizeof(uint32_t);
	char name[32];
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "tern_fib%d_tbl24", i);
		copies[i].tbl24 = rte_zmalloc_socket(name, s24, RTE_CACHE_LINE_SIZE, socket);
		snprintf(name, sizeof(name), "tern_fib%d_tbl8", i);
		copies[i].tbl8 = rte_zmalloc_socket(name, s8, RTE_CACHE_LINE_SIZE, socket);
		if (copies[i].tbl24 == NULL || copies[i].tbl8 == NULL)
			return -ENOMEM;
		dp_fib_tbl24[i] = copies[i].tbl24;
		dp_fib_tbl8[i] = copies[i].tbl8;
	}
	nb_groups = groups;
	lag.r = malloc(LAG_FIRST_CAP * sizeof(*lag.r));
	if (lag.r == NULL)
		return -ENOMEM;
	lag.cap = LAG_FIRST_CAP;
	memory = 2 * (s24 + s8);
	return fib_update_init(max_routes, groups, socket);
}

static void lag_all(void)
{
	lag.r[0] = (struct dirty){ .at = 0, .n = FIB_TBL24_ENTRIES, .t = FIB_TBL24 };
	lag.r[1] = (struct dirty){ .at = 0, .n = nb_groups * FIB_GROUP_ENTRIES, .t = FIB_TBL8 };
	lag.n = 2;
	lag.done = lag.part = 0;
	lag.entries = (uint64_t)lag.r[0].n + lag.r[1].n;
	lag.all = true;
}

void fib_dirty(enum fib_table t, uint32_t at, uint32_t n)
{
	struct dirty *last = lag.n ? &lag.r[lag.n - 1] : NULL;

	if (lag.all)
		return;
	if (last && last->t == t && at >= last->at && at <= last->at + last->n) {
		uint32_t end = RTE_MAX(last->at + last->n, at + n);

		lag.entries += end - (last->at + last->n);
		last->n = end - last->at;
		return;
	}
	if (lag.n == lag.cap) {
		struct dirty *r = realloc(lag.r, 2 * (size_t)lag.cap * sizeof(*r));

		if (r == NULL) {
			lag_all();
			return;
		}
		lag.r = r;
		lag.cap *= 2;
	}
	lag.r[lag.n++] = (struct dirty){ .at = at, .n = n, .t = t };
	lag.entries += n;
}

/* Copies n entries of range d, from its entry from on, from the active copy to the standby. */
static void copy_range(const struct dirty *d, uint32_t from, uint32_t n)
{
	const struct fib_copy *a = &copies[dp_fib_active_idx];
	struct fib_copy *s = &copies[dp_fib_active_idx ^ 1];
	size_t at = (size_t)d->at + from;

	if (d->t == FIB_TBL24)
		memcpy(s->tbl24 + at, a->tbl24 + at, n * sizeof(uint32_t));
	else
		memcpy(s->tbl8 + at, a->tbl8 + at, n * sizeof(uint32_t));
}

bool dp_fib_level(unsigned int budget)
{
	uint64_t t;

	if (lag.staging || lag.done == lag.n)
		return false;
	t = rte_rdtsc();
	while (budget > 0 && lag.done < lag.n) {
		const struct dirty *d = &lag.r[lag.done];
		uint32_t n = RTE_MIN(d->n - lag.part, budget);

		copy_range(d, lag.part, n);
		budget -= n;
		lag.part += n;
		lag.entries -= n;
		if (lag.part == d->n) {
			lag.done++;
			lag.part = 0;
		}
	}
	if (lag.done == lag.n) {
		lag.n = lag.done = 0;
		lag.all = false;
	}
	cost.level += rte_rdtsc() - t;
	return lag.n > 0;
}

bool dp_fib_staging(void)
{
	return lag.staging;
}

unsigned int dp_fib_lag(void)
{
	return lag.entries > UINT_MAX ? UINT_MAX : lag.entries;
}

/*
 * The batch, in its order, made in the standby copy, its cycles counted. The
 * changes' reads are warmed FIB_WARM_MAX at a time, so their cache misses
 * overlap; with that, putting a batch in address order first cost more than it
 * saved (bench/mirror_scale.sh: 78 ns a route to sort, 29 saved).
 */
static int update_standby(const struct dp_fib_op *ops, unsigned int n)
{
	struct fib_copy *c = &copies[dp_fib_active_idx ^ 1];
	uint64_t t = rte_rdtsc();
	unsigned int i;
	int rc, first = 0;

	for (i = 0; i < n; i++) {
		if (i % FIB_WARM_MAX == 0)
			fib_update_warm(c, ops + i, n - i);
		rc = fib_update(c, &ops[i]);
		if (rc < 0 && first == 0)
			first = rc;
	}
	cost.standby += rte_rdtsc() - t;
	updates += n;
	return first;
}

/* Workers read the standby from now on; returns once none reads the other copy. */
static void switch_copies(void)
{
	uint64_t t = rte_rdtsc();

	__atomic_store_n(&dp_fib_active_idx, dp_fib_active_idx ^ 1, __ATOMIC_RELEASE);
	dp_rcu_synchronize();
	cost.grace += rte_rdtsc() - t;
}

int dp_fib_stage(const struct dp_fib_op *ops, unsigned int n)
{
	if (!lag.staging) {
		dp_fib_level(UINT_MAX);
		lag.staging = true;
	}
	return n ? update_standby(ops, n) : 0;
}

void dp_fib_publish(void)
{
	if (!lag.staging)
		return;
	lag.staging = false;
	switch_copies();
}

int dp_fib_apply(const struct dp_fib_op *ops, unsigned int n)
{
	int rc;

	if (n == 0)
		return 0;
	if (lag.staging)
		return dp_fib_stage(ops, n);
	dp_fib_level(UINT_MAX);	/* the standby first gets what it lacks */
	rc = update_standby(ops, n);
	if (lag.n == 0)
		return rc;	/* no entry changed: nothing to switch */
	switch_copies();
	/* No worker reads the old copy any more: bring it level. */
	dp_fib_level(UINT_MAX);
	return rc;
}

int dp_fib_add(uint32_t prefix, uint8_t depth, uint32_t nh)
{
	struct dp_fib_op op = { .prefix = prefix, .depth = depth, .nh = nh };

	return dp_fib_apply(&op, 1);
}

int dp_fib_del(uint32_t prefix, uint8_t depth)
{
	struct dp_fib_op op = { .prefix = prefix, .depth = depth, .del = 1 };

	return dp_fib_apply(&op, 1);
}

uint32_t dp_fib_lookup(uint32_t ip)
{
	return dp_fib_lookup_in(dp_fib_active_index(), ip);
}

uint64_t dp_fib_updates(void)
{
	return updates;
}

unsigned int dp_fib_routes(void)
{
	return fib_update_routes();
}

void dp_fib_groups(unsigned int *used, unsigned int *total)
{
	*used = fib_update_groups_used();
	*total = nb_groups;
}

size_t dp_fib_memory(void)
{
	return memory + fib_update_memory();
}
