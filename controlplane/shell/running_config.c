/* SPDX-License-Identifier: BSD-3-Clause */
/* Builds the running configuration (the ports as they are, the static configuration as kept) and diffs two configurations. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/rtnetlink.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/sflow/sflow_agent.h"
#include "controlplane/shell/acls.h"
#include "controlplane/shell/rpf_config.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/iface.h"
#include "controlplane/shell/running_config.h"
#include "controlplane/shell/statics.h"
#include "dataplane/dp.h"
#include "dataplane/ip4/ip4.h"

static int addr_cmp(const void *a, const void *b)
{
	const struct rib_addr *x = a, *y = b;

	if (x->family != y->family)
		return x->family == AF_INET ? -1 : 1;
	if (x->family == AF_INET6)
		return memcmp(x->ip6, y->ip6, 16);
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* An interface's address the configuration names: IPv4's, and IPv6's but the link-local ones
 * (the kernel makes those from the MAC). */
static bool configured_addr(const struct rib_addr *a, unsigned int port)
{
	if (a->port != port)
		return false;
	if (a->family == AF_INET6)
		return !(a->ip6[0] == 0xfe && (a->ip6[1] & 0xc0) == 0x80);
	return a->family == AF_INET;
}

static void interface_section(struct outbuf *out, unsigned int i)
{
	const struct dp_port *p = &dp.ports[i];
	const struct rib_addr *all;
	struct rib_addr mine[64];
	unsigned int n = rib_addrs(&all), k = 0, a;
	char pfx[INET6_ADDRSTRLEN + 8], mtu[12];

	cmd_line(out, CMD_MODE_CONFIG, "interface", &(struct cmd_word){ "interface", p->name }, 1);
	if (p->kind == DP_PORT_VLAN) {
		char outer[8], inner[8];

		snprintf(outer, sizeof(outer), "%u", p->outer_vid);
		snprintf(inner, sizeof(inner), "%u", p->inner_vid);
		if (p->inner_vid)
			cmd_line(out, CMD_MODE_CONFIG_IF, "encapsulation",
				 (struct cmd_word[]){ { "dot1ad", outer }, { "dot1q", inner } }, 2);
		else
			cmd_line(out, CMD_MODE_CONFIG_IF, "encapsulation",
				 &(struct cmd_word){ "dot1q", outer }, 1);
	}
	if (*iface_description(i))
		cmd_line(out, CMD_MODE_CONFIG_IF, "description",
			 &(struct cmd_word){ "description", iface_description(i) }, 1);
	if (iface_ipv6_enable(i))
		cmd_line(out, CMD_MODE_CONFIG_IF, "ipv6 enable", NULL, 0);
	for (a = 0; a < n && k < 64; a++)
		if (configured_addr(&all[a], i))
			mine[k++] = all[a];
	/* cppcheck-suppress uninitvar ; the first k are set */
	qsort(mine, k, sizeof(mine[0]), addr_cmp);
	for (a = 0; a < k; a++) {
		if (mine[a].family == AF_INET6) {
			inet_ntop(AF_INET6, mine[a].ip6, pfx, INET6_ADDRSTRLEN);
			snprintf(pfx + strlen(pfx), sizeof(pfx) - strlen(pfx), "/%u", mine[a].len);
			cmd_line(out, CMD_MODE_CONFIG_IF, "ipv6 address",
				 &(struct cmd_word){ "address", pfx }, 1);
			continue;
		}
		snprintf(pfx, sizeof(pfx), IP4_FMT "/%u", IP4_ARGS(mine[a].ip), mine[a].len);
		cmd_line(out, CMD_MODE_CONFIG_IF, "ip address", &(struct cmd_word){ "address", pfx }, 1);
	}
	if (p->conf_mtu && p->conf_mtu != p->base_mtu) {	/* as configured, not as capped */
		snprintf(mtu, sizeof(mtu), "%u", p->conf_mtu);
		cmd_line(out, CMD_MODE_CONFIG_IF, "mtu", &(struct cmd_word){ "mtu", mtu }, 1);
	}
	acl_iface_running_config(out, i);
	rpf_iface_running_config(out, i);
	sflow_iface_running_config(out, i);
	if (!p->admin_up)
		cmd_line(out, CMD_MODE_CONFIG_IF, "shutdown", NULL, 0);
	ob_printf(out, "!\n");
}

static void route_line(struct outbuf *out, const struct static_route *r, const char *target,
		       const char *via, unsigned int weight)
{
	char pfx[INET6_ADDRSTRLEN + 8], metric[12], w[12];
	struct cmd_word words[5] = { { "prefix", pfx }, { "target", target } };
	unsigned int n = 2;

	if (via != NULL)
		words[n++] = (struct cmd_word){ "out", via };
	if (r->family == AF_INET6) {
		inet_ntop(AF_INET6, r->prefix6, pfx, INET6_ADDRSTRLEN);
		snprintf(pfx + strlen(pfx), sizeof(pfx) - strlen(pfx), "/%u", r->len);
	} else {
		snprintf(pfx, sizeof(pfx), IP4_FMT "/%u", IP4_ARGS(r->prefix), r->len);
	}
	if (r->metric) {
		snprintf(metric, sizeof(metric), "%u", r->metric);
		words[n++] = (struct cmd_word){ "distance", metric };
	}
	if (weight > 1) {
		snprintf(w, sizeof(w), "%u", weight);
		words[n++] = (struct cmd_word){ "weight", w };
	}
	cmd_line(out, CMD_MODE_CONFIG, r->family == AF_INET6 ? "ipv6 route" : "ip route", words, n);
}

static const char *drop_name(uint8_t type)
{
	return type == RTN_BLACKHOLE ? "blackhole" : type == RTN_UNREACHABLE ? "unreachable" :
	       "prohibit";
}

static int static_cmp(const void *a, const void *b, void *arg)
{
	const struct static_route *all = arg;
	const struct static_route *x = &all[*(const unsigned int *)a];
	const struct static_route *y = &all[*(const unsigned int *)b];

	if (x->family != y->family)
		return x->family == AF_INET ? -1 : 1;
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if (memcmp(x->prefix6, y->prefix6, 16) != 0)
		return memcmp(x->prefix6, y->prefix6, 16);
	if (x->len != y->len)
		return (int)x->len - (int)y->len;
	return x->metric < y->metric ? -1 : x->metric > y->metric;
}

/* The static routes as configured (whether the kernel holds them now or not), in prefix
 * order: an ECMP route one line a member, with its weight. */
static void static_routes(struct outbuf *out)
{
	const struct static_route *all;
	unsigned int n = statics_routes(&all), i, h, *order;
	char name[INET6_ADDRSTRLEN];

	order = calloc(n ? n : 1, sizeof(*order));
	if (order == NULL)
		return;
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), static_cmp, (void *)all);
	for (i = 0; i < n; i++) {
		const struct static_route *r = &all[order[i]];

		if (r->type != RTN_UNICAST) {
			route_line(out, r, drop_name(r->type), NULL, 1);
			continue;
		}
		for (h = 0; h < r->nb_hops; h++) {
			const struct static_hop *hp = &r->hops[h];

			bool gw = statics_hop_has_gw(hp);

			if (gw && hp->family == AF_INET6)
				inet_ntop(AF_INET6, hp->gw6, name, sizeof(name));
			else if (gw)
				cmd_fmt_ip(hp->gw, name, sizeof(name));
			else
				snprintf(name, sizeof(name), "%s", dp.ports[hp->port].name);
			route_line(out, r, name, gw && hp->port >= 0 ? dp.ports[hp->port].name : NULL,
				   hp->weight);
		}
	}
	free(order);
}

void running_config(struct outbuf *out)
{
	const struct static_arp *arp;
	unsigned int i, na = statics_arps(&arp);
	char ip[INET6_ADDRSTRLEN];

	ob_printf(out, "! tern running configuration\n!\n");
	if (strcmp(cmd_hostname, "tern") != 0) {
		cmd_line(out, CMD_MODE_CONFIG, "hostname", &(struct cmd_word){ "hostname", cmd_hostname }, 1);
		ob_printf(out, "!\n");
	}
	copp_running_config(out);
	acl_running_config(out);
	sflow_running_config(out);
	DP_FOREACH_IFACE(i)
		interface_section(out, i);
	static_routes(out);
	for (i = 0; i < na; i++) {
		char mac[RTE_ETHER_ADDR_FMT_SIZE];

		if (arp[i].family == AF_INET6)
			inet_ntop(AF_INET6, arp[i].ip6, ip, sizeof(ip));
		else
			cmd_fmt_ip(arp[i].ip, ip, sizeof(ip));
		rte_ether_format_addr(mac, sizeof(mac), &arp[i].mac);
		cmd_line(out, CMD_MODE_CONFIG, arp[i].family == AF_INET6 ? "ipv6 neighbor" : "arp",
			 (struct cmd_word[]){ { "address", ip }, { "mac", mac },
			 { "interface", dp.ports[arp[i].port].name } }, 3);
	}
	ob_printf(out, "!\nend\n");
}

/* One configuration line in its section ("" or "interface dp0"). */
struct item {
	char section[64];
	char line[256];
	char key[320];		/* section + the line, or + the keyword for one-value settings */
};

struct items {
	struct item *v;
	unsigned int n;
};

static const char *const one_value[] = { "hostname", "description", "mtu", "shutdown",
					 "encapsulation", NULL };

static int parse_items(const char *text, struct items *it)
{
	char section[64] = "";
	const char *p = text;
	unsigned int cap = 0;

	it->v = NULL;
	it->n = 0;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[256], word[64] = "";
		const char *s;
		unsigned int k;

		snprintf(line, sizeof(line), "%.*s", (int)(len < 255 ? len : 255), p);
		p = nl ? nl + 1 : NULL;
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s == '\0' || *s == '!' || *s == '#' || strcmp(s, "end") == 0)
			continue;
		if (strncmp(s, "interface ", 10) == 0 || strcmp(s, "control-plane") == 0 ||
		    strncmp(s, "ip access-list ", 15) == 0 || strncmp(s, "ipv6 access-list ", 17) == 0) {
			snprintf(section, sizeof(section), "%.63s", s);
			continue;
		}
		if (s == line)
			section[0] = '\0';	/* a top-level line ends the section */
		if (it->n == cap) {
			struct item *g = realloc(it->v, (cap = cap ? cap * 2 : 64) * sizeof(*g));

			if (g == NULL)
				return -ENOMEM;
			it->v = g;
		}
		struct item *i = &it->v[it->n++];

		snprintf(i->section, sizeof(i->section), "%s", section);
		snprintf(i->line, sizeof(i->line), "%s", s);
		sscanf(s, "%63s", word);
		for (k = 0; one_value[k] && strcmp(one_value[k], word) != 0; k++)
			;
		if (strcmp(word, "class") == 0 || strcmp(word, "seq") == 0) {
			/* one value each class, each list's entry: its key "class NAME", "seq N" */
			char name[32] = "";

			sscanf(s, "%*s %31s", name);
			snprintf(i->key, sizeof(i->key), "%s|%s %s", section, word, name);
		} else if (strncmp(s, "ip verify unicast source ", 25) == 0 ||
			   strncmp(s, "ipv6 verify unicast source ", 27) == 0) {
			/* one mode each family: its key without the mode */
			snprintf(i->key, sizeof(i->key), "%s|%s verify", section, word);
		} else if (strncmp(s, "ip access-group ", 16) == 0 ||
			   strncmp(s, "ipv6 traffic-filter ", 20) == 0) {
			/* one list each family and direction: its key without the name */
			char w2[32] = "", dir[8] = "";

			sscanf(s, "%*s %31s %*s %7s", w2, dir);
			snprintf(i->key, sizeof(i->key), "%s|%s %s %s", section, word, w2, dir);
		} else {
			snprintf(i->key, sizeof(i->key), "%s|%s", section, one_value[k] ? word : s);
		}
	}
	return 0;
}

static const struct item *find(const struct items *it, const char *key)
{
	unsigned int i;

	for (i = 0; i < it->n; i++)
		if (strcmp(it->v[i].key, key) == 0)
			return &it->v[i];
	return NULL;
}

/* The command that undoes a line (for one-value settings: back to the default). */
static void negate(const char *line, char *out, size_t len)
{
	char w1[64] = "", w2[64] = "", rest[200] = "";

	sscanf(line, "%63s %63s %199[^\n]", w1, w2, rest);
	if (strcmp(w1, "hostname") == 0)
		snprintf(out, len, "no hostname");
	else if (strcmp(w1, "description") == 0)
		snprintf(out, len, "no description");
	else if (strcmp(w1, "mtu") == 0)
		snprintf(out, len, "no mtu");
	else if (strcmp(w1, "shutdown") == 0)
		snprintf(out, len, "no shutdown");
	else if (strcmp(w1, "arp") == 0)
		snprintf(out, len, "no arp %s", w2);
	else if (strcmp(w1, "class") == 0)
		snprintf(out, len, "no class %s", w2);
	else if (strcmp(w1, "seq") == 0)
		snprintf(out, len, "no seq %s", w2);
	else if (strcmp(w1, "ip") == 0 && strcmp(w2, "route") == 0 && strstr(line, " weight ") != NULL)
		snprintf(out, len, "no %.*s", (int)(strstr(line, " weight ") - line), line);
	else
		snprintf(out, len, "no %s", line);
}

static void emit(struct outbuf *cmds, const char *section, const char *line)
{
	if (*section)
		ob_printf(cmds, "%s\n%s\nexit\n", section, line);
	else
		ob_printf(cmds, "%s\n", line);
}

int config_transition(const char *from, const char *to, struct outbuf *cmds)
{
	struct items a, b;
	unsigned int i;
	char neg[300];
	int rc;

	if ((rc = parse_items(from, &a)) < 0 || (rc = parse_items(to, &b)) < 0) {
		free(a.v);
		return rc;
	}
	for (i = a.n; i-- > 0;) {	/* last added, first removed */
		if (find(&b, a.v[i].key) != NULL)
			continue;
		if (strncmp(a.v[i].line, "encapsulation ", 14) == 0) {
			/* a sub-interface's first line: the sub-interface goes with it */
			ob_printf(cmds, "no %s\n", a.v[i].section);
			continue;
		}
		negate(a.v[i].line, neg, sizeof(neg));
		emit(cmds, a.v[i].section, neg);
	}
	for (i = 0; i < b.n; i++) {
		const struct item *had = find(&a, b.v[i].key);

		if (had == NULL || strcmp(had->line, b.v[i].line) != 0)
			emit(cmds, b.v[i].section, b.v[i].line);
	}
	free(a.v);
	free(b.v);
	return 0;
}
