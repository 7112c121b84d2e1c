/* SPDX-License-Identifier: BSD-3-Clause */
/* Static routes and static ARP entries, written to the kernel: ip route, arp and their no forms. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/netlink_request.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "dataplane/dp.h"

struct route_req {
	uint8_t type;
	uint32_t gw;
	uint32_t ifindex;
};

static int route_target(struct cmd_ctx *ctx, const char *word, struct route_req *r)
{
	struct dp_port *p;

	memset(r, 0, sizeof(*r));
	r->type = RTN_UNICAST;
	if (strcmp(word, "blackhole") == 0) {
		r->type = RTN_BLACKHOLE;
	} else if (strcmp(word, "unreachable") == 0) {
		r->type = RTN_UNREACHABLE;
	} else if (strcmp(word, "prohibit") == 0) {
		r->type = RTN_PROHIBIT;
	} else if ((p = dp_port_by_name(word)) != NULL) {
		r->ifindex = mirror_port_ifindex(p - dp.ports);
		if (r->ifindex == 0)
			return cmd_error(ctx, -ENODEV, "%% The kernel interface of %s is gone", word);
	} else if (cmd_parse_ip(word, &r->gw) < 0) {
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

/*
 * A weight means something only in a group: the kernel keeps none for a route of one
 * member. The weight given to a static route's first line is kept here, to be its weight
 * when a second line makes the group (a replayed configuration adds members one by one).
 */
#define LONE_WEIGHTS_MAX 256

struct lone_weight {
	uint32_t prefix;
	uint8_t len;
	uint32_t metric;
	struct nlr_hop hop;
};

static struct lone_weight lone_weights[LONE_WEIGHTS_MAX];
static unsigned int nb_lone_weights;

static struct lone_weight *lone_weight_find(uint32_t prefix, uint8_t len, uint32_t metric)
{
	unsigned int i;

	for (i = 0; i < nb_lone_weights; i++)
		if (lone_weights[i].prefix == prefix && lone_weights[i].len == len &&
		    lone_weights[i].metric == metric)
			return &lone_weights[i];
	return NULL;
}

/* Remembers (weight > 1) or forgets the weight of the lone route of that prefix and metric. */
static void lone_weight_set(uint32_t prefix, uint8_t len, uint32_t metric, const struct nlr_hop *hop)
{
	struct lone_weight *w = lone_weight_find(prefix, len, metric);

	if (hop == NULL || hop->weight <= 1) {
		if (w != NULL)
			*w = lone_weights[--nb_lone_weights];
		return;
	}
	if (w == NULL && nb_lone_weights == LONE_WEIGHTS_MAX)
		return;
	if (w == NULL)
		w = &lone_weights[nb_lone_weights++];
	*w = (struct lone_weight){ .prefix = prefix, .len = len, .metric = metric, .hop = *hop };
}

/*
 * The members of the static route of that prefix and metric in the main table, each once
 * with its weight: 0 and *n, or -ENOENT when there is none or it is no gateway or
 * interface route (a blackhole, or another daemon's route, is replaced whole).
 */
static int static_members(uint32_t prefix, uint8_t len, uint32_t metric, struct nlr_hop *h,
			  unsigned int *n)
{
	struct rib_route_info info;
	const struct rib_hop *m;
	unsigned int i, j, nb;

	*n = 0;
	if (rib_route_find(prefix, len, RT_TABLE_MAIN, metric, &info) < 0 ||
	    info.attrs.kproto != RTPROT_STATIC)
		return -ENOENT;
	if (info.nh.type == RIB_NH_GATEWAY || info.nh.type == RIB_NH_CONNECTED) {
		m = &info.nh.hop;
		nb = 1;
	} else if (info.nh.type == RIB_NH_GROUP) {
		m = info.nh.members;
		nb = info.nh.nb_members;
	} else {
		return -ENOENT;
	}
	for (i = 0; i < nb; i++) {
		uint32_t ifindex = m[i].gw ? 0 : mirror_port_ifindex(m[i].port);

		for (j = 0; j < *n && !(h[j].gw == m[i].gw && h[j].ifindex == ifindex); j++)
			;
		if (j == *n)
			h[(*n)++] = (struct nlr_hop){ .gw = m[i].gw, .ifindex = ifindex };
		h[j].weight++;
	}
	if (nb == 1) {	/* a lone route: its weight, if given, is the one kept aside */
		const struct lone_weight *w = lone_weight_find(prefix, len, metric);

		if (w != NULL && w->hop.gw == h[0].gw && w->hop.ifindex == h[0].ifindex)
			h[0].weight = w->hop.weight;
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
	return cmd_error(ctx, rc, "%% The kernel refused route %s: %s", l->pfx, strerror(-rc));
}

/*
 * Static routes of one prefix and distance to gateways or interfaces add up, one line
 * each, into one ECMP route in the kernel (as in FRR's staticd): ip route P A, then
 * ip route P B, forwards over both, and no ip route P A leaves B. A blackhole, unreachable
 * or prohibit route takes the place of whatever that prefix and distance had.
 */
static int route_change(struct cmd_ctx *ctx, bool add)
{
	struct route_req r = { .type = RTN_UNSPEC };	/* a delete without target matches any type */
	struct nlr_hop hops[RIB_GROUP_MAX + 1];
	struct route_line l;
	unsigned int n = 0, i;
	uint32_t prefix;
	uint8_t len;
	int rc;

	if ((rc = route_line(ctx, &l)) < 0 ||
	    (rc = cmd_parse_prefix(ctx, l.pfx, &prefix, &len, true)) < 0)
		return rc;
	if (l.target != NULL && (rc = route_target(ctx, l.target, &r)) < 0)
		return rc;
	if (r.type == RTN_UNICAST && static_members(prefix, len, l.metric, hops, &n) == 0) {
		for (i = 0; i < n && !(hops[i].gw == r.gw && (r.gw || hops[i].ifindex == r.ifindex)); i++)
			;
		if (!add && i == n)
			return route_refused(ctx, -ESRCH, add, &l);
		if (add && i == n)
			hops[n++] = (struct nlr_hop){ .gw = r.gw, .ifindex = r.ifindex, .weight = 1 };
		if (add && l.weight)
			hops[i].weight = l.weight;
		if (!add)
			hops[i] = hops[--n];
		/* one member left to add, or none left after a delete: a plain route does it */
		if ((add && n > 1) || (!add && n > 0)) {
			rc = nlr_route_group(prefix, len, l.metric, hops, n);
			if (rc < 0)
				return route_refused(ctx, rc, add, &l);
			lone_weight_set(prefix, len, l.metric, n == 1 ? &hops[0] : NULL);
			netlink_drain();
			return 0;
		}
	}
	rc = nlr_route(add, prefix, len, r.type, r.gw, r.ifindex, l.metric);
	if (rc < 0)
		return route_refused(ctx, rc, add, &l);
	lone_weight_set(prefix, len, l.metric, add && r.type == RTN_UNICAST ?
			&(struct nlr_hop){ .gw = r.gw, .ifindex = r.gw ? 0 : r.ifindex, .weight = l.weight } : NULL);
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
	uint32_t ip, ifindex = mirror_port_ifindex(p - dp.ports);
	int rc;

	if (cmd_parse_ip(addr, &ip) < 0 || rte_ether_unformat_addr(mac_arg, &mac) < 0)
		return cmd_error(ctx, -EINVAL, "%% Expected arp A.B.C.D MAC IFNAME");
	if (!rte_is_unicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))
		return cmd_error(ctx, -EINVAL, "%% %s is not a unicast MAC address", mac_arg);
	if (rib_connected_port(ip) != p - dp.ports)
		return cmd_error(ctx, -EINVAL, "%% %s is not on a subnet of %s", addr, p->name);
	rc = nlr_neigh(true, ifindex, ip, &mac);
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
	for (i = 0; i < nb; i++)
		if (n[i].ip == ip && n[i].permanent)
			break;
	if (i == nb)
		return cmd_error(ctx, -ENOENT, "%% No static ARP entry for %s", addr);
	rc = nlr_neigh(false, mirror_port_ifindex(n[i].port), ip, NULL);
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
	{ CMD_MODE_CONFIG, "ip route prefix:A.B.C.D/M (target:blackhole|target:unreachable|target:prohibit) [distance:NUMBER]",
	  "Drop: silently, with ICMP unreachable, or with ICMP prohibited", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route prefix:A.B.C.D/M [(target:A.B.C.D|target:IFNAME|target:blackhole|target:unreachable|target:prohibit) [distance:NUMBER]]",
	  "Remove a static route (with a gateway or interface, that member of an ECMP route; with a distance, of that distance)",
	  cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "arp address:A.B.C.D mac:MAC interface:IFNAME", "Static ARP entry", cmd_arp, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no arp address:A.B.C.D", "Remove a static ARP entry", cmd_no_arp, CMD_F_CONFIG },
	{ 0 },
};
