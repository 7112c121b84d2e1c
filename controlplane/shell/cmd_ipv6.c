/* SPDX-License-Identifier: BSD-3-Clause */
/* The shell's IPv6 words, FRR's: show ipv6 interface brief, neighbors, fib and route summary
 * (show ipv6 route is beside show ip route, in cmd_route.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"

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

/* What the IPv6 FIB answers for an address, and the RIB's route behind it. */
static int cmd_show_ipv6_fib(struct cmd_ctx *ctx)
{
	const char *addr = cmd_arg(ctx, "fib");
	char pfx[INET6_ADDRSTRLEN + 8], desc[1024], mac[RTE_ETHER_ADDR_FMT_SIZE] = "-";
	char text[INET6_ADDRSTRLEN];
	const struct dp_nexthop *nh;
	struct rib_route_info ri;
	uint8_t ip6[16];
	struct render r;
	bool on_port;
	uint32_t id;

	if (inet_pton(AF_INET6, addr, ip6) != 1)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an IPv6 address", addr);
	id = dp_fib6_lookup(ip6);
	nh = dp_nh_get(id);
	on_port = nh->kind == DP_NH_FORWARD || nh->kind == DP_NH_UNRESOLVED;
	if (nh->kind == DP_NH_FORWARD)
		rte_ether_format_addr(mac, sizeof(mac), &nh->eth.dst_addr);
	if (rib_route6_lookup(ip6, &ri) == 0) {
		snprintf(pfx, sizeof(pfx), "%s/%u", inet_ntop(AF_INET6, ri.prefix6, text, sizeof(text)),
			 ri.len);
		rib_nh_describe(&ri.nh, desc, sizeof(desc));
	} else {
		snprintf(pfx, sizeof(pfx), "none/0");
		snprintf(desc, sizeof(desc), "-");
	}
	render_begin(&r, ctx);
	render_str(&r, "address", "%s: ", addr);
	render_str(&r, "prefix", "prefix %s, ", pfx);
	render_uint(&r, "nexthop_id", "nexthop %lu ", id);
	render_str(&r, "kind", "(%s)", dp_nh_kind_name(nh->kind));
	render_str(&r, "port", on_port ? " port %s" : NULL, on_port ? dp.ports[nh->port].name : "-");
	render_str(&r, "mac", on_port ? " mac %s" : NULL, mac);
	render_str(&r, "route", "\n  route: %s\n", desc);
	render_end(&r);
	return 0;
}

static int cmd_show_ipv6_route_summary(struct cmd_ctx *ctx)
{
	unsigned int t, groups, group_total;
	struct rib_counts c, l;
	struct render r;

	rib_counts6(&c);
	rib_limits6(&l);
	dp_fib6_groups_used(&groups, &group_total);
	render_begin(&r, ctx);
	render_uint(&r, "kernel_routes", "routes from the kernel   %10lu\n", c.routes[RIB_SRC_KERNEL]);
	render_uint(&r, "adjacencies", "neighbour adjacencies    %10lu\n", c.routes[RIB_SRC_ADJACENCY]);
	render_uint(&r, "alternates", "set aside (table, metric) %9lu\n", c.alternates);
	render_uint(&r, "not_installed", c.unplaced ? "not installed (FIB full)  %9lu\n" : NULL,
		    c.unplaced);
	render_object_begin(&r, "by_type");
	for (t = 0; t <= RIB_NH_GROUP; t++) {
		render_text(&r, "  %-22s ", rib_nh_type_name(t));
		render_uint(&r, rib_nh_type_name(t), "%10lu\n", c.by_type[t]);
	}
	render_object_end(&r);
	render_uint(&r, "fib_routes", "FIB routes               %10lu", dp_fib6_routes());
	render_uint(&r, "fib_routes_max", " of %lu ([fib6] max_routes)\n", l.routes[RIB_SRC_KERNEL]);
	render_uint(&r, "fib_groups", "FIB groups in use        %10lu", groups);
	render_uint(&r, "fib_groups_max", " of %lu\n", group_total);
	render_uint(&r, "fib_updates", "FIB updates              %10lu\n", dp_fib6_updates());
	render_uint(&r, "fib_memory_bytes", NULL, dp_fib6_memory());
	render_text(&r, "FIB memory               %10zu MiB (two copies)\n", dp_fib6_memory() >> 20);
	render_end(&r);
	return 0;
}

const struct cmd_def cmd_ipv6_table[] = {
	{ CMD_MODE_EXEC, "show ipv6 fib fib:X:X::X:X", "What the IPv6 FIB answers for an address", cmd_show_ipv6_fib, 0 },
	{ CMD_MODE_EXEC, "show ipv6 route summary", "IPv6 route counts by type, FIB use and memory", cmd_show_ipv6_route_summary, 0 },
	{ CMD_MODE_EXEC, "show ipv6 interface brief", "Each interface's IPv6 addresses, administrative and link state", cmd_show_ipv6_interface_brief, 0 },
	{ CMD_MODE_EXEC, "show ipv6 neighbors", "IPv6 neighbour (NDP) table", cmd_show_ipv6_neighbors, 0 },
	{ 0 },
};
