/* SPDX-License-Identifier: BSD-3-Clause */
/* The shell's IPv6 words of its own, FRR's: show ipv6 interface brief and neighbors (the
 * others are beside their IPv4 twins: routes in cmd_route.c, the FIB in cmd_show.c). */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "dataplane/dp.h"

/* Each interface's states and its IPv6 addresses (link-local, global; "tentative" while in
 * Duplicate Address Detection), on one line. */
static int cmd_show_ipv6_interface_brief(struct cmd_ctx *ctx)
{
	const struct rib_addr *a;
	unsigned int n = rib_addrs(&a), i, k;
	char text[INET6_ADDRSTRLEN + 16];
	struct render r;

	render_begin(&r, ctx);
	render_text(&r, "%-14s %-22s %-5s %s\n", "Interface", "Status", "Link", "IPv6 addresses");
	render_list_begin(&r, "interfaces");
	DP_FOREACH_IFACE(i) {
		const struct dp_port *p = &dp.ports[i];
		unsigned int shown = 0;
		uint32_t speed;

		if (p->kind == DP_PORT_MEMBER)
			continue;	/* no address: its bond has them */
		render_object_begin(&r, NULL);
		render_str(&r, "name", "%-14s ", p->name);
		render_str(&r, "admin", "%-22s ", cmd_admin_word(p));
		render_str(&r, "link", "%-5s ", dp_port_link_up(p, &speed) ? "up" : "down");
		render_list_begin(&r, "addresses");
		for (k = 0; k < n; k++) {
			if (a[k].port != i || a[k].family != AF_INET6)
				continue;
			inet_ntop(AF_INET6, a[k].ip6, text, INET6_ADDRSTRLEN);
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "/%u%s", a[k].len,
				 a[k].tentative ? " tentative" : "");
			render_str(&r, NULL, shown++ ? ", %s" : "%s", text);
		}
		render_list_end(&r);
		render_text(&r, "%s\n", shown ? "" : "unassigned");
		render_object_end(&r);
	}
	render_list_end(&r);
	render_end(&r);
	return 0;
}

static int cmd_show_ipv6_neighbors(struct cmd_ctx *ctx)
{
	return cmd_show_neighbors(ctx, AF_INET6);
}

const struct cmd_def cmd_ipv6_table[] = {
	{ CMD_MODE_EXEC, "show ipv6 interface brief", "Each interface's IPv6 addresses, administrative and link state", cmd_show_ipv6_interface_brief, 0 },
	{ CMD_MODE_EXEC, "show ipv6 neighbors", "IPv6 neighbour (NDP) table", cmd_show_ipv6_neighbors, 0 },
	{ 0 },
};
