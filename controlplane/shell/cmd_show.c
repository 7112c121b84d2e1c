/* SPDX-License-Identifier: BSD-3-Clause */
/* show commands: version, interfaces, errors, workers, ip route, ip fib, arp; clear counters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/rtnetlink.h>

#include <rte_ethdev.h>
#include <rte_version.h>

#include "api/tern_version.h"
#include "controlplane/metrics/rates.h"
#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/iface.h"
#include "dataplane/dp.h"
#include "dataplane/fib.h"
#include "dataplane/nexthop.h"
#include "dataplane/node_port.h"
#include "dataplane/node_sink.h"
#include "dataplane/punt.h"

static time_t started_at;

void cmd_show_started(void)
{
	started_at = time(NULL);
}

static int cmd_show_version(struct cmd_ctx *ctx)
{
	long up = (long)(time(NULL) - started_at);

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"name\": \"tern\", \"version\": \"%s\", \"dpdk\": ", TERN_VERSION);
		ob_json_str(ctx->out, rte_version());
		ob_printf(ctx->out, ", \"hostname\": ");
		ob_json_str(ctx->out, cmd_hostname);
		ob_printf(ctx->out, ", \"uptime_s\": %ld, \"ports\": %u, \"workers\": %u}", up,
			  dp.nb_ports, dp.nb_workers);
		return 0;
	}
	ob_printf(ctx->out, "tern %s, an IPv4 router on %s\n", TERN_VERSION, rte_version());
	ob_printf(ctx->out, "hostname %s, up %ldd %02ld:%02ld:%02ld\n", cmd_hostname, up / 86400,
		  up / 3600 % 24, up / 60 % 60, up % 60);
	ob_printf(ctx->out, "%u ports, %u workers\n", dp.nb_ports, dp.nb_workers);
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

static void iface_json(struct cmd_ctx *ctx, unsigned int i)
{
	struct iface_row r;
	struct port_rates pr;

	iface_row_get(i, &r);
	rates_port(i, &pr);
	ob_printf(ctx->out, "{\"name\": ");
	ob_json_str(ctx->out, r.p->name);
	ob_printf(ctx->out, ", \"driver\": ");
	ob_json_str(ctx->out, dp_port_driver(r.p));
	ob_printf(ctx->out, ", \"device\": ");
	ob_json_str(ctx->out, r.p->dev);
	ob_printf(ctx->out, ", \"mac\": \"%s\", \"link\": \"%s\", \"speed_mbps\": %u, \"mtu\": %u, "
		  "\"rx_queues\": %u, \"tx_queues\": %u, "
		  "\"rx_packets\": %lu, \"rx_bytes\": %lu, \"tx_packets\": %lu, \"tx_bytes\": %lu, "
		  "\"rx_missed\": %lu, \"rx_errors\": %lu, \"rx_nombuf\": %lu, \"tx_errors\": %lu, "
		  "\"tx_drops\": %lu, \"rx_pps\": %.0f, \"tx_pps\": %.0f, \"rx_bps\": %.0f, "
		  "\"tx_bps\": %.0f, \"rate_interval_s\": %.3f, \"mtu_refused\": %u, \"description\": ",
		  r.mac, r.link ? "up" : "down", r.speed, r.p->mtu, r.p->nb_rxq, r.p->nb_txq,
		  r.st.ipackets, r.st.ibytes, r.st.opackets, r.st.obytes, r.st.imissed,
		  r.st.ierrors, r.st.rx_nombuf, r.st.oerrors, r.tx_drops, pr.rx_pps, pr.tx_pps,
		  pr.rx_bps, pr.tx_bps, rates_interval_s(), r.p->mtu_refused);
	ob_json_str(ctx->out, iface_description(i));
	ob_printf(ctx->out, "}");
}

static void iface_text(struct cmd_ctx *ctx, unsigned int i)
{
	struct iface_row r;
	struct port_rates pr;

	iface_row_get(i, &r);
	ob_printf(ctx->out, "%s is %s, driver %s (%s)\n", r.p->name, r.link ? "up" : "down",
		  dp_port_driver(r.p), r.p->dev);
	if (*iface_description(i))
		ob_printf(ctx->out, "  Description: %s\n", iface_description(i));
	ob_printf(ctx->out, "  MAC %s, MTU %u, speed %u Mb/s, %u rx / %u tx queues\n", r.mac,
		  r.p->mtu, r.speed, r.p->nb_rxq, r.p->nb_txq);
	if (r.p->mtu_refused)
		ob_printf(ctx->out, "  MTU %u was refused by the port (see the log); it keeps MTU %u\n",
			  r.p->mtu_refused, r.p->mtu);
	ob_printf(ctx->out, "  rx %lu packets, %lu bytes; missed %lu, errors %lu, no mbuf %lu\n",
		  r.st.ipackets, r.st.ibytes, r.st.imissed, r.st.ierrors, r.st.rx_nombuf);
	ob_printf(ctx->out, "  tx %lu packets, %lu bytes; errors %lu, dropped %lu\n",
		  r.st.opackets, r.st.obytes, r.st.oerrors, r.tx_drops);
	rates_port(i, &pr);
	if (rates_interval_s() > 0)
		ob_printf(ctx->out, "  last %.1f s: rx %.0f pps, %.0f bps; tx %.0f pps, %.0f bps\n",
			  rates_interval_s(), pr.rx_pps, pr.rx_bps, pr.tx_pps, pr.tx_bps);
}

static int show_interfaces(struct cmd_ctx *ctx, const char *only)
{
	unsigned int i, shown = 0;

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"interfaces\": [");
	}
	for (i = 0; i < dp.nb_ports; i++) {
		if (only && strcmp(only, dp.ports[i].name) != 0)
			continue;
		if (ctx->json) {
			ob_printf(ctx->out, "%s", shown ? ", " : "");
			iface_json(ctx, i);
		} else {
			iface_text(ctx, i);
		}
		shown++;
	}
	if (ctx->json)
		ob_printf(ctx->out, "]}");
	return 0;
}

static int cmd_show_interfaces(struct cmd_ctx *ctx)
{
	return show_interfaces(ctx, ctx->argc > 2 ? ctx->argv[2] : NULL);
}

static int cmd_show_interfaces_brief(struct cmd_ctx *ctx)
{
	unsigned int i;

	if (ctx->json)
		return show_interfaces(ctx, NULL);
	ob_printf(ctx->out, "%-12s %-5s %-6s %-17s %-14s %14s %14s\n", "Interface", "Link", "MTU",
		  "MAC", "Driver", "RX packets", "TX packets");
	for (i = 0; i < dp.nb_ports; i++) {
		struct iface_row r;

		iface_row_get(i, &r);
		ob_printf(ctx->out, "%-12s %-5s %-6u %-17s %-14s %14lu %14lu\n", r.p->name,
			  r.link ? "up" : "down", r.p->mtu, r.mac, dp_port_driver(r.p),
			  r.st.ipackets, r.st.opackets);
	}
	return 0;
}

static int cmd_show_counters(struct cmd_ctx *ctx)
{
	unsigned int i, r;

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"ports\": [");
	} else {
		ob_printf(ctx->out, "%-12s %14s %14s %10s %10s %10s %10s %10s\n", "Interface",
			  "RX packets", "TX packets", "RX missed", "RX errors", "TX dropped", "Punted",
			  "Policed");
	}
	for (i = 0; i < dp.nb_ports; i++) {
		struct dp_port_stats st;
		struct dp_punt_stats ps;
		uint64_t punted = 0;

		dp_port_stats_get(&dp.ports[i], &st);
		dp_punt_stats(i, &ps);
		for (r = 0; r < DP_PUNT_REASON_MAX; r++)
			punted += ps.punted[r];
		ob_printf(ctx->out, ctx->json ?
			  "%s{\"name\": \"%s\", \"rx_packets\": %lu, \"tx_packets\": %lu, \"rx_missed\": %lu, "
			  "\"rx_errors\": %lu, \"tx_dropped\": %lu, \"punted\": %lu, \"policed\": %lu}" :
			  "%s%-12s %14lu %14lu %10lu %10lu %10lu %10lu %10lu\n",
			  ctx->json && i ? ", " : "", dp.ports[i].name, st.ipackets, st.opackets,
			  st.imissed, st.ierrors, st.tx_drops + st.oerrors, punted, ps.policed);
	}
	if (ctx->json)
		ob_printf(ctx->out, "]}");
	return 0;
}

static int cmd_show_interfaces_counters(struct cmd_ctx *ctx)
{
	unsigned int i;

	if (ctx->json)
		return show_interfaces(ctx, NULL);
	ob_printf(ctx->out, "%-12s %14s %12s %14s %14s %12s %14s\n", "Interface", "RX packets",
		  "RX pps", "RX bps", "TX packets", "TX pps", "TX bps");
	for (i = 0; i < dp.nb_ports; i++) {
		struct port_rates pr;
		struct iface_row r;

		iface_row_get(i, &r);
		rates_port(i, &pr);
		ob_printf(ctx->out, "%-12s %14lu %12.0f %14.0f %14lu %12.0f %14.0f\n", r.p->name,
			  r.st.ipackets, pr.rx_pps, pr.rx_bps, r.st.opackets, pr.tx_pps, pr.tx_bps);
	}
	if (rates_interval_s() > 0)
		ob_printf(ctx->out, "Rates over the last %.1f s.\n", rates_interval_s());
	return 0;
}

static void reasons(struct cmd_ctx *ctx, const char *title, const struct dp_sink_info *info,
		    bool *first)
{
	const struct dp_sink_info *d;

	if (!ctx->json)
		ob_printf(ctx->out, "%-24s %12s %10s  %s\n", title, "Packets", "Rate/s", "Meaning");
	for (d = info; d->node; d++) {
		uint64_t n = dp_node_objs(d->node);

		if (ctx->json) {
			ob_printf(ctx->out, "%s\"%s\": %lu", *first ? "" : ", ", d->node, n);
			*first = false;
		} else {
			ob_printf(ctx->out, "%-24s %12lu %10.0f  %s\n", d->node, n, rates_node(d->node),
				  d->description);
		}
	}
}

static int cmd_show_errors(struct cmd_ctx *ctx)
{
	bool first = true;

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{");
	}
	reasons(ctx, "Drop reason", dp_drop_reasons, &first);
	if (!ctx->json)
		ob_printf(ctx->out, "\n");
	reasons(ctx, "Punt reason", dp_punt_reasons, &first);
	if (!ctx->json)
		ob_printf(ctx->out, "\n");
	reasons(ctx, "ICMP error", dp_icmp_errors, &first);
	if (ctx->json) {
		const struct dp_sink_info *tables[] = { dp_drop_reasons, dp_punt_reasons, dp_icmp_errors };
		unsigned int t, k, n = 0;

		ob_printf(ctx->out, ", \"rate_interval_s\": %.3f, \"rates_pps\": {", rates_interval_s());
		for (t = 0; t < RTE_DIM(tables); t++)
			for (k = 0; tables[t][k].node; k++)
				ob_printf(ctx->out, "%s\"%s\": %.1f", n++ ? ", " : "", tables[t][k].node,
					  rates_node(tables[t][k].node));
		ob_printf(ctx->out, "}}");
	} else if (rates_interval_s() > 0) {
		ob_printf(ctx->out, "\nRates over the last %.1f s.\n", rates_interval_s());
	}
	return 0;
}

static int cmd_clear_counters(struct cmd_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < dp.nb_ports; i++)
		dp_port_stats_reset(&dp.ports[i]);
	return 0;
}

static int cmd_show_ip_fib(struct cmd_ctx *ctx)
{
	struct rib_route_info r;
	const struct dp_nexthop *nh;
	char pfx[16], desc[512], mac[RTE_ETHER_ADDR_FMT_SIZE] = "-";
	uint32_t ip, id;

	if (cmd_parse_ip(ctx->argv[3], &ip) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an IPv4 address", ctx->argv[3]);
	id = dp_fib_lookup(ip);
	nh = dp_nh_get(id);
	if (nh->kind == DP_NH_FORWARD)
		rte_ether_format_addr(mac, sizeof(mac), &nh->eth.dst_addr);
	if (rib_route_lookup(ip, &r) == 0) {
		cmd_fmt_ip(r.prefix, pfx, sizeof(pfx));
		rib_nh_describe(&r.nh, desc, sizeof(desc));
	} else {
		snprintf(pfx, sizeof(pfx), "none");
		snprintf(desc, sizeof(desc), "-");
		r.len = 0;
	}
	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"address\": \"%s\", \"prefix\": \"%s/%u\", \"nexthop_id\": %u, "
			  "\"kind\": \"%s\", \"port\": \"%s\", \"mac\": \"%s\", \"route\": ",
			  ctx->argv[3], pfx, r.len, id, dp_nh_kind_name(nh->kind),
			  nh->kind == DP_NH_FORWARD || nh->kind == DP_NH_UNRESOLVED ?
			  dp.ports[nh->port].name : "-", mac);
		ob_json_str(ctx->out, desc);
		ob_printf(ctx->out, "}");
		return 0;
	}
	ob_printf(ctx->out, "%s: prefix %s/%u, nexthop %u (%s)", ctx->argv[3], pfx, r.len, id,
		  dp_nh_kind_name(nh->kind));
	if (nh->kind == DP_NH_FORWARD || nh->kind == DP_NH_UNRESOLVED)
		ob_printf(ctx->out, " port %s mac %s", dp.ports[nh->port].name, mac);
	ob_printf(ctx->out, "\n  route: %s\n", desc);
	return 0;
}

static const char *route_origin(const struct rib_route_info *r)
{
	if (r->attrs.src == RIB_SRC_ADJACENCY)
		return "neighbor";
	if (r->nh.type == RIB_NH_LOCAL)
		return "local";
	if (r->attrs.kproto == RTPROT_KERNEL && r->nh.type == RIB_NH_CONNECTED)
		return "connected";
	return rib_kproto_name(r->attrs.kproto);
}

static int cmd_show_ip_route(struct cmd_ctx *ctx)
{
	struct rib_route_info *r;
	unsigned int n, i, shown = 0;
	uint32_t only = 0;
	uint8_t only_len = 0;
	bool filter = ctx->argc > 3, longer = ctx->argc > 4;
	char pfx[24], ip[16], desc[512];
	int rc;

	if (filter && (rc = cmd_parse_prefix(ctx, ctx->argv[3], &only, &only_len, false)) < 0)
		return rc;
	if ((rc = rib_routes_sorted(&r, &n, false)) < 0)
		return cmd_error(ctx, rc, "%% Cannot list routes: %s", strerror(-rc));
	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"routes\": [");
	}
	for (i = 0; i < n; i++) {
		uint32_t m = only_len ? ~0u << (32 - only_len) : 0;

		if (filter && (longer ? r[i].len < only_len || (r[i].prefix & m) != (only & m)
				      : r[i].len != only_len || r[i].prefix != (only & m)))
			continue;
		cmd_fmt_ip(r[i].prefix, ip, sizeof(ip));
		snprintf(pfx, sizeof(pfx), "%s/%u", ip, r[i].len);
		rib_nh_describe(&r[i].nh, desc, sizeof(desc));
		if (ctx->json) {
			ob_printf(ctx->out, "%s{\"prefix\": \"%s\", \"origin\": \"%s\", \"metric\": %u, "
				  "\"table\": %u, \"type\": \"%s\", \"nexthop_id\": %u, \"nexthop\": ",
				  shown ? ", " : "", pfx, route_origin(&r[i]), r[i].attrs.metric,
				  r[i].attrs.table, rib_nh_type_name(r[i].nh.type), r[i].nh_id);
			ob_json_str(ctx->out, desc);
			ob_printf(ctx->out, "}");
		} else {
			ob_printf(ctx->out, "%-10s %-18s %s", route_origin(&r[i]), pfx, desc);
			if (rib_table_rank(r[i].attrs.table) > 1)
				ob_printf(ctx->out, " (table %u)", r[i].attrs.table);
			ob_printf(ctx->out, "\n");
		}
		shown++;
	}
	if (ctx->json)
		ob_printf(ctx->out, "]}");
	else if (filter && shown == 0)
		ob_printf(ctx->out, "%% No route %s %s\n", longer ? "within" : "for", ctx->argv[3]);
	free(r);
	return 0;
}

static int cmd_show_ip_route_summary(struct cmd_ctx *ctx)
{
	struct rib_counts c;
	unsigned int t;

	rib_counts(&c);
	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"kernel_routes\": %u, \"adjacencies\": %u, \"alternates\": %u, "
			  "\"nexthops\": %u, \"neighbors\": %u, \"addresses\": %u, "
			  "\"fib_updates\": %lu, \"fib_memory_bytes\": %zu, \"fib_standby_lag\": %u, "
			  "\"by_type\": {",
			  c.routes[RIB_SRC_KERNEL], c.routes[RIB_SRC_ADJACENCY], c.alternates,
			  c.nexthops, c.neighbours, c.addresses, dp_fib_updates(), dp_fib_memory(),
			  dp_fib_lag());
		for (t = 0; t <= RIB_NH_GROUP; t++)
			ob_printf(ctx->out, "%s\"%s\": %u", t ? ", " : "", rib_nh_type_name(t),
				  c.by_type[t]);
		ob_printf(ctx->out, "}}");
		return 0;
	}
	ob_printf(ctx->out, "routes from the kernel   %10u\n", c.routes[RIB_SRC_KERNEL]);
	ob_printf(ctx->out, "neighbour adjacencies    %10u\n", c.routes[RIB_SRC_ADJACENCY]);
	ob_printf(ctx->out, "set aside (table, metric) %9u\n", c.alternates);
	for (t = 0; t <= RIB_NH_GROUP; t++)
		ob_printf(ctx->out, "  %-22s %10u\n", rib_nh_type_name(t), c.by_type[t]);
	ob_printf(ctx->out, "nexthops                 %10u\n", c.nexthops);
	ob_printf(ctx->out, "neighbours               %10u\n", c.neighbours);
	ob_printf(ctx->out, "FIB updates              %10lu\n", dp_fib_updates());
	ob_printf(ctx->out, "FIB memory               %10zu MiB (two copies)\n", dp_fib_memory() >> 20);
	if (dp_fib_lag() > 0)	/* after a bulk load at start: forwarding is complete, the spare follows */
		ob_printf(ctx->out, "FIB second copy behind   %10u changes (being brought level)\n",
			  dp_fib_lag());
	return 0;
}

static int cmd_show_netlink(struct cmd_ctx *ctx)
{
	const struct nl_stats *s = netlink_stats();

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"messages\": %lu, \"links\": %lu, \"addresses\": %lu, "
			  "\"routes\": %lu, \"neighbors\": %lu, \"malformed\": %lu, "
			  "\"routes_skipped\": %lu, \"resyncs\": %lu, \"overflows\": %lu, "
			  "\"swept\": %lu, \"batches\": %lu, \"max_batch\": %lu, "
			  "\"batch_interval_us\": %u, \"batch_waits\": %lu, "
			  "\"last_resync_s\": %.3f, \"rcvbuf\": %u, \"backlog_bytes\": %u, "
			  "\"routes_refused\": %lu, \"neighbors_refused\": %lu, \"addresses_refused\": %lu}",
			  s->messages, s->links, s->addrs, s->routes, s->neighs, s->malformed,
			  s->routes_skipped, s->resyncs, s->overflows, s->swept, s->batches,
			  s->max_batch, s->batch_interval_us, s->batch_waits, s->last_resync_s, s->rcvbuf,
			  netlink_backlog(), s->routes_refused, s->neighs_refused, s->addrs_refused);
		return 0;
	}
	ob_printf(ctx->out, "messages %lu: links %lu, addresses %lu, routes %lu, neighbours %lu\n",
		  s->messages, s->links, s->addrs, s->routes, s->neighs);
	ob_printf(ctx->out, "malformed %lu, routes not mirrored %lu (other tables, not via a port)\n",
		  s->malformed, s->routes_skipped);
	ob_printf(ctx->out, "refused for a full table: routes %lu, neighbours %lu, addresses %lu\n",
		  s->routes_refused, s->neighs_refused, s->addrs_refused);
	ob_printf(ctx->out, "resyncs %lu (overflows %lu, stale entries swept %lu, last took %.3f s)\n",
		  s->resyncs, s->overflows, s->swept, s->last_resync_s);
	ob_printf(ctx->out, "batches %lu (largest %lu messages), at least %u us apart: %lu waited\n",
		  s->batches, s->max_batch, s->batch_interval_us, s->batch_waits);
	ob_printf(ctx->out, "receive buffer %u bytes, %u unread\n", s->rcvbuf, netlink_backlog());
	return 0;
}

static int cmd_show_arp(struct cmd_ctx *ctx)
{
	const struct rib_neigh *n;
	unsigned int i, nb = rib_neighs(&n);
	char ip[16], mac[RTE_ETHER_ADDR_FMT_SIZE];

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"neighbors\": [");
	} else {
		ob_printf(ctx->out, "%-16s %-18s %-12s %s\n", "Address", "MAC", "Interface", "Type");
	}
	for (i = 0; i < nb; i++) {
		cmd_fmt_ip(n[i].ip, ip, sizeof(ip));
		rte_ether_format_addr(mac, sizeof(mac), &n[i].mac);
		ob_printf(ctx->out, ctx->json ? "%s{\"address\": \"%s\", \"mac\": \"%s\", \"interface\": \"%s\", \"type\": \"%s\"}"
					      : "%s%-16s %-18s %-12s %s\n",
			  ctx->json && i ? ", " : "", ip, mac, dp.ports[n[i].port].name,
			  n[i].permanent ? "static" : "dynamic");
	}
	if (ctx->json)
		ob_printf(ctx->out, "]}");
	return 0;
}

const struct cmd_def cmd_show_table[] = {
	{ CMD_MODE_EXEC, "show version", "Software version and uptime", cmd_show_version, 0 },
	{ CMD_MODE_EXEC, "show interfaces", "Interfaces: state, addresses, counters", cmd_show_interfaces, 0 },
	{ CMD_MODE_EXEC, "show interfaces brief", "One line per interface", cmd_show_interfaces_brief, 0 },
	{ CMD_MODE_EXEC, "show interfaces IFNAME", "One interface", cmd_show_interfaces, 0 },
	{ CMD_MODE_EXEC, "show interfaces counters", "Packet counts and rates (pps, bps) per interface", cmd_show_interfaces_counters, 0 },
	{ CMD_MODE_EXEC, "show errors", "Packets dropped and punted, by reason", cmd_show_errors, 0 },
	{ CMD_MODE_EXEC, "show counters", "Per-interface packet counters", cmd_show_counters, 0 },
	{ CMD_MODE_EXEC, "show ip route", "The routing table", cmd_show_ip_route, 0 },
	{ CMD_MODE_EXEC, "show ip route A.B.C.D/M", "One route", cmd_show_ip_route, 0 },
	{ CMD_MODE_EXEC, "show ip route A.B.C.D/M longer-prefixes", "Routes within a prefix", cmd_show_ip_route, 0 },
	{ CMD_MODE_EXEC, "show ip route summary", "Route counts by type, nexthops, FIB memory", cmd_show_ip_route_summary, 0 },
	{ CMD_MODE_EXEC, "show netlink", "The kernel mirror: messages, errors, resyncs", cmd_show_netlink, 0 },
	{ CMD_MODE_EXEC, "show ip fib A.B.C.D", "The dataplane's answer for an address", cmd_show_ip_fib, 0 },
	{ CMD_MODE_EXEC, "show ip neighbors", "Neighbour (ARP) table", cmd_show_arp, 0 },
	{ CMD_MODE_EXEC, "show arp", "Neighbour (ARP) table", cmd_show_arp, 0 },
	{ CMD_MODE_EXEC, "clear counters", "Reset interface counters", cmd_clear_counters, CMD_F_CONFIG },
	{ 0 },
};
