/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * show ip route, as FRR's vtysh prints it: a legend of codes, each route with its origin,
 * whether it is the one selected for its prefix (>) and in the FIB (*), [distance/metric],
 * each next hop on a line of its own with its weight; the routes waiting behind the selected
 * one and the static routes that are inactive are listed too, the neighbours' host routes are
 * not (show ip neighbors has them). JSON gives each route's fields and next hops as objects.
 * show ipv6 route likewise; the route summaries, and show ip[v6] fib, the FIB's answer for an
 * address, of both families.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "controlplane/shell/statics.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/node.h"

static const char *route_origin(uint8_t kproto, enum rib_nh_type type)
{
	if (type == RIB_NH_LOCAL || type == RIB_NH_BROADCAST)
		return "local";
	if (kproto == RTPROT_KERNEL && type == RIB_NH_CONNECTED)
		return "connected";
	return rib_kproto_name(kproto);
}

/* FRR's letter for an origin. */
static char origin_code(const char *origin)
{
	static const struct {
		const char *origin;
		char code;
	} codes[] = {
		{ "kernel", 'K' }, { "boot", 'K' }, { "connected", 'C' }, { "local", 'L' },
		{ "static", 'S' }, { "bgp", 'B' }, { "ospf", 'O' }, { "dhcp", 'D' }, { "zebra", 'Z' },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(codes); i++)
		if (strcmp(codes[i].origin, origin) == 0)
			return codes[i].code;
	return 'X';
}

#define LEGEND \
	"Codes: K - kernel, C - connected, L - local, S - static, B - BGP, O - OSPF,\n" \
	"       D - DHCP, Z - FRR (zebra), X - another daemon (BIRD, ...)\n" \
	"       > - selected route, * - in the FIB, q - not in the FIB (it is full),\n" \
	"       i - inactive (no next hop up)\n\n"

/* Which routes show ip route lists: all, one prefix, those within one, or the one that
 * forwards an address. */
struct route_filter {
	bool on, longer;
	uint8_t family;
	uint32_t prefix;
	uint8_t prefix6[16];
	uint8_t len;
};

static bool filter_takes(const struct route_filter *f, uint32_t prefix, uint8_t len)
{
	uint32_t m = f->len ? ~0u << (32 - f->len) : 0;

	if (!f->on)
		return true;
	if (f->longer)
		return len >= f->len && (prefix & m) == (f->prefix & m);
	return len == f->len && prefix == (f->prefix & m);
}

/* Whether the first len bits of a and b are the same. */
static bool same_bits6(const uint8_t *a, const uint8_t *b, unsigned int len)
{
	unsigned int i;

	for (i = 0; len > 0; i++, len = len > 8 ? len - 8 : 0)
		if ((a[i] ^ b[i]) & (uint8_t)(0xff00 >> (len >= 8 ? 8 : len)))
			return false;
	return true;
}

static bool filter_takes_route(const struct route_filter *f, const struct rib_route_entry *ri)
{
	if (ri->family != AF_INET6)
		return filter_takes(f, ri->prefix, ri->len);
	if (!f->on)
		return true;
	if (f->longer)
		return ri->len >= f->len && same_bits6(ri->prefix6, f->prefix6, f->len);
	return ri->len == f->len && same_bits6(ri->prefix6, f->prefix6, 128);
}

static void fmt_prefix(const struct rib_route_entry *ri, char *buf, size_t len)
{
	char text[INET6_ADDRSTRLEN];

	if (ri->family == AF_INET6)
		snprintf(buf, len, "%s/%u", inet_ntop(AF_INET6, ri->prefix6, text, sizeof(text)),
			 ri->len);
	else
		snprintf(buf, len, IP4_FMT "/%u", IP4_ARGS(ri->prefix), ri->len);
}

/* nh's next hops: a group's members (one of weight w w times, side by side), else its one
 * hop, or none for a type without a port. */
static unsigned int spec_hops(const struct rib_nh_spec *nh, const struct rib_hop **h)
{
	*h = nh->type == RIB_NH_GROUP ? nh->members : &nh->hop;
	return nh->type == RIB_NH_GROUP ? nh->nb_members : rib_nh_on_port(nh->type);
}

static bool same_hop(const struct rib_hop *a, const struct rib_hop *b)
{
	return a->port == b->port && rib_hop_is_v6(a) == rib_hop_is_v6(b) &&
	       (rib_hop_is_v6(a) ? memcmp(a->gw6, b->gw6, 16) == 0 : a->gw == b->gw);
}

/* The weight of hop i of the n in h, or 0 when it stands before i: a hop is written once, at
 * its first place. */
static unsigned int hop_weight(const struct rib_hop *h, unsigned int n, unsigned int i)
{
	unsigned int j, w = 0;

	for (j = 0; j < i; j++)
		if (same_hop(&h[j], &h[i]))
			return 0;
	for (j = i; j < n; j++)
		w += same_hop(&h[j], &h[i]);
	return w;
}

/* The ports of nh's next hops that cannot send now (shut, or their link down), each once, in
 * buf; false when there are none. */
static bool hops_down(const struct rib_nh_spec *nh, char *buf, size_t len)
{
	const struct rib_hop *h;
	unsigned int n = spec_hops(nh, &h), i, j;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (h[i].port >= dp.nb_ports || dp_port_egress_ok(h[i].port))
			continue;
		for (j = 0; j < i && h[j].port != h[i].port; j++)
			;
		if (j == i)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "",
				 dp.ports[h[i].port].name);
	}
	return buf[0] != '\0';
}

/* A route's next hops as a JSON list of objects, a member of weight w once with its weight
 * (the RIB holds it w times, side by side). */
static void nexthops_json(const struct rib_nh_spec *nh, char *buf, size_t len)
{
	const struct rib_hop *h;
	unsigned int n = spec_hops(nh, &h), i, w, out = 0;
	char gw[INET6_ADDRSTRLEN];
	size_t at;
	bool has;

	snprintf(buf, len, "[");
	for (i = 0; i < n; i++) {
		if ((w = hop_weight(h, n, i)) == 0)
			continue;
		rib_hop_gw_text(&h[i], gw, sizeof(gw));
		has = rib_hop_has_gw(&h[i]);
		at = strlen(buf);
		snprintf(buf + at, len - at, "%s{\"gateway\": %s%s%s, \"interface\": \"%s\", \"weight\": %u}",
			 out++ ? ", " : "", has ? "\"" : "", has ? gw : "null",
			 has ? "\"" : "", h[i].port < dp.nb_ports ? dp.ports[h[i].port].name : "",
			 w);
	}
	at = strlen(buf);
	snprintf(buf + at, len - at, "]");
}

/* A route's next hops as FRR prints them, one a line, each the weight it has in a group (the
 * RIB holds a member of weight w w times, side by side); indent: where the hops' column is. */
static void hops_text(const struct rib_nh_spec *nh, bool fib, int indent, char *buf, size_t len)
{
	const struct rib_hop *h;
	unsigned int n = spec_hops(nh, &h), i, w, out = 0;
	char gw[INET6_ADDRSTRLEN];
	size_t at;

	buf[0] = '\0';
	if (nh->type != RIB_NH_GROUP && nh->type != RIB_NH_GATEWAY && nh->type != RIB_NH_CONNECTED) {
		rib_nh_describe(nh, buf, len);
		return;
	}
	for (i = 0; i < n; i++) {
		if ((w = hop_weight(h, n, i)) == 0)
			continue;
		rib_hop_gw_text(&h[i], gw, sizeof(gw));
		at = strlen(buf);
		if (out++)
			snprintf(buf + at, len - at, "\n  %c%*s", fib ? '*' : ' ', indent - 3, "");
		at = strlen(buf);
		if (rib_hop_has_gw(&h[i]))
			snprintf(buf + at, len - at, "via %s, %s", gw, dp.ports[h[i].port].name);
		else
			snprintf(buf + at, len - at, "is directly connected, %s", dp.ports[h[i].port].name);
		at = strlen(buf);
		if (nh->type == RIB_NH_GROUP)
			snprintf(buf + at, len - at, ", weight %u", w);
	}
}

/* The configured static routes none of whose next hops can be in the kernel now (their
 * interfaces are down) that f takes, as rows of show ip route (r NULL: only counted); returns
 * how many. */
static unsigned int inactive_statics(struct render *r, const struct route_filter *f)
{
	const struct static_route *st;
	unsigned int n = statics_routes(&st), i, h, found = 0;
	char pfx[64], desc[1024], line[1200], gw[INET6_ADDRSTRLEN], head[96];

	for (i = 0; i < n; i++) {
		struct rib_route_entry as_route = { .family = st[i].family, .prefix = st[i].prefix,
						    .len = st[i].len };

		memcpy(as_route.prefix6, st[i].prefix6, 16);
		if (st[i].family != f->family || st[i].active || st[i].type != RTN_UNICAST ||
		    !filter_takes_route(f, &as_route))
			continue;
		if (found++, r == NULL)
			continue;	/* counted only */
		fmt_prefix(&as_route, pfx, sizeof(pfx));
		desc[0] = '\0';
		for (h = 0; h < st[i].nb_hops; h++) {
			const struct static_hop *hp = &st[i].hops[h];
			bool has = statics_hop_has_gw(hp);

			if (hp->family == AF_INET6)
				inet_ntop(AF_INET6, hp->gw6, gw, sizeof(gw));
			else
				cmd_fmt_ip(hp->gw, gw, sizeof(gw));
			snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), "%s%s%s", h ? ", " : "",
				 has ? "via " : "dev ", has ? gw : dp.ports[hp->port].name);
		}
		snprintf(head, sizeof(head), "Si  %s [%u/0] ", pfx, st[i].metric);
		snprintf(line, sizeof(line), "%s%s (inactive: no next hop is up)", head, desc);
		render_row(r, (union render_val[]){ RS("static"), RS(pfx), RU(st[i].metric),
			   RU(RT_TABLE_MAIN), RS("inactive"), RU(0), RS(desc), RS("[]"), RB(false),
			   RB(false), RS(line) });
	}
	return found;
}

/* The route that forwards ip: the longest in use the FIB holds, the neighbours' host routes
 * passed over (their connected subnet's route stands for them here). */
static int route_to(const struct route_filter *f, struct rib_route_info *out)
{
	int len;

	for (len = f->family == AF_INET6 ? 128 : 32; len >= 0; len--)
		if ((f->family == AF_INET6 ? rib_route6_get(f->prefix6, len, out) :
					     rib_route_get(f->prefix, len, out)) == 0 &&
		    !out->unplaced && out->attrs.src != RIB_SRC_ADJACENCY)
			return 0;
	return -ENETUNREACH;
}

/* The filter show ip[v6] route's arguments ask for; 0 or the operator's error. */
static int route_filter_parse(struct cmd_ctx *ctx, uint8_t family, struct route_filter *f)
{
	const char *only_arg = cmd_arg(ctx, "prefix"), *addr = cmd_arg(ctx, "address");
	struct rib_route_info best;
	int rc;

	f->family = family;
	f->longer = cmd_arg(ctx, "longer-prefixes") != NULL;
	if (only_arg && (rc = family == AF_INET6 ?
			 cmd_parse_prefix6(ctx, only_arg, f->prefix6, &f->len, false) :
			 cmd_parse_prefix(ctx, only_arg, &f->prefix, &f->len, false)) < 0)
		return rc;
	if (addr != NULL) {
		if (family == AF_INET6 ? inet_pton(AF_INET6, addr, f->prefix6) != 1 :
					 cmd_parse_ip(addr, &f->prefix) < 0)
			return cmd_error(ctx, -EINVAL, "%% '%s' is not an %s address", addr,
					 family == AF_INET6 ? "IPv6" : "IPv4");
		f->len = family == AF_INET6 ? 128 : 32;
		if (route_to(f, &best) < 0)
			return cmd_error(ctx, -ENOENT, "%% No route to %s", addr);
		f->prefix = best.prefix;
		memcpy(f->prefix6, best.prefix6, 16);
		f->len = best.len;
	}
	f->on = only_arg != NULL || addr != NULL;
	return 0;
}

static int show_routes(struct cmd_ctx *ctx, uint8_t family)
{
	static const struct render_col cols[] = {
		{ "origin", NULL, "%-10s", R_STR }, { "prefix", NULL, "%-18s", R_STR },
		{ "metric", NULL, "%lu", R_UINT }, { "table", NULL, "%lu", R_UINT },
		{ "type", NULL, "%s", R_STR }, { "nexthop_id", NULL, "%lu", R_UINT },
		{ "nexthop", NULL, "%s", R_STR }, { "nexthops", NULL, "%s", R_JSON },
		{ "installed", NULL, "%s", R_BOOL }, { "selected", NULL, "%s", R_BOOL },
		{ NULL, "", "%s", R_STR },
	};
	const char *only_arg = cmd_arg(ctx, "prefix");
	struct route_filter f = { 0 };
	struct rib_route_entry *ri;
	struct rib_nh_spec nh;
	unsigned int n, i, shown = 0;
	char pfx[64], desc[1024], line[2400], down[96], hops[2048], text[2048], head[96];
	struct render r;
	int rc;

	if ((rc = route_filter_parse(ctx, family, &f)) < 0)
		return rc;
	if ((rc = rib_routes_sorted(family, &ri, &n, true)) < 0)
		return cmd_error(ctx, rc, "%% Cannot list routes: %s", strerror(-rc));
	for (i = 0; i < n && !shown; i++)
		shown += ri[i].attrs.src != RIB_SRC_ADJACENCY && filter_takes_route(&f, &ri[i]);
	if (f.on && !shown && !inactive_statics(NULL, &f)) {
		free(ri);
		return cmd_error(ctx, -ENOENT, "%% No route %s %s", f.longer ? "within" : "for",
				 only_arg ? only_arg : cmd_arg(ctx, "address"));
	}
	render_begin(&r, ctx);
	if (!f.on)
		render_text(&r, LEGEND);
	render_table_begin(&r, "routes", cols, RTE_DIM(cols), false);
	for (i = 0; i < n; i++) {
		bool fib = !ri[i].waiting && !ri[i].unplaced;
		const char *origin;
		int at;

		if (ri[i].attrs.src == RIB_SRC_ADJACENCY || !filter_takes_route(&f, &ri[i]))
			continue;
		rib_nh_spec_of(ri[i].nh_id, &nh);
		origin = route_origin(ri[i].attrs.kproto, nh.type);
		fmt_prefix(&ri[i], pfx, sizeof(pfx));
		rib_nh_describe(&nh, desc, sizeof(desc));
		nexthops_json(&nh, hops, sizeof(hops));
		at = snprintf(head, sizeof(head), "%c%c%c %s [%u/0] ", origin_code(origin),
			      ri[i].waiting ? ' ' : '>', ri[i].unplaced ? 'q' : fib ? '*' : ' ', pfx,
			      ri[i].attrs.metric);
		hops_text(&nh, fib, at, text, sizeof(text));
		snprintf(line, sizeof(line), "%s%s", head, text);
		if (rib_table_rank(ri[i].attrs.table) > 1)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " (table %u)",
				 ri[i].attrs.table);
		if (ri[i].unplaced)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " (not installed: the FIB is full)");
		if (!ri[i].waiting && hops_down(&nh, down, sizeof(down)))
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " (link down: %s; not used)", down);
		render_row(&r, (union render_val[]){ RS(origin), RS(pfx), RU(ri[i].attrs.metric),
			   RU(ri[i].attrs.table), RS(rib_nh_type_name(nh.type)), RU(ri[i].nh_id),
			   RS(desc), RS(hops), RB(fib), RB(!ri[i].waiting), RS(line) });
	}
	inactive_statics(&r, &f);
	render_table_end(&r);
	render_end(&r);
	free(ri);
	return 0;
}

static int cmd_show_ip_route(struct cmd_ctx *ctx)
{
	return show_routes(ctx, AF_INET);
}

static int cmd_show_ipv6_route(struct cmd_ctx *ctx)
{
	return show_routes(ctx, AF_INET6);
}

/* The routes of one family by source and type, as the RIB counts them. */
static void route_counts_render(struct render *r, const struct rib_counts *c)
{
	unsigned int t;

	render_uint(r, "kernel_routes", "routes from the kernel   %10lu\n", c->routes[RIB_SRC_KERNEL]);
	render_uint(r, "adjacencies", "neighbour adjacencies    %10lu\n", c->routes[RIB_SRC_ADJACENCY]);
	render_uint(r, "alternates", "set aside (table, metric) %9lu\n", c->alternates);
	render_uint(r, "not_installed", c->unplaced ? "not installed (FIB full)  %9lu\n" : NULL,
		    c->unplaced);
	render_object_begin(r, "by_type");
	for (t = 0; t <= RIB_NH_GROUP; t++) {
		render_text(r, "  %-22s ", rib_nh_type_name(t));
		render_uint(r, rib_nh_type_name(t), "%10lu\n", c->by_type[t]);
	}
	render_object_end(r);
}

static int cmd_show_ipv6_route_summary(struct cmd_ctx *ctx)
{
	unsigned int groups, group_total;
	struct rib_counts c, l;
	struct render r;

	rib_counts6(&c);
	rib_limits6(&l);
	dp_fib6_groups_used(&groups, &group_total);
	render_begin(&r, ctx);
	route_counts_render(&r, &c);
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

static int cmd_show_ip_route_summary(struct cmd_ctx *ctx)
{
	unsigned int groups, group_total;
	struct rib_counts c;
	struct render r;

	rib_counts(&c);
	render_begin(&r, ctx);
	route_counts_render(&r, &c);
	render_uint(&r, "nexthops", "nexthops                 %10lu\n", c.nexthops);
	render_uint(&r, "neighbors", "neighbours               %10lu\n", c.neighbours);
	render_uint(&r, "addresses", NULL, c.addresses);
	dp_fib_groups(&groups, &group_total);
	render_uint(&r, "fib_routes", "FIB routes               %10lu\n", dp_fib_routes());
	render_uint(&r, "fib_groups", "FIB /24s with longer routes %7lu", groups);
	render_uint(&r, "fib_groups_max", " of %lu\n", group_total);
	render_uint(&r, "fib_updates", "FIB updates              %10lu\n", dp_fib_updates());
	render_uint(&r, "fib_memory_bytes", NULL, dp_fib_memory());
	render_text(&r, "FIB memory               %10zu MiB (two copies)\n", dp_fib_memory() >> 20);
	/* after a bulk load at start: forwarding is complete, the spare copy follows */
	render_uint(&r, "fib_standby_lag", dp_fib_lag() > 0 ?
		    "FIB second copy behind   %10lu entries (being brought level)\n" : NULL, dp_fib_lag());
	render_end(&r);
	return 0;
}

/* What the FIB of the address's family answers for it, and the RIB's route behind that. */
static int show_fib(struct cmd_ctx *ctx, uint8_t family)
{
	const char *addr = cmd_arg(ctx, "fib");
	struct rib_route_info ri;
	const struct dp_nexthop *nh;
	char pfx[INET6_ADDRSTRLEN + 8], text[INET6_ADDRSTRLEN], desc[1024];
	char mac[RTE_ETHER_ADDR_FMT_SIZE] = "-";
	uint8_t ip6[16];
	uint32_t ip, id;
	bool on_port;
	struct render r;
	int rc;

	if (family == AF_INET6 ? inet_pton(AF_INET6, addr, ip6) != 1 : cmd_parse_ip(addr, &ip) < 0)
		return cmd_error(ctx, -EINVAL, "%% '%s' is not an %s address", addr,
				 family == AF_INET6 ? "IPv6" : "IPv4");
	id = family == AF_INET6 ? dp_fib6_lookup(ip6) : dp_fib_lookup(ip);
	nh = dp_nh_get(id);
	on_port = nh->kind == DP_NH_FORWARD || nh->kind == DP_NH_UNRESOLVED;
	if (nh->kind == DP_NH_FORWARD)
		rte_ether_format_addr(mac, sizeof(mac), &nh->eth.dst_addr);
	rc = family == AF_INET6 ? rib_route6_lookup(ip6, &ri) : rib_route_lookup(ip, &ri);
	if (rc == 0 && family == AF_INET6) {
		snprintf(pfx, sizeof(pfx), "%s/%u", inet_ntop(AF_INET6, ri.prefix6, text, sizeof(text)),
			 ri.len);
		rib_nh_describe(&ri.nh, desc, sizeof(desc));
	} else if (rc == 0) {
		snprintf(pfx, sizeof(pfx), IP4_FMT "/%u", IP4_ARGS(ri.prefix), ri.len);
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

static int cmd_show_ip_fib(struct cmd_ctx *ctx)
{
	return show_fib(ctx, AF_INET);
}

static int cmd_show_ipv6_fib(struct cmd_ctx *ctx)
{
	return show_fib(ctx, AF_INET6);
}

const struct cmd_def cmd_route_table[] = {
	{ CMD_MODE_EXEC, "show ip fib A.B.C.D", "The dataplane's answer for an address", cmd_show_ip_fib, 0 },
	{ CMD_MODE_EXEC, "show ipv6 fib fib:X:X::X:X", "The dataplane's answer for an IPv6 address", cmd_show_ipv6_fib, 0 },
	{ CMD_MODE_EXEC, "show ip route", "The routing table", cmd_show_ip_route, 0 },
	{ CMD_MODE_EXEC, "show ip route prefix:A.B.C.D/M", "One route", cmd_show_ip_route, 0 },
	{ CMD_MODE_EXEC, "show ip route address:A.B.C.D", "The route that forwards an address (longest match)", cmd_show_ip_route, 0 },
	{ CMD_MODE_EXEC, "show ip route prefix:A.B.C.D/M longer-prefixes", "Routes within a prefix", cmd_show_ip_route, 0 },
	{ CMD_MODE_EXEC, "show ip route summary", "Route counts by type, nexthops, FIB memory", cmd_show_ip_route_summary, 0 },
	{ CMD_MODE_EXEC, "show ipv6 route", "The IPv6 routing table", cmd_show_ipv6_route, 0 },
	{ CMD_MODE_EXEC, "show ipv6 route summary", "IPv6 route counts by type, FIB use and memory", cmd_show_ipv6_route_summary, 0 },
	{ CMD_MODE_EXEC, "show ipv6 route prefix:X:X::X:X/M", "One IPv6 route", cmd_show_ipv6_route, 0 },
	{ CMD_MODE_EXEC, "show ipv6 route address:X:X::X:X", "The IPv6 route that forwards an address (longest match)", cmd_show_ipv6_route, 0 },
	{ CMD_MODE_EXEC, "show ipv6 route prefix:X:X::X:X/M longer-prefixes", "IPv6 routes within a prefix", cmd_show_ipv6_route, 0 },
	{ 0 },
};
