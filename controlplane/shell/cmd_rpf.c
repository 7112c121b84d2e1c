/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unicast RPF from the shell, in an interface's mode: ip verify unicast source reachable-via
 * (rx|any) and its ipv6 twin (strict and loose, dataplane/fib/rpf.h), and their no forms.
 */
#include <errno.h>
#include <string.h>

#include "controlplane/shell/command.h"
#include "controlplane/shell/rpf_config.h"
#include "dataplane/dp.h"
#include "dataplane/fib/rpf.h"

static enum dp_rpf_family family_of(const struct cmd_ctx *ctx)
{
	return strcmp(ctx->argv[0], "ipv6") == 0 || strcmp(ctx->argv[1], "ipv6") == 0 ?
	       DP_RPF_IPV6 : DP_RPF_IPV4;
}

static enum dp_rpf_mode mode_of(const struct cmd_ctx *ctx)
{
	const char *m = cmd_arg(ctx, "mode");

	if (m == NULL)
		return DP_RPF_OFF;
	return strcmp(m, "rx") == 0 ? DP_RPF_STRICT : DP_RPF_LOOSE;
}

static struct dp_port *interface(struct cmd_ctx *ctx)
{
	return cmd_mode_iface(ctx, "verify sources");
}

static int cmd_verify(struct cmd_ctx *ctx)
{
	struct dp_port *p = interface(ctx);

	if (p == NULL)
		return -EINVAL;
	rpf_config_set(p - dp.ports, family_of(ctx), mode_of(ctx));
	return 0;
}

/* "no ... reachable-via MODE" turns off only that mode, so that undoing an old line after
 * a new one was set (a rollback's order) leaves the new one. */
static int cmd_no_verify(struct cmd_ctx *ctx)
{
	struct dp_port *p = interface(ctx);
	enum dp_rpf_family f = family_of(ctx);
	enum dp_rpf_mode m = mode_of(ctx);

	if (p == NULL)
		return -EINVAL;
	if (m == DP_RPF_OFF || dp_rpf_get(p - dp.ports, f) == m)
		rpf_config_set(p - dp.ports, f, DP_RPF_OFF);
	return 0;
}

#define MODE "reachable-via (mode:rx|mode:any)"

const struct cmd_def cmd_rpf_table[] = {
	{ CMD_MODE_CONFIG_IF, "ip verify unicast source " MODE,
	  "Drop IPv4 packets with no route back to their source: by this interface (rx), or any",
	  cmd_verify, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no ip verify unicast source [" MODE "]",
	  "Stop checking the IPv4 sources of the interface's packets", cmd_no_verify, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "ipv6 verify unicast source " MODE,
	  "Drop IPv6 packets with no route back to their source: by this interface (rx), or any",
	  cmd_verify, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no ipv6 verify unicast source [" MODE "]",
	  "Stop checking the IPv6 sources of the interface's packets", cmd_no_verify, CMD_F_CONFIG },
	{ 0, NULL, NULL, NULL, 0 },
};
