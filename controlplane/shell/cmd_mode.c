/* SPDX-License-Identifier: BSD-3-Clause */
/* Modes and per-interface configuration: configure terminal, interface, hostname, exit, end. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/netlink_request.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/iface.h"
#include "controlplane/ternd/log.h"
#include "dataplane/l2/bond.h"
#include "dataplane/dp.h"

static int cmd_configure(struct cmd_ctx *ctx)
{
	ctx->s->mode = CMD_MODE_CONFIG;
	return 0;
}

static int cmd_exit(struct cmd_ctx *ctx)
{
	ctx->s->mode = cmd_mode_is_sub(ctx->s->mode) ? CMD_MODE_CONFIG : CMD_MODE_EXEC;
	return 0;
}

static int cmd_end(struct cmd_ctx *ctx)
{
	ctx->s->mode = CMD_MODE_EXEC;
	return 0;
}

static int cmd_interface(struct cmd_ctx *ctx)
{
	snprintf(ctx->s->ifname, sizeof(ctx->s->ifname), "%s", ctx->argv[1]);
	ctx->s->mode = CMD_MODE_CONFIG_IF;
	return 0;
}

static int cmd_set_hostname(struct cmd_ctx *ctx)
{
	const char *h = ctx->argv[1], *p;

	if (strlen(h) >= sizeof(cmd_hostname))
		return cmd_error(ctx, -EINVAL, "%% Hostname '%s' is too long: at most %zu characters",
				 h, sizeof(cmd_hostname) - 1);
	for (p = h; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.' && *p != '_')
			return cmd_error(ctx, -EINVAL,
					 "%% Hostname '%s' may only hold letters, digits, '-', '.' and '_'", h);
	snprintf(cmd_hostname, sizeof(cmd_hostname), "%s", h);
	return 0;
}

static int cmd_no_hostname(struct cmd_ctx *ctx)
{
	snprintf(cmd_hostname, sizeof(cmd_hostname), "tern");
	return 0;
}

struct dp_port *cmd_mode_iface(struct cmd_ctx *ctx, const char *what)
{
	struct dp_port *p = dp_port_by_name(ctx->s->ifname);

	if (p == NULL) {
		cmd_error(ctx, -ENODEV, "%% Interface %s no longer exists", ctx->s->ifname);
		return NULL;
	}
	if (p->kind == DP_PORT_MEMBER) {
		cmd_error(ctx, -EINVAL, "%% %s is a member of a bond: %s on the bond", p->name, what);
		return NULL;
	}
	return p;
}

/* The interface being configured, and its TAP's ifindex; NULL with the error written. */
static struct dp_port *config_port(struct cmd_ctx *ctx, uint32_t *ifindex)
{
	struct dp_port *p = dp_port_by_name(ctx->s->ifname);

	if (p == NULL) {
		cmd_error(ctx, -ENODEV, "%% Interface %s no longer exists", ctx->s->ifname);
		return NULL;
	}
	if (p->kind == DP_PORT_MEMBER) {
		cmd_error(ctx, -EINVAL, "%% %s is a member of bond %s: configure the bond; a member takes shutdown alone",
			  p->name, dp.ports[p->parent].name);
		return NULL;
	}
	*ifindex = mirror_port_ifindex(p - dp.ports);
	if (*ifindex == 0) {
		cmd_error(ctx, -ENODEV, "%% The kernel interface of %s is gone; restart ternd to recreate it",
			  p->name);
		return NULL;
	}
	return p;
}

/* The kernel's answer to an address request of either family, as the operator's sentence; the
 * mirror drained after a change it took. */
static int addr_answer(struct cmd_ctx *ctx, int rc, const char *arg, const struct dp_port *p)
{
	if (rc == -EEXIST)
		return cmd_error(ctx, rc, "%% Address %s is already configured on %s", arg, p->name);
	if (rc == -EADDRNOTAVAIL || rc == -ENOENT)
		return cmd_error(ctx, rc, "%% Address %s is not configured on %s", arg, p->name);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused address %s on %s: %s", arg, p->name,
				 strerror(-rc));
	netlink_drain();
	return 0;
}

static int addr_change(struct cmd_ctx *ctx, const char *arg, bool add)
{
	uint32_t ip, ifindex;
	struct dp_port *p;
	uint8_t len;
	int rc;

	if ((p = config_port(ctx, &ifindex)) == NULL)
		return -ENODEV;
	rc = cmd_parse_prefix(ctx, arg, &ip, &len, false);
	if (rc < 0)
		return rc;
	if (len == 0 || (len < 31 && ((ip & ~(~0u << (32 - len))) == 0 ||
				      (ip | (~0u << (32 - len))) == ~0u)))
		return cmd_error(ctx, -EINVAL,
				 "%% %s is not a host address: on a /%u it is the network or broadcast address",
				 arg, len);
	return addr_answer(ctx, nlr_addr(add, ifindex, ip, len), arg, p);
}

static int cmd_ip_address(struct cmd_ctx *ctx)
{
	return addr_change(ctx, ctx->argv[2], true);
}

static int cmd_no_ip_address(struct cmd_ctx *ctx)
{
	return addr_change(ctx, ctx->argv[3], false);
}

/* ipv6 address: a global or unique-local address (the kernel makes the link-local one from the
 * MAC), in Duplicate Address Detection until the kernel says it is unique. */
static int addr6_change(struct cmd_ctx *ctx, bool add)
{
	const char *arg = cmd_arg(ctx, "address");
	uint32_t ifindex;
	struct dp_port *p;
	uint8_t ip6[16], len;
	int rc;

	if ((p = config_port(ctx, &ifindex)) == NULL)
		return -ENODEV;
	if ((rc = cmd_parse_prefix6(ctx, arg, ip6, &len, false)) < 0)
		return rc;
	if (ip6[0] == 0xff || (ip6[0] == 0xfe && (ip6[1] & 0xc0) == 0x80) || len == 0)
		return cmd_error(ctx, -EINVAL, "%% %s is not a global or unique-local unicast address "
				 "(the link-local one comes from the MAC)", arg);
	return addr_answer(ctx, nlr_addr6(add, ifindex, ip6, len), arg, p);
}

static int cmd_ipv6_address(struct cmd_ctx *ctx)
{
	return addr6_change(ctx, true);
}

static int cmd_no_ipv6_address(struct cmd_ctx *ctx)
{
	return addr6_change(ctx, false);
}

static int link_change(struct cmd_ctx *ctx, int up, uint32_t mtu)
{
	struct dp_port *p = dp_port_by_name(ctx->s->ifname);
	uint32_t ifindex;
	char why[192];
	int rc;

	/* a bond's member has no kernel interface: shutdown takes it out of its bond */
	if (p != NULL && p->kind == DP_PORT_MEMBER && up >= 0) {
		rc = dp_bond_member_set(p, up, why, sizeof(why));
		if (rc < 0)
			return cmd_error(ctx, rc, "%% %s", why);
		TERN_LOG(rib, NOTICE, "%s %s bond %s", p->name, up ? "is back in" : "is out of",
			 dp.ports[p->parent].name);
		return 0;
	}
	if ((p = config_port(ctx, &ifindex)) == NULL)
		return -ENODEV;
	rc = nlr_link(ifindex, up, mtu);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel refused to change %s: %s", p->name,
				 strerror(-rc));
	netlink_drain();
	return 0;
}

static int cmd_shutdown(struct cmd_ctx *ctx)
{
	return link_change(ctx, 0, 0);
}

static int cmd_no_shutdown(struct cmd_ctx *ctx)
{
	return link_change(ctx, 1, 0);
}

/*
 * The port first, then the kernel: an MTU the port cannot take is refused here with the
 * driver's range, and the kernel interface, which routing daemons read, never shows it. A
 * sub-interface keeps the MTU configured even above its port's, and runs at its port's until
 * the port goes up to it. mtu 0: back to the configuration file's (no mtu).
 */
static int mtu_change(struct cmd_ctx *ctx, uint32_t mtu)
{
	uint32_t ifindex, run;
	struct dp_port *p;
	unsigned int i;
	uint16_t old;
	char why[192];
	int rc;

	if ((p = config_port(ctx, &ifindex)) == NULL)
		return -ENODEV;
	i = p - dp.ports;
	old = p->mtu;
	run = mtu ? mtu : p->base_mtu;
	if (p->kind == DP_PORT_VLAN && run > dp.ports[p->parent].mtu)
		run = dp.ports[p->parent].mtu;
	if (run != old && (rc = mirror_port_mtu(i, run, why, sizeof(why))) < 0)
		return cmd_error(ctx, rc, "%% %s cannot take MTU %u: %s; it keeps MTU %u", p->name,
				 run, why, old);
	rc = nlr_link(ifindex, -1, run);
	if (rc < 0) {
		if (run != old)
			mirror_port_mtu(i, old, why, sizeof(why));
		return cmd_error(ctx, rc, "%% The kernel refused MTU %u on %s: %s", run, p->name,
				 strerror(-rc));
	}
	p->conf_mtu = mtu;
	netlink_drain();
	return 0;
}

/* the help text below says the range in words */
_Static_assert(DP_MTU_MIN == 68 && DP_MTU_MAX == 9216, "the mtu command's help gives the range");

static int cmd_mtu(struct cmd_ctx *ctx)
{
	unsigned long mtu = strtoul(ctx->argv[1], NULL, 10);

	if (mtu < DP_MTU_MIN || mtu > DP_MTU_MAX)
		return cmd_error(ctx, -EINVAL, "%% MTU %s is out of range: expected %u to %u",
				 ctx->argv[1], (unsigned int)DP_MTU_MIN, (unsigned int)DP_MTU_MAX);
	return mtu_change(ctx, mtu);
}

static int cmd_no_mtu(struct cmd_ctx *ctx)
{
	return mtu_change(ctx, 0);
}

static int cmd_description(struct cmd_ctx *ctx)
{
	return iface_set_description(ctx->s->ifname, ctx->argc > 1 ? ctx->argv[1] : "");
}

const struct cmd_def cmd_mode_table[] = {
	{ CMD_MODE_EXEC, "configure terminal", "Enter configuration mode", cmd_configure, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "exit", "Leave the shell", cmd_exit, 0 },
	{ CMD_MODE_CONFIG, "exit", "Leave configuration mode", cmd_exit, 0 },
	{ CMD_MODE_CONFIG, "end", "Leave configuration mode", cmd_end, 0 },
	{ CMD_MODE_CONFIG, "hostname WORD", "Set the router's name", cmd_set_hostname, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no hostname", "Reset the router's name", cmd_no_hostname, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "interface IFNAME", "Configure an interface", cmd_interface, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "exit", "Leave interface mode", cmd_exit, 0 },
	{ CMD_MODE_CONFIG_IF, "end", "Leave configuration mode", cmd_end, 0 },
	{ CMD_MODE_CONFIG_CP, "exit", "Leave control-plane mode", cmd_exit, 0 },
	{ CMD_MODE_CONFIG_CP, "end", "Leave configuration mode", cmd_end, 0 },
	{ CMD_MODE_CONFIG_ACL, "exit", "Leave the access list's mode", cmd_exit, 0 },
	{ CMD_MODE_CONFIG_ACL, "end", "Leave configuration mode", cmd_end, 0 },
	{ CMD_MODE_CONFIG_ACL6, "exit", "Leave the access list's mode", cmd_exit, 0 },
	{ CMD_MODE_CONFIG_ACL6, "end", "Leave configuration mode", cmd_end, 0 },
	{ CMD_MODE_CONFIG_IF, "ip address A.B.C.D/M", "Add an IPv4 address", cmd_ip_address, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no ip address A.B.C.D/M", "Remove an IPv4 address", cmd_no_ip_address, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "ipv6 address address:X:X::X:X/M", "Add an IPv6 address", cmd_ipv6_address, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no ipv6 address address:X:X::X:X/M", "Remove an IPv6 address", cmd_no_ipv6_address, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "shutdown", "Stop forwarding on the interface", cmd_shutdown, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no shutdown", "Resume forwarding on the interface", cmd_no_shutdown, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "mtu NUMBER", "Set the interface's MTU (68..9216)", cmd_mtu, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no mtu", "Back to the MTU of the configuration file", cmd_no_mtu, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "description LINE", "Describe the interface", cmd_description, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no description", "Remove the description", cmd_description, CMD_F_CONFIG },
	{ 0 },
};
