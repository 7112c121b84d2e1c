/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel's nexthop objects (RTM_NEWNEXTHOP), and the routes that name one (RTA_NH_ID).
 *
 * FRR's zebra installs routes through nexthop objects: a route then says only which object,
 * and with net.ipv4.nexthop_compat_mode = 0 the kernel sends no route message when the
 * object changes, nor when it removes one (and the routes through it). So the mirror keeps
 * each object's hop (or group of objects, with weights, or blackhole), resolves a route's
 * object when the route comes, and when an object changes or goes, resolves again or
 * removes every route that names it, or names a group holding it. In compat mode 1 the
 * kernel also sends each such route again; the same route applied twice changes nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <rte_hash.h>
#include <rte_jhash.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/ternd/log.h"

#define NHOBJ_MAX 65536

struct route_key {
	uint32_t prefix, table, metric;
	uint8_t len, family, pad[2];
	uint8_t prefix6[16];
};

static struct rte_hash *objs;		/* id -> struct nl_nexthop * */
/* Routes to resolve again, handed to the mirror by nhobj_next_refresh (it resolves them through
 * nhobj_spec: calls run one way, the mirror to the objects). */
static struct nl_route *pending;
static unsigned int nb_pending, pending_taken, pending_cap;
static struct rte_hash *routes;		/* route_key -> nh id | kproto << 32 | tos << 40 */
static struct nhobj_stats st;

int nhobj_init(unsigned int max_routes)
{
	struct rte_hash_parameters o = {
		.name = "tern_nhobj", .entries = NHOBJ_MAX, .key_len = sizeof(uint32_t),
		.hash_func = rte_jhash, .socket_id = SOCKET_ID_ANY,
	};
	struct rte_hash_parameters r = {
		.name = "tern_nhobj_routes", .entries = max_routes,
		.key_len = sizeof(struct route_key), .hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
	};

	objs = rte_hash_create(&o);
	routes = rte_hash_create(&r);
	return objs && routes ? 0 : -ENOMEM;
}

static struct nl_nexthop *obj_get(uint32_t id)
{
	void *d;

	return objs != NULL && rte_hash_lookup_data(objs, &id, &d) >= 0 ? d : NULL;
}

/* One hop of an object: the port it leaves by, or -ENODEV. */
static int hop_of(const struct nl_nexthop *n, struct rib_hop *h)
{
	int port;

	if (!n->mirrored || n->blackhole || n->nb_members)
		return -ENODEV;
	port = mirror_ifindex_port(n->ifindex);
	if (port < 0)
		return -ENODEV;
	memset(h, 0, sizeof(*h));
	h->port = port;
	if (n->gw_family == AF_INET6) {
		h->family = AF_INET6;
		memcpy(h->gw6, n->gw6, 16);
	} else {
		h->gw = n->gw;
	}
	return 0;
}

int nhobj_spec(uint32_t id, struct rib_nh_spec *s)
{
	const struct nl_nexthop *n = obj_get(id);
	unsigned int i, w;

	memset(s, 0, sizeof(*s));
	if (n == NULL || !n->mirrored)
		return -ENODEV;
	s->knh = id;	/* the routes through one object share one nexthop of ternd's */
	if (n->blackhole) {
		s->type = RIB_NH_BLACKHOLE;
		return 0;
	}
	if (n->nb_members == 0) {
		if (hop_of(n, &s->hop) < 0)
			return -ENODEV;
		s->type = rib_hop_has_gw(&s->hop) ? RIB_NH_GATEWAY : RIB_NH_CONNECTED;
		return 0;
	}
	/* a group: each member w times, as a multipath route's hops are */
	s->type = RIB_NH_GROUP;
	for (i = 0; i < n->nb_members; i++) {
		const struct nl_nexthop *m = obj_get(n->members[i].id);
		struct rib_hop h;

		if (m == NULL || hop_of(m, &h) < 0)
			return -ENODEV;
		for (w = 0; w < n->members[i].weight && s->nb_members < RIB_GROUP_MAX; w++)
			s->members[s->nb_members++] = h;
	}
	return 0;
}

void nhobj_route_track(const struct nl_route *r, bool del)
{
	struct route_key k = { .prefix = r->prefix, .table = r->table, .metric = r->priority,
			       .len = r->len, .family = r->family };

	memcpy(k.prefix6, r->prefix6, 16);

	if (routes == NULL)
		return;
	if (del || r->nh_id == 0) {
		/* most tables name no object: a miss in an empty index would cost a route as much
		 * as its parse */
		if (st.routes > 0 && rte_hash_del_key(routes, &k) >= 0)
			st.routes--;
		return;
	}
	if (rte_hash_lookup(routes, &k) < 0)
		st.routes++;
	if (rte_hash_add_key_data(routes, &k, (void *)(uintptr_t)((uint64_t)r->nh_id |
		(uint64_t)r->protocol << 32 | (uint64_t)r->tos << 40)) < 0) {
		st.routes--;
		st.routes_untracked++;
	}
}

/* Whether object id is one of set, or (unless direct) a group that holds one of them. */
static bool names(uint32_t id, const uint32_t *set, unsigned int n, bool direct)
{
	const struct nl_nexthop *o;
	unsigned int i, j;

	for (i = 0; i < n; i++)
		if (id == set[i])
			return true;
	if (direct)
		return false;
	o = obj_get(id);
	for (j = 0; o != NULL && j < o->nb_members; j++)
		for (i = 0; i < n; i++)
			if (o->members[j].id == set[i])
				return true;
	return false;
}

static void refresh_later(const struct nl_route *r)
{
	if (nb_pending == pending_cap) {
		unsigned int cap = pending_cap ? 2 * pending_cap : 256;
		struct nl_route *more = realloc(pending, cap * sizeof(*more));

		if (more == NULL) {
			st.refresh_lost++;
			TERN_LOG_RATELIMITED(rib, WARNING, "out of memory: a route through nexthop %u "
					     "is not resolved again", r->nh_id);
			return;
		}
		pending = more;
		pending_cap = cap;
	}
	pending[nb_pending++] = *r;
}

bool nhobj_next_refresh(struct nl_route *r)
{
	if (pending_taken == nb_pending) {
		nb_pending = pending_taken = 0;
		return false;
	}
	*r = pending[pending_taken++];
	return true;
}

/* Every route through one of the objects in set, to be resolved again (or removed); those that
 * named gone, an object the kernel removed with its routes, are forgotten. */
static unsigned int routes_refresh(const uint32_t *set, unsigned int n, uint32_t gone, bool direct)
{
	struct route_key *forget = NULL, *more;
	unsigned int count = 0, nb_forget = 0, cap = 0, i;
	const struct route_key *k;
	uint32_t iter = 0;
	void *d;

	while (rte_hash_iterate(routes, (const void **)&k, &d, &iter) >= 0) {
		uint64_t v = (uintptr_t)d;
		struct nl_route r = {
			.family = k->family, .table = k->table, .prefix = k->prefix, .len = k->len,
			.type = RTN_UNICAST, .protocol = v >> 32 & 0xff, .tos = v >> 40 & 0xff,
			.priority = k->metric, .nh_id = (uint32_t)v,
		};

		memcpy(r.prefix6, k->prefix6, 16);
		if (!names(r.nh_id, set, n, direct))
			continue;
		refresh_later(&r);
		count++;
		if (r.nh_id != gone)
			continue;
		if (nb_forget == cap) {
			cap = cap ? 2 * cap : 256;
			more = realloc(forget, cap * sizeof(*forget));
			if (more == NULL)
				continue;	/* kept: a later object of that id would bring it back */
			forget = more;
		}
		forget[nb_forget++] = *k;
	}
	for (i = 0; i < nb_forget; i++)
		if (rte_hash_del_key(routes, &forget[i]) >= 0)
			st.routes--;
	free(forget);
	return count;
}

/*
 * A replaced object and the groups that hold it, each changed in place where routes go
 * through it: the routes keep their nexthop, whose entry changes, so the FIB is not
 * touched however many share it. An object no route of the RIB goes through may still be
 * named by routes that could not be resolved before: those are resolved again. False when
 * an object cannot be resolved now: routes_refresh then takes every route of the set again,
 * those through objects already changed here included, and removes the rest.
 */
static bool replace_in_place(const uint32_t *set, unsigned int n)
{
	struct rib_nh_spec spec;
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		if (nhobj_spec(set[i], &spec) < 0)
			return false;
		rc = rib_nh_replace_object(set[i], &spec);
		if (rc == -ENOENT)
			routes_refresh(&set[i], 1, 0, true);
		else if (rc < 0)
			return false;
	}
	return true;
}

void nhobj_apply(const struct nl_nexthop *n, bool del)
{
	uint32_t set[1 + NL_MAX_PATHS] = { n->id };
	struct nl_nexthop *old = obj_get(n->id), *o;
	unsigned int nb = 1, refreshed;
	uint32_t iter = 0;
	const void *key;
	void *d;

	if (objs == NULL)
		return;
	st.messages++;
	if (del) {
		if (old == NULL)
			return;
		rte_hash_del_key(objs, &n->id);
		st.objects--;
		/* the kernel takes it out of every group; a group left empty goes too */
		while (rte_hash_iterate(objs, &key, &d, &iter) >= 0) {
			unsigned int i, j;

			o = d;
			for (i = j = 0; i < o->nb_members; i++)
				if (o->members[i].id != n->id)
					o->members[j++] = o->members[i];
			if (j != o->nb_members && nb < RTE_DIM(set))
				set[nb++] = o->id;
			o->nb_members = j;
		}
		refreshed = routes_refresh(set, nb, n->id, false);
		free(old);
		TERN_LOG(rib, DEBUG, "nexthop %u removed: %u routes resolved again", n->id, refreshed);
		return;
	}
	if (old == NULL) {
		if (st.objects == NHOBJ_MAX || (o = malloc(sizeof(*o))) == NULL) {
			st.refused++;
			return;
		}
		*o = *n;
		if (rte_hash_add_key_data(objs, &o->id, o) < 0) {
			free(o);
			st.refused++;
			return;
		}
		st.objects++;
		/* routes that came before their object, in a dump's order, resolve now */
		routes_refresh(set, nb, 0, false);
		return;
	}
	*old = *n;	/* a replace: the routes through it, and through groups holding it */
	while (rte_hash_iterate(objs, &key, &d, &iter) >= 0) {
		unsigned int i;

		o = d;
		for (i = 0; i < o->nb_members && nb < RTE_DIM(set); i++)
			if (o->members[i].id == n->id) {
				set[nb++] = o->id;
				break;
			}
	}
	if (replace_in_place(set, nb)) {
		st.replaced_in_place++;
		return;
	}
	refreshed = routes_refresh(set, nb, 0, false);
	TERN_LOG(rib, DEBUG, "nexthop %u replaced: %u routes resolved again", n->id, refreshed);
}

void nhobj_clear(void)
{
	uint32_t iter = 0;
	const void *key;
	void *d;

	if (objs == NULL)
		return;
	while (rte_hash_iterate(objs, &key, &d, &iter) >= 0)
		free(d);
	rte_hash_reset(objs);
	rte_hash_reset(routes);
	st.objects = st.routes = 0;
	nb_pending = pending_taken = 0;
}

/* At ternd's stop: the objects live in malloc'd memory that only the hash (in DPDK's memory)
 * points to, so they are freed here rather than left to the exit. */
void nhobj_fini(void)
{
	nhobj_clear();
	rte_hash_free(objs);
	rte_hash_free(routes);
	objs = routes = NULL;
	free(pending);
	pending = NULL;
	pending_cap = 0;
}

void nhobj_stats(struct nhobj_stats *out)
{
	*out = st;
}

/* The first plain hop kept on interface ifindex, or 0. */
static uint32_t first_on(uint32_t ifindex)
{
	uint32_t iter = 0;
	const void *key;
	void *d;

	while (rte_hash_iterate(objs, &key, &d, &iter) >= 0) {
		const struct nl_nexthop *o = d;

		if (o->nb_members == 0 && !o->blackhole && o->ifindex == ifindex)
			return o->id;
	}
	return 0;
}

void nhobj_link_down(uint32_t ifindex)
{
	struct nl_nexthop del = { 0 };

	if (objs == NULL)
		return;
	/* one at a time, the walk started again: a removal changes the table walked */
	while ((del.id = first_on(ifindex)) != 0)
		nhobj_apply(&del, true);
}
