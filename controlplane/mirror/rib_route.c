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

static unsigned int max_routes[2];	/* by family: IPv4, IPv6 */
/* Routes in use by family and source, and by nexthop (rib_nh_count_route), kept as they
 * change: counting them by a walk took show ip route summary (and each metrics scrape) tens
 * of ms at 1M. */
static unsigned int nb_by_src[2][RIB_SRC_MAX];
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

bool route_rec_better(const struct route_rec *a, const struct route_rec *b)
{
	int ra = rib_table_rank(a->table), rb = rib_table_rank(b->table);

	if (ra != rb)
		return ra < rb;
	return a->metric < b->metric;
}

static inline unsigned int fam(uint8_t family)
{
	return family == AF_INET6;
}

static unsigned int host_len(uint8_t family)
{
	return family == AF_INET6 ? 128 : 32;
}

/* The key of an IPv4 or IPv6 prefix, masked to its length (at most the family's). */
static struct route_key key4(uint32_t prefix, uint8_t len)
{
	struct route_key k = { .family = AF_INET, .len = len };

	k.prefix = prefix & rib_mask(len > 32 ? 32 : len);
	return k;
}

static struct route_key key6(const uint8_t prefix[16], uint8_t len)
{
	struct route_key k = { .family = AF_INET6, .len = len };

	rib_mask6(prefix, len > 128 ? 128 : len, k.prefix6);
	return k;
}

int rib_routes_init(unsigned int n)
{
	int rc;

	max_routes[0] = n;
	if ((rc = route_table_init(route_table_of(AF_INET), AF_INET, n)) < 0)
		return rc;
	return alt_init();
}

int rib_routes6_init(unsigned int n)
{
	max_routes[1] = n;
	return route_table_init(route_table_of(AF_INET6), AF_INET6, n);
}

void rib_routes_fini(void)
{
	route_table_fini(route_table_of(AF_INET));
	route_table_fini(route_table_of(AF_INET6));
	alt_fini();
	memset(nb_by_src, 0, sizeof(nb_by_src));
	memset(max_routes, 0, sizeof(max_routes));
}

/* A route in use counted in (d = 1) or out (-1). */
static void count(uint8_t family, const struct route_rec *r, int d)
{
	nb_by_src[fam(family)][r->src] += d;
	rib_nh_count_route(r->nh, family, d);
}

/* r goes in use at pos, in place of the route there unless the slot is fresh; a prefix the FIB
 * refused waits for room with it (rib_unplaced.c). */
static int install(const struct route_key *k, int32_t pos, const struct route_rec *r, bool fresh)
{
	const struct route_table *t = route_table_of(k->family);

	if (!fresh)
		count(k->family, route_rec_at(t, pos), -1);
	(*route_rec_at(t, pos)) = *r;
	count(k->family, r, 1);
	return *route_unplaced_at(t, pos) ? 0 : rib_queue_op(k, false, r->nh);
}

/* r (with its nexthop reference) takes the place of the route in use, which goes aside first. */
static int displace(const struct route_key *k, int32_t pos, const struct route_rec *r)
{
	int rc = alt_store(k, route_rec_at(route_table_of(k->family), pos), true);

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
	struct route_rec *cur = route_rec_at(route_table_of(k->family), pos);
	int i, rc;

	if (route_same_slot(cur, r)) {
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
		renew(alt_rec(i), r);
		return 0;
	}
	if (route_same_slot(cur, r) ? mode == RIB_ADD_PREPEND : route_rec_better(r, cur))
		return displace(k, pos, r);
	if (mode == RIB_ADD_REPLACE && (i = alt_first(k, r)) >= 0) {
		rib_nh_put(alt_rec(i)->nh);
		*alt_rec(i) = *r;
		return 0;
	}
	rc = alt_store(k, r, mode == RIB_ADD_PREPEND);
	if (rc < 0)
		rib_nh_put(r->nh);
	return rc;
}

/* Adds a route at key (masked); the route table of its family. */
static int route_add(const struct route_key *key, const struct rib_route_attrs *a,
		     const struct rib_nh_spec *nh, enum rib_add_mode mode)
{
	const struct route_table *t = route_table_of(key->family);
	struct route_rec rec = { .metric = a->metric, .table = a->table, .src = a->src,
				 .kproto = a->kproto, .gen = rib_gen };
	int32_t pos;
	int rc;

	if (key->len > host_len(key->family) || a->src >= RIB_SRC_MAX ||
	    (a->src == RIB_SRC_KERNEL && rib_table_rank(a->table) < 0))
		return -EINVAL;
	pos = route_table_find(key);
	if (pos >= 0 && a->src == RIB_SRC_ADJACENCY && route_rec_at(t, pos)->src != RIB_SRC_ADJACENCY)
		return -EEXIST;	/* an adjacency never hides a kernel route */
	if ((rc = rib_nh_get(nh, &rec.nh)) < 0)
		return rc;
	if (pos >= 0 && route_rec_at(t, pos)->src == RIB_SRC_KERNEL && a->src == RIB_SRC_KERNEL)
		return add_beside(key, pos, &rec, mode);
	if (pos < 0) {
		pos = route_table_add(key);
		if (pos < 0) {
			rib_nh_put(rec.nh);
			return pos;
		}
		return install(key, pos, &rec, true);
	}
	rib_nh_put(route_rec_at(t, pos)->nh);	/* a kernel route takes an adjacency's place */
	return install(key, pos, &rec, false);
}

int rib_route_add(uint32_t prefix, uint8_t len, const struct rib_route_attrs *a,
		  const struct rib_nh_spec *nh, enum rib_add_mode mode)
{
	struct route_key key = key4(prefix, len);

	key.len = len;	/* checked against the family's */
	return route_add(&key, a, nh, mode);
}

int rib_route6_add(const uint8_t prefix[16], uint8_t len, const struct rib_route_attrs *a,
		   const struct rib_nh_spec *nh, enum rib_add_mode mode)
{
	struct route_key key = key6(prefix, len);

	key.len = len;
	return route_add(&key, a, nh, mode);
}

void rib_route_prefetch(uint32_t prefix, uint8_t len)
{
	struct route_key k = key4(prefix, len);

	route_table_prefetch(&k);
}

void rib_route6_prefetch(const uint8_t prefix[16], uint8_t len)
{
	struct route_key k = key6(prefix, len);

	route_table_prefetch(&k);
}

/* A kernel host route gone: the adjacency of the neighbour at its address, if there is one,
 * comes back. */
static int adjacency_restore(const struct route_key *key)
{
	struct rib_route_attrs adj = { .src = RIB_SRC_ADJACENCY };
	struct rib_nh_spec s = { .type = RIB_NH_GATEWAY };
	int port;

	if (key->family == AF_INET6) {
		if ((port = rib_neigh6_port(key->prefix6)) < 0)
			return 0;
		s.hop.port = port;
		s.hop.family = AF_INET6;
		memcpy(s.hop.gw6, key->prefix6, 16);
		return route_add(key, &adj, &s, RIB_ADD_REPLACE);
	}
	if ((port = rib_neigh_port(key->prefix)) < 0)
		return 0;
	s.hop = (struct rib_hop){ .port = port, .gw = key->prefix };
	return route_add(key, &adj, &s, RIB_ADD_REPLACE);
}

/* Removes what key holds; an alternate or an adjacency may take its place. */
static int route_remove(const struct route_key *key, int32_t pos)
{
	const struct route_table *t = route_table_of(key->family);
	int best = alt_best(key);
	bool kernel_host = key->len == host_len(key->family) &&
			   route_rec_at(t, pos)->src == RIB_SRC_KERNEL;

	rib_nh_put(route_rec_at(t, pos)->nh);
	if (best >= 0) {
		struct route_rec next = alt_take(best);	/* its nexthop reference moves */

		return install(key, pos, &next, false);
	}
	count(key->family, route_rec_at(t, pos), -1);
	if (*route_unplaced_at(t, pos))
		rib_unplaced_forget(key->family);	/* the FIB never had it */
	else
		rib_queue_op(key, true, 0);
	route_table_del(key);
	return kernel_host ? adjacency_restore(key) : 0;
}

static int route_del(const struct route_key *key, uint32_t table, uint32_t metric,
		     const struct rib_nh_spec *nh)
{
	const struct route_table *t = route_table_of(key->family);
	struct route_rec slot = { .table = table, .metric = metric };
	uint32_t id = 0;
	int32_t pos;
	int a;

	if (key->len > host_len(key->family))
		return -EINVAL;
	pos = route_table_find(key);
	if (pos < 0)
		return -ENOENT;
	if (nh != NULL && (id = rib_nh_find(nh)) == 0)
		return -ENOENT;	/* no route has that nexthop */
	if (route_rec_at(t, pos)->src == RIB_SRC_KERNEL && route_same_slot(route_rec_at(t, pos), &slot) &&
	    (nh == NULL || route_rec_at(t, pos)->nh == id))
		return route_remove(key, pos);
	a = nh != NULL ? alt_find(key, &slot, id) : alt_first(key, &slot);
	if (a < 0)
		return -ENOENT;
	alt_remove(a);
	return 0;
}

int rib_route_del(uint32_t prefix, uint8_t len, uint32_t table, uint32_t metric,
		  const struct rib_nh_spec *nh)
{
	struct route_key key = key4(prefix, len);

	key.len = len;
	return route_del(&key, table, metric, nh);
}

int rib_route6_del(const uint8_t prefix[16], uint8_t len, uint32_t table, uint32_t metric,
		   const struct rib_nh_spec *nh)
{
	struct route_key key = key6(prefix, len);

	key.len = len;
	return route_del(&key, table, metric, nh);
}

static void adjacency_del(const struct route_key *key)
{
	int32_t pos = route_table_find(key);

	if (pos >= 0 && route_rec_at(route_table_of(key->family), pos)->src == RIB_SRC_ADJACENCY)
		route_remove(key, pos);
}

void rib_adjacency_del(uint32_t ip)
{
	struct route_key key = key4(ip, 32);

	adjacency_del(&key);
}

void rib_adjacency6_del(const uint8_t ip6[16])
{
	struct route_key key = key6(ip6, 128);

	adjacency_del(&key);
}

/* Removes every kernel route (in use or aside) of one family that keep() rejects; returns how
 * many. */
static unsigned int routes_remove_if(const struct route_table *t,
				     bool (*keep)(const struct route_rec *, uint16_t), uint16_t arg)
{
	unsigned int n = t->count, found = 0, i;
	struct route_key *doomed = calloc(n ? n : 1, sizeof(*doomed));
	uint32_t iter = 0;
	int32_t pos;

	for (i = 0; i < alt_count();)
		if (alt_at(i)->key.family == t->family && !keep(&alt_at(i)->rec, arg))
			alt_remove(i);
		else
			i++;
	if (doomed == NULL)
		return 0;
	/* the keys first: a removal moves other routes in the table */
	while ((pos = route_table_next(t, &iter)) >= 0)
		if (!keep(route_rec_at(t, pos), arg))
			route_key_at(t, pos, &doomed[found++]);
	for (i = 0; i < found; i++) {
		pos = route_table_find(&doomed[i]);
		if (pos >= 0)
			route_remove(&doomed[i], pos);
	}
	free(doomed);
	return found;
}

static unsigned int routes_remove_all_if(bool (*keep)(const struct route_rec *, uint16_t),
					 uint16_t arg)
{
	return routes_remove_if(route_table_of(AF_INET), keep, arg) +
	       routes_remove_if(route_table_of(AF_INET6), keep, arg);
}

static bool keep_off_port(const struct route_rec *r, uint16_t port)
{
	return r->src != RIB_SRC_KERNEL || !rib_nh_uses_port(r->nh, port);
}

unsigned int rib_flush_port(uint16_t port)
{
	return routes_remove_all_if(keep_off_port, port);
}

static bool keep_marked(const struct route_rec *r, uint16_t g)
{
	return r->src != RIB_SRC_KERNEL || r->gen == g;
}

unsigned int rib_routes_sweep(uint16_t g)
{
	return routes_remove_all_if(keep_marked, g);
}

static void fill_info(const struct route_key *k, const struct route_rec *r, bool unplaced,
		      struct rib_route_info *out)
{
	memset(out, 0, sizeof(*out));
	out->unplaced = unplaced;
	out->family = k->family;
	out->prefix = k->prefix;
	memcpy(out->prefix6, k->prefix6, 16);
	out->len = k->len;
	out->attrs = (struct rib_route_attrs){ .src = r->src, .kproto = r->kproto,
					       .metric = r->metric, .table = r->table };
	out->nh_id = r->nh;
	rib_nh_spec_of(r->nh, &out->nh);
}

static int route_get(const struct route_key *key, struct rib_route_info *out)
{
	const struct route_table *t = route_table_of(key->family);
	int32_t pos;

	if (key->len > host_len(key->family) || (pos = route_table_find(key)) < 0)
		return -ENOENT;
	fill_info(key, route_rec_at(t, pos), *route_unplaced_at(t, pos), out);
	return 0;
}

int rib_route_get(uint32_t prefix, uint8_t len, struct rib_route_info *out)
{
	struct route_key key = key4(prefix, len);

	key.len = len;
	return route_get(&key, out);
}

int rib_route6_get(const uint8_t prefix[16], uint8_t len, struct rib_route_info *out)
{
	struct route_key key = key6(prefix, len);

	key.len = len;
	return route_get(&key, out);
}

static int route_find(const struct route_key *key, uint32_t table, uint32_t metric,
		      struct rib_route_info *out)
{
	const struct route_table *t = route_table_of(key->family);
	struct route_rec slot = { .table = table, .metric = metric };
	int32_t pos;
	int a;

	if (key->len > host_len(key->family) || (pos = route_table_find(key)) < 0)
		return -ENOENT;
	if (route_rec_at(t, pos)->src == RIB_SRC_KERNEL &&
	    route_same_slot(route_rec_at(t, pos), &slot)) {
		fill_info(key, route_rec_at(t, pos), *route_unplaced_at(t, pos), out);
		return 0;
	}
	if ((a = alt_first(key, &slot)) < 0)
		return -ENOENT;
	fill_info(key, &alt_at(a)->rec, false, out);
	out->waiting = true;
	return 0;
}

int rib_route_find(uint32_t prefix, uint8_t len, uint32_t table, uint32_t metric,
		   struct rib_route_info *out)
{
	struct route_key key = key4(prefix, len);

	key.len = len;
	return route_find(&key, table, metric, out);
}

int rib_route6_find(const uint8_t prefix[16], uint8_t len, uint32_t table, uint32_t metric,
		    struct rib_route_info *out)
{
	struct route_key key = key6(prefix, len);

	key.len = len;
	return route_find(&key, table, metric, out);
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

int rib_route6_lookup(const uint8_t ip6[16], struct rib_route_info *out)
{
	int len;

	for (len = 128; len >= 0; len--)
		if (rib_route6_get(ip6, len, out) == 0 && !out->unplaced)
			return 0;
	return -ENETUNREACH;
}

static int route_cmp(const void *a, const void *b)
{
	const struct rib_route_entry *x = a, *y = b;
	int c;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if ((c = memcmp(x->prefix6, y->prefix6, 16)) != 0)
		return c;
	if (x->len != y->len)
		return (int)x->len - (int)y->len;
	if (x->attrs.table != y->attrs.table)
		return x->attrs.table < y->attrs.table ? -1 : 1;
	if (x->attrs.metric != y->attrs.metric)
		return x->attrs.metric < y->attrs.metric ? -1 : 1;
	return 0;
}

static void fill_entry(const struct route_key *k, const struct route_rec *r, bool unplaced,
		       struct rib_route_entry *out)
{
	*out = (struct rib_route_entry){ .family = k->family, .len = k->len, .unplaced = unplaced,
		.prefix = k->prefix, .nh_id = r->nh,
		.attrs = { .src = r->src, .kproto = r->kproto, .metric = r->metric, .table = r->table } };
	memcpy(out->prefix6, k->prefix6, 16);
}

int rib_routes_sorted(uint8_t family, struct rib_route_entry **out, unsigned int *n, bool waiting)
{
	const struct route_table *t = route_table_of(family);
	unsigned int cap = t->count + (waiting ? alt_count() : 0), i = 0, a;
	struct rib_route_entry *r = calloc(cap ? cap : 1, sizeof(*r));
	struct route_key k;
	uint32_t iter = 0;
	int32_t pos;

	if (r == NULL)
		return -ENOMEM;
	while (i < cap && (pos = route_table_next(t, &iter)) >= 0) {
		route_key_at(t, pos, &k);
		fill_entry(&k, route_rec_at(t, pos), *route_unplaced_at(t, pos), &r[i++]);
	}
	for (a = 0; waiting && a < alt_count() && i < cap; a++) {
		if (alt_at(a)->key.family != t->family)
			continue;
		fill_entry(&alt_at(a)->key, &alt_at(a)->rec, false, &r[i]);
		r[i++].waiting = true;
	}
	qsort(r, i, sizeof(*r), route_cmp);
	*out = r;
	*n = i;
	return 0;
}

void rib_route_counts(uint8_t family, struct rib_counts *c)
{
	unsigned int a;

	memcpy(c->routes, nb_by_src[fam(family)], sizeof(c->routes));
	rib_nh_routes_by_type(family, c->by_type);
	c->alternates = 0;
	for (a = 0; a < alt_count(); a++)
		c->alternates += alt_at(a)->key.family == family;
	c->unplaced = rib_unplaced_count(family);
}

unsigned int rib_route_total(void)
{
	return route_table_of(AF_INET)->count + route_table_of(AF_INET6)->count;
}

void rib_route_limits(uint8_t family, struct rib_counts *l)
{
	l->routes[RIB_SRC_KERNEL] = max_routes[fam(family)];	/* shared by every source */
	l->alternates = RIB_ALTERNATES_MAX;
}
