/* SPDX-License-Identifier: BSD-3-Clause */
/* show commands: version, interfaces, errors, workers, ip route, ip fib, arp; clear counters. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_version.h>

#include "api/tern_version.h"
#include "controlplane/metrics/rates.h"
#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/counters.h"
#include "controlplane/shell/iface.h"
#include "controlplane/shell/render.h"
#include "dataplane/l2/bond.h"
#include "dataplane/dp.h"
#include "dataplane/node.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/rpf.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/punt/node_sink.h"
#include "dataplane/punt/punt.h"

static time_t started_at;

void cmd_show_started(void)
{
	started_at = time(NULL);
}

static int cmd_show_version(struct cmd_ctx *ctx)
{
	long up = (long)(time(NULL) - started_at);
	unsigned int by_kind[DP_PORT_MEMBER + 1] = { 0 }, bonds = 0, i;
	struct render r;

	/* ports (bonds among them, their members not counted) and sub-interfaces apart */
	DP_FOREACH_IFACE(i) {
		if (dp.ports[i].is_bond)
			bonds++;
		else if (dp.ports[i].kind <= DP_PORT_MEMBER)
			by_kind[dp.ports[i].kind]++;
	}

	render_begin(&r, ctx);
	render_str(&r, "name", NULL, "tern");
	render_str(&r, "version", "tern %s", TERN_VERSION);
	render_str(&r, "dpdk", ", an IPv4 router on %s\n", rte_version());
	render_str(&r, "hostname", "hostname %s", cmd_hostname);
	render_uint(&r, "uptime_s", NULL, up);
	render_text(&r, ", up %ldd %02ld:%02ld:%02ld\n", up / 86400, up / 3600 % 24, up / 60 % 60,
		    up % 60);
	render_uint(&r, "ports", "%lu ports", by_kind[DP_PORT_ETH] + bonds);
	render_uint(&r, "bonds", bonds ? " (%lu of them bonds)" : NULL, bonds);
	render_uint(&r, "subinterfaces", ", %lu sub-interfaces, ", by_kind[DP_PORT_VLAN]);
	render_uint(&r, "workers", "%lu workers\n", dp.nb_workers);
	render_end(&r);
	return 0;
}

struct iface_row {
	const struct dp_port *p;
	struct dp_port_stats st;
	bool link;
	uint32_t speed;
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	uint64_t tx_drops;
};

static void iface_row_get(unsigned int i, struct iface_row *r)
{
	memset(r, 0, sizeof(*r));
	r->p = &dp.ports[i];
	dp_port_stats_get(r->p, &r->st);
	r->link = dp_port_link_up(r->p, &r->speed);
	rte_ether_format_addr(r->mac, sizeof(r->mac), &r->p->mac);
	r->tx_drops = r->st.tx_drops;
}

/* A bond's members: each one's link, whether it carries traffic, its LACP states and counters. */
static void bond_render(struct render *r, unsigned int bond)
{
	unsigned int i;

	render_str(r, "mode", "  Bond, mode %s; members:\n",
		   dp_bond_mode_name(dp_bond_mode_get(&dp.ports[bond])));
	render_list_begin(r, "members");
	DP_FOREACH_IFACE(i) {
		const struct dp_port *m = &dp.ports[i];
		struct dp_bond_member_info mi;
		struct dp_port_stats st;
		char words[128];

		if (m->kind != DP_PORT_MEMBER || m->parent != bond)
			continue;
		dp_bond_member_info(m, &mi);
		dp_port_stats_get(m, &st);
		render_object_begin(r, NULL);
		render_str(r, "name", "    %s: ", m->name);
		render_str(r, "link", "link %s, ", mi.link ? "up" : "down");
		render_bool(r, "in_bond", mi.in_bond ? NULL : "out of the bond, ", mi.in_bond);
		render_bool(r, "active", mi.active ? "active" : "inactive", mi.active);
		if (mi.lacp) {
			dp_bond_lacp_state_words(mi.actor_state, words, sizeof(words));
			render_str(r, "actor_state", "; actor %s", words);
			dp_bond_lacp_state_words(mi.partner_state, words, sizeof(words));
			render_str(r, "partner_state", "; partner %s", words);
		}
		render_uint(r, "rx_packets", "; rx %lu, ", st.ipackets);
		render_uint(r, "tx_packets", "tx %lu packets\n", st.opackets);
		render_object_end(r);
	}
	render_list_end(r);
}

/* A member's state is its bond's; the others' is their kernel interface's. */
const char *cmd_admin_word(const struct dp_port *p)
{
	if (p->kind == DP_PORT_MEMBER)
		return p->admin_up ? "up" : "administratively down";
	return dp_port_map.up[p - dp.ports] ? "up" : "administratively down";
}

/* An interface's IPv4 addresses: a line each in text, a list in JSON. */
static void iface_addresses(struct render *r, unsigned int port)
{
	const struct rib_addr *a;
	unsigned int n = rib_addrs(&a), k;
	char pfx[24];

	render_list_begin(r, "addresses");
	for (k = 0; k < n; k++) {
		if (a[k].port != port || a[k].family != AF_INET)
			continue;
		snprintf(pfx, sizeof(pfx), IP4_FMT "/%u", IP4_ARGS(a[k].ip), a[k].len);
		render_str(r, NULL, "  Internet address %s\n", pfx);
	}
	render_list_end(r);
}

/* One interface in full: show interfaces [IFNAME]. */
static void iface_render(struct render *r, unsigned int i)
{
	bool rates = rates_interval_s() > 0;
	struct port_rates pr;
	struct iface_row row;
	const char *desc = iface_description(i);
	bool rpf;

	iface_row_get(i, &row);
	rates_port(i, &pr);
	render_object_begin(r, NULL);
	render_str(r, "name", "%s is ", row.p->name);
	render_str(r, "admin", "%s", cmd_admin_word(row.p));
	render_str(r, "link", ", link %s, ", row.link ? "up" : "down");
	render_str(r, "driver", "driver %s ", dp_port_driver(row.p));
	render_str(r, "device", "(%s)\n", row.p->dev);
	render_str(r, "description", *desc ? "  Description: %s\n" : NULL, desc);
	iface_addresses(r, i);
	if (row.p->kind == DP_PORT_MEMBER)
		render_str(r, "bond", "  Member of bond %s\n", dp.ports[row.p->parent].name);
	if (row.p->is_bond)
		bond_render(r, i);
	if (row.p->kind == DP_PORT_VLAN) {
		struct dp_vlan_encap e = { row.p->outer_tpid, row.p->outer_vid, row.p->inner_vid };
		char enc[40];

		dp_vlan_encap_format(&e, enc, sizeof(enc));
		render_str(r, "parent", "  Sub-interface of %s, ", dp.ports[row.p->parent].name);
		render_str(r, "encapsulation", "encapsulation %s\n", enc);
	}
	rpf = dp_rpf_get(i, DP_RPF_IPV4) != DP_RPF_OFF || dp_rpf_get(i, DP_RPF_IPV6) != DP_RPF_OFF;
	render_str(r, "rpf_ipv4", rpf ? "  Unicast RPF: IPv4 %s, " : NULL,
		   dp_rpf_mode_name(dp_rpf_get(i, DP_RPF_IPV4)));
	render_str(r, "rpf_ipv6", rpf ? "IPv6 %s\n" : NULL, dp_rpf_mode_name(dp_rpf_get(i, DP_RPF_IPV6)));
	render_str(r, "mac", "  MAC %s, ", row.mac);
	render_uint(r, "mtu", "MTU %lu, ", row.p->mtu);
	if (row.p->conf_mtu && row.p->conf_mtu != row.p->mtu)
		render_uint(r, "mtu_configured", row.p->kind == DP_PORT_VLAN ?
			    "(configured %lu, above its port's), " : "(configured %lu), ",
			    row.p->conf_mtu);
	render_uint(r, "speed_mbps", "speed %lu Mb/s, ", row.speed);
	render_uint(r, "rx_queues", "%lu rx / ", row.p->nb_rxq);
	render_uint(r, "tx_queues", "%lu tx queues\n", row.p->nb_txq);
	render_uint(r, "mtu_refused", row.p->mtu_refused ? "  MTU %lu was refused by the port (see the log); " : NULL,
		    row.p->mtu_refused);
	if (row.p->mtu_refused)
		render_text(r, "it keeps MTU %u\n", row.p->mtu);
	render_uint(r, "rx_packets", "  rx %lu packets, ", row.st.ipackets);
	render_uint(r, "rx_bytes", "%lu bytes; ", row.st.ibytes);
	render_uint(r, "rx_missed", "missed %lu, ", row.st.imissed);
	render_uint(r, "rx_errors", "errors %lu, ", row.st.ierrors);
	render_uint(r, "rx_nombuf", "no mbuf %lu\n", row.st.rx_nombuf);
	render_uint(r, "tx_packets", "  tx %lu packets, ", row.st.opackets);
	render_uint(r, "tx_bytes", "%lu bytes; ", row.st.obytes);
	render_uint(r, "tx_errors", "errors %lu, ", row.st.oerrors);
	render_uint(r, "tx_drops", "dropped %lu\n", row.tx_drops);
	render_double(r, "rate_interval_s", rates ? "  last %.1f s: " : NULL, "%.3f", rates_interval_s());
	render_double(r, "rx_pps", rates ? "rx %.0f pps, " : NULL, "%.0f", pr.rx_pps);
	render_double(r, "rx_bps", rates ? "%.0f bps; " : NULL, "%.0f", pr.rx_bps);
	render_double(r, "tx_pps", rates ? "tx %.0f pps, " : NULL, "%.0f", pr.tx_pps);
	render_double(r, "tx_bps", rates ? "%.0f bps\n" : NULL, "%.0f", pr.tx_bps);
	render_object_end(r);
}

static int show_interfaces(struct cmd_ctx *ctx, const char *only)
{
	struct render r;
	unsigned int i;

	render_begin(&r, ctx);
	render_list_begin(&r, "interfaces");
	DP_FOREACH_IFACE(i)
		if (only == NULL || strcmp(only, dp.ports[i].name) == 0)
			iface_render(&r, i);
	render_list_end(&r);
	render_end(&r);
	return 0;
}

static int cmd_show_interfaces(struct cmd_ctx *ctx)
{
	return show_interfaces(ctx, cmd_arg(ctx, "name"));
}

/* One line an interface: brief (state and totals) or counters (totals and rates). JSON gives
 * the whole of each, as show interfaces does. */
static int interfaces_table(struct cmd_ctx *ctx, bool rates)
{
	static const struct render_col brief[] = {
		{ "name", "Interface", "%-12s", R_STR }, { "admin", "Admin", "%-6s", R_STR },
		{ "link", "Link", "%-5s", R_STR },
		{ "mtu", "MTU", "%-6lu", R_UINT }, { "mac", "MAC", "%-17s", R_STR },
		{ "driver", "Driver", "%-14s", R_STR }, { "rx_packets", "RX packets", "%14lu", R_UINT },
		{ "tx_packets", "TX packets", "%14lu", R_UINT },
	};
	static const struct render_col counters[] = {
		{ "name", "Interface", "%-12s", R_STR }, { "rx_packets", "RX packets", "%14lu", R_UINT },
		{ "rx_pps", "RX pps", "%12.0f", R_DOUBLE }, { "rx_bps", "RX bps", "%14.0f", R_DOUBLE },
		{ "tx_packets", "TX packets", "%14lu", R_UINT }, { "tx_pps", "TX pps", "%12.0f", R_DOUBLE },
		{ "tx_bps", "TX bps", "%14.0f", R_DOUBLE },
	};
	struct render r;
	unsigned int i;

	if (ctx->json)
		return show_interfaces(ctx, NULL);
	render_begin(&r, ctx);
	render_table_begin(&r, "interfaces", rates ? counters : brief,
			   rates ? RTE_DIM(counters) : RTE_DIM(brief), true);
	DP_FOREACH_IFACE(i) {
		struct port_rates pr;
		struct iface_row row;

		iface_row_get(i, &row);
		rates_port(i, &pr);
		if (rates)
			render_row(&r, (union render_val[]){ RS(row.p->name), RU(row.st.ipackets),
				   RD(pr.rx_pps), RD(pr.rx_bps), RU(row.st.opackets), RD(pr.tx_pps),
				   RD(pr.tx_bps) });
		else
			render_row(&r, (union render_val[]){ RS(row.p->name),
				   RS(cmd_admin_word(row.p)[0] == 'u' ? "up" : "down"), RS(row.link ? "up" : "down"),
				   RU(row.p->mtu), RS(row.mac), RS(dp_port_driver(row.p)),
				   RU(row.st.ipackets), RU(row.st.opackets) });
	}
	render_table_end(&r);
	if (rates && rates_interval_s() > 0)
		render_text(&r, "Rates over the last %.1f s.\n", rates_interval_s());
	render_end(&r);
	return 0;
}

/* FRR's and Cisco's: each interface's first address and its states. */
static int cmd_show_ip_interface_brief(struct cmd_ctx *ctx)
{
	static const struct render_col cols[] = {
		{ "name", "Interface", "%-14s", R_STR }, { "address", "IP-Address", "%-18s", R_STR },
		{ "admin", "Status", "%-22s", R_STR }, { "link", "Link", "%s", R_STR },
	};
	const struct rib_addr *a;
	unsigned int n = rib_addrs(&a), i, k;
	struct render r;
	char pfx[24];

	render_begin(&r, ctx);
	render_table_begin(&r, "interfaces", cols, RTE_DIM(cols), true);
	DP_FOREACH_IFACE(i) {
		struct iface_row row;

		if (dp.ports[i].kind == DP_PORT_MEMBER)
			continue;	/* no address: its bond has them */
		iface_row_get(i, &row);
		snprintf(pfx, sizeof(pfx), "unassigned");
		for (k = 0; k < n; k++)
			if (a[k].port == i && a[k].family == AF_INET) {
				snprintf(pfx, sizeof(pfx), IP4_FMT "/%u", IP4_ARGS(a[k].ip), a[k].len);
				break;
			}
		render_row(&r, (union render_val[]){ RS(row.p->name), RS(pfx), RS(cmd_admin_word(row.p)),
			   RS(row.link ? "up" : "down") });
	}
	render_table_end(&r);
	render_end(&r);
	return 0;
}

static int cmd_show_interfaces_brief(struct cmd_ctx *ctx)
{
	return interfaces_table(ctx, false);
}

static int cmd_show_interfaces_counters(struct cmd_ctx *ctx)
{
	return interfaces_table(ctx, true);
}

static int cmd_show_counters(struct cmd_ctx *ctx)
{
	static const struct render_col cols[] = {
		{ "name", "Interface", "%-12s", R_STR }, { "rx_packets", "RX packets", "%14lu", R_UINT },
		{ "tx_packets", "TX packets", "%14lu", R_UINT }, { "rx_missed", "RX missed", "%10lu", R_UINT },
		{ "rx_errors", "RX errors", "%10lu", R_UINT }, { "tx_dropped", "TX dropped", "%10lu", R_UINT },
		{ "punted", "Punted", "%10lu", R_UINT }, { "policed", "Policed", "%10lu", R_UINT },
	};
	struct render r;
	unsigned int i, k;

	render_begin(&r, ctx);
	render_table_begin(&r, "ports", cols, RTE_DIM(cols), true);
	DP_FOREACH_IFACE(i) {
		struct dp_port_stats st;
		struct dp_punt_stats ps;
		uint64_t punted = 0;

		dp_port_stats_get(&dp.ports[i], &st);
		counters_punt(i, &ps);	/* since the last clear counters */
		for (k = 0; k < DP_PUNT_REASON_MAX; k++)
			punted += ps.punted[k];
		render_row(&r, (union render_val[]){ RS(dp.ports[i].name), RU(st.ipackets),
			   RU(st.opackets), RU(st.imissed), RU(st.ierrors), RU(st.tx_drops + st.oerrors),
			   RU(punted), RU(ps.policed) });
	}
	render_table_end(&r);
	render_end(&r);
	return 0;
}

/*
 * The packets each sink node took. Text: a table a kind (drops, punts, ICMP errors) with rate
 * and meaning; JSON: one flat object of the nodes' counts, with their rates beside it.
 */
static void reasons(struct render *r, const char *title, const struct dp_sink_info *info)
{
	const struct render_col cols[] = {
		{ NULL, title, "%-24s", R_STR }, { NULL, "Packets", "%12lu", R_UINT },
		{ NULL, "Rate/s", "%10.0f", R_DOUBLE }, { NULL, "Meaning", " %s", R_STR },
	};
	const struct dp_sink_info *d;

	if (!r->json)
		render_table_begin(r, NULL, cols, RTE_DIM(cols), true);
	for (d = info; d->node; d++) {
		render_uint(r, d->node, NULL, dp_node_objs(d->node));
		if (!r->json)
			render_row(r, (union render_val[]){ RS(d->node), RU(dp_node_objs(d->node)),
				   RD(rates_node(d->node)), RS(d->description) });
	}
	if (!r->json)
		render_table_end(r);
}

static int cmd_show_errors(struct cmd_ctx *ctx)
{
	const struct dp_sink_info *tables[] = { dp_drop_reasons, dp_punt_reasons, dp_icmp_errors };
	const char *titles[] = { "Drop reason", "Punt reason", "ICMP error" };
	struct render r;
	unsigned int t, k;

	render_begin(&r, ctx);
	for (t = 0; t < RTE_DIM(tables); t++) {
		if (t > 0)
			render_text(&r, "\n");
		reasons(&r, titles[t], tables[t]);
	}
	render_double(&r, "rate_interval_s", rates_interval_s() > 0 ? "\nRates over the last %.1f s.\n" : NULL,
		      "%.3f", rates_interval_s());
	render_object_begin(&r, "rates_pps");
	for (t = 0; t < RTE_DIM(tables); t++)
		for (k = 0; tables[t][k].node; k++)
			render_double(&r, tables[t][k].node, NULL, "%.1f", rates_node(tables[t][k].node));
	render_object_end(&r);
	render_end(&r);
	return 0;
}

/* What show interfaces, show counters and show exception report per interface starts again
 * from zero; the counters of the whole router (show errors, show workers, show netlink) and
 * the metrics endpoint's keep counting from the start, and the answer says so. */
static int cmd_clear_counters(struct cmd_ctx *ctx)
{
	const char *name = cmd_arg(ctx, "interface");
	struct dp_port *only = name ? dp_port_by_name(name) : NULL;
	unsigned int i;

	DP_FOREACH_IFACE(i)
		if (only == NULL || only == &dp.ports[i])
			counters_clear(i);
	ob_printf(ctx->out, "Cleared the counters of %s%s (show interfaces, show counters, show "
		  "exception); show errors, show workers, show netlink and the metrics count since "
		  "ternd started\n", only ? "" : "every interface", only ? only->name : "");
	return 0;
}

/* Where the control thread's time on kernel messages went: JSON, nanoseconds since start by
 * stage; text, nanoseconds a message. */
static void netlink_cost(struct render *r, const struct nl_stats *s)
{
	uint64_t fib6_work, fib6_wait;
	struct dp_fib_cost f;
	unsigned int i;

	dp_fib_cost(&f);
	dp_fib6_cost(&fib6_work, &fib6_wait);
	const struct {
		const char *key, *label;
		uint64_t cycles;
	} stage[] = {
		{ "read", "read", s->cycles_read }, { "parse", "parse", s->cycles_parse },
		{ "rib", "RIB", s->cycles_rib }, { "fib_standby", "FIB: standby copy", f.standby }, { "fib_grace", "switch and grace period", f.grace },
		{ "fib_level", "other copy", f.level }, { "fib6", "IPv6 FIB", fib6_work },
		{ "fib6_grace", "IPv6 FIB's grace periods", fib6_wait },
		{ "reclaim", "reclaim", rib_reclaim_cycles() },
	};
	double ns_per_cycle = 1e9 / rte_get_tsc_hz();

	render_text(r, "time a message: ");
	render_object_begin(r, "cost_ns");
	for (i = 0; i < RTE_DIM(stage); i++) {
		double ns = stage[i].cycles * ns_per_cycle;

		render_double(r, stage[i].key, NULL, "%.0f", ns);
		render_text(r, "%s%s %.0f", i ? ", " : "", stage[i].label,
			    s->messages ? ns / s->messages : 0);
	}
	render_object_end(r);
	render_text(r, " ns\n");
}

static int cmd_show_netlink(struct cmd_ctx *ctx)
{
	const struct nl_stats *s = netlink_stats();
	struct nhobj_stats nh;
	struct render r;

	nhobj_stats(&nh);
	render_begin(&r, ctx);
	render_uint(&r, "messages", "messages %lu: ", s->messages);
	render_uint(&r, "links", "links %lu, ", s->links);
	render_uint(&r, "addresses", "addresses %lu, ", s->addrs);
	render_uint(&r, "routes", "routes %lu, ", s->routes);
	render_uint(&r, "neighbors", "neighbours %lu, ", s->neighs);
	render_uint(&r, "nexthop_messages", "nexthop objects %lu\n", nh.messages);
	render_uint(&r, "nexthop_objects", "nexthop objects kept %lu, ", nh.objects);
	render_uint(&r, "nexthop_routes", "routes through them %lu, ", nh.routes);
	render_uint(&r, "nexthops_replaced_in_place", "replaced in place %lu, ", nh.replaced_in_place);
	render_uint(&r, "nexthops_refused", "refused %lu", nh.refused);
	render_uint(&r, "nexthop_routes_untracked", " (and routes %lu)\n", nh.routes_untracked);
	render_uint(&r, "malformed", "malformed %lu, ", s->malformed);
	render_uint(&r, "routes_skipped", "routes not mirrored %lu (other tables, not via a port)\n",
		    s->routes_skipped);
	render_uint(&r, "routes_refused", "refused for a full table: routes %lu, ", s->routes_refused);
	render_uint(&r, "routes6_refused", "IPv6 routes %lu, ", s->routes6_refused);
	render_uint(&r, "neighbors_refused", "neighbours %lu, ", s->neighs_refused);
	render_uint(&r, "addresses_refused", "addresses %lu\n", s->addrs_refused);
	render_uint(&r, "resyncs", "resyncs %lu ", s->resyncs);
	render_uint(&r, "overflows", "(overflows %lu, ", s->overflows);
	render_uint(&r, "swept", "stale entries swept %lu, ", s->swept);
	render_double(&r, "last_resync_s", "last took %.3f s)\n", "%.3f", s->last_resync_s);
	render_uint(&r, "batches", "batches %lu ", s->batches);
	render_uint(&r, "max_batch", "(largest %lu messages), ", s->max_batch);
	render_uint(&r, "batch_interval_us", "at least %lu us apart", s->batch_interval_us);
	render_uint(&r, "batch_interval_max_us", " (up to %lu us in a burst, ", s->batch_interval_max_us);
	render_uint(&r, "batch_spacing_us", "now %lu us): ", s->batch_spacing_us);
	render_uint(&r, "batch_waits", "%lu waited\n", s->batch_waits);
	render_uint(&r, "rcvbuf", "receive buffer %lu bytes, ", s->rcvbuf);
	render_uint(&r, "backlog_bytes", "%lu unread\n", netlink_backlog());
	netlink_cost(&r, s);
	render_end(&r);
	return 0;
}

/* The neighbours of one family (ARP's, NDP's), a line each (show ipv6 neighbors: cmd_ipv6.c). */
int cmd_show_neighbors(struct cmd_ctx *ctx, uint8_t family)
{
	static const struct render_col cols4[] = {
		{ "address", "Address", "%-16s", R_STR }, { "mac", "MAC", "%-18s", R_STR },
		{ "interface", "Interface", "%-12s", R_STR }, { "type", "Type", "%s", R_STR },
	};
	static const struct render_col cols6[] = {
		{ "address", "Address", "%-40s", R_STR }, { "mac", "MAC", "%-18s", R_STR },
		{ "interface", "Interface", "%-12s", R_STR }, { "type", "Type", "%s", R_STR },
	};
	const struct rib_neigh *n;
	unsigned int i, nb = rib_neighs(&n);
	char ip[INET6_ADDRSTRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE];
	struct render r;

	render_begin(&r, ctx);
	render_table_begin(&r, "neighbors", family == AF_INET6 ? cols6 : cols4, RTE_DIM(cols4), true);
	for (i = 0; i < nb; i++) {
		if (n[i].family != family)
			continue;
		if (family == AF_INET6)
			inet_ntop(AF_INET6, n[i].ip6, ip, sizeof(ip));
		else
			cmd_fmt_ip(n[i].ip, ip, sizeof(ip));
		rte_ether_format_addr(mac, sizeof(mac), &n[i].mac);
		render_row(&r, (union render_val[]){ RS(ip), RS(mac), RS(dp.ports[n[i].port].name),
			   RS(n[i].permanent ? "static" : "dynamic") });
	}
	render_table_end(&r);
	render_end(&r);
	return 0;
}

static int cmd_show_arp(struct cmd_ctx *ctx)
{
	return cmd_show_neighbors(ctx, AF_INET);
}



const struct cmd_def cmd_show_table[] = {
	{ CMD_MODE_EXEC, "show version", "Software version and uptime", cmd_show_version, 0 },
	{ CMD_MODE_EXEC, "show interfaces", "Interfaces: state, addresses, counters", cmd_show_interfaces, 0 },
	{ CMD_MODE_EXEC, "show interfaces brief", "One line per interface", cmd_show_interfaces_brief, 0 },
	{ CMD_MODE_EXEC, "show interfaces name:IFNAME", "One interface", cmd_show_interfaces, 0 },
	{ CMD_MODE_EXEC, "show interfaces counters", "Packet counts and rates (pps, bps) per interface", cmd_show_interfaces_counters, 0 },
	{ CMD_MODE_EXEC, "show errors", "Packets dropped and punted, by reason", cmd_show_errors, 0 },
	{ CMD_MODE_EXEC, "show counters", "Per-interface packet counters", cmd_show_counters, 0 },
	{ CMD_MODE_EXEC, "show netlink", "The kernel mirror: messages, errors, resyncs", cmd_show_netlink, 0 },
	{ CMD_MODE_EXEC, "show ip interface brief", "Each interface's address, administrative and link state", cmd_show_ip_interface_brief, 0 },
	{ CMD_MODE_EXEC, "show ip neighbors", "Neighbour (ARP) table", cmd_show_arp, 0 },
	{ CMD_MODE_EXEC, "show arp", "Neighbour (ARP) table", cmd_show_arp, 0 },
	{ CMD_MODE_EXEC, "clear counters [interface:IFNAME]", "Reset the counters of every interface, or of one", cmd_clear_counters, CMD_F_CONFIG },
	{ 0 },
};
