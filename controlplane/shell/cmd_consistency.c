/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * show ip fib consistency and show ipv6 fib consistency: the kernel's tables, ternd's RIB and
 * the FIB of one family compared entry by entry.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/rtnetlink.h>

#include <libmnl/libmnl.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "controlplane/ternd/log.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"

struct expected {
	uint32_t prefix;
	uint8_t prefix6[16];
	uint8_t len;
	int rank;		/* the table's preference */
	uint32_t metric;
	unsigned int order;	/* the dump's order: the kernel's first of one table and metric */
	/* the kernel's nexthop, its group's members kept apart in the collection's hops: a
	 * full table's routes take tens of bytes each, not a whole rib_nh_spec */
	enum rib_nh_type type;
	uint32_t knh;
	struct rib_hop hop;
	uint8_t nb_members;
	uint32_t members_at;
};

struct collection {
	uint8_t family;
	struct expected *e;
	unsigned int n, cap;
	struct rib_hop *hops;	/* the groups' members, one after the other */
	unsigned int nb_hops, hops_cap;
	int err;
};

static int grow(void **p, unsigned int *cap, unsigned int need, size_t size)
{
	unsigned int c = *cap ? *cap : 1024;
	void *more;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if ((more = realloc(*p, (size_t)c * size)) == NULL)
		return -ENOMEM;
	*p = more;
	*cap = c;
	return 0;
}

/* The kernel's nexthop for an expected route, whole again. */
static void expected_nh(const struct collection *c, const struct expected *e, struct rib_nh_spec *s)
{
	memset(s, 0, offsetof(struct rib_nh_spec, members));
	s->type = e->type;
	s->knh = e->knh;
	s->hop = e->hop;
	s->nb_members = e->nb_members;
	if (e->nb_members)
		memcpy(s->members, &c->hops[e->members_at], e->nb_members * sizeof(s->members[0]));
}

static int collect(const struct nlmsghdr *nlh, void *data)
{
	struct collection *c = data;
	struct rib_nh_spec nh;
	struct nl_msg m;

	if (nl_parse(nlh, &m) < 0 || m.kind != NL_ROUTE || m.del || m.route.family != c->family)
		return MNL_CB_OK;
	if (mirror_route_nh(&m.route, &nh) < 0)
		return MNL_CB_OK;
	if (grow((void **)&c->e, &c->cap, c->n + 1, sizeof(*c->e)) < 0 ||
	    grow((void **)&c->hops, &c->hops_cap, c->nb_hops + nh.nb_members, sizeof(*c->hops)) < 0) {
		c->err = -ENOMEM;
		return MNL_CB_ERROR;
	}
	c->e[c->n].type = nh.type;
	c->e[c->n].knh = nh.knh;
	c->e[c->n].hop = nh.hop;
	c->e[c->n].nb_members = nh.nb_members;
	c->e[c->n].members_at = c->nb_hops;
	if (nh.nb_members)	/* hops stays NULL until a group comes */
		memcpy(&c->hops[c->nb_hops], nh.members, nh.nb_members * sizeof(nh.members[0]));
	c->nb_hops += nh.nb_members;
	memset(c->e[c->n].prefix6, 0, 16);
	c->e[c->n].prefix = 0;
	if (c->family == AF_INET6) {
		unsigned int i, l = m.route.len;

		for (i = 0; i < 16; i++, l = l > 8 ? l - 8 : 0)
			c->e[c->n].prefix6[i] = l >= 8 ? m.route.prefix6[i] :
						m.route.prefix6[i] & (uint8_t)(0xff00 >> l);
	} else {
		c->e[c->n].prefix = m.route.prefix & (m.route.len ? ~0u << (32 - m.route.len) : 0);
	}
	c->e[c->n].len = m.route.len;
	c->e[c->n].rank = rib_table_rank(m.route.table);
	c->e[c->n].metric = m.route.priority;
	c->e[c->n].order = c->n;
	c->n++;
	return MNL_CB_OK;
}

static int by_prefix(const struct expected *x, const struct expected *y)
{
	int c;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if ((c = memcmp(x->prefix6, y->prefix6, 16)) != 0)
		return c;
	return (int)x->len - (int)y->len;
}

/* For each prefix, the route the FIB should have first: table, metric, then the kernel's order. */
static int by_prefix_then_preference(const void *a, const void *b)
{
	const struct expected *x = a, *y = b;
	int c = by_prefix(x, y);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The kernel's best route for key's prefix among the first n (sorted, one per prefix). */
static const struct expected *kernel_find(const struct expected *e, unsigned int n,
					  const struct expected *key)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		int cmp = by_prefix(key, &e[mid]);

		if (cmp == 0)
			return &e[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool same_hop(const struct rib_hop *a, const struct rib_hop *b)
{
	return a->port == b->port && rib_hop_is_v6(a) == rib_hop_is_v6(b) &&
	       (rib_hop_is_v6(a) ? memcmp(a->gw6, b->gw6, 16) == 0 : a->gw == b->gw);
}

static unsigned int hop_count(const struct rib_nh_spec *s, const struct rib_hop *h)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nb_members; i++)
		n += same_hop(&s->members[i], h);
	return n;
}

/* Groups are the same members as many times each, in any order: the kernel lists an IPv6
 * ECMP route's hops in the order they came, which an append changes. */
static bool same_nh(const struct rib_nh_spec *a, const struct rib_nh_spec *b)
{
	unsigned int i;

	if (a->type != b->type)
		return false;
	if (rib_nh_on_port(a->type))
		return same_hop(&a->hop, &b->hop);
	if (a->type != RIB_NH_GROUP)
		return true;
	if (a->nb_members != b->nb_members)
		return false;
	for (i = 0; i < a->nb_members; i++)
		if (hop_count(a, &a->members[i]) != hop_count(b, &a->members[i]))
			return false;
	return true;
}

static void fmt_prefix(uint8_t family, uint32_t prefix, const uint8_t *prefix6, char *buf,
		       size_t len)
{
	uint32_t be = htonl(prefix);

	inet_ntop(family, family == AF_INET6 ? (const void *)prefix6 : &be, buf, len);
}

static int route_get(uint8_t family, const struct expected *e, struct rib_route_info *r)
{
	if (family == AF_INET6)
		return rib_route6_get(e->prefix6, e->len, r);
	return rib_route_get(e->prefix, e->len, r);
}

static void difference(struct render *rd, unsigned int *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One difference: every one in JSON, the first 1000 in text. */
static void difference(struct render *rd, unsigned int *n, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	render_str(rd, NULL, *n < 1000 ? "%s\n" : NULL, line);
	(*n)++;
}

static int consistency_check(struct cmd_ctx *ctx, uint8_t family)
{
	struct collection c = { .family = family };
	struct render rd;
	struct rib_route_entry *routes;
	struct rib_route_info r;
	struct rib_nh_spec want;
	unsigned int nr, i, diffs = 0, kept = 0;
	char ip[INET6_ADDRSTRLEN], a[1024], b[1024];
	int rc;

	netlink_drain();	/* apply what is queued first: only real differences remain */
	rc = netlink_dump(RTM_GETROUTE, family, collect, &c);
	if (rc < 0 || c.err < 0) {
		free(c.e);
		free(c.hops);
		return cmd_error(ctx, rc ? rc : c.err, "%% Cannot read the kernel's routes: %s",
				 strerror(-(rc ? rc : c.err)));
	}
	render_begin(&rd, ctx);
	render_list_begin(&rd, "lines");
	qsort(c.e, c.n, sizeof(*c.e), by_prefix_then_preference);
	for (i = 0; i < c.n; i++) {
		const struct expected *e = &c.e[i];

		if (i && by_prefix(e, &c.e[i - 1]) == 0)
			continue;	/* not preferred: the RIB keeps it aside */
		c.e[kept++] = *e;
		fmt_prefix(family, e->prefix, e->prefix6, ip, sizeof(ip));
		expected_nh(&c, e, &want);
		rib_nh_describe(&want, a, sizeof(a));
		if (route_get(family, e, &r) < 0 || r.attrs.src != RIB_SRC_KERNEL) {
			difference(&rd, &diffs, "missing in ternd: %s/%u %s", ip, e->len, a);
			continue;
		}
		if (!same_nh(&want, &r.nh)) {
			rib_nh_describe(&r.nh, b, sizeof(b));
			difference(&rd, &diffs, "differs: %s/%u is %s in the kernel, %s in ternd", ip,
				   e->len, a, b);
		}
	}
	rc = rib_routes_sorted(family, &routes, &nr, false);
	for (i = 0; rc == 0 && i < nr; i++) {
		struct expected key = { .prefix = routes[i].prefix, .len = routes[i].len };
		struct rib_route_info best;
		uint32_t fib_nh;

		memcpy(key.prefix6, routes[i].prefix6, 16);
		fmt_prefix(family, routes[i].prefix, routes[i].prefix6, ip, sizeof(ip));
		if (routes[i].attrs.src == RIB_SRC_KERNEL && kernel_find(c.e, kept, &key) == NULL)
			difference(&rd, &diffs, "stale in ternd: %s/%u is gone from the kernel", ip,
				   routes[i].len);
		if (routes[i].unplaced)
			difference(&rd, &diffs, "not installed in the FIB (it has no room): %s/%u", ip,
				   routes[i].len);
		/* the FIB answers for the prefix's first address what the RIB's longest match says */
		fib_nh = family == AF_INET6 ? dp_fib6_lookup(routes[i].prefix6) :
					      dp_fib_lookup(routes[i].prefix);
		if ((family == AF_INET6 ? rib_route6_lookup(routes[i].prefix6, &best) :
					  rib_route_lookup(routes[i].prefix, &best)) == 0 &&
		    best.nh_id != fib_nh)
			difference(&rd, &diffs, "FIB disagrees at %s: nexthop %u, the RIB says %u", ip,
				   fib_nh, best.nh_id);
	}
	if (rc == 0)
		free(routes);
	free(c.e);
	free(c.hops);
	render_list_end(&rd);
	render_uint(&rd, "kernel_routes", "%lu kernel routes compared: ", kept);
	render_uint(&rd, "differences", "%lu difference(s)\n", diffs);
	render_end(&rd);
	return 0;
}

/*
 * A check dumps the kernel's tables and walks the RIB and the FIB on the control thread: with
 * a full table it takes seconds. Checks that take CONSISTENCY_FREE_MS or more are kept apart
 * by CONSISTENCY_SPACING times their own cost, so that asking in a loop gives them at most a
 * sixth of the control thread and the kernel mirror keeps up.
 */
#define CONSISTENCY_FREE_MS 10
#define CONSISTENCY_SPACING 5

static uint64_t last_end_ms, last_cost_ms;

/* One spacing for both families: each check walks the control thread's tables. */
static int fib_consistency(struct cmd_ctx *ctx, uint8_t family)
{
	uint64_t next = last_end_ms + CONSISTENCY_SPACING * last_cost_ms, start = tern_log_now_ms();
	int rc;

	if (last_cost_ms >= CONSISTENCY_FREE_MS && start < next)
		return cmd_error(ctx, -EBUSY, "%% The last consistency check took %.3f s; the next may "
				 "start in %.3f s", last_cost_ms / 1e3, (next - start) / 1e3);
	rc = consistency_check(ctx, family);
	last_end_ms = tern_log_now_ms();
	last_cost_ms = last_end_ms - start;
	return rc;
}

static int cmd_fib_consistency(struct cmd_ctx *ctx)
{
	return fib_consistency(ctx, AF_INET);
}

static int cmd_fib6_consistency(struct cmd_ctx *ctx)
{
	return fib_consistency(ctx, AF_INET6);
}

const struct cmd_def cmd_consistency_table[] = {
	{ CMD_MODE_EXEC, "show ip fib consistency", "Compare the FIB with the kernel's routes", cmd_fib_consistency, 0 },
	{ CMD_MODE_EXEC, "show ipv6 fib consistency", "Compare the IPv6 FIB with the kernel's IPv6 routes", cmd_fib6_consistency, 0 },
	{ 0 },
};
