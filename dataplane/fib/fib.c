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
#include <rte_prefetch.h>

#include "dataplane/fib/fib_priv.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

_Static_assert(DP_NH_NONE == 0, "a zeroed table is one with no routes");

unsigned int dp_fib_active_idx;
const uint32_t *dp_fib_tbl24[2];
const uint32_t *dp_fib_tbl8[2];
static struct fib_copy copies[2];
static unsigned int nb_groups;
static uint64_t updates;
static size_t memory;

/*
 * The lines of entries the standby copy lacks. While staging they are the
 * ones written to the standby alone; after a switch, the ones the new standby
 * (the copy workers read before) has yet to get, copied a slice at a time by
 * dp_fib_level, or all at once before the next change.
 */
struct fib_lag fib_lag;
static bool staging;

static struct dp_fib_cost cost;
/* After a switch, the token workers pass once none reads the copy it left (see grace_over). */
static uint64_t grace_token;
static bool grace_pending;

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
	int i, rc = -ENOMEM;

	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "tern_fib%d_tbl24", i);
		copies[i].tbl24 = rte_zmalloc_socket(name, s24, RTE_CACHE_LINE_SIZE, socket);
		snprintf(name, sizeof(name), "tern_fib%d_tbl8", i);
		copies[i].tbl8 = rte_zmalloc_socket(name, s8, RTE_CACHE_LINE_SIZE, socket);
		if (copies[i].tbl24 == NULL || copies[i].tbl8 == NULL)
			goto fail;
		dp_fib_tbl24[i] = copies[i].tbl24;
		dp_fib_tbl8[i] = copies[i].tbl8;
	}
	nb_groups = groups;
	fib_lag.lines_max = FIB_TBL24_LINES + groups * (FIB_GROUP_ENTRIES / FIB_LINE);
	fib_lag.bits = calloc(fib_lag.lines_max / 64 + 1, sizeof(*fib_lag.bits));
	fib_lag.lines = malloc((size_t)fib_lag.lines_max * sizeof(*fib_lag.lines));
	if (fib_lag.bits == NULL || fib_lag.lines == NULL)
		goto fail;
	memory = 2 * (s24 + s8) + (fib_lag.lines_max / 64 + 1) * sizeof(*fib_lag.bits) +
		 (size_t)fib_lag.lines_max * sizeof(*fib_lag.lines);
	if ((rc = fib_update_init(max_routes, groups, socket)) == 0)
		return 0;
fail:
	dp_fib_fini();
	return rc;
}

void dp_fib_fini(void)
{
	int i;

	fib_update_fini();
	for (i = 0; i < 2; i++) {
		rte_free(copies[i].tbl24);
		rte_free(copies[i].tbl8);
		copies[i].tbl24 = NULL;
		copies[i].tbl8 = NULL;
		dp_fib_tbl24[i] = NULL;
		dp_fib_tbl8[i] = NULL;
	}
	free(fib_lag.bits);
	free(fib_lag.lines);
	memset(&fib_lag, 0, sizeof(fib_lag));
	dp_fib_active_idx = 0;
	nb_groups = 0;
	memory = 0;
	staging = grace_pending = false;
}

/* Line l of copy c. */
static inline uint32_t *line_of(const struct fib_copy *c, uint32_t l)
{
	return l < FIB_TBL24_LINES ? c->tbl24 + (size_t)l * FIB_LINE :
				     c->tbl8 + (size_t)(l - FIB_TBL24_LINES) * FIB_LINE;
}

/* Copies line l of the table from the active copy to the standby. */
static void copy_line(uint32_t l)
{
	memcpy(line_of(&copies[dp_fib_active_idx ^ 1], l), line_of(&copies[dp_fib_active_idx], l), 64);
}

/* Fetches line l of both copies: the active one to be read, the standby to be written. */
static void warm_line(uint32_t l)
{
	rte_prefetch0(line_of(&copies[dp_fib_active_idx], l));
	rte_prefetch0_write(line_of(&copies[dp_fib_active_idx ^ 1], l));
}

/*
 * The grace period after a switch is not waited out there: the control
 * thread goes on (reading the next messages) while workers leave the copy,
 * and only what writes that copy next checks the token, by then nearly always
 * past. Waiting at the switch cost a route 30-45 ns of spinning
 * (bench/mirror_scale.sh), a worker's loop for each batch.
 */

/* Whether no worker reads the copy the last switch left any more; waits for it if wait. */
static bool grace_over(bool wait)
{
	uint64_t t;

	if (!grace_pending)
		return true;
	t = rte_rdtsc();
	if (rte_rcu_qsbr_check(dp_rcu, grace_token, wait) == 1)
		grace_pending = false;
	cost.grace += rte_rdtsc() - t;
	return !grace_pending;
}

/* Lines fetched ahead of their copy: the standby's line is written whole, and without the
 * fetch the stores that miss filled the store buffer (tern-bench pipeline, 1M routes: a load
 * 0.159-0.161 s against 0.146, a withdrawal 0.177-0.183 against 0.163-0.164; 16 as 8). */
#define LEVEL_AHEAD 8
bool dp_fib_level(unsigned int budget)
{
	struct fib_lag *g = &fib_lag;
	unsigned int i;
	uint64_t t;

	if (staging || g->done == g->n)
		return false;
	if (!grace_over(false))
		return true;	/* not yet: workers may still read the standby */
	t = rte_rdtsc();
	for (i = g->done; i < g->n && i < g->done + LEVEL_AHEAD; i++)
		warm_line(g->lines[i]);
	while (budget > 0 && g->done < g->n) {
		uint32_t l = g->lines[g->done++];

		if (g->done + LEVEL_AHEAD - 1 < g->n)
			warm_line(g->lines[g->done + LEVEL_AHEAD - 1]);
		copy_line(l);
		g->bits[l / 64] &= ~(1ull << (l % 64));
		budget = budget > FIB_LINE ? budget - FIB_LINE : 0;
	}
	if (g->done == g->n)
		g->n = g->done = 0;
	cost.level += rte_rdtsc() - t;
	return g->n > 0;
}

bool dp_fib_staging(void)
{
	return staging;
}

unsigned int dp_fib_lag(void)
{
	return (fib_lag.n - fib_lag.done) * FIB_LINE;
}

/*
 * The batch, in its order, made in the standby copy, its cycles counted. Each
 * change's reads are fetched FIB_AHEAD changes before it is made (a delete's
 * cover half as many, once its cover24 entry has come), so their cache misses
 * overlap; with that, putting a batch in address order first cost more than
 * it saved (bench/mirror_scale.sh: 78 ns a route to sort, 29 saved).
 */
static int update_standby(struct dp_fib_op *ops, unsigned int n)
{
	struct fib_copy *c = &copies[dp_fib_active_idx ^ 1];
	uint64_t t = rte_rdtsc();
	unsigned int i;
	int rc, first = 0;

	fib_update_warm(c, ops, RTE_MIN(n, (unsigned int)FIB_AHEAD));
	for (i = 0; i < n; i++) {
		if (i + FIB_AHEAD < n)
			fib_update_warm(c, &ops[i + FIB_AHEAD], 1);
		if (i + FIB_AHEAD / 2 < n)	/* its cover24 entry fetched half the way ago */
			fib_update_warm_covers(&ops[i + FIB_AHEAD / 2], 1);
		rc = fib_update(c, &ops[i]);
		ops[i].refused = rc < 0;
		if (rc < 0 && first == 0)
			first = rc;
	}
	cost.standby += rte_rdtsc() - t;
	/* the telemetry thread reads it: one store it sees whole */
	__atomic_store_n(&updates, updates + n, __ATOMIC_RELAXED);
	return first;
}

/* Workers read the standby from now on; the other copy is written again once none reads it. */
static void switch_copies(void)
{
	uint64_t t = rte_rdtsc();

	__atomic_store_n(&dp_fib_active_idx, dp_fib_active_idx ^ 1, __ATOMIC_RELEASE);
	grace_token = rte_rcu_qsbr_start(dp_rcu);
	grace_pending = true;
	cost.grace += rte_rdtsc() - t;
}

void dp_fib_settle(void)
{
	grace_over(true);
	dp_fib_level(UINT_MAX);
}

int dp_fib_stage(struct dp_fib_op *ops, unsigned int n)
{
	if (!staging) {
		dp_fib_settle();
		staging = true;
	}
	return n ? update_standby(ops, n) : 0;
}

void dp_fib_publish(void)
{
	if (!staging)
		return;
	staging = false;
	switch_copies();
}

int dp_fib_apply(struct dp_fib_op *ops, unsigned int n)
{
	int rc;

	if (n == 0)
		return 0;
	if (staging)
		return dp_fib_stage(ops, n);
	dp_fib_settle();	/* the standby first gets what it lacks */
	rc = update_standby(ops, n);
	if (fib_lag.n > 0)	/* else no entry changed: nothing to switch */
		switch_copies();
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

bool dp_fib_route(uint32_t prefix, uint8_t depth, uint32_t *nh)
{
	return fib_update_route(prefix, depth, nh);
}

bool dp_fib_fits(uint32_t prefix, uint8_t depth)
{
	/* the copy the last change went to */
	return fib_update_fits(&copies[dp_fib_active_idx ^ staging], prefix, depth);
}

/* Any thread (telemetry's among them). */
uint64_t dp_fib_updates(void)
{
	return __atomic_load_n(&updates, __ATOMIC_RELAXED);
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
