/* SPDX-License-Identifier: BSD-3-Clause */
/* Interface names for the grammar and per-interface control-plane state. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "controlplane/shell/command.h"
#include "controlplane/shell/iface.h"
#include "dataplane/dp.h"

static char descriptions[DP_MAX_IFACES][128];
static bool ipv6_enable[DP_MAX_IFACES];

int iface_set_description(const char *name, const char *text)
{
	struct dp_port *p = dp_port_by_name(name);

	if (p == NULL)
		return -ENODEV;
	snprintf(descriptions[p - dp.ports], sizeof(descriptions[0]), "%s", text);
	return 0;
}

const char *iface_description(unsigned int port_index)
{
	return port_index < DP_MAX_IFACES ? descriptions[port_index] : "";
}

void iface_set_ipv6_enable(unsigned int port_index, bool on)
{
	if (port_index < DP_MAX_IFACES)
		ipv6_enable[port_index] = on;
}

bool iface_ipv6_enable(unsigned int port_index)
{
	return port_index < DP_MAX_IFACES && ipv6_enable[port_index];
}

bool cmd_ifname_exists(const char *name)
{
	return dp_port_by_name(name) != NULL;
}

int cmd_ifname_candidates(const char *prefix, struct outbuf *out)
{
	unsigned int i;

	DP_FOREACH_IFACE(i)
		if (strncmp(dp.ports[i].name, prefix, strlen(prefix)) == 0)
			ob_printf(out, "k\t%s\tInterface %s\n", dp.ports[i].name, dp.ports[i].dev);
	return 0;
}

void cmd_ifname_list(struct outbuf *out, bool ports_only)
{
	unsigned int i, n = 0;

	DP_FOREACH_IFACE(i) {
		if (ports_only && dp.ports[i].kind == DP_PORT_VLAN)
			continue;
		if (n < CMD_IFNAMES_LISTED)
			ob_printf(out, "%s%s", n ? ", " : "", dp.ports[i].name);
		n++;
	}
	if (n > CMD_IFNAMES_LISTED)
		ob_printf(out, " and %u more: show interfaces brief", n - CMD_IFNAMES_LISTED);
	if (n == 0)
		ob_printf(out, "none");
}
