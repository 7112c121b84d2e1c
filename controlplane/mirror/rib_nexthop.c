/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Nexthops shared by routes: a pool of ids the dataplane's nexthop table is indexed by,
 * counted by reference, each hanging on the chain of an index keyed by its spec (type and
 * hop, or a group's members), so that finding one costs a short walk. Freed ids are reused
 * first, and only after the FIB batch that stopped naming them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_jhash.h>

#include "controlplane/mirror/rib_priv.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

#define RIB_RELEASED_MIN 65536
/* Chains of the index: 2^18 heads, a chain or so per four nexthops of a full table. */
#define NH_BUCKETS (1u << 18)

struct nh_obj {
	enum rib_nh_type type;
	uint32_t knh;		/* the kernel nexthop object whose routes share it; 0: none */
	uint32_t local_dev;	/* LOCAL: the kernel interface holding the address */
	struct rib_hop hop;
	uint32_t refcnt;
	uint64_t released_at;	/* release_seq at its last release */
	uint32_t routes[2];	/* routes in use that name it, IPv4's and IPv6's (not those aside,
				 * not groups) */
	bool used;
	uint8_t nb_members;
	uint32_t *members;	/* GROUP: member nexthop ids, each holding a reference */
	uint32_t hash;		/* of its spec: the chain it hangs on */
	uint32_t next;		/* the next id on that chain; 0 ends it */
};

static struct nh_obj *nhs;
static uint32_t nh_high = 1;		/* ids ever used are below this; 0 is "no route" */
static unsigned int nh_used;
static uint32_t *nh_chain;		/* NH_BUCKETS heads */
static uint32_t *nh_free;		/* ids released below nh_high, reused first */
static unsigned int nb_nh_free;
static uint32_t *released;		/* nexthops to clear once the FIB no longer names them */
static unsigned int nb_released, released_cap;
static unsigned int nb_aside;		/* released[0..nb_aside): set aside at the last commit */
/* Releases so far, and their number when the last commit set them aside: a nexthop released
 * again since (found by a route, then dropped) is freed by its later entry, a commit later. */
static uint64_t release_seq, aside_seq;
/* Taken when the last commit set nexthops aside: a group's members replaced in place leave
 * the FIB as it was (no switch for dp_fib_settle to wait out), and a worker may still read
 * the old group entry's members; they are freed once every worker has passed this token. */
static uint64_t aside_token;
static bool aside_token_taken;

int rib_nh_init(void)
{
	nhs = calloc(DP_NH_MAX, sizeof(*nhs));
	nh_chain = calloc(NH_BUCKETS, sizeof(*nh_chain));
	nh_free = calloc(DP_NH_MAX, sizeof(*nh_free));
	released_cap = RIB_RELEASED_MIN;
	released = calloc(released_cap, sizeof(*released));
	return nhs && nh_chain && nh_free && released ? 0 : -ENOMEM;
}

void rib_nh_fini(void)
{
	uint32_t i;

	for (i = 0; nhs && i < nh_high; i++)
		free(nhs[i].members);
	free(nhs);
	free(nh_chain);
	free(nh_free);
	free(released);
	nhs = NULL;
	nh_chain = nh_free = released = NULL;
	nb_released = nb_aside = nh_used = nb_nh_free = 0;
	nh_high = 1;
}

unsigned int rib_nh_count(void)
{
	return nh_used;
}

void rib_nh_count_route(uint32_t id, uint8_t family, int d)
{
	nhs[id].routes[family == AF_INET6] += d;
}

void rib_nh_routes_by_type(uint8_t family, unsigned int *by_type)
{
	uint32_t i;

	for (i = 1; i < nh_high; i++)
		if (nhs[i].used)
			by_type[nhs[i].type] += nhs[i].routes[family == AF_INET6];
}

/* The type of a group's member: a gateway, or the port alone. */
static enum rib_nh_type member_type(const struct rib_hop *h)
{
	return rib_hop_has_gw(h) ? RIB_NH_GATEWAY : RIB_NH_CONNECTED;
}

/* Derives the dataplane's entry from the nexthop and the neighbour table, and publishes it. */
static int nh_publish(uint32_t id)
{
	const struct nh_obj *o = &nhs[id];
	struct dp_nexthop nh = { .port = o->hop.port };
	const struct rib_neigh *n;

	switch (o->type) {
	case RIB_NH_GATEWAY:
		/* an IPv6 gateway resolves through the NDP entry, whatever the routes' family */
		if (rib_hop_is_v6(&o->hop)) {
			n = rib_neigh6_find(o->hop.port, o->hop.gw6);
		} else {
			nh.gw = rte_cpu_to_be_32(o->hop.gw);
			n = rib_neigh_find(o->hop.port, o->hop.gw);
		}
		nh.kind = n ? DP_NH_FORWARD : DP_NH_UNRESOLVED;
		if (n) {
			nh.eth.dst_addr = n->mac;
			nh.eth.src_addr = dp.ports[o->hop.port].mac;
		}
		nh.mtu = dp.ports[o->hop.port].mtu;
		break;
	case RIB_NH_CONNECTED: nh.kind = DP_NH_UNRESOLVED; break;
	case RIB_NH_LOCAL:
	case RIB_NH_BROADCAST: nh.kind = DP_NH_LOCAL; break;
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

static bool hop_is(const struct nh_obj *o, enum rib_nh_type type, const struct rib_hop *h,
		   uint32_t knh, uint32_t dev)
{
	if (o->type != type || o->knh != knh || o->local_dev != dev)
		return false;
	if (type == RIB_NH_GATEWAY)
		return o->hop.port == h->port && rib_hop_is_v6(&o->hop) == rib_hop_is_v6(h) &&
		       (rib_hop_is_v6(h) ? memcmp(o->hop.gw6, h->gw6, 16) == 0 : o->hop.gw == h->gw);
	if (rib_nh_on_port(type))
		return o->hop.port == h->port;
	return true;
}

static bool group_is(const struct nh_obj *o, const struct rib_nh_spec *s)
{
	unsigned int i;

	if (o->type != RIB_NH_GROUP || o->nb_members != s->nb_members || o->knh != s->knh)
		return false;
	for (i = 0; i < s->nb_members; i++)
		if (!hop_is(&nhs[o->members[i]], member_type(&s->members[i]), &s->members[i], 0, 0))
			return false;
	return true;
}

/* A gateway's address in one word: IPv4's own, IPv6's hashed. */
static uint32_t gw_word(const struct rib_hop *h)
{
	return rib_hop_is_v6(h) ? rte_jhash(h->gw6, 16, AF_INET6) : h->gw;
}

static uint32_t hop_hash(enum rib_nh_type type, const struct rib_hop *h, uint32_t dev)
{
	if (!rib_nh_on_port(type))
		return rte_jhash_2words(type, dev, 0);
	return rte_jhash_3words(type, h->port, type == RIB_NH_GATEWAY ? gw_word(h) : 0, 0);
}

static uint32_t group_hash(const struct rib_nh_spec *s)
{
	uint32_t v = rte_jhash_1word(RIB_NH_GROUP, s->nb_members);
	unsigned int i;

	for (i = 0; i < s->nb_members; i++)
		v = rte_jhash_2words(s->members[i].port, gw_word(&s->members[i]), v);
	return v;
}

static void chain_insert(uint32_t id, uint32_t hash)
{
	uint32_t *head = &nh_chain[hash & (NH_BUCKETS - 1)];

	nhs[id].hash = hash;
	nhs[id].next = *head;
	*head = id;
}

static void chain_remove(uint32_t id)
{
	uint32_t *at = &nh_chain[nhs[id].hash & (NH_BUCKETS - 1)];

	while (*at != 0 && *at != id)
		at = &nhs[*at].next;
	if (*at == id)
		*at = nhs[id].next;
	nhs[id].next = 0;
}

static int nh_alloc(uint32_t *id)
{
	uint32_t i;

	if (nb_nh_free > 0) {
		i = nh_free[--nb_nh_free];
	} else {
		if (nh_high == DP_NH_MAX)
			return -ENOSPC;
		i = nh_high++;
	}
	memset(&nhs[i], 0, sizeof(nhs[i]));
	nhs[i].used = true;
	nhs[i].refcnt = 1;
	nh_used++;
	*id = i;
	return 0;
}

/* Gives back an id that never reached the FIB (its publish failed). */
static void nh_unalloc(uint32_t id)
{
	chain_remove(id);
	nhs[id].used = false;
	nh_used--;
	nh_free[nb_nh_free++] = id;
}

/*
 * The id of the nexthop of that type and hop (and kernel object), or of that group; 0 when
 * none (no reference). A kernel object's nexthop hangs on the chain of its hop, beside the
 * others of that hop: a neighbour's change finds them all there.
 */
static uint32_t nh_find_hop(enum rib_nh_type type, const struct rib_hop *hop, uint32_t knh,
			    uint32_t dev)
{
	uint32_t h = hop_hash(type, hop, dev), i;

	for (i = nh_chain[h & (NH_BUCKETS - 1)]; i != 0; i = nhs[i].next)
		if (nhs[i].hash == h && nhs[i].used && hop_is(&nhs[i], type, hop, knh, dev))
			return i;
	return 0;
}

static uint32_t nh_find_group(const struct rib_nh_spec *s)
{
	uint32_t h = group_hash(s), i;

	for (i = nh_chain[h & (NH_BUCKETS - 1)]; i != 0; i = nhs[i].next)
		if (nhs[i].hash == h && nhs[i].used && group_is(&nhs[i], s))
			return i;
	return 0;
}

uint32_t rib_nh_find(const struct rib_nh_spec *s)
{
	return s->type == RIB_NH_GROUP ? nh_find_group(s) :
					 nh_find_hop(s->type, &s->hop, s->knh, s->local_dev);
}

static int nh_get_simple(enum rib_nh_type type, const struct rib_hop *hop, uint32_t knh,
			 uint32_t dev, uint32_t *id)
{
	int rc;

	if ((*id = nh_find_hop(type, hop, knh, dev)) != 0) {
		nhs[*id].refcnt++;
		return 0;
	}
	if ((rc = nh_alloc(id)) < 0)
		return rc;
	nhs[*id].type = type;
	nhs[*id].knh = knh;
	nhs[*id].local_dev = dev;
	if (rib_nh_on_port(type))
		nhs[*id].hop = *hop;
	chain_insert(*id, hop_hash(type, hop, dev));
	rc = nh_publish(*id);
	if (rc < 0)
		nh_unalloc(*id);
	return rc;
}

/* A group that never reached the dataplane (making it failed): off its chain at once, so that
 * no route finds it, and released with its members as any. */
static void group_drop(uint32_t g)
{
	chain_remove(g);
	rib_nh_put(g);
}

int rib_nh_get(const struct rib_nh_spec *s, uint32_t *id)
{
	unsigned int m;
	uint32_t g;
	int rc;

	if (s->type != RIB_NH_GROUP)
		return nh_get_simple(s->type, &s->hop, s->knh, s->local_dev, id);
	if (s->nb_members == 0 || s->nb_members > RIB_GROUP_MAX)
		return -EINVAL;
	if ((*id = nh_find_group(s)) != 0) {
		nhs[*id].refcnt++;
		return 0;
	}
	if ((rc = nh_alloc(&g)) < 0)
		return rc;
	nhs[g].type = RIB_NH_GROUP;
	nhs[g].knh = s->knh;
	chain_insert(g, group_hash(s));
	nhs[g].members = calloc(s->nb_members, sizeof(uint32_t));
	if (nhs[g].members == NULL) {
		group_drop(g);
		return -ENOMEM;
	}
	for (m = 0; m < s->nb_members; m++) {
		rc = nh_get_simple(member_type(&s->members[m]), &s->members[m], 0, 0,
				   &nhs[g].members[m]);
		if (rc < 0) {
			nhs[g].nb_members = m;
			group_drop(g);
			return rc;
		}
		nhs[g].nb_members = m + 1;
	}
	rc = nh_publish(g);
	if (rc < 0) {
		group_drop(g);
		return rc;
	}
	*id = g;
	return 0;
}

void rib_nh_put(uint32_t id)
{
	if (--nhs[id].refcnt > 0)
		return;
	nhs[id].released_at = ++release_seq;
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

/* No copy of the FIB names these any more: free their slots (a group frees its members too,
 * which are set aside in turn). */
void rib_nh_free_aside(void)
{
	unsigned int i, n = nb_aside;

	if (aside_token_taken) {
		rte_rcu_qsbr_check(dp_rcu, aside_token, true);
		aside_token_taken = false;
	}
	for (i = 0; i < n; i++) {
		struct nh_obj *o = &nhs[released[i]];
		unsigned int m;

		if (!o->used || o->refcnt != 0 || o->released_at > aside_seq)
			continue;
		dp_nh_clear(released[i]);
		for (m = 0; m < o->nb_members; m++)
			rib_nh_put(o->members[m]);
		free(o->members);
		o->members = NULL;
		chain_remove(released[i]);
		o->used = false;
		nh_used--;
		nh_free[nb_nh_free++] = released[i];
	}
	memmove(released, released + n, (nb_released - n) * sizeof(*released));
	nb_released -= n;
	nb_aside = 0;
}

void rib_nh_set_aside(void)
{
	nb_aside = nb_released;
	aside_seq = release_seq;
	if (nb_aside > 0 && dp_rcu != NULL) {
		aside_token = rte_rcu_qsbr_start(dp_rcu);
		aside_token_taken = true;
	}
}

/* Republished, the nexthop names port's current MAC, MTU and neighbour. */
bool rib_nh_uses_port(uint32_t id, uint16_t port)
{
	const struct nh_obj *o = &nhs[id];
	unsigned int m;

	if (rib_nh_on_port(o->type))
		return o->hop.port == port;
	for (m = 0; m < o->nb_members; m++)
		if (nhs[o->members[m]].hop.port == port)
			return true;
	return false;
}

void rib_nh_spec_of(uint32_t id, struct rib_nh_spec *out)
{
	const struct nh_obj *o = &nhs[id];
	unsigned int m;

	out->type = o->type;
	out->knh = o->knh;
	out->local_dev = o->local_dev;
	out->hop = o->hop;
	out->nb_members = o->nb_members;
	for (m = 0; m < o->nb_members; m++)
		out->members[m] = nhs[o->members[m]].hop;
}

/* Republishes the gateway nexthops of hop: the neighbour's dependants (the hop's own and
 * kernel objects'; groups name their members by id). */
static int refresh_hop(const struct rib_hop *hop)
{
	uint32_t h = hop_hash(RIB_NH_GATEWAY, hop, 0), i;
	int rc = 0;

	for (i = nh_chain[h & (NH_BUCKETS - 1)]; i != 0; i = nhs[i].next)
		if (nhs[i].hash == h && nhs[i].used && nhs[i].type == RIB_NH_GATEWAY &&
		    hop_is(&nhs[i], RIB_NH_GATEWAY, hop, nhs[i].knh, 0))
			rc |= nh_publish(i);
	return rc;
}

/* Republishes the nexthops through (port, ip); or, when ip is 0, every nexthop on port. */
int rib_nh_refresh(uint16_t port, uint32_t ip)
{
	struct rib_hop hop = { .port = port, .gw = ip };
	uint32_t i;
	int rc = 0;

	if (ip != 0)
		return refresh_hop(&hop);
	for (i = 1; i < nh_high; i++) {
		const struct nh_obj *o = &nhs[i];

		if (o->used && o->hop.port == port &&
		    (o->type == RIB_NH_GATEWAY || o->type == RIB_NH_CONNECTED))
			rc |= nh_publish(i);
	}
	return rc;
}

int rib_nh_refresh6(uint16_t port, const uint8_t ip6[16])
{
	struct rib_hop hop = { .port = port, .family = AF_INET6 };

	memcpy(hop.gw6, ip6, 16);
	return refresh_hop(&hop);
}

/* The nexthop that kernel object knh's routes share, or 0. */
static uint32_t nh_of_object(uint32_t knh)
{
	uint32_t i;

	for (i = 1; i < nh_high; i++)
		if (nhs[i].used && nhs[i].refcnt > 0 && nhs[i].knh == knh)
			return i;
	return 0;
}

int rib_nh_replace_object(uint32_t knh, const struct rib_nh_spec *s)
{
	uint32_t id = nh_of_object(knh), *members = NULL, old_n;
	struct nh_obj *o;
	unsigned int m;
	int rc;

	if (id == 0 || knh == 0)
		return -ENOENT;
	if (s->type == RIB_NH_GROUP && (s->nb_members == 0 || s->nb_members > RIB_GROUP_MAX))
		return -EINVAL;
	/* the new members first: a failure leaves the nexthop as it was */
	if (s->type == RIB_NH_GROUP) {
		members = calloc(s->nb_members, sizeof(*members));
		if (members == NULL)
			return -ENOMEM;
		for (m = 0; m < s->nb_members; m++) {
			rc = nh_get_simple(member_type(&s->members[m]), &s->members[m], 0, 0,
					   &members[m]);
			if (rc < 0) {
				while (m-- > 0)
					rib_nh_put(members[m]);
				free(members);
				return rc;
			}
		}
	}
	o = &nhs[id];
	chain_remove(id);
	for (old_n = 0; old_n < o->nb_members; old_n++)
		rib_nh_put(o->members[old_n]);	/* freed after the next FIB batch, as any */
	free(o->members);
	o->type = s->type;
	o->local_dev = s->local_dev;
	o->hop = rib_nh_on_port(s->type) ? s->hop : (struct rib_hop){ 0 };
	o->members = members;
	o->nb_members = s->type == RIB_NH_GROUP ? s->nb_members : 0;
	chain_insert(id, s->type == RIB_NH_GROUP ? group_hash(s) :
					       hop_hash(s->type, &s->hop, s->local_dev));
	return nh_publish(id);
}
