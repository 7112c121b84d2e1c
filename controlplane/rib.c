/* Mirrored routes, addresses and neighbours -> shared nexthops and FIB entries, in batches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <rte_hash.h>
#include <rte_jhash.h>

#include "controlplane/log.h"
#include "controlplane/rib.h"
#include "dataplane/dp.h"
#include "dataplane/fib.h"
#include "dataplane/nexthop.h"
#include "dataplane/node.h"

#define RIB_MAX_ADDRS 1024
#define RIB_MAX_NEIGHS 65536
#define RIB_MAX_ALTERNATES 65536
#define RIB_BATCH 65536

struct route_key {
	uint32_t prefix;
	uint32_t len;
};

/* One per rte_hash position: the route that key holds. */
struct route_rec {
	uint32_t nh;
	uint32_t metric;
	uint8_t src;
	uint8_t kproto;
	uint16_t gen;
};

/* A kernel route hidden by a better metric at the same prefix. */
struct alternate {
	struct route_key key;
	struct route_rec rec;
};

struct nh_obj {
	enum rib_nh_type type;
	struct rib_hop hop;
	uint32_t refcnt;
	bool used;
	uint8_t nb_members;
	uint32_t *members;	/* GROUP: member nexthop ids, each holding a reference */
};

static struct rte_hash *routes;
static struct route_rec *recs;
static struct alternate *alts;
static unsigned int nb_alts;
static struct nh_obj *nhs;
static uint32_t nh_high = 1;		/* ids in use are below this; 0 is "no route" */
static unsigned int nh_used;
static struct rib_addr addrs[RIB_MAX_ADDRS];
static unsigned int nb_addrs;
static struct rib_neigh *neighs;
static unsigned int nb_neighs;
static struct dp_fib_op *pending;
static unsigned int nb_pending;
static uint32_t *released;		/* nexthops to clear once the FIB no longer names them */
static unsigned int nb_released, released_cap;
static uint16_t gen;

static inline uint32_t mask(uint8_t len)
{
	return len ? ~0u << (32 - len) : 0;
}

static unsigned int rib_max_routes;

void rib_limits(struct rib_counts *l)
{
	memset(l, 0, sizeof(*l));
	l->routes[RIB_SRC_KERNEL] = rib_max_routes;	/* shared by every source */
	l->alternates = RIB_MAX_ALTERNATES;
	l->nexthops = DP_NH_MAX - 1;
	l->neighbours = RIB_MAX_NEIGHS;
	l->addresses = RIB_MAX_ADDRS;
}

int rib_init(unsigned int max_routes)
{
	struct rte_hash_parameters prm = {
		.name = "tern_rib",
		.entries = max_routes,
		.key_len = sizeof(struct route_key),
		.hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
	};

	rib_max_routes = max_routes;
	routes = rte_hash_create(&prm);
	recs = calloc(max_routes + 1, sizeof(*recs));
	alts = calloc(RIB_MAX_ALTERNATES, sizeof(*alts));
	nhs = calloc(DP_NH_MAX, sizeof(*nhs));
	neighs = calloc(RIB_MAX_NEIGHS, sizeof(*neighs));
	pending = calloc(RIB_BATCH, sizeof(*pending));
	released_cap = RIB_BATCH;
	released = calloc(released_cap, sizeof(*released));
	if (!routes || !recs || !alts || !nhs || !neighs || !pending || !released)
		return -ENOMEM;
	return 0;
}

void rib_fini(void)
{
	uint32_t i;

	for (i = 0; nhs && i < nh_high; i++)
		free(nhs[i].members);
	rte_hash_free(routes);
	free(recs);
	free(alts);
	free(nhs);
	free(neighs);
	free(pending);
	free(released);
	routes = NULL;
	recs = NULL;
	alts = NULL;
	nhs = NULL;
	neighs = NULL;
	pending = NULL;
	released = NULL;
	nb_alts = nb_addrs = nb_neighs = nb_pending = nb_released = nh_used = 0;
	nh_high = 1;
}

static const struct rib_neigh *neigh_find(uint16_t port, uint32_t ip)
{
	unsigned int i;

	for (i = 0; i < nb_neighs; i++)
		if (neighs[i].ip == ip && neighs[i].port == port)
			return &neighs[i];
	return NULL;
}

/* Derives the dataplane's entry from the nexthop and the neighbour table, and publishes it. */
static int nh_publish(uint32_t id)
{
	const struct nh_obj *o = &nhs[id];
	struct dp_nexthop nh = { .port = o->hop.port };
	const struct rib_neigh *n;

	switch (o->type) {
	case RIB_NH_GATEWAY:
		nh.gw = rte_cpu_to_be_32(o->hop.gw);
		n = neigh_find(o->hop.port, o->hop.gw);
		nh.kind = n ? DP_NH_FORWARD : DP_NH_UNRESOLVED;
		if (n) {
			nh.eth.dst_addr = n->mac;
			nh.eth.src_addr = dp.ports[o->hop.port].mac;
		}
		nh.mtu = dp.ports[o->hop.port].mtu;
		break;
	case RIB_NH_CONNECTED: nh.kind = DP_NH_UNRESOLVED; break;
	case RIB_NH_LOCAL: nh.kind = DP_NH_LOCAL; break;
	case RIB_NH_BLACKHOLE: nh.kind = DP_NH_BLACKHOLE; break;
	case RIB_NH_UNREACHABLE: nh.kind = DP_NH_UNREACHABLE; break;
	case RIB_NH_PROHIBIT: nh.kind = DP_NH_PROHIBIT; break;
	case RIB_NH_GROUP:
		nh.kind = DP_NH_GROUP;
		nh.nb_members = o->nb_members;
		return dp_nh_set(id, &nh, o->members);
	}
	return dp_nh_set(id, &nh, NULL);
}

static bool hop_is(const struct nh_obj *o, enum rib_nh_type type, const struct rib_hop *h)
{
	if (o->type != type)
		return false;
	if (type == RIB_NH_GATEWAY)
		return o->hop.port == h->port && o->hop.gw == h->gw;
	if (type == RIB_NH_CONNECTED)
		return o->hop.port == h->port;
	return true;
}

static bool group_is(const struct nh_obj *o, const struct rib_nh_spec *s)
{
	unsigned int i;

	if (o->type != RIB_NH_GROUP || o->nb_members != s->nb_members)
		return false;
	for (i = 0; i < s->nb_members; i++)
		if (!hop_is(&nhs[o->members[i]], s->members[i].gw ? RIB_NH_GATEWAY : RIB_NH_CONNECTED,
			    &s->members[i]))
			return false;
	return true;
}

static int nh_alloc(uint32_t *id)
{
	uint32_t i;

	for (i = 1; i < nh_high; i++)
		if (!nhs[i].used)
			break;
	if (i == nh_high) {
		if (nh_high == DP_NH_MAX)
			return -ENOSPC;
		nh_high++;
	}
	memset(&nhs[i], 0, sizeof(nhs[i]));
	nhs[i].used = true;
	nhs[i].refcnt = 1;
	nh_used++;
	*id = i;
	return 0;
}

static void nh_put(uint32_t id);
static void addr_remove(unsigned int i);

static int nh_get_simple(enum rib_nh_type type, const struct rib_hop *hop, uint32_t *id)
{
	uint32_t i;
	int rc;

	for (i = 1; i < nh_high; i++)
		if (nhs[i].used && hop_is(&nhs[i], type, hop)) {
			nhs[i].refcnt++;
			*id = i;
			return 0;
		}
	if ((rc = nh_alloc(id)) < 0)
		return rc;
	nhs[*id].type = type;
	if (type == RIB_NH_GATEWAY || type == RIB_NH_CONNECTED)
		nhs[*id].hop = *hop;
	rc = nh_publish(*id);
	if (rc < 0) {
		nhs[*id].used = false;
		nh_used--;
	}
	return rc;
}

static int nh_get(const struct rib_nh_spec *s, uint32_t *id)
{
	uint32_t i, g;
	unsigned int m;
	int rc;

	if (s->type != RIB_NH_GROUP)
		return nh_get_simple(s->type, &s->hop, id);
	if (s->nb_members == 0 || s->nb_members > RIB_GROUP_MAX)
		return -EINVAL;
	for (i = 1; i < nh_high; i++)
		if (nhs[i].used && group_is(&nhs[i], s)) {
			nhs[i].refcnt++;
			*id = i;
			return 0;
		}
	if ((rc = nh_alloc(&g)) < 0)
		return rc;
	nhs[g].type = RIB_NH_GROUP;
	nhs[g].members = calloc(s->nb_members, sizeof(uint32_t));
	if (nhs[g].members == NULL) {
		nh_put(g);
		return -ENOMEM;
	}
	for (m = 0; m < s->nb_members; m++) {
		rc = nh_get_simple(s->members[m].gw ? RIB_NH_GATEWAY : RIB_NH_CONNECTED,
				   &s->members[m], &nhs[g].members[m]);
		if (rc < 0) {
			nhs[g].nb_members = m;
			nh_put(g);
			return rc;
		}
		nhs[g].nb_members = m + 1;
	}
	rc = nh_publish(g);
	if (rc < 0) {
		nh_put(g);
		return rc;
	}
	*id = g;
	return 0;
}

static void nh_put(uint32_t id)
{
	if (--nhs[id].refcnt > 0)
		return;
	if (nb_released == released_cap) {
		uint32_t *r = realloc(released, 2 * released_cap * sizeof(*r));

		if (r == NULL) {
			/* cannot defer: leak the id rather than clear one the FIB may name */
			TERN_LOG(rib, ERR, "out of memory: nexthop %u stays allocated", id);
			return;
		}
		released = r;
		released_cap *= 2;
	}
	released[nb_released++] = id;
}

static int queue_op(uint32_t prefix, uint8_t len, bool del, uint32_t nh)
{
	if (nb_pending == RIB_BATCH) {
		int rc = rib_commit();

		if (rc < 0)
			return rc;
	}
	pending[nb_pending++] = (struct dp_fib_op){ .prefix = prefix, .depth = len, .del = del,
						    .nh = nh };
	return 0;
}

int rib_commit(void)
{
	unsigned int i;
	int rc = dp_fib_apply(pending, nb_pending);

	nb_pending = 0;
	/* The FIB no longer names these: free their slots (a group frees its members too). */
	for (i = 0; i < nb_released; i++) {
		struct nh_obj *o = &nhs[released[i]];
		unsigned int m;

		if (!o->used || o->refcnt != 0)
			continue;
		dp_nh_clear(released[i]);
		for (m = 0; m < o->nb_members; m++)
			nh_put(o->members[m]);
		free(o->members);
		o->members = NULL;
		o->used = false;
		nh_used--;
	}
	nb_released = 0;
	if (rc < 0)
		TERN_LOG_RATELIMITED(rib, ERR, "FIB update failed: %s", strerror(-rc));
	return rc;
}

static int alt_find(const struct route_key *k, uint32_t metric)
{
	unsigned int i;

	for (i = 0; i < nb_alts; i++)
		if (alts[i].key.prefix == k->prefix && alts[i].key.len == k->len &&
		    alts[i].rec.metric == metric)
			return i;
	return -ENOENT;
}

static int alt_best(const struct route_key *k)
{
	int best = -ENOENT;
	unsigned int i;

	for (i = 0; i < nb_alts; i++)
		if (alts[i].key.prefix == k->prefix && alts[i].key.len == k->len &&
		    (best < 0 || alts[i].rec.metric < alts[best].rec.metric))
			best = i;
	return best;
}

static void alt_remove(int i)
{
	nh_put(alts[i].rec.nh);
	alts[i] = alts[--nb_alts];
}

static int alt_store(const struct route_key *k, const struct route_rec *r)
{
	int i = alt_find(k, r->metric);

	if (i >= 0) {
		nh_put(alts[i].rec.nh);
		alts[i].rec = *r;
		return 0;
	}
	if (nb_alts == RIB_MAX_ALTERNATES)
		return -ENOSPC;
	alts[nb_alts].key = *k;
	alts[nb_alts++].rec = *r;
	return 0;
}

int rib_route_add(uint32_t prefix, uint8_t len, const struct rib_route_attrs *a,
		  const struct rib_nh_spec *nh)
{
	struct route_key key = { prefix & mask(len), len };
	struct route_rec rec = { .metric = a->metric, .src = a->src, .kproto = a->kproto,
				 .gen = gen };
	int32_t pos;
	int rc;

	if (len > 32 || a->src >= RIB_SRC_MAX)
		return -EINVAL;
	pos = rte_hash_lookup(routes, &key);
	if (pos >= 0 && a->src == RIB_SRC_ADJACENCY && recs[pos].src != RIB_SRC_ADJACENCY)
		return -EEXIST;	/* an adjacency never hides a kernel route */
	if ((rc = nh_get(nh, &rec.nh)) < 0)
		return rc;
	if (pos >= 0 && recs[pos].src == RIB_SRC_KERNEL && a->src == RIB_SRC_KERNEL &&
	    recs[pos].metric != a->metric) {
		/* two kernel routes for one prefix: the lower metric is used, the other kept */
		if (a->metric > recs[pos].metric)
			return alt_store(&key, &rec);
		rc = alt_store(&key, &recs[pos]);
		if (rc < 0) {
			nh_put(rec.nh);
			return rc;
		}
		recs[pos] = rec;
		return queue_op(key.prefix, len, false, rec.nh);
	}
	if (pos < 0) {
		pos = rte_hash_add_key(routes, &key);
		if (pos < 0) {
			nh_put(rec.nh);
			return pos;
		}
	} else {
		nh_put(recs[pos].nh);
	}
	recs[pos] = rec;
	return queue_op(key.prefix, len, false, rec.nh);
}

/* Removes what key holds; an alternate or an adjacency may take its place. */
static int route_remove(const struct route_key *key, int32_t pos)
{
	int best = alt_best(key);
	const struct rib_neigh *n;

	nh_put(recs[pos].nh);
	if (best >= 0) {
		recs[pos] = alts[best].rec;
		alts[best] = alts[--nb_alts];	/* its nexthop reference moves to recs */
		return queue_op(key->prefix, key->len, false, recs[pos].nh);
	}
	rte_hash_del_key(routes, key);
	queue_op(key->prefix, key->len, true, 0);
	/* a host route gone: the neighbour's adjacency comes back */
	if (key->len == 32 && recs[pos].src == RIB_SRC_KERNEL) {
		unsigned int i;

		for (i = 0; i < nb_neighs; i++) {
			n = &neighs[i];
			if (n->ip == key->prefix) {
				struct rib_route_attrs adj = { .src = RIB_SRC_ADJACENCY };
				struct rib_nh_spec s = { .type = RIB_NH_GATEWAY,
							 .hop = { n->port, n->ip } };

				return rib_route_add(n->ip, 32, &adj, &s);
			}
		}
	}
	return 0;
}

int rib_route_del(uint32_t prefix, uint8_t len, uint32_t metric)
{
	struct route_key key = { prefix & mask(len), len };
	int32_t pos;
	int a;

	if (len > 32)
		return -EINVAL;
	pos = rte_hash_lookup(routes, &key);
	if (pos < 0)
		return -ENOENT;
	if (recs[pos].src == RIB_SRC_KERNEL && recs[pos].metric == metric)
		return route_remove(&key, pos);
	a = alt_find(&key, metric);
	if (a < 0)
		return -ENOENT;
	alt_remove(a);
	return 0;
}

static bool nh_uses_port(uint32_t id, uint16_t port)
{
	const struct nh_obj *o = &nhs[id];
	unsigned int m;

	if (o->type == RIB_NH_GATEWAY || o->type == RIB_NH_CONNECTED)
		return o->hop.port == port;
	for (m = 0; m < o->nb_members; m++)
		if (nhs[o->members[m]].hop.port == port)
			return true;
	return false;
}

/* Removes every route (and alternate) that keep() selects. */
static unsigned int routes_remove_if(bool (*keep)(const struct route_rec *, uint16_t), uint16_t arg)
{
	unsigned int n = rte_hash_count(routes), found = 0, i;
	struct route_key *doomed = calloc(n ? n : 1, sizeof(*doomed));
	const void *k;
	void *v;
	uint32_t iter = 0;
	int32_t pos;

	for (i = 0; i < nb_alts;)
		if (!keep(&alts[i].rec, arg))
			alt_remove(i);
		else
			i++;
	if (doomed == NULL)
		return 0;
	while ((pos = rte_hash_iterate(routes, &k, &v, &iter)) >= 0)
		if (!keep(&recs[pos], arg))
			doomed[found++] = *(const struct route_key *)k;
	for (i = 0; i < found; i++) {
		pos = rte_hash_lookup(routes, &doomed[i]);
		if (pos >= 0)
			route_remove(&doomed[i], pos);
	}
	free(doomed);
	return found;
}

static bool keep_off_port(const struct route_rec *r, uint16_t port)
{
	return r->src != RIB_SRC_KERNEL || !nh_uses_port(r->nh, port);
}

unsigned int rib_flush_port(uint16_t port)
{
	return routes_remove_if(keep_off_port, port);
}

void rib_mark_begin(void)
{
	gen++;
}

static bool keep_marked(const struct route_rec *r, uint16_t g)
{
	return r->src != RIB_SRC_KERNEL || r->gen == g;
}

unsigned int rib_sweep(void)
{
	unsigned int swept = routes_remove_if(keep_marked, gen), i;

	for (i = 0; i < nb_neighs;) {
		if (neighs[i].gen != gen) {
			swept++;
			rib_neigh_del(neighs[i].port, neighs[i].ip);
		} else {
			i++;
		}
	}
	for (i = 0; i < nb_addrs;) {
		if (addrs[i].gen != gen) {
			swept++;
			addr_remove(i);
		} else {
			i++;
		}
	}
	return swept;
}

static void fill_info(const struct route_key *k, const struct route_rec *r,
		      struct rib_route_info *out)
{
	const struct nh_obj *o = &nhs[r->nh];
	unsigned int m;

	memset(out, 0, sizeof(*out));
	out->prefix = k->prefix;
	out->len = k->len;
	out->attrs = (struct rib_route_attrs){ r->src, r->kproto, r->metric };
	out->nh_id = r->nh;
	out->nh.type = o->type;
	out->nh.hop = o->hop;
	out->nh.nb_members = o->nb_members;
	for (m = 0; m < o->nb_members; m++)
		out->nh.members[m] = nhs[o->members[m]].hop;
}

int rib_route_get(uint32_t prefix, uint8_t len, struct rib_route_info *out)
{
	struct route_key key = { prefix & mask(len), len };
	int32_t pos;

	if (len > 32 || (pos = rte_hash_lookup(routes, &key)) < 0)
		return -ENOENT;
	fill_info(&key, &recs[pos], out);
	return 0;
}

int rib_route_lookup(uint32_t ip, struct rib_route_info *out)
{
	int len;

	for (len = 32; len >= 0; len--)
		if (rib_route_get(ip, len, out) == 0)
			return 0;
	return -ENETUNREACH;
}

static int route_cmp(const void *a, const void *b)
{
	const struct rib_route_info *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return (int)x->len - (int)y->len;
}

int rib_routes_sorted(struct rib_route_info **out, unsigned int *n)
{
	unsigned int cap = rte_hash_count(routes), i = 0;
	struct rib_route_info *r = calloc(cap ? cap : 1, sizeof(*r));
	const void *key;
	void *val;
	uint32_t iter = 0;
	int32_t pos;

	if (r == NULL)
		return -ENOMEM;
	while (i < cap && (pos = rte_hash_iterate(routes, &key, &val, &iter)) >= 0)
		fill_info(key, &recs[pos], &r[i++]);
	qsort(r, i, sizeof(*r), route_cmp);
	*out = r;
	*n = i;
	return 0;
}

void rib_counts(struct rib_counts *c)
{
	const void *key;
	void *val;
	uint32_t iter = 0;
	int32_t pos;

	memset(c, 0, sizeof(*c));
	while ((pos = rte_hash_iterate(routes, &key, &val, &iter)) >= 0) {
		c->routes[recs[pos].src]++;
		c->by_type[nhs[recs[pos].nh].type]++;
	}
	c->alternates = nb_alts;
	c->nexthops = nh_used;
	c->neighbours = nb_neighs;
	c->addresses = nb_addrs;
}

/* The port's first address is the source of the ICMP errors it sends. */
static void port_source_update(uint16_t port)
{
	uint32_t src = 0;
	unsigned int i;

	for (i = 0; i < nb_addrs && src == 0; i++)
		if (addrs[i].port == port)
			src = rte_cpu_to_be_32(addrs[i].ip);
	__atomic_store_n(&dp_port_ip4[port], src, __ATOMIC_RELAXED);
}

int rib_addr_add(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip && addrs[i].port == port) {
			addrs[i].len = len;
			addrs[i].gen = gen;
			return 0;
		}
	if (nb_addrs == RIB_MAX_ADDRS)
		return -ENOSPC;
	addrs[nb_addrs++] = (struct rib_addr){ .port = port, .ip = ip, .len = len, .gen = gen };
	port_source_update(port);
	return 0;
}

static void addr_remove(unsigned int i)
{
	uint16_t port = addrs[i].port;

	addrs[i] = addrs[--nb_addrs];
	port_source_update(port);
}

int rib_addr_del(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip && addrs[i].port == port && addrs[i].len == len) {
			addr_remove(i);
			return 0;
		}
	return -ENOENT;
}

int rib_connected_port(uint32_t ip)
{
	int best = -ENETUNREACH, best_len = -1;
	unsigned int i;

	for (i = 0; i < nb_addrs; i++) {
		if (((ip ^ addrs[i].ip) & mask(addrs[i].len)) == 0 && addrs[i].len > best_len) {
			best = addrs[i].port;
			best_len = addrs[i].len;
		}
	}
	return best;
}

/* Republishes every nexthop through (port, ip), or all of port's when ip is 0. */
static int nh_refresh(uint16_t port, uint32_t ip)
{
	uint32_t i;
	int rc = 0;

	for (i = 1; i < nh_high; i++) {
		const struct nh_obj *o = &nhs[i];

		if (!o->used || o->hop.port != port ||
		    (o->type != RIB_NH_GATEWAY && o->type != RIB_NH_CONNECTED))
			continue;
		if (ip == 0 || (o->type == RIB_NH_GATEWAY && o->hop.gw == ip))
			rc |= nh_publish(i);
	}
	return rc;
}

int rib_neigh_set(uint16_t port, uint32_t ip, const struct rte_ether_addr *mac, bool permanent)
{
	struct rib_route_attrs adj = { .src = RIB_SRC_ADJACENCY };
	struct rib_nh_spec s = { .type = RIB_NH_GATEWAY, .hop = { port, ip } };
	struct rib_neigh *n = (struct rib_neigh *)neigh_find(port, ip);
	bool changed = true;
	int rc;

	if (n == NULL) {
		if (nb_neighs == RIB_MAX_NEIGHS)
			return -ENOSPC;
		n = &neighs[nb_neighs++];
	} else {
		changed = !rte_is_same_ether_addr(&n->mac, mac);
	}
	*n = (struct rib_neigh){ .port = port, .ip = ip, .mac = *mac, .permanent = permanent,
				 .gen = gen };
	if (!changed)
		return 0;
	rc = nh_refresh(port, ip);
	if (rc < 0)
		return rc;
	rc = rib_route_add(ip, 32, &adj, &s);
	return rc == -EEXIST ? 0 : rc;
}

int rib_neigh_del(uint16_t port, uint32_t ip)
{
	struct rib_neigh *n = (struct rib_neigh *)neigh_find(port, ip);
	struct route_key key = { ip, 32 };
	int32_t pos;

	if (n == NULL)
		return -ENOENT;
	*n = neighs[--nb_neighs];
	pos = rte_hash_lookup(routes, &key);
	if (pos >= 0 && recs[pos].src == RIB_SRC_ADJACENCY)
		route_remove(&key, pos);
	return nh_refresh(port, ip);
}

int rib_port_changed(uint16_t port)
{
	return nh_refresh(port, 0);
}

unsigned int rib_addrs(const struct rib_addr **out)
{
	*out = addrs;
	return nb_addrs;
}

unsigned int rib_neighs(const struct rib_neigh **out)
{
	*out = neighs;
	return nb_neighs;
}

const char *rib_kproto_name(uint8_t p)
{
	switch (p) {
	case RTPROT_KERNEL: return "kernel";
	case RTPROT_BOOT: return "boot";
	case RTPROT_STATIC: return "static";
	case RTPROT_ZEBRA: return "zebra";
	case RTPROT_BIRD: return "bird";
	case RTPROT_DHCP: return "dhcp";
	case 186: return "bgp";
	case 188: return "ospf";
	}
	return "other";
}

const char *rib_nh_type_name(enum rib_nh_type t)
{
	static const char *const names[] = {
		[RIB_NH_GATEWAY] = "gateway", [RIB_NH_CONNECTED] = "connected",
		[RIB_NH_LOCAL] = "local", [RIB_NH_BLACKHOLE] = "blackhole",
		[RIB_NH_UNREACHABLE] = "unreachable", [RIB_NH_PROHIBIT] = "prohibit",
		[RIB_NH_GROUP] = "ecmp",
	};
	return t <= RIB_NH_GROUP ? names[t] : "?";
}

static int hop_describe(const struct rib_hop *h, char *buf, size_t len)
{
	uint32_t g = h->gw;

	if (g == 0)
		return snprintf(buf, len, "dev %s", dp.ports[h->port].name);
	return snprintf(buf, len, "via %u.%u.%u.%u dev %s", g >> 24, (g >> 16) & 255,
			(g >> 8) & 255, g & 255, dp.ports[h->port].name);
}

void rib_nh_describe(const struct rib_nh_spec *nh, char *buf, size_t len)
{
	unsigned int m;
	int n = 0;

	switch (nh->type) {
	case RIB_NH_GATEWAY:
	case RIB_NH_CONNECTED:
		hop_describe(&nh->hop, buf, len);
		return;
	case RIB_NH_GROUP:
		for (m = 0; m < nh->nb_members && n < (int)len; m++) {
			n += snprintf(buf + n, len - n, "%s", m ? ", " : "");
			if (n < (int)len)
				n += hop_describe(&nh->members[m], buf + n, len - n);
		}
		return;
	default:
		snprintf(buf, len, "%s", rib_nh_type_name(nh->type));
	}
}
