/* SPDX-License-Identifier: BSD-3-Clause */
/* The operator's access lists: entries by number, compiled while bound, bindings by name. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "controlplane/shell/acls.h"
#include "controlplane/shell/command.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"

static struct acl_list *lists[ACL_LISTS_MAX];
static unsigned int nb_lists;
static char bound[DP_ACL_FAMILIES][DP_ACL_DIRS][DP_MAX_IFACES][DP_ACL_NAME_MAX];

bool acl_name_ok(const char *name)
{
	size_t len = strlen(name), i;

	if (len == 0 || len >= DP_ACL_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("-_.", name[i]))
			return false;
	return true;
}

struct acl_list *acl_find(uint8_t family, const char *name)
{
	unsigned int i;

	for (i = 0; i < nb_lists; i++)
		if (lists[i]->family == family && strcmp(lists[i]->name, name) == 0)
			return lists[i];
	return NULL;
}

struct acl_list *const *acl_lists(unsigned int *n)
{
	*n = nb_lists;
	return lists;
}

struct acl_list *acl_get(uint8_t family, const char *name, char *err, size_t errlen)
{
	struct acl_list *l = acl_find(family, name);

	if (l != NULL)
		return l;
	if (!acl_name_ok(name)) {
		snprintf(err, errlen, "access list name '%s' is not valid: 1 to %u letters, digits, "
			 "'-', '_' and '.'", name, DP_ACL_NAME_MAX - 1);
		return NULL;
	}
	if (nb_lists == ACL_LISTS_MAX) {
		snprintf(err, errlen, "there are %u access lists already, the most ternd keeps",
			 ACL_LISTS_MAX);
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (l == NULL) {
		snprintf(err, errlen, "no memory for access list %s", name);
		return NULL;
	}
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->family = family;
	lists[nb_lists++] = l;
	return l;
}

static bool is_bound(const struct acl_list *l)
{
	unsigned int d, p;

	for (d = 0; d < DP_ACL_DIRS; d++)
		for (p = 0; p < dp.nb_ports; p++)
			if (strcmp(bound[l->family][d][p], l->name) == 0)
				return true;
	return false;
}

/*
 * Makes e (n entries, by seq) the list's: compiled when the list is bound or was compiled,
 * published on every interface bound to it, the old compiled form retired after the workers'
 * grace period (its counters carried to the new one by entry number). On a compile error,
 * nothing changes and e is freed.
 */
static int publish(struct acl_list *l, struct dp_acl_entry *e, unsigned int n, char *err,
		   size_t errlen)
{
	struct dp_acl *next = NULL;
	unsigned int d, p;
	int rc;

	if (n > 0 && (l->dp != NULL || is_bound(l))) {
		rc = dp_acl_build(l->family, l->name, e, n, &next, err, errlen);
		if (rc < 0) {
			if (e != l->e)
				free(e);
			return rc;
		}
	}
	for (d = 0; d < DP_ACL_DIRS; d++)
		for (p = 0; p < dp.nb_ports; p++)
			if (strcmp(bound[l->family][d][p], l->name) == 0)
				dp_acl_bind(p, l->family, d, next);
	dp_acl_replace(l->dp, next);
	l->dp = next;
	if (e != l->e)
		free(l->e);
	l->e = e;
	l->n = n;
	return 0;
}

int acl_set_entry(struct acl_list *l, const struct dp_acl_entry *e, char *err, size_t errlen)
{
	struct dp_acl_entry *v;
	unsigned int at, n = l->n;

	for (at = 0; at < n && l->e[at].seq < e->seq; at++)
		;
	if (at == n || l->e[at].seq != e->seq) {
		if (n == DP_ACL_ENTRIES_MAX) {
			snprintf(err, errlen, "access list %s has %u entries, the most a list holds",
				 l->name, n);
			return -E2BIG;
		}
		n++;
	}
	v = malloc(sizeof(*v) * n);
	if (v == NULL) {
		snprintf(err, errlen, "no memory for access list %s", l->name);
		return -ENOMEM;
	}
	if (at)
		memcpy(v, l->e, sizeof(*v) * at);
	v[at] = *e;
	if (n == l->n)		/* replaced */
		memcpy(v + at + 1, l->e + at + 1, sizeof(*v) * (n - at - 1));
	else if (at < l->n)	/* put before the entries past it (an empty list has none) */
		memcpy(v + at + 1, l->e + at, sizeof(*v) * (l->n - at));
	return publish(l, v, n, err, errlen);
}

int acl_del_entry(struct acl_list *l, uint32_t seq, char *err, size_t errlen)
{
	struct dp_acl_entry *v;
	unsigned int at;

	for (at = 0; at < l->n && l->e[at].seq != seq; at++)
		;
	if (at == l->n) {
		snprintf(err, errlen, "access list %s has no entry %u", l->name, seq);
		return -ENOENT;
	}
	v = malloc(sizeof(*v) * (l->n ? l->n : 1));
	if (v == NULL) {
		snprintf(err, errlen, "no memory for access list %s", l->name);
		return -ENOMEM;
	}
	memcpy(v, l->e, sizeof(*v) * at);
	memcpy(v + at, l->e + at + 1, sizeof(*v) * (l->n - at - 1));
	return publish(l, v, l->n - 1, err, errlen);
}

void acl_delete(struct acl_list *l)
{
	unsigned int i;
	char err[8];

	publish(l, NULL, 0, err, sizeof(err));	/* nothing to compile: cannot fail */
	for (i = 0; i < nb_lists && lists[i] != l; i++)
		;
	memmove(&lists[i], &lists[i + 1], sizeof(struct acl_list *) * (nb_lists - i - 1));
	nb_lists--;
	free(l);
}

int acl_bind(unsigned int port, uint8_t family, uint8_t dir, const char *name, char *err,
	     size_t errlen)
{
	struct acl_list *l = name ? acl_find(family, name) : NULL;
	char *slot = bound[family][dir][port];
	int rc;

	if (name == NULL) {
		slot[0] = '\0';
		dp_acl_bind(port, family, dir, NULL);
		return 0;
	}
	if (l != NULL && l->n > 0 && l->dp == NULL) {	/* its first binding: compile it */
		rc = dp_acl_build(family, l->name, l->e, l->n, &l->dp, err, errlen);
		if (rc < 0)
			return rc;
	}
	snprintf(slot, DP_ACL_NAME_MAX, "%s", name);
	dp_acl_bind(port, family, dir, l ? l->dp : NULL);
	return 0;
}

const char *acl_bound(unsigned int port, uint8_t family, uint8_t dir)
{
	return bound[family][dir][port][0] ? bound[family][dir][port] : NULL;
}

void acl_iface_removed(unsigned int port)
{
	unsigned int f, d;

	for (f = 0; f < DP_ACL_FAMILIES; f++)
		for (d = 0; d < DP_ACL_DIRS; d++)
			acl_bind(port, f, d, NULL, NULL, 0);
}

static void addr_text(uint8_t family, const uint8_t *a, uint8_t len, char *buf, size_t size)
{
	char ip[INET6_ADDRSTRLEN];
	unsigned int full = family == DP_ACL_IPV4 ? 32 : 128;

	if (len == 0) {
		snprintf(buf, size, "any");
		return;
	}
	inet_ntop(family == DP_ACL_IPV4 ? AF_INET : AF_INET6, a, ip, sizeof(ip));
	if (len == full)
		snprintf(buf, size, "host %s", ip);
	else
		snprintf(buf, size, "%s/%u", ip, len);
}

static void ports_text(uint16_t lo, uint16_t hi, char *buf, size_t size)
{
	if (lo == 0 && hi == UINT16_MAX)
		buf[0] = '\0';
	else if (lo == hi)
		snprintf(buf, size, " eq %u", lo);
	else
		snprintf(buf, size, " range %u %u", lo, hi);
}

void acl_entry_text(uint8_t family, const struct dp_acl_entry *e, char *buf, size_t len)
{
	char proto[8], src[INET6_ADDRSTRLEN + 8], dst[INET6_ADDRSTRLEN + 8], sp[24] = "", dp[24] = "";
	char icmp[32] = "";
	bool is_icmp = e->proto == (family == DP_ACL_IPV4 ? 1 : 58);

	if (e->any_proto)
		snprintf(proto, sizeof(proto), "%s", family == DP_ACL_IPV4 ? "ip" : "ipv6");
	else if (e->proto == 6 || e->proto == 17 || is_icmp)
		snprintf(proto, sizeof(proto), "%s", e->proto == 6 ? "tcp" : e->proto == 17 ? "udp" : "icmp");
	else
		snprintf(proto, sizeof(proto), "%u", e->proto);
	addr_text(family, e->src, e->src_len, src, sizeof(src));
	addr_text(family, e->dst, e->dst_len, dst, sizeof(dst));
	if (e->l4 && is_icmp && !e->any_proto) {
		if (e->dport_lo == 0 && e->dport_hi == 255)
			snprintf(icmp, sizeof(icmp), " type %u", e->sport_lo);
		else
			snprintf(icmp, sizeof(icmp), " type %u code %u", e->sport_lo, e->dport_lo);
	} else if (e->l4) {
		ports_text(e->sport_lo, e->sport_hi, sp, sizeof(sp));
		ports_text(e->dport_lo, e->dport_hi, dp, sizeof(dp));
	}
	snprintf(buf, len, "%s %s %s%s %s%s%s%s", e->permit ? "permit" : "deny", proto, src, sp, dst,
		 dp, icmp, e->log ? " log" : "");
}

void acl_running_config(struct outbuf *out)
{
	char text[256];
	unsigned int i, k;

	for (i = 0; i < nb_lists; i++) {
		const struct acl_list *l = lists[i];

		if (l->n == 0)
			continue;
		ob_printf(out, "%s access-list %s\n", l->family == DP_ACL_IPV4 ? "ip" : "ipv6", l->name);
		for (k = 0; k < l->n; k++) {
			acl_entry_text(l->family, &l->e[k], text, sizeof(text));
			ob_printf(out, " seq %u %s\n", l->e[k].seq, text);
		}
		ob_printf(out, "!\n");
	}
}

void acl_iface_running_config(struct outbuf *out, unsigned int port)
{
	static const char *const dir[DP_ACL_DIRS] = { "in", "out" };
	unsigned int f, d;

	for (f = 0; f < DP_ACL_FAMILIES; f++)
		for (d = 0; d < DP_ACL_DIRS; d++)
			if (bound[f][d][port][0])
				ob_printf(out, " %s %s %s\n", f == DP_ACL_IPV4 ? "ip access-group" :
					  "ipv6 traffic-filter", bound[f][d][port], dir[d]);
}

void acl_log_tick(void)
{
	struct dp_acl_sample s[64];
	unsigned int n = dp_acl_samples(s, RTE_DIM(s)), i;

	for (i = 0; i < n; i++) {
		char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], seq[16];
		const uint8_t *sport, *dport;
		int af = s[i].family == DP_ACL_IPV4 ? AF_INET : AF_INET6;
		unsigned int sp, dp_;
		uint8_t proto;
		bool icmp;

		if (s[i].family == DP_ACL_IPV4) {
			inet_ntop(af, s[i].k4.src, src, sizeof(src));
			inet_ntop(af, s[i].k4.dst, dst, sizeof(dst));
			proto = s[i].k4.proto;
			sport = s[i].k4.sport, dport = s[i].k4.dport;
		} else {
			inet_ntop(af, s[i].k6.src, src, sizeof(src));
			inet_ntop(af, s[i].k6.dst, dst, sizeof(dst));
			proto = s[i].k6.proto;
			sport = s[i].k6.sport, dport = s[i].k6.dport;
		}
		/* ICMP's type and code are in the source port's place; the ports are the key's
		 * only where they are the packet's */
		icmp = proto == (s[i].family == DP_ACL_IPV4 ? 1 : 58);
		if (icmp)
			sp = sport[0], dp_ = sport[1];
		else
			sp = (unsigned int)(sport[0] << 8 | sport[1]), dp_ = (unsigned int)(dport[0] << 8 | dport[1]);
		if (!s[i].l4 || !(icmp || proto == 6 || proto == 17 || proto == 132))
			sp = dp_ = 0;
		snprintf(seq, sizeof(seq), "%u", s[i].seq);
		TERN_LOG(main, NOTICE, "access list %s entry %s %s protocol %u %s port %u -> %s port %u, "
			 "%s %s", s[i].acl, s[i].seq ? seq : "(implicit)",
			 s[i].permit ? "permitted" : "denied", proto, src, sp, dst, dp_,
			 s[i].port < dp.nb_ports ? dp.ports[s[i].port].name : "?",
			 s[i].dir == DP_ACL_IN ? "in" : "out");
	}
}
