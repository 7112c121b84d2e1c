/* SPDX-License-Identifier: BSD-3-Clause */
/* Static routes and static ARP entries (kept in statics.c): ip route, arp and their no forms. */
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

static int route_target(struct cmd_ctx *ctx, const char *word, struct route_req *r)
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
	} else if (cmd_parse_ip(word, &r->hop.gw) < 0) {
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
static int route_distance(struct cmd_ctx *ctx, const struct route_line *l, uint32_t prefix,
			  uint8_t len, const struct route_req *q, uint32_t *metric)
{
	const struct static_route *found[RIB_GROUP_MAX];
	unsigned int n = statics_route_find(prefix, len, found, RTE_DIM(found)), i, named = 0;
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
static int route_change(struct cmd_ctx *ctx, bool add)
{
	struct route_req q = { .type = RTN_UNSPEC, .hop = { .port = -1 } };
	struct route_line l;
	uint32_t prefix, metric;
	uint8_t len;
	int rc;

	if ((rc = route_line(ctx, &l)) < 0 ||
	    (rc = cmd_parse_prefix(ctx, l.pfx, &prefix, &len, true)) < 0)
		return rc;
	if (l.target != NULL && (rc = route_target(ctx, l.target, &q)) < 0)
		return rc;
	if (l.out != NULL) {	/* a gateway and the interface it is reached by */
		struct dp_port *p = dp_port_by_name(l.out);

		q.hop.port = p - dp.ports;
		if (add && rib_connected_port(q.hop.gw) != q.hop.port)
			return cmd_error(ctx, -EINVAL, "%% Gateway %s is not on a subnet of %s",
					 l.target, l.out);
	}
	q.hop.weight = l.weight;
	if (add) {
		if (q.type == RTN_UNICAST && q.hop.gw && rib_connected_port(q.hop.gw) < 0)
			return route_refused(ctx, -ENETUNREACH, add, &l);
		rc = statics_route_add(prefix, len, l.metric, q.type,
				       q.type == RTN_UNICAST ? &q.hop : NULL);
	} else {
		metric = l.metric;
		if (l.distance == NULL && (rc = route_distance(ctx, &l, prefix, len, &q, &metric)) < 0)
			return rc;
		rc = statics_route_del(prefix, len, metric,
				       l.target != NULL && q.type == RTN_UNICAST ? &q.hop : NULL);
	}
	if (rc < 0)
		return route_refused(ctx, rc, add, &l);
	netlink_drain();
	return 0;
}

static int cmd_ip_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, true);
}

static int cmd_no_ip_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, false);
}

static int cmd_arp(struct cmd_ctx *ctx)
{
	const char *addr = cmd_arg(ctx, "address"), *mac_arg = cmd_arg(ctx, "mac");
	struct dp_port *p = dp_port_by_name(cmd_arg(ctx, "interface"));
	struct rte_ether_addr mac;
	uint32_t ip;
	int rc;

	if (cmd_parse_ip(addr, &ip) < 0 || rte_ether_unformat_addr(mac_arg, &mac) < 0)
		return cmd_error(ctx, -EINVAL, "%% Expected arp A.B.C.D MAC IFNAME");
	if (!rte_is_unicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))
		return cmd_error(ctx, -EINVAL, "%% %s is not a unicast MAC address", mac_arg);
	if (rib_connected_port(ip) != p - dp.ports)
		return cmd_error(ctx, -EINVAL, "%% %s is not on a subnet of %s", addr, p->name);
	rc = statics_arp_add(p - dp.ports, ip, &mac);
	if (rc == -ENOSPC)
		return cmd_error(ctx, rc, "%% %u static ARP entries are configured already",
				 STATICS_ARP_MAX);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused ARP entry %s: %s", addr,
				 strerror(-rc));
	netlink_drain();
	return 0;
}

static int cmd_no_arp(struct cmd_ctx *ctx)
{
	const char *addr = cmd_arg(ctx, "address");
	const struct rib_neigh *n;
	unsigned int i, nb = rib_neighs(&n);
	uint32_t ip;
	int rc;

	if (cmd_parse_ip(addr, &ip) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an IPv4 address", addr);
	rc = statics_arp_del(ip);
	if (rc == -ENOENT) {	/* not configured here: a permanent entry the kernel was given */
		for (i = 0; i < nb; i++)
			if (n[i].family == AF_INET && n[i].ip == ip && n[i].permanent)
				break;
		if (i == nb)
			return cmd_error(ctx, -ENOENT, "%% No static ARP entry for %s", addr);
		rc = nlr_neigh(false, mirror_port_ifindex(n[i].port), ip, NULL);
	}
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused to remove ARP entry %s: %s",
				 addr, strerror(-rc));
	netlink_drain();
	return 0;
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
	{ 0 },
};
