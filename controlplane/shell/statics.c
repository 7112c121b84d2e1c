/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Static routes and static ARP entries as configuration (statics.h), and what
 * of them the kernel holds. A route goes to the kernel with the members that
 * can be there: a member's interface must be up and a gateway on one of its
 * subnets, since the kernel refuses anything else and drops what becomes so.
 * A route with no such member is inactive: kept, shown, and written again as
 * soon as a member comes back. Drop routes (blackhole, unreachable, prohibit)
 * need no interface and are always written.
 */
#include <errno.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/netlink_request.h"
#include "controlplane/shell/statics.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"

static struct static_route *routes;
static unsigned int nb_routes, routes_cap;
static struct static_arp arps[STATICS_ARP_MAX];
static unsigned int nb_arps;
static uint64_t seen_gen;

unsigned int statics_routes(const struct static_route **out)
{
	*out = routes;
	return nb_routes;
}

unsigned int statics_arps(const struct static_arp **out)
{
	*out = arps;
	return nb_arps;
}

static bool same_prefix(const struct static_route *a, const struct static_route *b)
{
	return a->family == b->family && a->len == b->len &&
	       (a->family == AF_INET6 ? memcmp(a->prefix6, b->prefix6, 16) == 0 :
					a->prefix == b->prefix);
}

static int route_index(const struct static_route *key)
{
	unsigned int i;

	for (i = 0; i < nb_routes; i++)
		if (same_prefix(&routes[i], key) && routes[i].metric == key->metric)
			return i;
	return -ENOENT;
}

unsigned int statics_route_find(const struct static_route *key, const struct static_route **out,
				unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < nb_routes; i++)
		if (same_prefix(&routes[i], key) && n++ < max)
			out[n - 1] = &routes[i];
	return n;
}

bool statics_hop_has_gw(const struct static_hop *h)
{
	static const uint8_t none[16];

	return h->family == AF_INET6 ? memcmp(h->gw6, none, 16) != 0 : h->gw != 0;
}

/* The port whose subnet holds h's gateway, or -ENETUNREACH. */
static int gw_port(const struct static_hop *h)
{
	return h->family == AF_INET6 ? rib_connected_port6(h->gw6) : rib_connected_port(h->gw);
}

static bool link_local(const struct static_hop *h)
{
	return h->family == AF_INET6 && h->gw6[0] == 0xfe && (h->gw6[1] & 0xc0) == 0x80;
}

/* The port a member leaves by: the one named, or the one whose subnet holds its gateway. */
static int hop_port(const struct static_hop *h)
{
	return h->port >= 0 ? h->port : gw_port(h);
}

bool statics_hop_live(const struct static_hop *h)
{
	int port = hop_port(h);

	if (port < 0 || (unsigned int)port >= dp.nb_ports || !dp.ports[port].admin_up ||
	    mirror_port_ifindex(port) == 0)
		return false;
	/* a link-local gateway is on every link: on the one named */
	return !statics_hop_has_gw(h) || link_local(h) || gw_port(h) == port;
}

static bool same_gw(const struct static_hop *a, const struct static_hop *b)
{
	if ((a->family == AF_INET6) != (b->family == AF_INET6))
		return false;
	return a->family == AF_INET6 ? memcmp(a->gw6, b->gw6, 16) == 0 : a->gw == b->gw;
}

bool statics_same_hop(const struct static_hop *a, const struct static_hop *b)
{
	/* a gateway named without its interface is the same as with one */
	return same_gw(a, b) && (a->port == b->port ||
				 (statics_hop_has_gw(a) && (a->port < 0 || b->port < 0)));
}

/* The members of r that can be in the kernel now, as the kernel takes them. */
static unsigned int live_hops(const struct static_route *r, struct nlr_hop *out)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nb_hops; i++) {
		const struct static_hop *h = &r->hops[i];

		if (!statics_hop_live(h))
			continue;
		out[n] = (struct nlr_hop){ .family = h->family, .weight = h->weight,
			.ifindex = h->port >= 0 ? mirror_port_ifindex(h->port) : 0 };
		if (h->family == AF_INET6)
			memcpy(out[n].gw6, h->gw6, 16);
		else
			out[n].gw = h->gw;
		n++;
	}
	return n;
}

static struct nlr_prefix prefix_of(const struct static_route *r)
{
	struct nlr_prefix p = { .family = r->family, .len = r->len, .prefix = r->prefix };

	memcpy(p.prefix6, r->prefix6, 16);
	return p;
}

/* The kernel's metric for r: IPv6 gives a route without one 1024 (IP6_RT_PRIO_USER). */
static uint32_t kernel_metric(const struct static_route *r)
{
	return r->family == AF_INET6 && r->metric == 0 ? 1024 : r->metric;
}

static int rib_find(const struct static_route *r, struct rib_route_info *info)
{
	if (r->family == AF_INET6)
		return rib_route6_find(r->prefix6, r->len, RT_TABLE_MAIN, kernel_metric(r), info);
	return rib_route_find(r->prefix, r->len, RT_TABLE_MAIN, r->metric, info);
}

/* Whether the RIB's hop m is the kernel's form of member h. */
static bool hop_matches(const struct rib_hop *m, const struct nlr_hop *h)
{
	if (rib_hop_is_v6(m) != (h->family == AF_INET6))
		return false;
	if (h->family == AF_INET6 ? memcmp(m->gw6, h->gw6, 16) != 0 : m->gw != h->gw)
		return false;
	return rib_hop_has_gw(m) ? (h->ifindex == 0 || mirror_port_ifindex(m->port) == h->ifindex) :
				   mirror_port_ifindex(m->port) == h->ifindex;
}

/* Whether the kernel holds r as static with exactly the members hops (each with its weight:
 * the RIB holds a member of weight w w times). */
static bool kernel_holds(const struct static_route *r, const struct nlr_hop *hops, unsigned int n)
{
	static const uint8_t type_of[] = { [RIB_NH_BLACKHOLE] = RTN_BLACKHOLE,
		[RIB_NH_UNREACHABLE] = RTN_UNREACHABLE, [RIB_NH_PROHIBIT] = RTN_PROHIBIT };
	struct rib_route_info info;
	const struct rib_hop *m;
	unsigned int nb, i, j, w;

	if (rib_find(r, &info) < 0 || info.attrs.kproto != RTPROT_STATIC)
		return false;
	if (r->type != RTN_UNICAST)
		return info.nh.type < RTE_DIM(type_of) && type_of[info.nh.type] == r->type;
	if (info.nh.type == RIB_NH_GATEWAY || info.nh.type == RIB_NH_CONNECTED) {
		m = &info.nh.hop;
		nb = 1;
	} else if (info.nh.type == RIB_NH_GROUP) {
		m = info.nh.members;
		nb = info.nh.nb_members;
	} else {
		return false;
	}
	for (i = 0, w = 0; i < n; i++) {
		unsigned int seen = 0;

		for (j = 0; j < nb; j++)
			seen += hop_matches(&m[j], &hops[i]);
		/* the kernel keeps no weight for a route of one member */
		if (seen != (n == 1 ? 1 : hops[i].weight))
			return false;
		w += seen;
	}
	return w == nb;
}

/* Takes r out of the kernel, if the kernel holds it as static. */
static int uninstall(const struct static_route *r)
{
	struct nlr_prefix p = prefix_of(r);
	struct rib_route_info info;
	int rc;

	if (rib_find(r, &info) < 0 || info.attrs.kproto != RTPROT_STATIC)
		return 0;
	rc = nlr_route(false, &p, RTN_UNSPEC, NULL, r->metric);
	return rc == -ESRCH ? 0 : rc;
}

/* Writes r to the kernel as it can be there now (or takes it out when no member can be). */
static int install(struct static_route *r)
{
	struct nlr_hop hops[RIB_GROUP_MAX];
	struct nlr_prefix p = prefix_of(r);
	unsigned int n = 0;
	int rc;

	if (r->type == RTN_UNICAST)
		n = live_hops(r, hops);
	r->active = r->type != RTN_UNICAST || n > 0;
	if (r->active && kernel_holds(r, hops, n))
		return 0;
	if (r->type != RTN_UNICAST)
		rc = nlr_route(true, &p, r->type, NULL, r->metric);
	else if (n == 1)
		rc = nlr_route(true, &p, RTN_UNICAST, &hops[0], r->metric);
	else if (n > 1)
		rc = nlr_route_group(&p, r->metric, hops, n);
	else	/* none can be in the kernel: what it still holds of the route goes */
		rc = uninstall(r);
	return rc;
}

static int routes_grow(void)
{
	unsigned int cap = routes_cap ? routes_cap * 2 : 64;
	struct static_route *r;

	if (nb_routes < routes_cap)
		return 0;
	if (routes_cap >= STATICS_ROUTES_MAX)
		return -ENOSPC;
	r = realloc(routes, cap * sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	routes = r;
	routes_cap = cap;
	return 0;
}

int statics_route_add(const struct static_route *key, uint8_t type, const struct static_hop *hop)
{
	int i = route_index(key), rc;
	struct static_route was, *r;
	unsigned int h;

	if (i < 0) {
		if ((rc = routes_grow()) < 0)
			return rc;
		i = nb_routes++;
		routes[i] = (struct static_route){ .family = key->family, .prefix = key->prefix,
						   .len = key->len, .metric = key->metric,
						   .type = type };
		memcpy(routes[i].prefix6, key->prefix6, 16);
		was = (struct static_route){ .nb_hops = 0, .type = 0 };
	} else {
		was = routes[i];
	}
	r = &routes[i];
	if (type != RTN_UNICAST || r->type != RTN_UNICAST) {	/* a drop route takes all */
		r->type = type;
		r->nb_hops = 0;
	}
	if (hop != NULL) {
		for (h = 0; h < r->nb_hops && !statics_same_hop(&r->hops[h], hop); h++)
			;
		if (h == r->nb_hops) {
			if (h == RIB_GROUP_MAX) {
				rc = -E2BIG;
				goto undo;
			}
			r->hops[r->nb_hops] = *hop;
			r->hops[r->nb_hops++].weight = 1;
		}
		if (hop->weight)
			r->hops[h].weight = hop->weight;
	}
	if ((rc = install(r)) == 0)
		return 0;
undo:
	if (was.type == 0)
		routes[i] = routes[--nb_routes];
	else
		routes[i] = was;
	return rc;
}

int statics_route_del(const struct static_route *key, const struct static_hop *hop)
{
	int i = route_index(key), rc;
	struct static_route *r;
	unsigned int h;

	if (i < 0)
		return -ENOENT;
	r = &routes[i];
	if (hop != NULL) {
		for (h = 0; h < r->nb_hops && !statics_same_hop(&r->hops[h], hop); h++)
			;
		if (h == r->nb_hops)
			return -ENOENT;
		r->hops[h] = r->hops[--r->nb_hops];
		if (r->nb_hops > 0)
			return install(r);
	}
	rc = uninstall(r);
	routes[i] = routes[--nb_routes];
	return rc;
}

static bool same_neigh(const struct static_arp *a, const struct static_arp *b)
{
	return a->family == b->family &&
	       (a->family == AF_INET6 ? memcmp(a->ip6, b->ip6, 16) == 0 : a->ip == b->ip);
}

static int arp_index(const struct static_arp *key)
{
	unsigned int i;

	for (i = 0; i < nb_arps; i++)
		if (same_neigh(&arps[i], key))
			return i;
	return -ENOENT;
}

/* Whether the kernel holds a as a permanent neighbour with its MAC. */
static bool arp_held(const struct static_arp *a)
{
	const struct rib_neigh *nb;
	unsigned int n = rib_neighs(&nb), i;

	for (i = 0; i < n; i++)
		if (nb[i].family == a->family && nb[i].port == a->port &&
		    (a->family == AF_INET6 ? memcmp(nb[i].ip6, a->ip6, 16) == 0 : nb[i].ip == a->ip))
			return nb[i].permanent && rte_is_same_ether_addr(&nb[i].mac, &a->mac);
	return false;
}

static int neigh_request(bool add, const struct static_arp *a)
{
	return nlr_neigh(add, mirror_port_ifindex(a->port), a->family, a->ip, a->ip6,
			 add ? &a->mac : NULL);
}

static int arp_install(const struct static_arp *a)
{
	if (!dp.ports[a->port].admin_up || mirror_port_ifindex(a->port) == 0 || arp_held(a))
		return 0;
	return neigh_request(true, a);
}

int statics_arp_add(const struct static_arp *a)
{
	int i = arp_index(a), rc;
	struct static_arp was = { 0 };

	if (i < 0 && nb_arps == STATICS_ARP_MAX)
		return -ENOSPC;
	if (i >= 0 && arps[i].port != a->port) {	/* moved: off the other interface first */
		rc = neigh_request(false, &arps[i]);
		if (rc < 0 && rc != -ENOENT)
			return rc;
	}
	if (i < 0)
		i = nb_arps++;
	else
		was = arps[i];
	arps[i] = *a;
	if ((rc = arp_install(&arps[i])) == 0)
		return 0;
	if (was.family == 0)
		arps[i] = arps[--nb_arps];
	else
		arps[i] = was;
	return rc;
}

int statics_arp_del(const struct static_arp *key)
{
	int i = arp_index(key), rc = 0;

	if (i < 0)
		return -ENOENT;
	if (mirror_port_ifindex(arps[i].port) != 0)
		rc = neigh_request(false, &arps[i]);
	arps[i] = arps[--nb_arps];
	return rc == -ENOENT ? 0 : rc;
}

void statics_tick(void)
{
	uint64_t gen = mirror_links_gen();
	unsigned int i;
	int rc;

	if (gen == seen_gen)
		return;
	seen_gen = gen;
	/* addresses before routes: a gateway resolves through them */
	for (i = 0; i < nb_arps; i++)
		if ((rc = arp_install(&arps[i])) < 0)
			TERN_LOG_RATELIMITED(main, WARNING, "static ARP entry on %s not restored: %s",
					     dp.ports[arps[i].port].name, strerror(-rc));
	for (i = 0; i < nb_routes; i++)
		if ((rc = install(&routes[i])) < 0)
			TERN_LOG_RATELIMITED(main, WARNING, "static route not restored: %s",
					     strerror(-rc));
	netlink_drain();
}
