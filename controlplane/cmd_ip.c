/* Static routes and static ARP entries, written to the kernel: ip route, arp and their no forms. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "controlplane/command.h"
#include "controlplane/netlink.h"
#include "controlplane/netlink_request.h"
#include "controlplane/rib.h"
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

static int route_change(struct cmd_ctx *ctx, bool add, const char *pfx, const char *target,
			const char *distance)
{
	unsigned long metric = distance ? strtoul(distance, NULL, 10) : 0;
	struct route_req r = { .type = RTN_UNSPEC };	/* a delete without target matches any type */
	uint32_t prefix;
	uint8_t len;
	int rc;

	rc = cmd_parse_prefix(ctx, pfx, &prefix, &len, true);
	if (rc < 0)
		return rc;
	if (target != NULL && (rc = route_target(ctx, target, &r)) < 0)
		return rc;
	if (metric > 0xffffffffu)
		return cmd_error(ctx, -EINVAL, "%% Distance %s is out of range: expected 0 to 4294967295",
				 distance);
	rc = nlr_route(add, prefix, len, r.type, r.gw, r.ifindex, metric);
	if (rc == -ENETUNREACH)
		return cmd_error(ctx, rc, "%% Gateway %s is on no connected subnet; configure an address on the interface that reaches it first",
				 target);
	if (rc == -ESRCH || (!add && rc == -ENOENT))
		return cmd_error(ctx, rc, "%% No static route %s%s%s", pfx, target ? " " : "",
				 target ? target : "");
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused route %s: %s", pfx, strerror(-rc));
	netlink_drain();
	return 0;
}

static int cmd_ip_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, true, ctx->argv[2], ctx->argv[3], ctx->argc > 4 ? ctx->argv[4] : NULL);
}

static int cmd_no_ip_route(struct cmd_ctx *ctx)
{
	return route_change(ctx, false, ctx->argv[3], ctx->argc > 4 ? ctx->argv[4] : NULL,
			    ctx->argc > 5 ? ctx->argv[5] : NULL);
}

static int cmd_arp(struct cmd_ctx *ctx)
{
	struct dp_port *p = dp_port_by_name(ctx->argv[3]);
	struct rte_ether_addr mac;
	uint32_t ip, ifindex = mirror_port_ifindex(p - dp.ports);
	int rc;

	if (cmd_parse_ip(ctx->argv[1], &ip) < 0 || rte_ether_unformat_addr(ctx->argv[2], &mac) < 0)
		return cmd_error(ctx, -EINVAL, "%% Expected arp A.B.C.D MAC IFNAME");
	if (!rte_is_unicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))
		return cmd_error(ctx, -EINVAL, "%% %s is not a unicast MAC address", ctx->argv[2]);
	if (rib_connected_port(ip) != p - dp.ports)
		return cmd_error(ctx, -EINVAL, "%% %s is not on a subnet of %s", ctx->argv[1], p->name);
	rc = nlr_neigh(true, ifindex, ip, &mac);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused ARP entry %s: %s", ctx->argv[1],
				 strerror(-rc));
	netlink_drain();
	return 0;
}

static int cmd_no_arp(struct cmd_ctx *ctx)
{
	const struct rib_neigh *n;
	unsigned int i, nb = rib_neighs(&n);
	uint32_t ip;
	int rc;

	if (cmd_parse_ip(ctx->argv[2], &ip) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an IPv4 address", ctx->argv[2]);
	for (i = 0; i < nb; i++)
		if (n[i].ip == ip && n[i].permanent)
			break;
	if (i == nb)
		return cmd_error(ctx, -ENOENT, "%% No static ARP entry for %s", ctx->argv[2]);
	rc = nlr_neigh(false, mirror_port_ifindex(n[i].port), ip, NULL);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused to remove ARP entry %s: %s",
				 ctx->argv[2], strerror(-rc));
	netlink_drain();
	return 0;
}

const struct cmd_def cmd_ip_table[] = {
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M A.B.C.D", "Static route via a gateway", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M IFNAME", "Static route out of an interface", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M blackhole", "Drop silently", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M unreachable", "Drop with ICMP unreachable", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M prohibit", "Drop with ICMP prohibited", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M A.B.C.D NUMBER", "Static route via a gateway, with a distance", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M IFNAME NUMBER", "Static route out of an interface, with a distance", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M blackhole NUMBER", "Drop silently, with a distance", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M A.B.C.D NUMBER", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M IFNAME NUMBER", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M blackhole NUMBER", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M A.B.C.D", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M IFNAME", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M blackhole", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M unreachable", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M prohibit", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "arp A.B.C.D MAC IFNAME", "Static ARP entry", cmd_arp, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no arp A.B.C.D", "Remove a static ARP entry", cmd_no_arp, CMD_F_CONFIG },
	{ 0 },
};
