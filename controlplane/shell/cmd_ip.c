/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Static routes and static neighbours of both families (kept in statics.c): ip route, ipv6
 * route, arp, ipv6 neighbor and their no forms, one implementation for both.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/netlink_request.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/statics.h"
#include "dataplane/dp.h"

struct route_req {
	uint8_t type;
	struct static_hop hop;
};

/* A gateway of family (an IPv6 one may be link-local), host order for IPv4; 0 or -EINVAL. */
static int parse_gw(uint8_t family, const char *word, struct static_hop *h)
{
	h->family = family == AF_INET6 ? AF_INET6 : 0;
	if (family == AF_INET6)
		return inet_pton(AF_INET6, word, h->gw6) == 1 ? 0 : -EINVAL;
	return cmd_parse_ip(word, &h->gw);
}

static int route_target(struct cmd_ctx *ctx, uint8_t family, const char *word,
			struct route_req *r)
{
	struct dp_port *p;

	memset(r, 0, sizeof(*r));
	r->type = RTN_UNICAST;
	r->hop.port = -1;
	if (strcmp(word, "blackhole") == 0) {
		r->type = RTN_BLACKHOLE;
	} else if (strcmp(word, "unreachable") == 0) {
		r->type = RTN_UNREACHABLE;
	} else if (strcmp(word, "prohibit") == 0) {
		r->type = RTN_PROHIBIT;
	} else if ((p = dp_port_by_name(word)) != NULL) {
		r->hop.port = p - dp.ports;
		if (mirror_port_ifindex(r->hop.port) == 0)
			return cmd_error(ctx, -ENODEV, "%% The kernel interface of %s is gone", word);
	} else if (parse_gw(family, word, &r->hop) < 0) {
		return cmd_error(ctx, -EINVAL, "%% '%s' is not a gateway address, an interface or blackhole",
				 word);
	}
	return 0;
}

/* What an ip route line says after its prefix: [target] [distance] [weight N]. */
struct route_line {
	const char *pfx;
	const char *target;	/* NULL: any (no ip route P) */
	const char *distance;
	const char *out;	/* the interface a gateway is reached by; NULL: its subnet's */
	uint32_t metric;
	unsigned int weight;	/* 0: not given */
};

static int route_line(struct cmd_ctx *ctx, struct route_line *l)
{
	const char *weight = cmd_arg(ctx, "weight");

	memset(l, 0, sizeof(*l));
	l->pfx = cmd_arg(ctx, "prefix");
	l->target = cmd_arg(ctx, "target");
	l->distance = cmd_arg(ctx, "distance");
	l->out = cmd_arg(ctx, "out");
	if (weight != NULL) {
		unsigned long w = strtoul(weight, NULL, 10);

		if (w < 1 || w > 256)
			return cmd_error(ctx, -EINVAL, "%% Weight %s is out of range: expected 1 to 256",
					 weight);
		l->weight = w;
	}
	if (l->distance != NULL) {
		unsigned long m = strtoul(l->distance, NULL, 10);

		if (m > 0xffffffffu)
			return cmd_error(ctx, -EINVAL, "%% Distance %s is out of range: expected 0 to 4294967295",
					 l->distance);
		l->metric = m;
	}
	return 0;
}

static int route_refused(struct cmd_ctx *ctx, int rc, bool add, const struct route_line *l)
{
	if (rc == -ENETUNREACH)
		return cmd_error(ctx, rc, "%% Gateway %s is on no connected subnet; configure an address on the interface that reaches it first",
				 l->target);
	if (rc == -EDESTADDRREQ)
		return cmd_error(ctx, rc, "%% Gateway %s is link-local: name the interface it is on (%s %s IFNAME)",
				 l->target, l->pfx, l->target);
	if (rc == -ESRCH || (!add && rc == -ENOENT))
		return cmd_error(ctx, rc, "%% No static route %s%s%s%s%s", l->pfx, l->target ? " " : "",
				 l->target ? l->target : "", l->distance ? " " : "",
				 l->distance ? l->distance : "");
	if (rc == -E2BIG)
		return cmd_error(ctx, rc, "%% Static route %s has %u next hops already", l->pfx,
				 RIB_GROUP_MAX);
	if (rc == -ENOSPC)
		return cmd_error(ctx, rc, "%% %u static routes are configured already",
				 STATICS_ROUTES_MAX);
	return cmd_error(ctx, rc, "%% The kernel refused route %s: %s", l->pfx, strerror(-rc));
}

/* Whether the static route r is what a no ip route line names: its type, or a member. */
static bool route_names(const struct static_route *r, const struct route_req *q, bool any)
{
	unsigned int i;

	if (any)
		return true;
	if (q->type != RTN_UNICAST || r->type != RTN_UNICAST)
		return q->type == r->type;
	for (i = 0; i < r->nb_hops; i++)
		if (statics_same_hop(&r->hops[i], &q->hop))
			return true;
	return false;
}

/* The distance of the one static route of prefix a no ip route line without one names. */
static int route_distance(struct cmd_ctx *ctx, const struct route_line *l,
			  const struct static_route *key, const struct route_req *q, uint32_t *metric)
{
	const struct static_route *found[RIB_GROUP_MAX];
	unsigned int n = statics_route_find(key, found, RTE_DIM(found)), i, named = 0;
	char list[128] = "";

	for (i = 0; i < n && i < RTE_DIM(found); i++) {
		if (!route_names(found[i], q, l->target == NULL))
			continue;
		*metric = found[i]->metric;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u", named ? ", " : "",
			 found[i]->metric);
		named++;
	}
	if (named == 0)
		return route_refused(ctx, -ESRCH, false, l);
	if (named > 1)
		return cmd_error(ctx, -EINVAL, "%% Static route %s%s%s is configured at distances %s: "
				 "give the distance", l->pfx, l->target ? " " : "",
				 l->target ? l->target : "", list);
	return 0;
}

/*
 * Static routes of one prefix and distance to gateways or interfaces add up, one line
 * each, into one ECMP route (as in FRR's staticd): ip route P A, then ip route P B,
 * forwards over both, and no ip route P A leaves B. A blackhole, unreachable or prohibit
 * route takes the place of whatever that prefix and distance had. They are kept as
 * configuration (statics.c) and written to the kernel with the members it can hold.
 */
static bool link_local6(const struct static_hop *h)
{
	return h->family == AF_INET6 && h->gw6[0] == 0xfe && (h->gw6[1] & 0xc0) == 0x80;
}

/* The port whose subnet holds h's gateway, or -ENETUNREACH. */
static int gw_port(const struct static_hop *h)
{
	return h->family == AF_INET6 ? rib_connected_port6(h->gw6) : rib_connected_port(h->gw);
}

static int route_change(struct cmd_ctx *ctx, uint8_t family, bool add)
{
	struct route_req q = { .type = RTN_UNSPEC, .hop = { .port = -1 } };
	struct static_route key = { .family = family };
	struct route_line l;
	int rc;

	if ((rc = route_line(ctx, &l)) < 0 ||
	    (rc = family == AF_INET6 ? cmd_parse_prefix6(ctx, l.pfx, key.prefix6, &key.len, true) :
				       cmd_parse_prefix(ctx, l.pfx, &key.prefix, &key.len, true)) < 0)
		return rc;
	if (l.target != NULL && (rc = route_target(ctx, family, l.target, &q)) < 0)
		return rc;
	if (l.out != NULL) {	/* a gateway and the interface it is reached by */
		struct dp_port *p = dp_port_by_name(l.out);

		q.hop.port = p - dp.ports;
		if (add && !link_local6(&q.hop) && gw_port(&q.hop) != q.hop.port)
			return cmd_error(ctx, -EINVAL, "%% Gateway %s is not on a subnet of %s",
					 l.target, l.out);
	}
	q.hop.weight = l.weight;
	key.metric = l.metric;
	if (add) {
		if (q.type == RTN_UNICAST && link_local6(&q.hop) && q.hop.port < 0)
			return route_refused(ctx, -EDESTADDRREQ, add, &l);
		if (q.type == RTN_UNICAST && statics_hop_has_gw(&q.hop) && !link_local6(&q.hop) &&
		    gw_port(&q.hop) < 0)
			return route_refused(ctx, -ENETUNREACH, add, &l);
		rc = statics_route_add(&key, q.type, q.type == RTN_UNICAST ? &q.hop : NULL);
	} else {
		if (l.distance == NULL && (rc = route_distance(ctx, &l, &key, &q, &key.metric)) < 0)
			return rc;
		rc = statics_route_del(&key, l.target != NULL && q.type == RTN_UNICAST ? &q.hop : NULL);
	}
	if (rc < 0)
		return route_refused(ctx, rc, add, &l);
	netlink_drain();
	return 0;
}

static int cmd_ip_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, AF_INET, true);
}

static int cmd_no_ip_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, AF_INET, false);
}

static int cmd_ipv6_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, AF_INET6, true);
}

static int cmd_no_ipv6_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, AF_INET6, false);
}

/* A static neighbour's address, of family: 0 or -EINVAL. */
static int neigh_address(uint8_t family, const char *addr, struct static_arp *a)
{
	a->family = family;
	if (family == AF_INET6)
		return inet_pton(AF_INET6, addr, a->ip6) == 1 ? 0 : -EINVAL;
	return cmd_parse_ip(addr, &a->ip);
}

/* arp and ipv6 neighbor: a permanent neighbour on a connected subnet of the interface (an IPv6
 * one may be link-local). */
static int neigh_add(struct cmd_ctx *ctx, uint8_t family)
{
	const char *addr = cmd_arg(ctx, "address"), *mac_arg = cmd_arg(ctx, "mac");
	struct dp_port *p = dp_port_by_name(cmd_arg(ctx, "interface"));
	const char *what = family == AF_INET6 ? "IPv6 neighbor" : "ARP entry";
	struct static_arp a = { .port = p - dp.ports };
	bool ll;
	int rc;

	if (neigh_address(family, addr, &a) < 0 || rte_ether_unformat_addr(mac_arg, &a.mac) < 0)
		return cmd_error(ctx, -EINVAL, "%% Expected %s MAC IFNAME", family == AF_INET6 ?
				 "ipv6 neighbor X:X::X:X" : "arp A.B.C.D");
	if (!rte_is_unicast_ether_addr(&a.mac) || rte_is_zero_ether_addr(&a.mac))
		return cmd_error(ctx, -EINVAL, "%% %s is not a unicast MAC address", mac_arg);
	ll = family == AF_INET6 && a.ip6[0] == 0xfe && (a.ip6[1] & 0xc0) == 0x80;
	if (family == AF_INET6 && a.ip6[0] == 0xff)
		return cmd_error(ctx, -EINVAL, "%% %s is a multicast address", addr);
	if (!ll && (family == AF_INET6 ? rib_connected_port6(a.ip6) : rib_connected_port(a.ip)) !=
		   a.port)
		return cmd_error(ctx, -EINVAL, "%% %s is not on a subnet of %s", addr, p->name);
	rc = statics_arp_add(&a);
	if (rc == -ENOSPC)
		return cmd_error(ctx, rc, "%% %u static neighbours are configured already",
				 STATICS_ARP_MAX);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused %s %s: %s", what, addr,
				 strerror(-rc));
	netlink_drain();
	return 0;
}

static int neigh_del(struct cmd_ctx *ctx, uint8_t family)
{
	const char *addr = cmd_arg(ctx, "address");
	const char *what = family == AF_INET6 ? "IPv6 neighbor" : "ARP entry";
	struct static_arp key = { 0 };
	const struct rib_neigh *n;
	unsigned int i, nb = rib_neighs(&n);
	int rc;

	if (neigh_address(family, addr, &key) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an %s address", addr,
				 family == AF_INET6 ? "IPv6" : "IPv4");
	rc = statics_arp_del(&key);
	if (rc == -ENOENT) {	/* not configured here: a permanent entry the kernel was given */
		for (i = 0; i < nb; i++)
			if (n[i].family == family && n[i].permanent &&
			    (family == AF_INET6 ? memcmp(n[i].ip6, key.ip6, 16) == 0 : n[i].ip == key.ip))
				break;
		if (i == nb)
			return cmd_error(ctx, -ENOENT, "%% No static %s for %s", what, addr);
		rc = nlr_neigh(false, mirror_port_ifindex(n[i].port), family, key.ip, key.ip6, NULL);
	}
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused to remove %s %s: %s", what, addr,
				 strerror(-rc));
	netlink_drain();
	return 0;
}

static int cmd_arp(struct cmd_ctx *ctx)
{
	return neigh_add(ctx, AF_INET);
}

static int cmd_no_arp(struct cmd_ctx *ctx)
{
	return neigh_del(ctx, AF_INET);
}

static int cmd_ipv6_neighbor(struct cmd_ctx *ctx)
{
	return neigh_add(ctx, AF_INET6);
}

static int cmd_no_ipv6_neighbor(struct cmd_ctx *ctx)
{
	return neigh_del(ctx, AF_INET6);
}

const struct cmd_def cmd_ip_table[] = {
	{ CMD_MODE_CONFIG, "ip route prefix:A.B.C.D/M (target:A.B.C.D|target:IFNAME) [distance:NUMBER] [weight NUMBER]",
	  "Static route via a gateway or out of an interface; lines of one prefix and distance add up to ECMP, weight (1..256) is a member's share",
	  cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route prefix:A.B.C.D/M target:A.B.C.D out:IFNAME [distance:NUMBER] [weight NUMBER]",
	  "Static route via a gateway reached by that interface", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route prefix:A.B.C.D/M (target:blackhole|target:unreachable|target:prohibit) [distance:NUMBER]",
	  "Drop: silently, with ICMP unreachable, or with ICMP prohibited", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route prefix:A.B.C.D/M [(target:A.B.C.D [out:IFNAME]|target:IFNAME|target:blackhole|target:unreachable|target:prohibit) [distance:NUMBER]]",
	  "Remove a static route (with a gateway or interface, that member of an ECMP route; with a distance, of that distance)",
	  cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "arp address:A.B.C.D mac:MAC interface:IFNAME", "Static ARP entry", cmd_arp, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no arp address:A.B.C.D", "Remove a static ARP entry", cmd_no_arp, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ipv6 route prefix:X:X::X:X/M (target:X:X::X:X|target:IFNAME) [distance:NUMBER] [weight NUMBER]",
	  "Static IPv6 route via a gateway or out of an interface; lines of one prefix and distance add up to ECMP",
	  cmd_ipv6_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ipv6 route prefix:X:X::X:X/M target:X:X::X:X out:IFNAME [distance:NUMBER] [weight NUMBER]",
	  "Static IPv6 route via a gateway reached by that interface (a link-local gateway needs it)",
	  cmd_ipv6_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ipv6 route prefix:X:X::X:X/M (target:blackhole|target:unreachable|target:prohibit) [distance:NUMBER]",
	  "Drop IPv6: silently, with ICMPv6 no route, or with ICMPv6 prohibited", cmd_ipv6_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ipv6 route prefix:X:X::X:X/M [(target:X:X::X:X [out:IFNAME]|target:IFNAME|target:blackhole|target:unreachable|target:prohibit) [distance:NUMBER]]",
	  "Remove a static IPv6 route (with a gateway or interface, that member of an ECMP route)",
	  cmd_no_ipv6_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ipv6 neighbor address:X:X::X:X mac:MAC interface:IFNAME", "Static IPv6 neighbour (NDP) entry", cmd_ipv6_neighbor, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ipv6 neighbor address:X:X::X:X", "Remove a static IPv6 neighbour", cmd_no_ipv6_neighbor, CMD_F_CONFIG },
	{ 0 },
};
