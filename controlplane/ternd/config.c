/* SPDX-License-Identifier: BSD-3-Clause */
/* Parses and validates ternd.conf; every error is one line naming line, section, key and expectation. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <rte_cfgfile.h>
#include <rte_ether.h>

#include "controlplane/ternd/config_priv.h"

static int parse_mac(const char *s, uint8_t mac[6])
{
	struct rte_ether_addr a;

	if (rte_ether_unformat_addr(s, &a) < 0 || !rte_is_unicast_ether_addr(&a))
		return -EINVAL;	/* a multicast address cannot be a port's own */
	memcpy(mac, a.addr_bytes, sizeof(a.addr_bytes));
	return 0;
}

static bool looks_like_pci(const char *s)
{
	unsigned int dom, bus, dev, fn;
	char tail;

	if (sscanf(s, "%4x:%2x:%2x.%1u%c", &dom, &bus, &dev, &fn, &tail) == 4)
		return true;
	return sscanf(s, "%2x:%2x.%1u%c", &bus, &dev, &fn, &tail) == 3;
}

/* A new entry of cfg->ports for [port NAME] or [bond NAME], its name checked; NULL on error. */
static struct tern_port_config *port_new(struct parse *p, const char *sect, const char *name)
{
	struct tern_port_config *pc;
	const char *s;
	unsigned int i;

	if (*name == '\0' || strlen(name) >= TERN_PORT_NAME_LEN) {
		config_fail(p, "[%s]: a port name must have 1 to %d characters", sect,
			    TERN_PORT_NAME_LEN - 1);
		return NULL;
	}
	for (s = name; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.') {
			config_fail(p, "[%s]: port name '%s' may only hold letters, digits, '_', '-' and '.'",
				    sect, name);
			return NULL;
		}
	for (i = 0; i < p->cfg->nb_ports; i++)
		if (strcmp(p->cfg->ports[i].name, name) == 0) {
			config_fail(p, "[%s]: port '%s' is defined twice", sect, name);
			return NULL;
		}
	if (p->cfg->nb_ports == TERN_MAX_PORTS) {
		config_fail(p, "[%s]: too many ports; at most %d", sect, TERN_MAX_PORTS);
		return NULL;
	}
	pc = &p->cfg->ports[p->cfg->nb_ports++];
	snprintf(pc->name, sizeof(pc->name), "%s", name);
	return pc;
}

/* mac and tap, which a port and a bond both take. */
static int parse_mac_tap(struct parse *p, const char *sect, struct tern_port_config *pc)
{
	const char *s = rte_cfgfile_get_entry(p->file, sect, "mac");

	if (s != NULL) {
		if (parse_mac(s, pc->mac) < 0)
			return config_fail(p, "[%s] mac = '%s': expected a unicast MAC address like 02:00:00:00:00:01",
				    sect, s);
		pc->has_mac = true;
	}
	snprintf(pc->tap, sizeof(pc->tap), "%s", pc->name);
	s = rte_cfgfile_get_entry(p->file, sect, "tap");
	if (s != NULL) {
		if (*s == '\0' || strlen(s) >= TERN_PORT_NAME_LEN || strchr(s, '/') || strchr(s, ' '))
			return config_fail(p, "[%s] tap = '%s': expected an interface name of 1 to %d characters",
				    sect, s, TERN_PORT_NAME_LEN - 1);
		snprintf(pc->tap, sizeof(pc->tap), "%s", s);
	}
	return 0;
}

static int parse_port(struct parse *p, const char *sect, const char *name)
{
	struct tern_port_config *pc = port_new(p, sect, name);
	const char *s;
	int rc;

	if (pc == NULL)
		return -EINVAL;
	if ((rc = config_schema_apply(p, "port", sect, pc)) < 0)
		return rc;	/* rxq, txq (0: one per worker, set once workers are known), mtu, ... */
	s = rte_cfgfile_get_entry(p->file, sect, "dev");
	if (s == NULL || *s == '\0')
		return config_fail(p, "[%s] dev: missing; expected a PCI address (0000:01:00.0) or a vdev string (net_memif0,role=server)",
			    sect);
	snprintf(pc->dev, sizeof(pc->dev), "%s", s);
	pc->is_pci = looks_like_pci(s);
	if (!pc->is_pci && strncmp(s, "net_", 4) != 0)
		return config_fail(p, "[%s] dev = '%s': expected a PCI address (0000:01:00.0) or a vdev string starting with net_",
			    sect, s);
	return parse_mac_tap(p, sect, pc);
}

/* [bond NAME]: after every [port], so that members name ports already read. */
static int parse_bond(struct parse *p, const char *sect, const char *name)
{
	struct tern_port_config *bc = port_new(p, sect, name);
	int n = rte_cfgfile_section_num_entries(p->file, sect), i, rc, bond;
	char buf[CFG_VALUE_LEN], *tok, *save = NULL;
	struct rte_cfgfile_entry *e;
	const char *s;

	if (bc == NULL)
		return -EINVAL;
	bond = bc - p->cfg->ports;
	bc->is_bond = true;
	/* its own keys, and a port's but dev */
	e = n > 0 ? calloc(n, sizeof(*e)) : NULL;
	if (n > 0 && e == NULL)
		return -ENOMEM;
	if (n > 0)
		rte_cfgfile_section_entries(p->file, sect, e, n);
	for (i = 0; i < n; i++)
		if (config_key_find("bond", e[i].name) == NULL &&
		    (config_key_find("port", e[i].name) == NULL || strcmp(e[i].name, "dev") == 0)) {
			snprintf(buf, sizeof(buf), "%s", e[i].name);
			free(e);
			return config_fail(p, "[%s] unknown key '%s'", sect, buf);
		}
	free(e);
	if ((rc = config_schema_apply_keys(p, "port", sect, bc)) < 0 ||
	    (rc = config_schema_apply_keys(p, "bond", sect, bc)) < 0 ||
	    (rc = parse_mac_tap(p, sect, bc)) < 0)
		return rc;
	s = rte_cfgfile_get_entry(p->file, sect, "members");
	if (s == NULL || *s == '\0')
		return config_fail(p, "[%s] members: missing; expected the ports it aggregates, such as members = l0 l1",
				   sect);
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		int m = tern_config_port_index(p->cfg, tok);
		struct tern_port_config *mc = m >= 0 ? &p->cfg->ports[m] : NULL;

		if (mc == NULL || m == bond)
			return config_fail(p, "[%s] members: '%s' is not a port; define it in a [port %s] section",
					   sect, tok, tok);
		if (mc->is_bond)
			return config_fail(p, "[%s] members: '%s' is a bond; members are ports", sect, tok);
		if (mc->member_of)
			return config_fail(p, "[%s] members: port %s is already a member of bond %s",
					   sect, tok, p->cfg->ports[mc->member_of - 1].name);
		mc->member_of = bond + 1;
		bc->members[bc->nb_members++] = m;
	}
	if (bc->nb_members == 0)
		return config_fail(p, "[%s] members: empty; expected the ports it aggregates, such as members = l0 l1",
				   sect);
	return 0;
}

static int parse_rx_list(struct parse *p, const char *sect, struct tern_worker_config *w,
			 const char *list)
{
	char buf[CFG_VALUE_LEN];
	char *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		char *colon = strrchr(tok, ':');
		unsigned long q;
		int port;

		if (colon == NULL)
			return config_fail(p, "[%s] rx = '%s': expected PORT:QUEUE pairs such as dp0:0", sect, tok);
		*colon = '\0';
		port = tern_config_port_index(p->cfg, tok);
		if (port < 0) {
			char known[256] = "";
			unsigned int i;

			for (i = 0; i < p->cfg->nb_ports; i++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known),
					 "%s%s", i ? ", " : "", p->cfg->ports[i].name);
			return config_fail(p, "[%s] rx: port '%s' is not defined; known: %s", sect, tok,
				    p->cfg->nb_ports ? known : "none");
		}
		if (p->cfg->ports[port].member_of)
			return config_fail(p, "[%s] rx: port %s is a member of bond %s; workers poll the bond (%s:0), never its members",
				    sect, tok, p->cfg->ports[p->cfg->ports[port].member_of - 1].name,
				    p->cfg->ports[p->cfg->ports[port].member_of - 1].name);
		if (config_parse_uint(colon + 1, 0, p->cfg->ports[port].rxq - 1, &q) < 0)
			return config_fail(p, "[%s] rx = '%s:%s': port %s has %u rx queue(s); expected a queue from 0 to %u",
				    sect, tok, colon + 1, tok, p->cfg->ports[port].rxq,
				    p->cfg->ports[port].rxq - 1);
		w->rx[w->nb_rx].port = port;
		w->rx[w->nb_rx].queue = q;
		w->nb_rx++;
	}
	if (w->nb_rx == 0)
		return config_fail(p, "[%s] rx: empty; expected PORT:QUEUE pairs such as dp0:0", sect);
	return 0;
}

static int parse_worker(struct parse *p, const char *sect, const char *lcore)
{
	struct tern_worker_config *w;
	unsigned long v;
	unsigned int i;
	const char *s;
	int rc;

	if (config_parse_uint(lcore, 0, 1023, &v) < 0)
		return config_fail(p, "[%s]: expected [worker N] with N an lcore number from 0 to 1023", sect);
	if (v == p->cfg->main_lcore)
		return config_fail(p, "[%s]: lcore %lu is the main (control) lcore; give workers other lcores",
			    sect, v);
	for (i = 0; i < p->cfg->nb_workers; i++)
		if (p->cfg->workers[i].lcore == v)
			return config_fail(p, "[%s]: lcore %lu has two worker sections", sect, v);
	if (p->cfg->nb_workers == TERN_MAX_WORKERS)
		return config_fail(p, "[%s]: too many workers; at most %d", sect, TERN_MAX_WORKERS);
	w = &p->cfg->workers[p->cfg->nb_workers++];
	w->lcore = v;
	if ((rc = config_schema_apply(p, "worker", sect, w)) < 0)
		return rc;	/* rx_burst absent: 0, the dataplane's default */
	s = rte_cfgfile_get_entry(p->file, sect, "rx");
	if (s == NULL)
		return config_fail(p, "[%s] rx: missing; expected PORT:QUEUE pairs such as dp0:0", sect);
	return parse_rx_list(p, sect, w, s);
}

/* Every rx queue of every port is polled by exactly one worker. */
static int check_queue_coverage(struct parse *p)
{
	unsigned int pi, q, wi, r;

	for (pi = 0; pi < p->cfg->nb_ports; pi++) {
		struct tern_port_config *pc = &p->cfg->ports[pi];

		if (pc->member_of)	/* its bond's queues are what workers poll */
			continue;
		for (q = 0; q < pc->rxq; q++) {
			int owner = -1;

			for (wi = 0; wi < p->cfg->nb_workers; wi++) {
				struct tern_worker_config *w = &p->cfg->workers[wi];

				for (r = 0; r < w->nb_rx; r++) {
					if (w->rx[r].port != pi || w->rx[r].queue != q)
						continue;
					if (owner >= 0)
						return config_fail(p, "[worker %u] rx: %s:%u is already polled by worker %d; each queue needs exactly one worker",
							    w->lcore, pc->name, q, owner);
					owner = w->lcore;
				}
			}
			if (owner < 0)
				return config_fail(p, "[port %s]: rx queue %u is polled by no worker; add %s:%u to a [worker N] rx list",
					    pc->name, q, pc->name, q);
		}
		if (pc->txq == 0)
			pc->txq = p->cfg->nb_workers;
		else if (pc->txq < p->cfg->nb_workers)
			return config_fail(p, "[port %s] txq = %u: expected at least %u (one per worker)",
				    pc->name, pc->txq, p->cfg->nb_workers);
	}
	return 0;
}

/* [metrics] listen = PORT (on loopback) or ADDRESS:PORT. */
static int parse_metrics(struct parse *p)
{
	const char *s = rte_cfgfile_get_entry(p->file, "metrics", "listen");
	char addr[INET_ADDRSTRLEN + 8], *colon, *end;
	struct in_addr a;
	unsigned long port;

	p->cfg->metrics_listen[0] = '\0';
	if (s == NULL)
		return 0;
	if (strlen(s) >= sizeof(addr) - 1)
		return config_fail(p, "[metrics] listen = '%s': expected PORT or ADDRESS:PORT", s);
	snprintf(addr, sizeof(addr), "%s", s);
	colon = strrchr(addr, ':');
	port = strtoul(colon ? colon + 1 : addr, &end, 10);
	if (colon)
		*colon = '\0';
	if (*end != '\0' || port < 1 || port > 65535 || (colon && inet_pton(AF_INET, addr, &a) != 1))
		return config_fail(p, "[metrics] listen = '%s': expected PORT or ADDRESS:PORT, such as 9101 or 127.0.0.1:9101",
			    s);
	snprintf(p->cfg->metrics_listen, sizeof(p->cfg->metrics_listen), "%s:%lu",
		 colon ? addr : "127.0.0.1", port);
	return 0;
}

/* [netlink] tables = ID ...: kernel tables mirrored besides local and main, first preferred. */
static int parse_tables(struct parse *p)
{
	const char *v = rte_cfgfile_get_entry(p->file, "netlink", "tables");
	char list[CFG_VALUE_LEN], *tok, *save = NULL;
	unsigned long id;
	unsigned int i;

	if (v == NULL)
		return 0;
	snprintf(list, sizeof(list), "%s", v);
	for (tok = strtok_r(list, " ,\t", &save); tok != NULL; tok = strtok_r(NULL, " ,\t", &save)) {
		if (strcmp(tok, "default") == 0)
			id = RT_TABLE_DEFAULT;
		else if (config_parse_uint(tok, 1, UINT32_MAX, &id) < 0)
			return config_fail(p, "[netlink] tables = '%s': '%s' is not a table number (1 to 4294967295) or default",
				    v, tok);
		if (id == RT_TABLE_MAIN || id == RT_TABLE_LOCAL)
			return config_fail(p, "[netlink] tables = '%s': %lu (%s) is always mirrored; list only other tables",
				    v, id, id == RT_TABLE_MAIN ? "main" : "local");
		for (i = 0; i < p->cfg->nb_tables; i++)
			if (p->cfg->tables[i] == id)
				return config_fail(p, "[netlink] tables = '%s': table %lu is listed twice", v, id);
		if (p->cfg->nb_tables == RIB_MAX_TABLES)
			return config_fail(p, "[netlink] tables = '%s': at most %u tables", v, RIB_MAX_TABLES);
		p->cfg->tables[p->cfg->nb_tables++] = id;
	}
	return 0;
}

/* [control-plane] management_ports = PORT ...: the management class's ports, and the metrics
 * endpoint's. */
static int parse_mgmt_ports(struct parse *p)
{
	const char *v = rte_cfgfile_get_entry(p->file, "control-plane", "management_ports");
	char list[CFG_VALUE_LEN], *tok, *save = NULL;
	const char *colon;
	unsigned long port;
	unsigned int i;

	snprintf(list, sizeof(list), "%s", v ? v : config_key_find("control-plane", "management_ports")->def);
	p->cfg->nb_mgmt_ports = 0;
	for (tok = strtok_r(list, " ,\t", &save); tok != NULL; tok = strtok_r(NULL, " ,\t", &save)) {
		if (config_parse_uint(tok, 1, 65535, &port) < 0)
			return config_fail(p, "[control-plane] management_ports = '%s': '%s' is not a port (1 to 65535)",
					   v, tok);
		for (i = 0; i < p->cfg->nb_mgmt_ports; i++)
			if (p->cfg->mgmt_ports[i] == port)
				return config_fail(p, "[control-plane] management_ports = '%s': port %lu is listed twice",
						   v, port);
		if (p->cfg->nb_mgmt_ports == TERN_MGMT_PORTS_MAX - 1)	/* one left for the metrics' */
			return config_fail(p, "[control-plane] management_ports = '%s': at most %u ports",
					   v, TERN_MGMT_PORTS_MAX - 1);
		p->cfg->mgmt_ports[p->cfg->nb_mgmt_ports++] = (uint16_t)port;
	}
	colon = strrchr(p->cfg->metrics_listen, ':');
	if (colon != NULL)
		p->cfg->mgmt_ports[p->cfg->nb_mgmt_ports++] = (uint16_t)strtoul(colon + 1, NULL, 10);
	return 0;
}

/* The sections without an argument: their keys by the schema, then those of shapes of their own. */
static int parse_globals(struct parse *p)
{
	const struct config_section *sec;
	const char *s;
	int rc;

	for (sec = config_sections; sec->name != NULL; sec++)
		if (sec->arg == NULL && (rc = config_schema_apply(p, sec->name, sec->name, p->cfg)) < 0)
			return rc;
	if ((rc = parse_metrics(p)) < 0 || (rc = parse_tables(p)) < 0 || (rc = parse_mgmt_ports(p)) < 0)
		return rc;
	s = rte_cfgfile_get_entry(p->file, "api", "mode");
	p->cfg->api_mode = 0660;
	if (s != NULL) {
		char *end;

		p->cfg->api_mode = strtoul(s, &end, 8);
		if (*s == '\0' || *end != '\0' || p->cfg->api_mode > 0777 || (p->cfg->api_mode & 0600) != 0600)
			return config_fail(p, "[api] mode = '%s': expected octal permissions such as 0660 (the owner must read and write)",
				    s);
	}
	return 0;
}

static void set_defaults(struct tern_config *cfg, const char *path)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->path, sizeof(cfg->path), "%s", path);
}

static int parse_sections(struct parse *p)
{
	int n = rte_cfgfile_num_sections(p->file, NULL, 0);
	char (*names)[CFG_NAME_LEN];
	char *arg;
	int i, rc = 0;

	if (n <= 0)
		return config_fail(p, "no sections; expected at least [port NAME] and [worker N]");
	names = calloc(n, CFG_NAME_LEN);
	if (names == NULL)
		return -ENOMEM;
	/* rte_cfgfile_sections wants an array of pointers into our names. */
	{
		char **ptrs = calloc(n, sizeof(*ptrs));

		if (ptrs == NULL) {
			free(names);
			return -ENOMEM;
		}
		for (i = 0; i < n; i++)
			ptrs[i] = names[i];
		rte_cfgfile_sections(p->file, ptrs, n);
		free(ptrs);
	}
	for (i = 0; i < n && rc == 0; i++) {
		const char *s = names[i];

		if (strncmp(s, "port ", 5) == 0)
			continue;
		if (strncmp(s, "worker ", 7) == 0 || strncmp(s, "bond ", 5) == 0)
			continue;
		if (config_section_find(s) == NULL || config_section_find(s)->arg != NULL) {
			char expected[256];

			config_sections_expected(expected, sizeof(expected));
			rc = config_fail(p, "[%s]: unknown section; expected %s", s, expected);
		}
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (strncmp(names[i], "port ", 5) == 0) {
			arg = names[i] + 5;
			while (*arg == ' ')
				arg++;
			rc = parse_port(p, names[i], arg);
		}
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (strncmp(names[i], "bond ", 5) == 0) {
			arg = names[i] + 5;
			while (*arg == ' ')
				arg++;
			rc = parse_bond(p, names[i], arg);
		}
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (strncmp(names[i], "worker ", 7) == 0) {
			arg = names[i] + 7;
			while (*arg == ' ')
				arg++;
			rc = parse_worker(p, names[i], arg);
		}
	}
	free(names);
	return rc;
}

int tern_config_load(const char *path, struct tern_config *cfg, char *err, size_t errlen)
{
	struct rte_cfgfile_parameters params = { .comment_character = '#' };
	struct parse p = { .cfg = cfg, .err = err, .errlen = errlen };
	int rc;

	set_defaults(cfg, path);
	if ((rc = config_check_syntax(&p, path)) < 0) {
		free(p.refs);
		return rc;
	}
	p.file = rte_cfgfile_load_with_params(path, 0, &params);
	if (p.file == NULL) {
		free(p.refs);
		return config_fail(&p, "cannot parse the file as INI");
	}
	rc = parse_globals(&p);
	if (rc == 0)
		rc = parse_sections(&p);
	if (rc == 0 && cfg->nb_ports == 0)
		rc = config_fail(&p, "no [port NAME] section; expected at least one port");
	if (rc == 0 && cfg->nb_workers == 0)
		rc = config_fail(&p, "no [worker N] section; expected at least one worker");
	if (rc == 0)
		rc = check_queue_coverage(&p);
	rte_cfgfile_close(p.file);
	free(p.refs);
	return rc;
}

int tern_config_port_index(const struct tern_config *cfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_ports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return i;
	return -ENOENT;
}
