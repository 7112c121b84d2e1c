/* Static routes and static ARP entries: ip route, no ip route, arp, no arp. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "controlplane/command.h"
#include "controlplane/rib.h"
#include "dataplane/dp.h"

static int route_target(struct cmd_ctx *ctx, const char *word, struct rib_nh_spec *nh)
{
	struct dp_port *p;
	uint32_t gw;
	int port;

	if (strcmp(word, "blackhole") == 0) {
		nh->type = RIB_NH_BLACKHOLE;
	} else if (strcmp(word, "unreachable") == 0) {
		nh->type = RIB_NH_UNREACHABLE;
	} else if (strcmp(word, "prohibit") == 0) {
		nh->type = RIB_NH_PROHIBIT;
	} else if ((p = dp_port_by_name(word)) != NULL) {
		nh->type = RIB_NH_CONNECTED;
		nh->port = p - dp.ports;
	} else {
		if (cmd_parse_ip(word, &gw) < 0)
			return cmd_error(ctx, -EINVAL, "%% '%s' is not a gateway address, an interface or blackhole",
					 word);
		port = rib_connected_port(gw);
		if (port < 0)
			return cmd_error(ctx, -ENETUNREACH,
					 "%% Gateway %s is on no connected subnet; configure an address on the interface that reaches it first",
					 word);
		nh->type = RIB_NH_GATEWAY;
		nh->port = port;
		nh->gw = gw;
	}
	return 0;
}

static int cmd_ip_route(struct cmd_ctx *ctx)
{
	struct rib_nh_spec nh = { 0 };
	struct rib_route_info cur;
	uint32_t prefix;
	uint8_t len;
	int rc;

	rc = cmd_parse_prefix(ctx, ctx->argv[2], &prefix, &len, true);
	if (rc < 0)
		return rc;
	rc = route_target(ctx, ctx->argv[3], &nh);
	if (rc < 0)
		return rc;
	if (rib_route_get(prefix, len, &cur) == 0 && cur.proto != RIB_PROTO_STATIC &&
	    cur.proto != RIB_PROTO_NEIGHBOR)
		return cmd_error(ctx, -EEXIST, "%% %s is a %s route; a static route cannot replace it",
				 ctx->argv[2], rib_proto_name(cur.proto));
	rc = rib_route_add(prefix, len, RIB_PROTO_STATIC, &nh);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot add route %s: %s", ctx->argv[2], strerror(-rc));
	return rib_commit();
}

static int cmd_no_ip_route(struct cmd_ctx *ctx)
{
	uint32_t prefix;
	uint8_t len;
	int rc;

	rc = cmd_parse_prefix(ctx, ctx->argv[3], &prefix, &len, true);
	if (rc < 0)
		return rc;
	rc = rib_route_del(prefix, len, RIB_PROTO_STATIC);
	if (rc == -ENOENT)
		return cmd_error(ctx, rc, "%% No static route %s", ctx->argv[3]);
	return rc < 0 ? rc : rib_commit();
}

static int cmd_arp(struct cmd_ctx *ctx)
{
	struct dp_port *p = dp_port_by_name(ctx->argv[3]);
	struct rte_ether_addr mac;
	uint32_t ip;
	int rc;

	if (cmd_parse_ip(ctx->argv[1], &ip) < 0 || rte_ether_unformat_addr(ctx->argv[2], &mac) < 0)
		return cmd_error(ctx, -EINVAL, "%% Expected arp A.B.C.D MAC IFNAME");
	if (!rte_is_unicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))
		return cmd_error(ctx, -EINVAL, "%% %s is not a unicast MAC address", ctx->argv[2]);
	if (rib_connected_port(ip) != p - dp.ports)
		return cmd_error(ctx, -EINVAL, "%% %s is not on a subnet of %s", ctx->argv[1], p->name);
	rc = rib_neigh_set(p - dp.ports, ip, &mac, true);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot add ARP entry %s: %s", ctx->argv[1], strerror(-rc));
	return rib_commit();
}

static int cmd_no_arp(struct cmd_ctx *ctx)
{
	const struct rib_neigh *n;
	unsigned int i, nb = rib_neighs(&n);
	uint32_t ip;

	if (cmd_parse_ip(ctx->argv[2], &ip) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an IPv4 address", ctx->argv[2]);
	for (i = 0; i < nb; i++)
		if (n[i].ip == ip && n[i].is_static)
			break;
	if (i == nb)
		return cmd_error(ctx, -ENOENT, "%% No static ARP entry for %s", ctx->argv[2]);
	rib_neigh_del(n[i].port, ip);
	return rib_commit();
}

const struct cmd_def cmd_ip_table[] = {
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M A.B.C.D", "Static route via a gateway", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M IFNAME", "Static route out of an interface", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M blackhole", "Drop silently", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M unreachable", "Drop with ICMP unreachable", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ip route A.B.C.D/M prohibit", "Drop with ICMP prohibited", cmd_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M A.B.C.D", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M IFNAME", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no ip route A.B.C.D/M blackhole", "Remove a static route", cmd_no_ip_route, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "arp A.B.C.D MAC IFNAME", "Static ARP entry", cmd_arp, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no arp A.B.C.D", "Remove a static ARP entry", cmd_no_arp, CMD_F_CONFIG },
	{ 0 },
};
