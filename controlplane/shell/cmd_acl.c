/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Access lists from the shell: ip access-list NAME and ipv6 access-list NAME enter a list's
 * mode, whose entries are seq N (permit|deny) PROTOCOL SRC [PORTS] DST [PORTS] [log]; ip
 * access-group NAME (in|out) and ipv6 traffic-filter NAME (in|out) bind one to an interface;
 * show ip access-list, clear ip access-list counters.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/shell/acls.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"

static uint8_t mode_family(const struct cmd_ctx *ctx)
{
	return ctx->s->mode == CMD_MODE_CONFIG_ACL6 ? DP_ACL_IPV6 : DP_ACL_IPV4;
}

static const char *family_word(uint8_t family)
{
	return family == DP_ACL_IPV4 ? "ip" : "ipv6";
}

static int enter_list(struct cmd_ctx *ctx, uint8_t family)
{
	const char *name = cmd_arg(ctx, "name");
	char err[160];

	if (acl_get(family, name, err, sizeof(err)) == NULL)
		return cmd_error(ctx, -EINVAL, "%% %s", err);
	snprintf(ctx->s->acl, sizeof(ctx->s->acl), "%s", name);
	ctx->s->mode = family == DP_ACL_IPV4 ? CMD_MODE_CONFIG_ACL : CMD_MODE_CONFIG_ACL6;
	return 0;
}

static int cmd_ip_access_list(struct cmd_ctx *ctx)
{
	return enter_list(ctx, DP_ACL_IPV4);
}

static int cmd_ipv6_access_list(struct cmd_ctx *ctx)
{
	return enter_list(ctx, DP_ACL_IPV6);
}

static int cmd_no_access_list(struct cmd_ctx *ctx)
{
	uint8_t family = strcmp(ctx->argv[1], "ipv6") == 0 ? DP_ACL_IPV6 : DP_ACL_IPV4;
	const char *name = cmd_arg(ctx, "name");
	struct acl_list *l = acl_find(family, name);

	if (l == NULL)
		return cmd_error(ctx, -ENOENT, "%% There is no %s access list %s", family_word(family),
				 name);
	acl_delete(l);
	return 0;
}

/* A number of the line within lo .. hi, or an error naming what and what is allowed. */
static int number(struct cmd_ctx *ctx, const char *name, const char *what, unsigned long lo,
		  unsigned long hi, unsigned long *v)
{
	const char *w = cmd_arg(ctx, name);

	*v = strtoul(w, NULL, 10);
	if (*v < lo || *v > hi)
		return cmd_error(ctx, -EINVAL, "%% %s %s is out of range: expected %lu to %lu", what, w,
				 lo, hi);
	return 0;
}

/* src or dst: any, an address (host) or a prefix. */
static int address(struct cmd_ctx *ctx, uint8_t family, const char *name, uint8_t *a, uint8_t *len)
{
	const char *w = cmd_arg(ctx, name);
	uint32_t ip4;
	int rc;

	memset(a, 0, 16);
	*len = 0;
	if (strcmp(w, "any") == 0)
		return 0;
	if (family == DP_ACL_IPV6) {
		if (strchr(w, '/') != NULL)
			return cmd_parse_prefix6(ctx, w, a, len, true);
		*len = 128;
		return inet_pton(AF_INET6, w, a) == 1 ? 0 :
		       cmd_error(ctx, -EINVAL, "%% Invalid IPv6 address '%s'", w);
	}
	if (strchr(w, '/') != NULL)
		rc = cmd_parse_prefix(ctx, w, &ip4, len, true);
	else if ((rc = cmd_parse_ip(w, &ip4)) < 0)
		return cmd_error(ctx, rc, "%% Invalid IPv4 address '%s'", w);
	else
		*len = 32;
	ip4 = htonl(ip4);
	memcpy(a, &ip4, 4);
	return rc;
}

/* eq PORT or range LO HI of one side (s: "sport", "dport"); neither: every port. */
static int ports(struct cmd_ctx *ctx, const char *s, uint16_t *lo, uint16_t *hi)
{
	char n_eq[8], n_lo[12], n_hi[12];
	unsigned long a, b;
	int rc;

	snprintf(n_eq, sizeof(n_eq), "%s", s);
	snprintf(n_lo, sizeof(n_lo), "%s-lo", s);
	snprintf(n_hi, sizeof(n_hi), "%s-hi", s);
	*lo = 0;
	*hi = UINT16_MAX;
	if (cmd_arg(ctx, n_eq) != NULL) {
		if ((rc = number(ctx, n_eq, "Port", 0, UINT16_MAX, &a)) < 0)
			return rc;
		*lo = *hi = a;
	} else if (cmd_arg(ctx, n_lo) != NULL) {
		if ((rc = number(ctx, n_lo, "Port", 0, UINT16_MAX, &a)) < 0 ||
		    (rc = number(ctx, n_hi, "Port", 0, UINT16_MAX, &b)) < 0)
			return rc;
		if (a > b)
			return cmd_error(ctx, -EINVAL, "%% Port range %lu %lu is empty: the first port "
					 "must not exceed the second", a, b);
		*lo = a;
		*hi = b;
	}
	return 0;
}

/* The next entry number when the line gives none: 10 past the list's last, as Cisco's. */
static uint32_t next_seq(const struct acl_list *l)
{
	uint32_t last = l->n ? l->e[l->n - 1].seq : 0;

	return last + 10 <= DP_ACL_SEQ_MAX ? last + 10 : 0;
}

static int cmd_entry(struct cmd_ctx *ctx)
{
	uint8_t family = mode_family(ctx);
	const char *proto = cmd_arg(ctx, "proto");
	struct dp_acl_entry e = { 0 };
	struct acl_list *l;
	unsigned long v;
	char err[200];
	int rc;

	l = acl_get(family, ctx->s->acl, err, sizeof(err));
	if (l == NULL)
		return cmd_error(ctx, -EINVAL, "%% %s", err);
	if (cmd_arg(ctx, "seq") != NULL) {
		if ((rc = number(ctx, "seq", "Sequence number", 1, DP_ACL_SEQ_MAX, &v)) < 0)
			return rc;
		e.seq = v;
	} else if ((e.seq = next_seq(l)) == 0) {
		return cmd_error(ctx, -ERANGE, "%% Access list %s has no entry number left after %u: "
				 "give one with seq", l->name, l->e[l->n - 1].seq);
	}
	e.permit = strcmp(cmd_arg(ctx, "action"), "permit") == 0;
	e.log = cmd_arg(ctx, "log") != NULL;
	if (strcmp(proto, "ip") == 0 || strcmp(proto, "ipv6") == 0) {
		e.any_proto = true;
	} else if (strcmp(proto, "tcp") == 0 || strcmp(proto, "udp") == 0) {
		e.proto = proto[0] == 't' ? 6 : 17;
	} else if (strcmp(proto, "icmp") == 0) {
		e.proto = family == DP_ACL_IPV4 ? 1 : 58;
	} else {
		if ((rc = number(ctx, "proto", "Protocol", 0, 255, &v)) < 0)
			return rc;
		e.proto = v;
	}
	if ((rc = address(ctx, family, "src", e.src, &e.src_len)) < 0 ||
	    (rc = address(ctx, family, "dst", e.dst, &e.dst_len)) < 0 ||
	    (rc = ports(ctx, "sport", &e.sport_lo, &e.sport_hi)) < 0 ||
	    (rc = ports(ctx, "dport", &e.dport_lo, &e.dport_hi)) < 0)
		return rc;
	e.l4 = e.sport_lo != 0 || e.sport_hi != UINT16_MAX || e.dport_lo != 0 ||
	       e.dport_hi != UINT16_MAX;
	if (cmd_arg(ctx, "type") != NULL) {
		if ((rc = number(ctx, "type", "ICMP type", 0, 255, &v)) < 0)
			return rc;
		e.l4 = true;
		e.sport_lo = e.sport_hi = v;
		e.dport_lo = 0;
		e.dport_hi = 255;
		if (cmd_arg(ctx, "code") != NULL) {
			if ((rc = number(ctx, "code", "ICMP code", 0, 255, &v)) < 0)
				return rc;
			e.dport_lo = e.dport_hi = v;
		}
	}
	rc = acl_set_entry(l, &e, err, sizeof(err));
	if (rc < 0)
		return cmd_error(ctx, rc, "%% %s; the list stays as it was", err);
	return 0;
}

static int cmd_no_entry(struct cmd_ctx *ctx)
{
	struct acl_list *l = acl_find(mode_family(ctx), ctx->s->acl);
	unsigned long seq;
	char err[160];
	int rc;

	if ((rc = number(ctx, "seq", "Sequence number", 1, DP_ACL_SEQ_MAX, &seq)) < 0)
		return rc;
	if (l == NULL)
		return cmd_error(ctx, -ENOENT, "%% Access list %s has no entry %lu", ctx->s->acl, seq);
	rc = acl_del_entry(l, seq, err, sizeof(err));
	return rc < 0 ? cmd_error(ctx, rc, "%% %s", err) : 0;
}

static int bind_list(struct cmd_ctx *ctx, const char *name)
{
	uint8_t family = strcmp(ctx->argv[0], "ipv6") == 0 || strcmp(ctx->argv[1], "ipv6") == 0 ?
			 DP_ACL_IPV6 : DP_ACL_IPV4;
	uint8_t dir = strcmp(cmd_arg(ctx, "dir"), "in") == 0 ? DP_ACL_IN : DP_ACL_OUT;
	struct dp_port *p = dp_port_by_name(ctx->s->ifname);
	char err[200];
	int rc;

	if (p == NULL)
		return cmd_error(ctx, -ENODEV, "%% Interface %s no longer exists", ctx->s->ifname);
	if (p->kind == DP_PORT_MEMBER)
		return cmd_error(ctx, -EINVAL, "%% %s is a member of a bond: bind the list to the bond",
				 p->name);
	if (name != NULL && !acl_name_ok(name))
		return cmd_error(ctx, -EINVAL, "%% Access list name '%s' is not valid: 1 to %u letters, "
				 "digits, '-', '_' and '.'", name, DP_ACL_NAME_MAX - 1);
	rc = acl_bind(p - dp.ports, family, dir, name, err, sizeof(err));
	if (rc < 0)
		return cmd_error(ctx, rc, "%% %s; %s keeps what it had", err, p->name);
	return 0;
}

static int cmd_access_group(struct cmd_ctx *ctx)
{
	return bind_list(ctx, cmd_arg(ctx, "name"));
}

static int cmd_no_access_group(struct cmd_ctx *ctx)
{
	return bind_list(ctx, NULL);
}

/* The interfaces a list is bound to, "dp0 in, dp1.100 out"; "" when none. */
static void bound_text(const struct acl_list *l, char *buf, size_t len)
{
	unsigned int p, d;
	size_t at = 0;

	buf[0] = '\0';
	DP_FOREACH_IFACE(p)
		for (d = 0; d < DP_ACL_DIRS; d++) {
			const char *b = acl_bound(p, l->family, d);

			if (b != NULL && strcmp(b, l->name) == 0 && at < len)
				at += snprintf(buf + at, len - at, "%s%s %s", at ? ", " : "",
					       dp.ports[p].name, d == DP_ACL_IN ? "in" : "out");
		}
}

static uint64_t hits(const struct acl_list *l, unsigned int i)
{
	return l->dp != NULL ? dp_acl_hits(l->dp, i) : 0;
}

static void show_list(struct render *r, const struct acl_list *l)
{
	char text[256], where[512];
	unsigned int k;

	bound_text(l, where, sizeof(where));
	render_object_begin(r, NULL);
	render_str(r, "family", "%s access list ", family_word(l->family));
	render_str(r, "name", "%s", l->name);
	render_str(r, "bound", " (%s)\n", *where ? where : "not bound");
	render_bool(r, "compiled", NULL, l->dp != NULL);
	render_list_begin(r, "entries");
	for (k = 0; k < l->n; k++) {
		acl_entry_text(l->family, &l->e[k], text, sizeof(text));
		render_object_begin(r, NULL);
		render_uint(r, "seq", "    %lu ", l->e[k].seq);
		render_str(r, "entry", "%s", text);
		render_uint(r, "matches", " (%lu matches)\n", hits(l, k));
		render_object_end(r);
	}
	render_list_end(r);
	if (l->family == DP_ACL_IPV6) {
		render_uint(r, "implicit_nd_ns", "    implicit permit icmp any any type 135 (%lu matches)\n",
			    hits(l, l->n));
		render_uint(r, "implicit_nd_na", "    implicit permit icmp any any type 136 (%lu matches)\n",
			    hits(l, l->n + 1));
	}
	render_uint(r, "implicit_deny", "    implicit deny (%lu matches)\n",
		    l->dp != NULL ? dp_acl_hits(l->dp, l->dp->nb) : 0);
	render_object_end(r);
}

static int show_lists(struct cmd_ctx *ctx, uint8_t family)
{
	const char *name = cmd_arg(ctx, "name");
	struct acl_list *const *all;
	unsigned int n, i, shown = 0;
	struct render r;

	all = acl_lists(&n);
	if (name != NULL && acl_find(family, name) == NULL)
		return cmd_error(ctx, -ENOENT, "%% There is no %s access list %s", family_word(family),
				 name);
	render_begin(&r, ctx);
	render_list_begin(&r, "access_lists");
	for (i = 0; i < n; i++)
		if (all[i]->family == family && (name == NULL || strcmp(name, all[i]->name) == 0)) {
			show_list(&r, all[i]);
			shown++;
		}
	render_list_end(&r);
	if (shown == 0)
		render_text(&r, "No %s access lists\n", family_word(family));
	render_end(&r);
	return 0;
}

static int cmd_show_ip_access_list(struct cmd_ctx *ctx)
{
	return show_lists(ctx, DP_ACL_IPV4);
}

static int cmd_show_ipv6_access_list(struct cmd_ctx *ctx)
{
	return show_lists(ctx, DP_ACL_IPV6);
}

static int clear_lists(struct cmd_ctx *ctx, uint8_t family)
{
	const char *name = cmd_arg(ctx, "name");
	struct acl_list *const *all;
	unsigned int n, i;

	all = acl_lists(&n);
	if (name != NULL && acl_find(family, name) == NULL)
		return cmd_error(ctx, -ENOENT, "%% There is no %s access list %s", family_word(family),
				 name);
	for (i = 0; i < n; i++)
		if (all[i]->family == family && all[i]->dp != NULL &&
		    (name == NULL || strcmp(name, all[i]->name) == 0))
			dp_acl_clear(all[i]->dp);
	return 0;
}

static int cmd_clear_ip_access_list(struct cmd_ctx *ctx)
{
	return clear_lists(ctx, DP_ACL_IPV4);
}

static int cmd_clear_ipv6_access_list(struct cmd_ctx *ctx)
{
	return clear_lists(ctx, DP_ACL_IPV6);
}

#define ACTION "[seq NUMBER] (action:permit|action:deny) "
#define SRC4 "(src:any|host src:A.B.C.D|src:A.B.C.D/M)"
#define DST4 "(dst:any|host dst:A.B.C.D|dst:A.B.C.D/M)"
#define SRC6 "(src:any|host src:X:X::X:X|src:X:X::X:X/M)"
#define DST6 "(dst:any|host dst:X:X::X:X|dst:X:X::X:X/M)"
#define SPORT " [(eq sport:NUMBER|range sport-lo:NUMBER sport-hi:NUMBER)] "
#define DPORT " [(eq dport:NUMBER|range dport-lo:NUMBER dport-hi:NUMBER)]"
#define ICMP " [type NUMBER [code NUMBER]]"
#define DIR "(dir:in|dir:out)"

const struct cmd_def cmd_acl_table[] = {
	{ CMD_MODE_CONFIG, "ip access-list name:WORD", "Make or change an IPv4 access list", cmd_ip_access_list, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "ipv6 access-list name:WORD", "Make or change an IPv6 access list", cmd_ipv6_access_list, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no (ip|ipv6) access-list name:WORD", "Remove an access list (bindings to it filter nothing)",
	  cmd_no_access_list, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL, ACTION "(proto:ip|proto:NUMBER) " SRC4 " " DST4 " [log]",
	  "An entry for every packet, or a protocol by number", cmd_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL, ACTION "(proto:tcp|proto:udp) " SRC4 SPORT DST4 DPORT " [log]",
	  "An entry for TCP or UDP, with ports", cmd_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL, ACTION "proto:icmp " SRC4 " " DST4 ICMP " [log]",
	  "An entry for ICMP, with its type and code", cmd_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL, "no seq NUMBER", "Remove an entry", cmd_no_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL6, ACTION "(proto:ipv6|proto:NUMBER) " SRC6 " " DST6 " [log]",
	  "An entry for every packet, or a protocol by number", cmd_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL6, ACTION "(proto:tcp|proto:udp) " SRC6 SPORT DST6 DPORT " [log]",
	  "An entry for TCP or UDP, with ports", cmd_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL6, ACTION "proto:icmp " SRC6 " " DST6 ICMP " [log]",
	  "An entry for ICMPv6, with its type and code", cmd_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_ACL6, "no seq NUMBER", "Remove an entry", cmd_no_entry, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "ip access-group name:WORD " DIR, "Filter the interface's IPv4 packets in or out by an access list",
	  cmd_access_group, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no ip access-group [name:WORD] " DIR, "Stop filtering the interface's IPv4 packets that way",
	  cmd_no_access_group, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "ipv6 traffic-filter name:WORD " DIR, "Filter the interface's IPv6 packets in or out by an access list",
	  cmd_access_group, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no ipv6 traffic-filter [name:WORD] " DIR, "Stop filtering the interface's IPv6 packets that way",
	  cmd_no_access_group, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "show ip access-list [name:WORD]", "IPv4 access lists: entries, matches, where bound",
	  cmd_show_ip_access_list, 0 },
	{ CMD_MODE_EXEC, "show ipv6 access-list [name:WORD]", "IPv6 access lists: entries, matches, where bound",
	  cmd_show_ipv6_access_list, 0 },
	{ CMD_MODE_EXEC, "clear ip access-list counters [name:WORD]", "Zero IPv4 access lists' match counters",
	  cmd_clear_ip_access_list, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "clear ipv6 access-list counters [name:WORD]", "Zero IPv6 access lists' match counters",
	  cmd_clear_ipv6_access_list, CMD_F_CONFIG },
	{ 0, NULL, NULL, NULL, 0 },
};
