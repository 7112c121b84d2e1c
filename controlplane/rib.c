/* Nexthops shared by routes, the router's addresses and its neighbours, and the batch of FIB
 * changes they lead to (the routes themselves are in rib_route.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "controlplane/log.h"
#include "controlplane/rib_priv.h"
#include "dataplane/dp.h"
#include "dataplane/fib.h"
#include "dataplane/nexthop.h"
#include "dataplane/node.h"

#define RIB_MAX_ADDRS 1024
#define RIB_MAX_NEIGHS 65536
#define RIB_BATCH 65536

struct nh_obj {
	enum rib_nh_type type;
	struct rib_hop hop;
	uint32_t refcnt;
	bool used;
	uint8_t nb_members;
	uint32_t *members;	/* GROUP: member nexthop ids, each holding a reference */
};

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
uint16_t rib_gen;

void rib_limits(struct rib_counts *l)
{
	memset(l, 0, sizeof(*l));
	rib_route_limits(l);
	l->nexthops = DP_NH_MAX - 1;
	l->neighbours = RIB_MAX_NEIGHS;
	l->addresses = RIB_MAX_ADDRS;
}

int rib_init(unsigned int max_routes)
{
	int rc = rib_routes_init(max_routes);

	nhs = calloc(DP_NH_MAX, sizeof(*nhs));
	neighs = calloc(RIB_MAX_NEIGHS, sizeof(*neighs));
	pending = calloc(RIB_BATCH, sizeof(*pending));
	released_cap = RIB_BATCH;
	released = calloc(released_cap, sizeof(*released));
	if (rc < 0 || !nhs || !neighs || !pending || !released)
		return -ENOMEM;
	return 0;
}

void rib_fini(void)
{
	uint32_t i;

	for (i = 0; nhs && i < nh_high; i++)
		free(nhs[i].members);
	rib_routes_fini();
	free(nhs);
	free(neighs);
	free(pending);
	free(released);
	nhs = NULL;
	neighs = NULL;
	pending = NULL;
	released = NULL;
	nb_addrs = nb_neighs = nb_pending = nb_released = nh_used = 0;
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

static void addr_remove(unsigned int i);

/* The id of the nexthop of that type and hop, or of that group; 0 when none (no reference). */
static uint32_t nh_find_hop(enum rib_nh_type type, const struct rib_hop *hop)
{
	uint32_t i;

	for (i = 1; i < nh_high; i++)
		if (nhs[i].used && hop_is(&nhs[i], type, hop))
			return i;
	return 0;
}

static uint32_t nh_find_group(const struct rib_nh_spec *s)
{
	uint32_t i;

	for (i = 1; i < nh_high; i++)
		if (nhs[i].used && group_is(&nhs[i], s))
			return i;
	return 0;
}

uint32_t rib_nh_find(const struct rib_nh_spec *s)
{
	return s->type == RIB_NH_GROUP ? nh_find_group(s) : nh_find_hop(s->type, &s->hop);
}

static int nh_get_simple(enum rib_nh_type type, const struct rib_hop *hop, uint32_t *id)
{
	int rc;

	if ((*id = nh_find_hop(type, hop)) != 0) {
		nhs[*id].refcnt++;
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

int rib_nh_get(const struct rib_nh_spec *s, uint32_t *id)
{
	unsigned int m;
	uint32_t g;
	int rc;

	if (s->type != RIB_NH_GROUP)
		return nh_get_simple(s->type, &s->hop, id);
	if (s->nb_members == 0 || s->nb_members > RIB_GROUP_MAX)
		return -EINVAL;
	if ((*id = nh_find_group(s)) != 0) {
		nhs[*id].refcnt++;
		return 0;
	}
	if ((rc = nh_alloc(&g)) < 0)
		return rc;
	nhs[g].type = RIB_NH_GROUP;
	nhs[g].members = calloc(s->nb_members, sizeof(uint32_t));
	if (nhs[g].members == NULL) {
		rib_nh_put(g);
		return -ENOMEM;
	}
	for (m = 0; m < s->nb_members; m++) {
		rc = nh_get_simple(s->members[m].gw ? RIB_NH_GATEWAY : RIB_NH_CONNECTED,
				   &s->members[m], &nhs[g].members[m]);
		if (rc < 0) {
			nhs[g].nb_members = m;
			rib_nh_put(g);
			return rc;
		}
		nhs[g].nb_members = m + 1;
	}
	rc = nh_publish(g);
	if (rc < 0) {
		rib_nh_put(g);
		return rc;
	}
	*id = g;
	return 0;
}

void rib_nh_put(uint32_t id)
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

int rib_queue_op(uint32_t prefix, uint8_t len, bool del, uint32_t nh)
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

/* The FIB no longer names these: free their slots (a group frees its members too). */
static void release_unused(void)
{
	unsigned int i;

	for (i = 0; i < nb_released; i++) {
		struct nh_obj *o = &nhs[released[i]];
		unsigned int m;

		if (!o->used || o->refcnt != 0)
			continue;
		dp_nh_clear(released[i]);
		for (m = 0; m < o->nb_members; m++)
			rib_nh_put(o->members[m]);
		free(o->members);
		o->members = NULL;
		o->used = false;
		nh_used--;
	}
	nb_released = 0;
}

int rib_commit(void)
{
	int rc = dp_fib_apply(pending, nb_pending);	/* to the standby alone while staging */

	nb_pending = 0;
	/* while staging, workers still read the copy that may name them */
	if (!dp_fib_staging())
		release_unused();
	if (rc < 0)
		TERN_LOG_RATELIMITED(rib, ERR, "FIB update failed: %s", strerror(-rc));
	return rc;
}

void rib_stage_begin(void)
{
	dp_fib_stage(NULL, 0);
}

int rib_publish(void)
{
	int rc = rib_commit();

	dp_fib_publish();
	release_unused();
	return rc;
}

/* Republished, the nexthop names port's current MAC, MTU and neighbour. */
bool rib_nh_uses_port(uint32_t id, uint16_t port)
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

void rib_nh_spec_of(uint32_t id, struct rib_nh_spec *out)
{
	const struct nh_obj *o = &nhs[id];
	unsigned int m;

	out->type = o->type;
	out->hop = o->hop;
	out->nb_members = o->nb_members;
	for (m = 0; m < o->nb_members; m++)
		out->members[m] = nhs[o->members[m]].hop;
}

enum rib_nh_type rib_nh_kind_of(uint32_t id)
{
	return nhs[id].type;
}

void rib_mark_begin(void)
{
	rib_gen++;
}

unsigned int rib_sweep(void)
{
	unsigned int swept = rib_routes_sweep(rib_gen), i;

	for (i = 0; i < nb_neighs;) {
		if (neighs[i].gen != rib_gen) {
			swept++;
			rib_neigh_del(neighs[i].port, neighs[i].ip);
		} else {
			i++;
		}
	}
	for (i = 0; i < nb_addrs;) {
		if (addrs[i].gen != rib_gen) {
			swept++;
			addr_remove(i);
		} else {
			i++;
		}
	}
	return swept;
}

void rib_counts(struct rib_counts *c)
{
	memset(c, 0, sizeof(*c));
	rib_route_counts(c);
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
			addrs[i].gen = rib_gen;
			return 0;
		}
	if (nb_addrs == RIB_MAX_ADDRS)
		return -ENOSPC;
	addrs[nb_addrs++] = (struct rib_addr){ .port = port, .ip = ip, .len = len, .gen = rib_gen };
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
		if (((ip ^ addrs[i].ip) & rib_mask(addrs[i].len)) == 0 && addrs[i].len > best_len) {
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
				 .gen = rib_gen };
	if (!changed)
		return 0;
	rc = nh_refresh(port, ip);
	if (rc < 0)
		return rc;
	rc = rib_route_add(ip, 32, &adj, &s, RIB_ADD_REPLACE);
	return rc == -EEXIST ? 0 : rc;
}

int rib_neigh_port(uint32_t ip)
{
	unsigned int i;

	for (i = 0; i < nb_neighs; i++)
		if (neighs[i].ip == ip)
			return neighs[i].port;
	return -ENOENT;
}

int rib_neigh_del(uint16_t port, uint32_t ip)
{
	struct rib_neigh *n = (struct rib_neigh *)neigh_find(port, ip);

	if (n == NULL)
		return -ENOENT;
	*n = neighs[--nb_neighs];
	rib_adjacency_del(ip);
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
