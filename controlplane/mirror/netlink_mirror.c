/* SPDX-License-Identifier: BSD-3-Clause */
/* Applies parsed kernel messages to ports and the RIB: the kernel is the RIB, ternd follows. */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <rte_ethdev.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/netlink_request.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/ip6/ip6.h"
#include "dataplane/node.h"
#include "kni/exception.h"

static void refresh_object_routes(void);

/* The first address (or neighbour) the RIB holds on port; false when none. */
static bool first_addr(unsigned int port, struct rib_addr *out)
{
	const struct rib_addr *a;
	unsigned int n = rib_addrs(&a), i;

	for (i = 0; i < n; i++)
		if (a[i].port == port) {
			*out = a[i];
			return true;
		}
	return false;
}

/* The first neighbour, of either family, the RIB holds on port; NULL when none. */
static const struct rib_neigh *first_neigh(unsigned int port)
{
	const struct rib_neigh *nb;
	unsigned int n = rib_neighs(&nb), i;

	for (i = 0; i < n; i++)
		if (nb[i].port == port)
			return &nb[i];
	return NULL;
}

unsigned int mirror_port_forget(unsigned int port)
{
	unsigned int routes = rib_flush_port(port);
	const struct rib_neigh *n;
	struct rib_addr a;

	while (first_addr(port, &a) && rib_addr_forget(&a) == 0)
		;
	while ((n = first_neigh(port)) != NULL && rib_neigh_forget(n) == 0)
		;
	rib_commit();
	mirror_port_set_ifindex(port, 0);
	return routes;
}

/* A sub-interface's MTU is the one configured (or its port's from the configuration file), at
 * most its port's as in Linux: it follows its port down, and back up as far as configured; so
 * do their kernel interfaces. */
static void subifs_follow(unsigned int port)
{
	uint16_t mtu = dp.ports[port].mtu;
	unsigned int i;

	DP_FOREACH_IFACE(i) {
		struct dp_port *c = &dp.ports[i];
		uint16_t want = c->conf_mtu ? c->conf_mtu : c->base_mtu;

		if (c->kind != DP_PORT_VLAN || c->parent != port)
			continue;
		want = want < mtu ? want : mtu;
		if (c->mtu == want)
			continue;
		c->mtu = want;
		rib_port_changed(i);
		TERN_LOG(rib, NOTICE, "%s: MTU %u%s", c->name, want,
			 want == mtu && want != (c->conf_mtu ? c->conf_mtu : c->base_mtu) ?
			 ", its port's" : "");
		if (mirror_port_ifindex(i) != 0 && nlr_link(mirror_port_ifindex(i), -1, want) < 0)
			TERN_LOG(rib, WARNING, "%s: its kernel interface could not be given MTU %u",
				 c->name, want);
	}
}

int mirror_port_mtu(unsigned int i, uint32_t mtu, char *why, size_t len)
{
	struct dp_port *p = &dp.ports[i];
	int rc;

	rc = dp_port_set_mtu(p, mtu, why, len);
	if (rc < 0) {
		p->mtu_refused = mtu <= UINT16_MAX ? mtu : UINT16_MAX;
		return rc;
	}
	p->mtu_refused = 0;
	rib_port_changed(i);
	TERN_LOG(rib, NOTICE, "%s: MTU %u", p->name, p->mtu);
	subifs_follow(i);
	return 0;
}

/*
 * The kernel interface's MTU is the port's only if the port takes it. When the driver
 * refuses (or the packet buffers are too small), the port keeps its MTU and the kernel
 * interface is set back to it, so that the kernel sends nothing the port cannot carry and
 * routing daemons see the MTU that holds; show interfaces names the refused value.
 */
static void apply_mtu(unsigned int i, const struct nl_link *l)
{
	struct dp_port *p = &dp.ports[i];
	char why[192];
	int rc;

	if (mirror_port_mtu(i, l->mtu, why, sizeof(why)) == 0) {
		p->conf_mtu = l->mtu;	/* set on the kernel interface: configured there */
		return;
	}
	rc = nlr_link(l->ifindex, -1, p->mtu);
	TERN_LOG(rib, WARNING, "%s: the port refuses MTU %u: %s; it keeps MTU %u%s", p->name,
		 l->mtu, why, p->mtu, rc < 0 ? ", and its kernel interface could not be set back to it" :
		 " and its kernel interface is set back to it");
}

static void apply_link(const struct nl_msg *m)
{
	const struct nl_link *l = &m->link;
	struct dp_port *p;
	unsigned int i;

	for (i = 0; i < dp.nb_ports; i++)
		if (strcmp(kni_tap_name(i), l->name) == 0 || mirror_port_ifindex(i) == l->ifindex)
			break;
	if (i == dp.nb_ports)
		return;
	if (m->del) {
		nhobj_link_down(l->ifindex);
		refresh_object_routes();
		mirror_port_set_ifindex(i, 0);
		mirror_links_moved();
		return;
	}
	if (mirror_port_set_ifindex(i, l->ifindex))
		mirror_links_moved();
	p = &dp.ports[i];
	if (l->up != p->admin_up) {
		mirror_links_moved();
		p->admin_up = l->up;
		dp_port_map.up[i] = l->up;
		TERN_LOG(rib, NOTICE, "%s is administratively %s: forwarding %s", p->name,
			 l->up ? "up" : "down", l->up ? "resumes" : "stops");
		/* the kernel drops the routes, and the nexthop objects, through a downed
		 * interface without a word */
		if (!l->up) {
			nhobj_link_down(l->ifindex);
			refresh_object_routes();
			TERN_LOG(rib, NOTICE, "%s down: %u routes through it flushed", p->name,
				 rib_flush_port(i));
		}
	}
	if (l->mtu && l->mtu != p->mtu)
		apply_mtu(i, l);
}

/* A sub-interface's TAP has no IPv6 link-local address until its first other IPv6 address
 * (kni_tap_open says why): this one may be it. */
static void link_local_start(int port, const struct nl_msg *m)
{
	int rc;

	if (m->del || ip6_is_link_local(m->addr.ip6))
		return;
	rc = kni_link_local_start(port);
	if (rc < 0)
		TERN_LOG_RATELIMITED(rib, WARNING, "%s has an IPv6 address but no link-local one: %s",
				     dp.ports[port].name, strerror(-rc));
}

static void apply_addr(const struct nl_msg *m, struct nl_stats *st)
{
	int port = mirror_ifindex_port(m->addr.ifindex);

	if (port < 0)
		return;
	mirror_links_moved();
	if (m->addr.family == AF_INET6) {
		link_local_start(port, m);
		if (m->del)
			rib_addr6_del(port, m->addr.ip6, m->addr.len);
		else if (rib_addr6_add(port, m->addr.ip6, m->addr.len, m->addr.tentative) < 0 &&
			 ++st->addrs_refused)
			TERN_LOG_RATELIMITED(rib, WARNING, "address on %s not mirrored: the address table is full",
					     dp.ports[port].name);
		return;
	}
	if (m->del)
		rib_addr_del(port, m->addr.ip, m->addr.len);
	else if (rib_addr_add(port, m->addr.ip, m->addr.len) < 0 && ++st->addrs_refused)
		TERN_LOG_RATELIMITED(rib, WARNING, "address on %s not mirrored: the address table is full",
			 dp.ports[port].name);
}

/* A path's hop on port: its gateway of either family (an IPv4 route's may be IPv6's). */
static struct rib_hop path_hop(const struct nl_path *p, int port)
{
	struct rib_hop h = { .port = port, .gw = p->gw };

	if (p->gw_family == AF_INET6) {
		h.family = AF_INET6;
		memcpy(h.gw6, p->gw6, 16);
	}
	return h;
}

/* Builds the nexthop of a unicast route; -ENODEV when a hop is not on one of our ports. */
static int unicast_nh(const struct nl_route *r, struct rib_nh_spec *s)
{
	unsigned int i, w;

	if (r->nb_paths == 0)
		return -ENODEV;
	if (r->nb_paths == 1) {
		int port = mirror_ifindex_port(r->paths[0].ifindex);

		if (port < 0)
			return -ENODEV;
		s->hop = path_hop(&r->paths[0], port);
		s->type = rib_hop_has_gw(&s->hop) ? RIB_NH_GATEWAY : RIB_NH_CONNECTED;
		return 0;
	}
	s->type = RIB_NH_GROUP;
	s->nb_members = 0;
	for (i = 0; i < r->nb_paths; i++) {
		int port = mirror_ifindex_port(r->paths[i].ifindex);

		if (port < 0)
			return -ENODEV;
		/* a hop of weight w is w members: the flow hash spreads by weight */
		for (w = 0; w < r->paths[i].weight && s->nb_members < RIB_GROUP_MAX; w++)
			s->members[s->nb_members++] = path_hop(&r->paths[i], port);
	}
	return 0;
}

/* A subnet's broadcast on a port is bound to it: the kernel drops the route, without a message,
 * when the port goes down (and keeps the address's local route). Elsewhere it is just local. */
static int broadcast_nh(const struct nl_route *r, struct rib_nh_spec *s)
{
	int port = r->nb_paths == 1 ? mirror_ifindex_port(r->paths[0].ifindex) : -1;

	s->type = port >= 0 ? RIB_NH_BROADCAST : RIB_NH_LOCAL;
	s->hop.port = port >= 0 ? port : 0;
	return 0;
}

int mirror_route_nh(const struct nl_route *r, struct rib_nh_spec *s)
{
	memset(s, 0, offsetof(struct rib_nh_spec, members));	/* members: as far as filled */
	if (rib_table_rank(r->table) < 0 || r->tos != 0)
		return -ENOTSUP;
	/* a link-local subnet is every link's (fe80::/64 on each): no one FIB entry stands for
	 * them, and the dataplane never forwards to a link-local address anyway */
	if (r->family == AF_INET6 && r->len < 128 && r->prefix6[0] == 0xfe &&
	    (r->prefix6[1] & 0xc0) == 0x80)
		return -ENOTSUP;
	switch (r->type) {
	case RTN_UNICAST: return r->nh_id ? nhobj_spec(r->nh_id, s) : unicast_nh(r, s);
	case RTN_LOCAL:
	case RTN_ANYCAST:	/* IPv6's Subnet-Router anycast: the router's own, as local */
		s->type = RIB_NH_LOCAL;
		s->local_dev = r->nb_paths ? r->paths[0].ifindex : 0;
		return 0;
	case RTN_BROADCAST: return broadcast_nh(r, s);
	case RTN_BLACKHOLE: s->type = RIB_NH_BLACKHOLE; return 0;
	case RTN_UNREACHABLE: s->type = RIB_NH_UNREACHABLE; return 0;
	case RTN_PROHIBIT: s->type = RIB_NH_PROHIBIT; return 0;
	}
	return -ENOTSUP;
}

/* The kernel's flags on a new route say where it goes among those of its table and metric:
 * replace the first, append, or (create without exclusive) prepend; a dump's routes come in
 * order, each appended. */
enum rib_add_mode mirror_add_mode(uint16_t flags)
{
	if (flags & NLM_F_REPLACE)
		return RIB_ADD_REPLACE;
	if ((flags & (NLM_F_CREATE | NLM_F_EXCL | NLM_F_APPEND)) == NLM_F_CREATE)
		return RIB_ADD_PREPEND;
	return RIB_ADD_APPEND;
}

/* A kernel route's attributes in the RIB. */
static struct rib_route_attrs kernel_attrs(const struct nl_route *r)
{
	return (struct rib_route_attrs){ .src = RIB_SRC_KERNEL, .kproto = r->protocol,
					 .metric = r->priority, .table = r->table };
}

/* The RIB's add and delete for the route's family. */
static int route_add(const struct nl_route *r, const struct rib_route_attrs *a,
		     const struct rib_nh_spec *s, enum rib_add_mode mode)
{
	if (r->family == AF_INET6)
		return rib_route6_add(r->prefix6, r->len, a, s, mode);
	return rib_route_add(r->prefix, r->len, a, s, mode);
}

static int route_del(const struct nl_route *r, const struct rib_nh_spec *s)
{
	if (r->family == AF_INET6)
		return rib_route6_del(r->prefix6, r->len, r->table, r->priority, s);
	return rib_route_del(r->prefix, r->len, r->table, r->priority, s);
}

static bool same_hop(const struct rib_hop *a, const struct rib_hop *b)
{
	return a->port == b->port && rib_hop_is_v6(a) == rib_hop_is_v6(b) &&
	       (rib_hop_is_v6(a) ? memcmp(a->gw6, b->gw6, 16) == 0 : a->gw == b->gw);
}

/* s's hops: a group's members, else its one hop. */
static unsigned int spec_hops(const struct rib_nh_spec *s, const struct rib_hop **h)
{
	*h = s->type == RIB_NH_GROUP ? s->members : &s->hop;
	return s->type == RIB_NH_GROUP ? s->nb_members : 1;
}

static bool hop_in(const struct rib_hop *h, const struct rib_nh_spec *s)
{
	const struct rib_hop *hs;
	unsigned int n = spec_hops(s, &hs), i;

	for (i = 0; i < n; i++)
		if (same_hop(h, &hs[i]))
			return true;
	return false;
}

/*
 * The kernel keeps the IPv6 gateway routes of one prefix, table and metric as one ECMP route
 * (siblings): an append brings the whole set in one message, and a deletion may name one hop
 * of it. The RIB's route of those siblings, if r's prefix, table and metric have one.
 */
static bool siblings_of(const struct nl_route *r, struct rib_route_info *cur)
{
	return r->family == AF_INET6 && r->nh_id == 0 && r->type == RTN_UNICAST &&
	       rib_route6_find(r->prefix6, r->len, r->table, r->priority, cur) == 0 &&
	       cur->nh.knh == 0 && (cur->nh.type == RIB_NH_GROUP || cur->nh.type == RIB_NH_GATEWAY);
}

/* An IPv6 deletion naming hops of an ECMP route: those hops leave it, and the route goes with
 * its last. false when r names no hop of such a route (a plain deletion then). */
static bool siblings_del(const struct nl_route *r, const struct rib_nh_spec *s)
{
	struct rib_route_info cur;
	struct rib_nh_spec rest = { .type = RIB_NH_GROUP };
	const struct rib_hop *h;
	struct rib_route_attrs a = kernel_attrs(r);
	unsigned int n, i;

	if (!siblings_of(r, &cur))
		return false;
	n = spec_hops(&cur.nh, &h);
	for (i = 0; i < n; i++)
		if (!hop_in(&h[i], s))
			rest.members[rest.nb_members++] = h[i];
	if (rest.nb_members == n)
		return false;	/* none of its hops */
	a.kproto = cur.attrs.kproto;
	route_del(r, &cur.nh);
	if (rest.nb_members == 1) {
		rest.type = RIB_NH_GATEWAY;
		rest.hop = rest.members[0];
	}
	if (rest.nb_members > 0)
		route_add(r, &a, &rest, RIB_ADD_APPEND);
	return true;
}

/* An IPv6 append of several hops is the siblings' whole set: the route of those it had goes. */
static void siblings_grow(const struct nl_msg *m, const struct rib_nh_spec *s)
{
	struct rib_route_info cur;
	const struct rib_hop *h;
	unsigned int n, i;

	if (!(m->flags & NLM_F_APPEND) || s->type != RIB_NH_GROUP || !siblings_of(&m->route, &cur))
		return;
	n = spec_hops(&cur.nh, &h);
	for (i = 0; i < n && hop_in(&h[i], s); i++)
		;
	if (i == n)
		route_del(&m->route, &cur.nh);
}

static const char *prefix_text(const struct nl_route *r, char *buf, size_t len)
{
	uint32_t be = htonl(r->prefix);

	return inet_ntop(r->family, r->family == AF_INET6 ? (const void *)r->prefix6 : &be, buf, len);
}

static void apply_route(const struct nl_msg *m, struct nl_stats *st)
{
	const struct nl_route *r = &m->route;
	struct rib_route_attrs a = kernel_attrs(r);
	char text[INET6_ADDRSTRLEN];
	struct rib_nh_spec s;
	int rc;

	nhobj_route_track(r, m->del);
	rc = mirror_route_nh(r, &s);
	if (m->del) {
		/* the kernel names the route it removed: one of several of that table and metric
		 * (through an object, which may have changed since, the one there is) */
		if (r->nh_id)
			route_del(r, NULL);
		else if (rc == 0 && !siblings_del(r, &s))
			route_del(r, &s);
		return;
	}
	if (rc < 0) {
		st->routes_skipped++;
		return;
	}
	siblings_grow(m, &s);
	rc = route_add(r, &a, &s, mirror_add_mode(m->flags));
	if (rc < 0 && ++*(r->family == AF_INET6 ? &st->routes6_refused : &st->routes_refused))
		TERN_LOG_RATELIMITED(rib, WARNING, "cannot mirror route %s/%u: %s",
				     prefix_text(r, text, sizeof(text)), r->len, strerror(-rc));
}

/* The route again as the kernel has it (its object resolved anew), or gone when it cannot be. */
static void route_refresh(const struct nl_route *r)
{
	struct rib_route_attrs a = kernel_attrs(r);
	struct rib_nh_spec s;

	if (mirror_route_nh(r, &s) == 0)
		route_add(r, &a, &s, RIB_ADD_REPLACE);
	else
		route_del(r, NULL);
}

/* The routes through the nexthop objects that just changed, resolved again. */
static void refresh_object_routes(void)
{
	struct nl_route r;

	while (nhobj_next_refresh(&r))
		route_refresh(&r);
}

/* An NDP neighbour: a multicast group's entry (the kernel keeps some, NOARP) is none. */
static void apply_neigh6(int port, const struct nl_msg *m, struct nl_stats *st)
{
	const struct nl_neigh *n = &m->neigh;
	struct rte_ether_addr mac;
	char text[INET6_ADDRSTRLEN];

	if (n->ip6[0] == 0xff)
		return;
	if (m->del || !nl_neigh_usable(n->state) || !n->has_mac) {
		rib_neigh6_del(port, n->ip6);
		return;
	}
	memcpy(mac.addr_bytes, n->mac, 6);
	if (rib_neigh6_set(port, n->ip6, &mac, n->state & NUD_PERMANENT) < 0 && ++st->neighs_refused)
		TERN_LOG_RATELIMITED(rib, WARNING, "neighbour %s not mirrored: the neighbour table is full",
				     inet_ntop(AF_INET6, n->ip6, text, sizeof(text)));
}

static void apply_neigh(const struct nl_msg *m, struct nl_stats *st)
{
	const struct nl_neigh *n = &m->neigh;
	int port = mirror_ifindex_port(n->ifindex);
	struct rte_ether_addr mac;

	if (port < 0)
		return;
	if (n->family == AF_INET6) {
		apply_neigh6(port, m, st);
		return;
	}
	if (m->del || !nl_neigh_usable(n->state) || !n->has_mac) {
		rib_neigh_del(port, n->ip);
		return;
	}
	memcpy(mac.addr_bytes, n->mac, 6);
	if (rib_neigh_set(port, n->ip, &mac, n->state & NUD_PERMANENT) < 0 && ++st->neighs_refused)
		TERN_LOG_RATELIMITED(rib, WARNING, "neighbour " IP4_FMT " not mirrored: the neighbour table is full",
				     IP4_ARGS(n->ip));
}

void mirror_prepare(const struct nl_msg *m, unsigned int n)
{
	unsigned int i;

	/* each message at DEBUG, the level asked once for the run */
	if (rte_log_can_log(tern_log_rib, RTE_LOG_DEBUG))
		for (i = 0; i < n; i++)
			TERN_LOG(rib, DEBUG, "netlink: %s %s", m[i].del ? "del" : "new",
				 m[i].kind == NL_LINK ? "link" : m[i].kind == NL_ADDR ? "address" :
				 m[i].kind == NL_ROUTE ? "route" : m[i].kind == NL_NEIGH ? "neighbour" : "other");
	for (i = 0; i < n; i++) {
		if (m[i].kind != NL_ROUTE)
			continue;
		if (m[i].route.family == AF_INET6)
			rib_route6_prefetch(m[i].route.prefix6, m[i].route.len);
		else
			rib_route_prefetch(m[i].route.prefix, m[i].route.len);
	}
}

void mirror_apply(const struct nl_msg *m, struct nl_stats *st)
{
	switch (m->kind) {
	case NL_LINK: st->links++; apply_link(m); break;
	case NL_ADDR: st->addrs++; apply_addr(m, st); break;
	case NL_ROUTE: st->routes++; apply_route(m, st); break;
	case NL_NEIGH: st->neighs++; apply_neigh(m, st); break;
	case NL_NEXTHOP:
		nhobj_apply(&m->nexthop, m->del);
		refresh_object_routes();
		break;
	case NL_IGNORED: break;
	}
}
