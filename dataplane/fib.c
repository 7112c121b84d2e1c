/* SPDX-License-Identifier: BSD-3-Clause */
/* Two rte_fib copies switched under QSBR, so workers never read a half-updated DIR-24-8. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_fib.h>

#include "dataplane/fib.h"
#include "dataplane/nexthop.h"
#include "dataplane/rcu.h"
#include "dataplane/workarounds/fib_layout.h"

struct rte_fib *dp_fib_copies[2];
unsigned int dp_fib_active_idx;
const uint32_t *dp_fib_tbl24[2];
static uint64_t updates;
static size_t memory;

/*
 * Changes the standby copy lacks. While staging they are the ones made to the
 * standby alone; after dp_fib_publish, the ones the new standby (the copy
 * workers read before) has yet to get, applied a slice at a time by
 * dp_fib_level, or all at once before the next dp_fib_apply.
 */
static struct {
	struct dp_fib_op *ops;
	unsigned int n, cap, done;
	bool staging;
} lag;

static struct fib_tbl8_counts *fib_counts[2];
static struct dp_fib_cost cost;

void dp_fib_cost(struct dp_fib_cost *c)
{
	*c = cost;
}

uint64_t dp_fib_cycles(void)
{
	return cost.sort + cost.standby + cost.grace + cost.level;
}

int dp_fib_init(unsigned int max_routes, int socket)
{
	struct rte_fib_conf conf = {
		.type = RTE_FIB_DIR24_8,
		.default_nh = DP_NH_NONE,
		.max_routes = max_routes,
		.dir24_8 = {
			.nh_sz = RTE_FIB_DIR24_8_4B,
			/* prefixes longer than /24 are rare in Internet tables */
			.num_tbl8 = max_routes / 64 > 1024 ? max_routes / 64 : 1024,
		},
	};
	char name[32];
	int i;

	if (conf.dir24_8.num_tbl8 > (1u << 22))
		conf.dir24_8.num_tbl8 = 1u << 22;
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "tern_fib%d", i);
		dp_fib_copies[i] = rte_fib_create(name, socket, &conf);
		if (dp_fib_copies[i] == NULL)
			return -rte_errno ? -rte_errno : -ENOMEM;
		dp_fib_tbl24[i] = fib_layout_tbl24(dp_fib_copies[i], DP_NH_NONE);
		fib_counts[i] = fib_layout_tbl8_counts(dp_fib_copies[i], conf.dir24_8.num_tbl8);
	}
	memory = 2 * ((size_t)(1 << 24) * 4 + (size_t)conf.dir24_8.num_tbl8 * 256 * 4);
	return 0;
}

/*
 * The batch in address order (then shorter prefixes first; operations on one
 * prefix keep their order, operations on different prefixes commute). rte_fib
 * walks its rib tree for every change, and for a big batch those walks are
 * mostly cache misses in random order; in address order one walk leaves the
 * next one's path in cache.
 */
struct sort_op {
	uint64_t key;		/* prefix, depth, position: a total order */
	unsigned int idx;
};

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = ((const struct sort_op *)a)->key, y = ((const struct sort_op *)b)->key;

	return x < y ? -1 : x > y;
}

static const struct dp_fib_op *in_address_order(const struct dp_fib_op *ops, unsigned int n)
{
	static struct dp_fib_op *sorted;
	static struct sort_op *keys;
	static unsigned int cap;
	unsigned int i;

	if (n < 64 || n > (1u << 24))
		return ops;
	if (n > cap) {
		struct dp_fib_op *s = realloc(sorted, n * sizeof(*s));
		struct sort_op *k = s ? realloc(keys, n * sizeof(*k)) : NULL;

		if (s)
			sorted = s;
		if (k)
			keys = k;
		if (s == NULL || k == NULL)
			return ops;	/* unsorted is slower, not wrong */
		cap = n;
	}
	for (i = 0; i < n; i++) {
		keys[i].key = (uint64_t)ops[i].prefix << 32 | (uint64_t)ops[i].depth << 24 | i;
		keys[i].idx = i;
	}
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (i = 0; i < n; i++)
		sorted[i] = ops[keys[i].idx];
	return sorted;
}

static int apply_to(struct rte_fib *f, const struct dp_fib_op *ops, unsigned int n)
{
	struct fib_tbl8_counts *counts = fib_counts[f == dp_fib_copies[1]];
	unsigned int i;
	int rc, first = 0;

	for (i = 0; i < n; i++) {
		if (ops[i].del)
			rc = rte_fib_delete(f, ops[i].prefix, ops[i].depth);
		else
			rc = rte_fib_add(f, ops[i].prefix, ops[i].depth, ops[i].nh);
		fib_layout_mend_tbl8_counts(counts);
		if (rc == -ENOENT && ops[i].del)
			rc = 0;	/* deleting what is absent leaves the table as asked */
		if (rc < 0 && first == 0)
			first = rc;
	}
	return first;
}

static void lag_clear(void)
{
	free(lag.ops);
	memset(&lag, 0, sizeof(lag));
}

/* in_address_order, its cycles counted. */
static const struct dp_fib_op *sorted(const struct dp_fib_op *ops, unsigned int n)
{
	uint64_t t = rte_rdtsc();

	ops = in_address_order(ops, n);
	cost.sort += rte_rdtsc() - t;
	return ops;
}

/* apply_to, its cycles counted in *to. */
static int apply_timed(struct rte_fib *f, const struct dp_fib_op *ops, unsigned int n,
		       uint64_t *to)
{
	uint64_t t = rte_rdtsc();
	int rc = apply_to(f, ops, n);

	*to += rte_rdtsc() - t;
	return rc;
}

/* The switch of copies has been made: wait out the workers reading the other one. */
static void grace_period(void)
{
	uint64_t t = rte_rdtsc();

	dp_rcu_synchronize();
	cost.grace += rte_rdtsc() - t;
}

bool dp_fib_level(unsigned int budget)
{
	unsigned int standby = dp_fib_active_idx ^ 1, n;

	if (lag.staging || lag.done == lag.n)
		return false;
	n = lag.n - lag.done < budget ? lag.n - lag.done : budget;
	apply_timed(dp_fib_copies[standby], lag.ops + lag.done, n, &cost.level);
	lag.done += n;
	if (lag.done < lag.n)
		return true;
	lag_clear();
	return false;
}

bool dp_fib_staging(void)
{
	return lag.staging;
}

unsigned int dp_fib_lag(void)
{
	return lag.n - lag.done;
}

int dp_fib_stage(const struct dp_fib_op *ops, unsigned int n)
{
	unsigned int standby = dp_fib_active_idx ^ 1;

	if (!lag.staging) {
		dp_fib_level(UINT_MAX);
		lag.staging = true;
	}
	if (n == 0)
		return 0;
	if (lag.n + n > lag.cap) {
		unsigned int cap = lag.cap ? lag.cap : 65536;
		struct dp_fib_op *o;

		while (cap < lag.n + n)
			cap *= 2;
		o = realloc(lag.ops, (size_t)cap * sizeof(*o));
		if (o == NULL) {
			/* nothing to keep the changes in: show what is staged, go on as dp_fib_apply does */
			dp_fib_publish();
			return dp_fib_apply(ops, n);
		}
		lag.ops = o;
		lag.cap = cap;
	}
	ops = sorted(ops, n);
	memcpy(lag.ops + lag.n, ops, (size_t)n * sizeof(*ops));
	lag.n += n;
	updates += n;
	return apply_timed(dp_fib_copies[standby], ops, n, &cost.standby);
}

void dp_fib_publish(void)
{
	if (!lag.staging)
		return;
	lag.staging = false;
	__atomic_store_n(&dp_fib_active_idx, dp_fib_active_idx ^ 1, __ATOMIC_RELEASE);
	grace_period();
	if (lag.n == 0)
		lag_clear();
}

int dp_fib_apply(const struct dp_fib_op *ops, unsigned int n)
{
	unsigned int active, standby;
	int rc;

	if (n == 0)
		return 0;
	if (lag.staging)
		return dp_fib_stage(ops, n);
	dp_fib_level(UINT_MAX);	/* the standby first gets what it lacks */
	active = dp_fib_active_idx;
	standby = active ^ 1;
	ops = sorted(ops, n);
	rc = apply_timed(dp_fib_copies[standby], ops, n, &cost.standby);
	__atomic_store_n(&dp_fib_active_idx, standby, __ATOMIC_RELEASE);
	grace_period();
	/* No worker reads the old copy any more: bring it level. */
	apply_timed(dp_fib_copies[active], ops, n, &cost.level);
	updates += n;
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
	uint64_t nh = DP_NH_NONE;

	rte_fib_lookup_bulk(dp_fib_active(), &ip, &nh, 1);
	return nh;
}

uint64_t dp_fib_updates(void)
{
	return updates;
}

size_t dp_fib_memory(void)
{
	return memory;
}
