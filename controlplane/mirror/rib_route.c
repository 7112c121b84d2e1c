/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB's routes: every kernel route of the mirrored tables, and for each
 * prefix the one the FIB gets. The kernel may hold several routes for one
 * prefix: in different tables, with different metrics, and (ip route append,
 * prepend) several with the same table and metric, of which it uses the
 * first. The route in use sits in the route table (rib_table.c); the others
 * wait aside, in the kernel's order, and the best of them takes over when it
 * goes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <rte_common.h>

#include "controlplane/mirror/rib_priv.h"
#include "controlplane/mirror/rib_table.h"

#define RIB_MAX_ALTERNATES 65536

/* A kernel route waiting behind the one in use at the same prefix. */
struct alternate {
	struct route_key key;
	struct route_rec rec;
	uint32_t seq;		/* the kernel's order among routes of one table and metric */
};

static unsigned int max_routes;
static struct alternate *alts;
static unsigned int nb_alts;
/* Routes in use by source, and by nexthop (rib_nh_count_route), kept as they change: counting
 * them by a walk took show ip route summary (and each metrics scrape) tens of ms at 1M. */
static unsigned int nb_by_src[RIB_SRC_MAX];
/* A prepended route gets a seq below every other, an appended one above. */
static uint32_t seq_first = 1u << 31, seq_last = 1u << 31;
static uint32_t tables[RIB_MAX_TABLES];
static unsigned int nb_tables;

int rib_set_tables(const uint32_t *ids, unsigned int n)
{
	unsigned int i;

	if (n > RIB_MAX_TABLES)
		return -E2BIG;
	for (i = 0; i < n; i++)
		if (ids[i] == RT_TABLE_UNSPEC || ids[i] == RT_TABLE_MAIN || ids[i] == RT_TABLE_LOCAL)
			return -EINVAL;
	memcpy(tables, ids, n * sizeof(*ids));
	nb_tables = n;
	return 0;
}

int rib_table_rank(uint32_t table)
{
	unsigned int i;

	if (table == RT_TABLE_LOCAL)
		return 0;
	if (table == RT_TABLE_MAIN)
		return 1;
	for (i = 0; i < nb_tables; i++)
		if (tables[i] == table)
			return 2 + i;
	return -ENOENT;
}

/* Whether a is preferred to b: the table listed first, then the lower metric. */
static bool rec_better(const struct route_rec *a, const struct route_rec *b)
{
	int ra = rib_table_rank(a->table), rb = rib_table_rank(b->table);

	if (ra != rb)
		return ra < rb;
	return a->metric < b->metric;
}

static bool same_slot(const struct route_rec *a, const struct route_rec *b)
{
	return a->table == b->table && a->metric == b->metric;
}

static bool same_key(const struct route_key *a, const struct route_key *b)
{
	return a->prefix == b->prefix && a->len == b->len;
}

int rib_routes_init(unsigned int n)
{
	int rc;

	max_routes = n;
	if ((rc = route_table_init(n)) < 0)
		return rc;
	alts = calloc(RIB_MAX_ALTERNATES, sizeof(*alts));
	return alts ? 0 : -ENOMEM;
}

void rib_routes_fini(void)
{
	route_table_fini();
	free(alts);
	alts = NULL;
	nb_alts = 0;
	memset(nb_by_src, 0, sizeof(nb_by_src));
}

/* The first (in the kernel's order) route aside at key in rec's table and metric. */
static int alt_first(const struct route_key *k, const struct route_rec *slot)
{
	int first = -ENOENT;
	unsigned int i;

	for (i = 0; i < nb_alts; i++)
		if (same_key(&alts[i].key, k) && same_slot(&alts[i].rec, slot) &&
		    (first < 0 || alts[i].seq < alts[first].seq))
			first = i;
	return first;
}

/* The route aside at key in slot's table and metric with nexthop nh. */
static int alt_find(const struct route_key *k, const struct route_rec *slot, uint32_t nh)
{
	unsigned int i;

	for (i = 0; i < nb_alts; i++)
		if (same_key(&alts[i].key, k) && same_slot(&alts[i].rec, slot) && alts[i].rec.nh == nh)
			return i;
	return -ENOENT;
}

static int alt_best(const struct route_key *k)
{
	int best = -ENOENT;
	unsigned int i;

	for (i = 0; i < nb_alts; i++) {
		const struct alternate *a = &alts[i];

		if (!same_key(&a->key, k))
			continue;
		if (best < 0 || rec_better(&a->rec, &alts[best].rec) ||
		    (same_slot(&a->rec, &alts[best].rec) && a->seq < alts[best].seq))
			best = i;
	}
	return best;
}

static void alt_remove(int i)
{
	rib_nh_put(alts[i].rec.nh);
	alts[i] = alts[--nb_alts];
}

/* Sets r aside at k; the reference r holds on its nexthop moves with it. */
static int alt_store(const struct route_key *k, const struct route_rec *r, uint32_t seq)
{
	if (nb_alts == RIB_MAX_ALTERNATES)
		return -ENOSPC;
	alts[nb_alts++] = (struct alternate){ .key = *k, .rec = *r, .seq = seq };
	return 0;
}

/* A route in use counted in (d = 1) or out (-1). */
static void count(const struct route_rec *r, int d)
{
	nb_by_src[r->src] += d;
	rib_nh_count_route(r->nh, d);
}

/* r goes in use at pos, in place of the route there unless the slot is fresh; a prefix the FIB
 * refused waits for room with it (rib_unplaced.c). */
static int install(const struct route_key *k, int32_t pos, const struct route_rec *r, bool fresh)
{
	if (!fresh)
		count(route_rec_at(pos), -1);
	(*route_rec_at(pos)) = *r;
	count(r, 1);
	return *route_unplaced_at(pos) ? 0 : rib_queue_op(k->prefix, k->len, false, r->nh);
}

/* r (with its nexthop reference) takes the place of the route in use, which goes aside first. */
static int displace(const struct route_key *k, int32_t pos, const struct route_rec *r)
{
	int rc = alt_store(k, route_rec_at(pos), --seq_first);

	if (rc < 0) {
		rib_nh_put(r->nh);
		return rc;
	}
	return install(k, pos, r, false);
}

/* r is the same route as one already held (a dump after a resync): renew its mark. */
static void renew(struct route_rec *held, const struct route_rec *r)
{
	rib_nh_put(r->nh);
	held->gen = r->gen;
	held->kproto = r->kproto;
}

/* A kernel route at a prefix that already has one in use (cur). */
static int add_beside(const struct route_key *k, int32_t pos, const struct route_rec *r,
		      enum rib_add_mode mode)
{
	struct route_rec *cur = route_rec_at(pos);
	int i, rc;

	if (same_slot(cur, r)) {
		if (mode == RIB_ADD_REPLACE) {
			rib_nh_put(cur->nh);
			return install(k, pos, r, false);
		}
		if (cur->nh == r->nh) {
			renew(cur, r);
			return 0;
		}
	}
	if ((i = alt_find(k, r, r->nh)) >= 0) {
		renew(&alts[i].rec, r);
		return 0;
	}
	if (same_slot(cur, r) ? mode == RIB_ADD_PREPEND : rec_better(r, cur))
		return displace(k, pos, r);
	if (mode == RIB_ADD_REPLACE && (i = alt_first(k, r)) >= 0) {
		rib_nh_put(alts[i].rec.nh);
		alts[i].rec = *r;
		return 0;
	}
	rc = alt_store(k, r, mode == RIB_ADD_PREPEND ? --seq_first : ++seq_last);
	if (rc < 0)
		rib_nh_put(r->nh);
	return rc;
}

int rib_route_add(uint32_t prefix, uint8_t len, const struct rib_route_attrs *a,
		  const struct rib_nh_spec *nh, enum rib_add_mode mode)
{
	struct route_key key = { prefix & rib_mask(len), len };
	struct route_rec rec = { .metric = a->metric, .table = a->table, .src = a->src,
				 .kproto = a->kproto, .gen = rib_gen };
	int32_t pos;
	int rc;

	if (len > 32 || a->src >= RIB_SRC_MAX ||
	    (a->src == RIB_SRC_KERNEL && rib_table_rank(a->table) < 0))
		return -EINVAL;
	pos = route_table_find(&key);
	if (pos >= 0 && a->src == RIB_SRC_ADJACENCY && route_rec_at(pos)->src != RIB_SRC_ADJACENCY)
		return -EEXIST;	/* an adjacency never hides a kernel route */
	if ((rc = rib_nh_get(nh, &rec.nh)) < 0)
		return rc;
	if (pos >= 0 && route_rec_at(pos)->src == RIB_SRC_KERNEL && a->src == RIB_SRC_KERNEL)
		return add_beside(&key, pos, &rec, mode);
	if (pos < 0) {
		pos = route_table_add(&key);
		if (pos < 0) {
			rib_nh_put(rec.nh);
			return pos;
		}
		return install(&key, pos, &rec, true);
	}
	rib_nh_put(route_rec_at(pos)->nh);	/* a kernel route takes an adjacency's place */
	return install(&key, pos, &rec, false);
}

void rib_route_prefetch(uint32_t prefix, uint8_t len)
{
	struct route_key k = { prefix & rib_mask(len > 32 ? 32 : len), len };

	route_table_prefetch(&k);
}

/* Removes what key holds; an alternate or an adjacency may take its place. */
static int route_remove(const struct route_key *key, int32_t pos)
{
	int best = alt_best(key), port;
	bool kernel_host = key->len == 32 && route_rec_at(pos)->src == RIB_SRC_KERNEL;

	rib_nh_put(route_rec_at(pos)->nh);
	if (best >= 0) {
		struct route_rec next = alts[best].rec;

		alts[best] = alts[--nb_alts];	/* its nexthop reference moves to recs */
		return install(key, pos, &next, false);
	}
	count(route_rec_at(pos), -1);
	if (*route_unplaced_at(pos))
		rib_unplaced_forget();	/* the FIB never had it */
	else
		rib_queue_op(key->prefix, key->len, true, 0);
	route_table_del(key);
	/* a host route gone: the neighbour's adjacency comes back */
	if (kernel_host && (port = rib_neigh_port(key->prefix)) >= 0) {
		struct rib_route_attrs adj = { .src = RIB_SRC_ADJACENCY };
		struct rib_nh_spec s = { .type = RIB_NH_GATEWAY, .hop = { port, key->prefix } };

		return rib_route_add(key->prefix, 32, &adj, &s, RIB_ADD_REPLACE);
	}
	return 0;
}

int rib_route_del(uint32_t prefix, uint8_t len, uint32_t table, uint32_t metric,
		  const struct rib_nh_spec *nh)
{
	struct route_key key = { prefix & rib_mask(len), len };
	struct route_rec slot = { .table = table, .metric = metric };
	uint32_t id = 0;
	int32_t pos;
	int a;

	if (len > 32)
		return -EINVAL;
	pos = route_table_find(&key);
	if (pos < 0)
		return -ENOENT;
	if (nh != NULL && (id = rib_nh_find(nh)) == 0)
		return -ENOENT;	/* no route has that nexthop */
	if (route_rec_at(pos)->src == RIB_SRC_KERNEL && same_slot(route_rec_at(pos), &slot) &&
	    (nh == NULL || route_rec_at(pos)->nh == id))
		return route_remove(&key, pos);
	a = nh != NULL ? alt_find(&key, &slot, id) : alt_first(&key, &slot);
	if (a < 0)
		return -ENOENT;
	alt_remove(a);
	return 0;
}

void rib_adjacency_del(uint32_t ip)
{
	struct route_key key = { ip, 32 };
	int32_t pos = route_table_find(&key);

	if (pos >= 0 && route_rec_at(pos)->src == RIB_SRC_ADJACENCY)
		route_remove(&key, pos);
}

/* Removes every kernel route (in use or aside) that keep() rejects; returns how many. */
static unsigned int routes_remove_if(bool (*keep)(const struct route_rec *, uint16_t), uint16_t arg)
{
	unsigned int n = route_table_count(), found = 0, i;
	struct route_key *doomed = calloc(n ? n : 1, sizeof(*doomed));
	uint32_t iter = 0;
	int32_t pos;

	for (i = 0; i < nb_alts;)
		if (!keep(&alts[i].rec, arg))
			alt_remove(i);
		else
			i++;
	if (doomed == NULL)
		return 0;
	/* the keys first: a removal moves other routes in the table */
	while ((pos = route_table_next(&iter)) >= 0)
		if (!keep(route_rec_at(pos), arg))
			doomed[found++] = *route_key_at(pos);
	for (i = 0; i < found; i++) {
		pos = route_table_find(&doomed[i]);
		if (pos >= 0)
			route_remove(&doomed[i], pos);
	}
	free(doomed);
	return found;
}

static bool keep_off_port(const struct route_rec *r, uint16_t port)
{
	return r->src != RIB_SRC_KERNEL || !rib_nh_uses_port(r->nh, port);
}

unsigned int rib_flush_port(uint16_t port)
{
	return routes_remove_if(keep_off_port, port);
}

static bool keep_marked(const struct route_rec *r, uint16_t g)
{
	return r->src != RIB_SRC_KERNEL || r->gen == g;
}

unsigned int rib_routes_sweep(uint16_t g)
{
	return routes_remove_if(keep_marked, g);
}

static void fill_info(const struct route_key *k, const struct route_rec *r, bool unplaced,
		      struct rib_route_info *out)
{
	memset(out, 0, sizeof(*out));
	out->unplaced = unplaced;
	out->prefix = k->prefix;
	out->len = k->len;
	out->attrs = (struct rib_route_attrs){ .src = r->src, .kproto = r->kproto,
					       .metric = r->metric, .table = r->table };
	out->nh_id = r->nh;
	rib_nh_spec_of(r->nh, &out->nh);
}

int rib_route_get(uint32_t prefix, uint8_t len, struct rib_route_info *out)
{
	struct route_key key = { prefix & rib_mask(len), len };
	int32_t pos;

	if (len > 32 || (pos = route_table_find(&key)) < 0)
		return -ENOENT;
	fill_info(&key, route_rec_at(pos), *route_unplaced_at(pos), out);
	return 0;
}

int rib_route_find(uint32_t prefix, uint8_t len, uint32_t table, uint32_t metric,
		   struct rib_route_info *out)
{
	struct route_key key = { prefix & rib_mask(len), len };
	struct route_rec slot = { .table = table, .metric = metric };
	int32_t pos;
	int a;

	if (len > 32 || (pos = route_table_find(&key)) < 0)
		return -ENOENT;
	if (route_rec_at(pos)->src == RIB_SRC_KERNEL && same_slot(route_rec_at(pos), &slot)) {
		fill_info(&key, route_rec_at(pos), *route_unplaced_at(pos), out);
		return 0;
	}
	if ((a = alt_first(&key, &slot)) < 0)
		return -ENOENT;
	fill_info(&key, &alts[a].rec, false, out);
	out->waiting = true;
	return 0;
}

/* The routes the FIB refused are passed over: this is what forwards ip. */
int rib_route_lookup(uint32_t ip, struct rib_route_info *out)
{
	int len;

	for (len = 32; len >= 0; len--)
		if (rib_route_get(ip, len, out) == 0 && !out->unplaced)
			return 0;
	return -ENETUNREACH;
}

static int route_cmp(const void *a, const void *b)
{
	const struct rib_route_info *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if (x->len != y->len)
		return (int)x->len - (int)y->len;
	if (x->attrs.table != y->attrs.table)
		return x->attrs.table < y->attrs.table ? -1 : 1;
	if (x->attrs.metric != y->attrs.metric)
		return x->attrs.metric < y->attrs.metric ? -1 : 1;
	return 0;
}

int rib_routes_sorted(struct rib_route_info **out, unsigned int *n, bool waiting)
{
	unsigned int cap = route_table_count() + (waiting ? nb_alts : 0), i = 0, a;
	struct rib_route_info *r = calloc(cap ? cap : 1, sizeof(*r));
	uint32_t iter = 0;
	int32_t pos;

	if (r == NULL)
		return -ENOMEM;
	while (i < cap && (pos = route_table_next(&iter)) >= 0)
		fill_info(route_key_at(pos), route_rec_at(pos), *route_unplaced_at(pos), &r[i++]);
	for (a = 0; waiting && a < nb_alts && i < cap; a++) {
		fill_info(&alts[a].key, &alts[a].rec, false, &r[i]);
		r[i++].waiting = true;
	}
	qsort(r, i, sizeof(*r), route_cmp);
	*out = r;
	*n = i;
	return 0;
}

void rib_route_counts(struct rib_counts *c)
{
	memcpy(c->routes, nb_by_src, sizeof(c->routes));
	rib_nh_routes_by_type(c->by_type);
	c->alternates = nb_alts;
	c->unplaced = rib_unplaced_count();
}

unsigned int rib_route_total(void)
{
	return route_table_count();
}

void rib_route_limits(struct rib_counts *l)
{
	l->routes[RIB_SRC_KERNEL] = max_routes;	/* shared by every source */
	l->alternates = RIB_MAX_ALTERNATES;
}
