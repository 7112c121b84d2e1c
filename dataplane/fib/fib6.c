/* SPDX-License-Identifier: BSD-3-Clause */
/* Two copies of the IPv6 table switched under QSBR, so workers never read a half-updated one. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_rcu_qsbr.h>

#include "dataplane/fib/fib6_priv.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

_Static_assert(DP_NH_MAX <= (1u << 23), "a route entry keeps 23 bits of next hop");

/*
 * Groups a copy has for each route it may hold: a BGP-shaped table of 220 000 prefixes needs
 * 1.15 a route, a quarter more is margin for tables whose more specific routes share less.
 * Smaller tables share less (1.21 a route at 100 000, 1.33 at 20 000, 1.40 at 4096: tern-bench
 * fib6-candidates --routes N), so a quarter of the routes more again, up to FIB6_GROUPS_SMALL.
 */
#define FIB6_GROUPS_PER_4_ROUTES 5
#define FIB6_GROUPS_SMALL 8192u
#define FIB6_GROUPS_MAX (1u << 23)	/* entries keep 31 bits of group index times 256 */

unsigned int dp_fib6_active_idx;
const uint32_t *dp_fib6_tbl24[2];
const uint32_t *dp_fib6_groups[2];
uint32_t dp_fib6_default[2];
static struct fib6_copy copies[2];

/* The routes, once for both copies: prefix and depth to next hop. */
struct route_key {
	uint8_t prefix[16];
	uint8_t depth;
	uint8_t pad[3];
};
static struct rte_hash *routes;
static unsigned int max_routes_, nb_routes;
static unsigned int per_depth[129];	/* routes of each depth: the cover search skips the others */
static uint64_t updates;
static size_t memory;

/* The changes made in the copy workers read and not yet in the other, in order. */
static struct {
	struct fib6_change *ch;
	unsigned int n, done, cap;
} lag;
static bool staging;

static uint64_t grace_token;
static bool grace_pending;
static uint64_t cycles, wait_cycles;	/* the changes made; the waits for workers */

static uint32_t key_hash(const void *key, uint32_t len, uint32_t init)
{
	const uint64_t *w = key;

	(void)len;
	init = rte_hash_crc_8byte(w[0], init);
	init = rte_hash_crc_8byte(w[1], init);
	return rte_hash_crc_4byte(((const uint32_t *)key)[4], init);
}

int dp_fib6_init(unsigned int max_routes, int socket)
{
	unsigned int groups = RTE_MIN((uint64_t)max_routes * FIB6_GROUPS_PER_4_ROUTES / 4 +
				      RTE_MIN(max_routes / 4, FIB6_GROUPS_SMALL) + 64,
				      (uint64_t)FIB6_GROUPS_MAX);
	struct rte_hash_parameters hp = {
		.name = "tern_fib6_routes", .entries = RTE_MAX(max_routes + max_routes / 4, 64u),
		.key_len = sizeof(struct route_key), .hash_func = key_hash, .socket_id = socket,
	};
	int i, rc;

	if (max_routes == 0)
		return -EINVAL;
	for (i = 0; i < 2; i++) {
		if ((rc = fib6_copy_init(&copies[i], groups, socket)) < 0)
			goto fail;
		dp_fib6_tbl24[i] = copies[i].tbl24;
		dp_fib6_groups[i] = copies[i].groups;
	}
	routes = rte_hash_create(&hp);
	if (routes == NULL) {
		rc = rte_errno ? -rte_errno : -ENOMEM;
		goto fail;
	}
	max_routes_ = max_routes;
	memory = 2 * ((size_t)FIB6_TBL24_ENTRIES * 4 + (size_t)groups * (FIB6_GROUP_ENTRIES * 4 + 12)) +
		 (size_t)hp.entries * (sizeof(struct route_key) + 16);
	return 0;
fail:
	dp_fib6_fini();
	return rc;
}

void dp_fib6_fini(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		fib6_copy_fini(&copies[i]);
		dp_fib6_tbl24[i] = dp_fib6_groups[i] = NULL;
		dp_fib6_default[i] = 0;
	}
	rte_hash_free(routes);
	routes = NULL;
	free(lag.ch);
	memset(&lag, 0, sizeof(lag));
	memset(per_depth, 0, sizeof(per_depth));
	dp_fib6_active_idx = 0;
	nb_routes = max_routes_ = 0;
	memory = 0;
	staging = grace_pending = false;
}

/* Whether no worker reads the copy the last switch left any more; waits for it if wait. */
static bool grace_over(bool wait)
{
	uint64_t t;

	if (!grace_pending)
		return true;
	t = rte_rdtsc();
	if (rte_rcu_qsbr_check(dp_rcu, grace_token, wait) == 1)
		grace_pending = false;
	wait_cycles += rte_rdtsc() - t;
	return !grace_pending;
}

/* Makes ch in copy i, as it was made in the other. */
static void make(unsigned int i, const struct fib6_change *ch)
{
	const struct dp_fib6_op *op = &ch->op;

	if (op->depth == 0)
		dp_fib6_default[i] = op->del ? 0 : op->nh;
	else if (op->del)
		fib6_copy_del(&copies[i], op->prefix, op->depth, ch->cover);
	else
		fib6_copy_add(&copies[i], op->prefix, op->depth, op->nh, ch->is_new);
}

bool dp_fib6_level(unsigned int budget)
{
	uint64_t t;

	if (staging || lag.done == lag.n)
		return false;
	if (!grace_over(false))
		return true;	/* not yet: workers may still read the standby */
	t = rte_rdtsc();
	while (budget-- > 0 && lag.done < lag.n)
		make(dp_fib6_active_idx ^ 1, &lag.ch[lag.done++]);
	if (lag.done == lag.n)
		lag.n = lag.done = 0;
	cycles += rte_rdtsc() - t;
	return lag.n > 0;
}

void dp_fib6_settle(void)
{
	grace_over(true);
	dp_fib6_level(UINT_MAX);
}

bool dp_fib6_staging(void)
{
	return staging;
}

unsigned int dp_fib6_lag(void)
{
	return lag.n - lag.done;
}

static int lag_reserve(unsigned int more)
{
	struct fib6_change *ch;
	unsigned int cap;

	if (lag.n + more <= lag.cap)
		return 0;
	cap = RTE_MAX(lag.cap * 2, RTE_MAX(lag.n + more, 1024u));
	ch = realloc(lag.ch, (size_t)cap * sizeof(*ch));
	if (ch == NULL)
		return -ENOMEM;
	lag.ch = ch;
	lag.cap = cap;
	return 0;
}

/* Clears the bits of a past depth, a byte at a time. */
static void mask(uint8_t *a, unsigned int depth)
{
	unsigned int b = depth / 8;

	if (b >= 16)
		return;
	if (depth % 8)
		a[b++] &= 0xff << (8 - depth % 8);
	memset(a + b, 0, 16 - b);
}

static struct route_key key_of(const uint8_t *prefix, unsigned int depth)
{
	struct route_key k = { .depth = depth };

	memcpy(k.prefix, prefix, 16);
	mask(k.prefix, depth);
	return k;
}

static bool route_get(const struct route_key *k, uint32_t *nh)
{
	void *data;

	if (rte_hash_lookup_data(routes, k, &data) < 0)
		return false;
	*nh = (uint32_t)(uintptr_t)data;
	return true;
}

/* The longest route shorter than depth that holds prefix, as an entry (0: none). */
static uint32_t cover_of(const uint8_t *prefix, unsigned int depth)
{
	uint32_t nh;
	unsigned int d;

	for (d = depth - 1; d >= 1; d--) {
		struct route_key k;

		if (per_depth[d] == 0)
			continue;
		k = key_of(prefix, d);
		if (route_get(&k, &nh))
			return fib6_leaf(nh, d);
	}
	return 0;
}

/* One change in the standby copy; ch records how, for the other copy. */
static int change(unsigned int i, struct dp_fib6_op *op, struct fib6_change *ch)
{
	struct route_key k;
	uint32_t old;
	bool had;

	if (op->depth > 128 || (!op->del && (op->nh == 0 || op->nh >= DP_NH_MAX)))
		return -EINVAL;
	mask(op->prefix, op->depth);
	ch->op = *op;
	ch->cover = 0;
	ch->is_new = false;
	if (op->depth == 0) {	/* the default route, beside the table */
		had = dp_fib6_default[i] != 0;
		if (op->del && !had)
			return -ENOENT;
		nb_routes += op->del ? -1 : !had;
		make(i, ch);
		return 0;
	}
	k = key_of(op->prefix, op->depth);
	had = route_get(&k, &old);
	if (op->del) {
		if (!had)
			return -ENOENT;
		ch->cover = cover_of(op->prefix, op->depth);
		rte_hash_del_key(routes, &k);
		per_depth[op->depth]--;
		nb_routes--;
	} else if (!had) {
		if (nb_routes >= max_routes_ || !fib6_copy_fits(&copies[i], op->prefix, op->depth))
			return -ENOSPC;
		if (rte_hash_add_key_data(routes, &k, (void *)(uintptr_t)op->nh) < 0)
			return -ENOSPC;
		per_depth[op->depth]++;
		nb_routes++;
		ch->is_new = true;
	} else if (rte_hash_add_key_data(routes, &k, (void *)(uintptr_t)op->nh) < 0) {
		return -ENOSPC;	/* never: the key is there */
	}
	make(i, ch);
	return 0;
}

/* The batch, in its order, made in the standby copy and logged for the other. */
static int update_standby(struct dp_fib6_op *ops, unsigned int n)
{
	unsigned int standby = dp_fib6_active_idx ^ 1, i;
	uint64_t t = rte_rdtsc();
	int rc, first = 0;

	if (lag_reserve(n) < 0) {
		for (i = 0; i < n; i++)
			ops[i].refused = 1;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		rc = change(standby, &ops[i], &lag.ch[lag.n]);
		ops[i].refused = rc < 0;
		if (rc < 0) {
			if (first == 0)
				first = rc;
			continue;
		}
		lag.n++;
	}
	cycles += rte_rdtsc() - t;
	/* the telemetry thread reads it: one store it sees whole */
	__atomic_store_n(&updates, updates + n, __ATOMIC_RELAXED);
	return first;
}

static void switch_copies(void)
{
	__atomic_store_n(&dp_fib6_active_idx, dp_fib6_active_idx ^ 1, __ATOMIC_RELEASE);
	grace_token = rte_rcu_qsbr_start(dp_rcu);
	grace_pending = true;
}

int dp_fib6_stage(struct dp_fib6_op *ops, unsigned int n)
{
	if (routes == NULL)
		return n ? -ENODEV : 0;	/* no IPv6 FIB was made */
	if (!staging) {
		dp_fib6_settle();
		staging = true;
	}
	return n ? update_standby(ops, n) : 0;
}

void dp_fib6_publish(void)
{
	if (!staging)
		return;
	staging = false;
	switch_copies();
}

int dp_fib6_apply(struct dp_fib6_op *ops, unsigned int n)
{
	int rc;

	if (n == 0)
		return 0;
	if (routes == NULL) {
		for (rc = 0; rc < (int)n; rc++)
			ops[rc].refused = 1;
		return -ENODEV;
	}
	if (staging)
		return dp_fib6_stage(ops, n);
	dp_fib6_settle();	/* the standby first gets what it lacks */
	rc = update_standby(ops, n);
	if (lag.n > 0)	/* else nothing changed: nothing to switch */
		switch_copies();
	return rc;
}

int dp_fib6_add(const uint8_t prefix[16], uint8_t depth, uint32_t nh)
{
	struct dp_fib6_op op = { .depth = depth, .nh = nh };

	memcpy(op.prefix, prefix, 16);
	return dp_fib6_apply(&op, 1);
}

int dp_fib6_del(const uint8_t prefix[16], uint8_t depth)
{
	struct dp_fib6_op op = { .depth = depth, .del = 1 };

	memcpy(op.prefix, prefix, 16);
	return dp_fib6_apply(&op, 1);
}

bool dp_fib6_route(const uint8_t prefix[16], uint8_t depth, uint32_t *nh)
{
	struct route_key k;
	uint32_t v;

	if (depth > 128 || routes == NULL)
		return false;
	if (depth == 0) {	/* the copy the last change went to */
		v = dp_fib6_default[dp_fib6_active_idx ^ staging];
		if (v == 0)
			return false;
	} else {
		k = key_of(prefix, depth);
		if (!route_get(&k, &v))
			return false;
	}
	if (nh != NULL)
		*nh = v;
	return true;
}

bool dp_fib6_fits(const uint8_t prefix[16], uint8_t depth)
{
	uint8_t p[16];

	if (depth > 128 || routes == NULL)
		return false;
	if (depth == 0 || dp_fib6_route(prefix, depth, NULL))
		return true;
	memcpy(p, prefix, 16);
	mask(p, depth);
	/* the copy the last change went to */
	return nb_routes < max_routes_ &&
	       fib6_copy_fits(&copies[dp_fib6_active_idx ^ staging], p, depth);
}

uint32_t dp_fib6_lookup(const uint8_t ip[16])
{
	if (routes == NULL)
		return 0;
	return dp_fib6_lookup_in(dp_fib6_active_index(), ip);
}

unsigned int dp_fib6_routes(void)
{
	return nb_routes;
}

void dp_fib6_groups_used(unsigned int *used, unsigned int *total)
{
	const struct fib6_copy *c = &copies[dp_fib6_active_idx ^ staging];

	*total = c->nb_groups;
	*used = c->nb_groups - c->nb_free;
}

uint64_t dp_fib6_updates(void)
{
	return __atomic_load_n(&updates, __ATOMIC_RELAXED);
}

size_t dp_fib6_memory(void)
{
	return memory + (size_t)lag.cap * sizeof(*lag.ch);
}

uint64_t dp_fib6_cycles(void)
{
	return cycles + wait_cycles;
}

void dp_fib6_cost(uint64_t *work, uint64_t *wait)
{
	*work = cycles;
	*wait = wait_cycles;
}
