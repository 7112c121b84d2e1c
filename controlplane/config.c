/* Parses and validates ternd.conf; every error is one line naming line, section, key and expectation. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <rte_cfgfile.h>

#include "controlplane/config_priv.h"

static int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end != '\0' || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &tail) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	if (mac[0] & 1)
		return -EINVAL;	/* a multicast address cannot be a port's own */
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

/* An integer key with bounds; absent keys keep *out. */
static int get_uint(struct parse *p, const char *sect, const char *key,
		    unsigned long min, unsigned long max, unsigned long *out)
{
	const char *v = rte_cfgfile_get_entry(p->file, sect, key);

	if (v == NULL)
		return 0;
	if (parse_uint(v, min, max, out) < 0)
		return config_fail(p, "[%s] %s = '%s': expected an integer from %lu to %lu",
			    sect, key, v, min, max);
	return 0;
}

static int check_keys(struct parse *p, const char *sect, const char *const *known)
{
	int n = rte_cfgfile_section_num_entries(p->file, sect);
	struct rte_cfgfile_entry *e;
	int i, k;

	if (n <= 0)
		return 0;
	e = calloc(n, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	rte_cfgfile_section_entries(p->file, sect, e, n);
	for (i = 0; i < n; i++) {
		for (k = 0; known[k] != NULL; k++)
			if (strcmp(e[i].name, known[k]) == 0)
				break;
		if (known[k] == NULL) {
			char name[CFG_NAME_LEN];

			snprintf(name, sizeof(name), "%s", e[i].name);
			free(e);
			return config_fail(p, "[%s] unknown key '%s'", sect, name);
		}
	}
	free(e);
	return 0;
}

static int parse_port(struct parse *p, const char *sect, const char *name)
{
	static const char *const keys[] = { "dev", "rxq", "txq", "mtu", "mac", "tap", "tap_persist", "punt_rate",
					    "punt_burst", NULL };
	struct tern_port_config *pc;
	unsigned long v;
	const char *s;
	int rc;
	unsigned int i;

	if ((rc = check_keys(p, sect, keys)) < 0)
		return rc;
	if (*name == '\0' || strlen(name) >= TERN_PORT_NAME_LEN)
		return config_fail(p, "[%s]: a port name must have 1 to %d characters",
			    sect, TERN_PORT_NAME_LEN - 1);
	for (s = name; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return config_fail(p, "[%s]: port name '%s' may only hold letters, digits, '_', '-' and '.'",
				    sect, name);
	for (i = 0; i < p->cfg->nb_ports; i++)
		if (strcmp(p->cfg->ports[i].name, name) == 0)
			return config_fail(p, "[%s]: port '%s' is defined twice", sect, name);
	if (p->cfg->nb_ports == TERN_MAX_PORTS)
		return config_fail(p, "[%s]: too many ports; at most %d", sect, TERN_MAX_PORTS);

	pc = &p->cfg->ports[p->cfg->nb_ports++];
	snprintf(pc->name, sizeof(pc->name), "%s", name);
	s = rte_cfgfile_get_entry(p->file, sect, "dev");
	if (s == NULL || *s == '\0')
		return config_fail(p, "[%s] dev: missing; expected a PCI address (0000:01:00.0) or a vdev string (net_memif0,role=server)",
			    sect);
	snprintf(pc->dev, sizeof(pc->dev), "%s", s);
	pc->is_pci = looks_like_pci(s);
	if (!pc->is_pci && strncmp(s, "net_", 4) != 0)
		return config_fail(p, "[%s] dev = '%s': expected a PCI address (0000:01:00.0) or a vdev string starting with net_",
			    sect, s);

	v = 1;
	if ((rc = get_uint(p, sect, "rxq", 1, TERN_MAX_RXQ, &v)) < 0)
		return rc;
	pc->rxq = v;
	v = 0;
	if ((rc = get_uint(p, sect, "txq", 1, TERN_MAX_WORKERS + 1, &v)) < 0)
		return rc;
	pc->txq = v;	/* 0: one per worker, set once workers are known */
	v = 1500;
	if ((rc = get_uint(p, sect, "mtu", 68, 9216, &v)) < 0)
		return rc;
	pc->mtu = v;
	s = rte_cfgfile_get_entry(p->file, sect, "mac");
	if (s != NULL) {
		if (parse_mac(s, pc->mac) < 0)
			return config_fail(p, "[%s] mac = '%s': expected a unicast MAC address like 02:00:00:00:00:01",
				    sect, s);
		pc->has_mac = true;
	}
	snprintf(pc->tap, sizeof(pc->tap), "%s", name);
	s = rte_cfgfile_get_entry(p->file, sect, "tap");
	if (s != NULL) {
		if (*s == '\0' || strlen(s) >= TERN_PORT_NAME_LEN || strchr(s, '/') || strchr(s, ' '))
			return config_fail(p, "[%s] tap = '%s': expected an interface name of 1 to %d characters",
				    sect, s, TERN_PORT_NAME_LEN - 1);
		snprintf(pc->tap, sizeof(pc->tap), "%s", s);
	}
	s = rte_cfgfile_get_entry(p->file, sect, "tap_persist");
	if (s != NULL && strcmp(s, "yes") != 0 && strcmp(s, "no") != 0)
		return config_fail(p, "[%s] tap_persist = '%s': expected yes or no", sect, s);
	pc->tap_persist = s != NULL && strcmp(s, "yes") == 0;
	/* enough for routing protocols and ARP, far below what hurts the kernel */
	v = 10000;
	if ((rc = get_uint(p, sect, "punt_rate", 1, 10000000, &v)) < 0)
		return rc;
	pc->punt_rate = v;
	v = 1000;
	if ((rc = get_uint(p, sect, "punt_burst", 1, 1000000, &v)) < 0)
		return rc;
	pc->punt_burst = v;
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
		if (parse_uint(colon + 1, 0, p->cfg->ports[port].rxq - 1, &q) < 0)
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
	static const char *const keys[] = { "rx", "rx_burst", NULL };
	struct tern_worker_config *w;
	unsigned long v;
	unsigned int i;
	const char *s;
	int rc;

	if ((rc = check_keys(p, sect, keys)) < 0)
		return rc;
	if (parse_uint(lcore, 0, 1023, &v) < 0)
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
	v = 0;	/* absent: the dataplane's default */
	if ((rc = get_uint(p, sect, "rx_burst", 1, TERN_RX_BURST_MAX, &v)) < 0)
		return rc;
	w->rx_burst = v;
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

static int get_string(struct parse *p, const char *sect, const char *key, char *dst, size_t len)
{
	const char *v = rte_cfgfile_get_entry(p->file, sect, key);

	if (v == NULL)
		return 0;
	if (*v == '\0' || strlen(v) >= len)
		return config_fail(p, "[%s] %s: expected a value of 1 to %zu characters", sect, key, len - 1);
	snprintf(dst, len, "%s", v);
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
		else if (parse_uint(tok, 1, UINT32_MAX, &id) < 0)
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

static int parse_globals(struct parse *p)
{
	static const char *const eal_keys[] = { "args", "main_lcore", NULL };
	static const char *const api_keys[] = { "socket", "mode", "idle_timeout", "request_timeout",
						"reply_timeout", "reply_queue_max", "reply_queue_total",
						NULL };
	static const char *const store_keys[] = { "db", NULL };
	static const char *const mp_keys[] = { "mbufs", "cache", NULL };
	static const char *const fib_keys[] = { "routes", NULL };
	static const char *const log_keys[] = { "syslog", NULL };
	static const char *const nl_keys[] = { "rcvbuf", "tables", "batch_interval_us", NULL };
	static const char *const metrics_keys[] = { "listen", NULL };
	static const char *const exc_keys[] = { "idle_sleep_max_ms", NULL };
	static const char *const capture_keys[] = { "dir", NULL };
	static const char *const neigh_keys[] = { "max", NULL };
	static const char *const memif_keys[] = { "peer_memory", NULL };
	unsigned long v;
	const char *s;
	int rc;

	if ((rc = check_keys(p, "eal", eal_keys)) < 0 || (rc = check_keys(p, "api", api_keys)) < 0 ||
	    (rc = check_keys(p, "store", store_keys)) < 0 ||
	    (rc = check_keys(p, "mempool", mp_keys)) < 0 ||
	    (rc = check_keys(p, "fib", fib_keys)) < 0 || (rc = check_keys(p, "log", log_keys)) < 0 ||
	    (rc = check_keys(p, "netlink", nl_keys)) < 0 ||
	    (rc = check_keys(p, "metrics", metrics_keys)) < 0 ||
	    (rc = check_keys(p, "exception", exc_keys)) < 0 ||
	    (rc = check_keys(p, "capture", capture_keys)) < 0 ||
	    (rc = check_keys(p, "neighbours", neigh_keys)) < 0 ||
	    (rc = check_keys(p, "memif", memif_keys)) < 0)
		return rc;
	if ((rc = parse_metrics(p)) < 0)
		return rc;
	if ((rc = get_string(p, "eal", "args", p->cfg->eal_args, sizeof(p->cfg->eal_args))) < 0)
		return rc;
	v = 0;
	if ((rc = get_uint(p, "eal", "main_lcore", 0, 1023, &v)) < 0)
		return rc;
	p->cfg->main_lcore = v;
	if ((rc = get_string(p, "api", "socket", p->cfg->api_socket, sizeof(p->cfg->api_socket))) < 0)
		return rc;
	if ((rc = get_string(p, "store", "db", p->cfg->store_db, sizeof(p->cfg->store_db))) < 0)
		return rc;
	if ((rc = get_string(p, "capture", "dir", p->cfg->capture_dir, sizeof(p->cfg->capture_dir))) < 0)
		return rc;
	if (p->cfg->capture_dir[0] != '/')
		return config_fail(p, "[capture] dir = '%s': expected an absolute path", p->cfg->capture_dir);
	s = rte_cfgfile_get_entry(p->file, "api", "mode");
	p->cfg->api_mode = 0660;
	if (s != NULL) {
		char *end;

		p->cfg->api_mode = strtoul(s, &end, 8);
		if (*s == '\0' || *end != '\0' || p->cfg->api_mode > 0777 || (p->cfg->api_mode & 0600) != 0600)
			return config_fail(p, "[api] mode = '%s': expected octal permissions such as 0660 (the owner must read and write)",
				    s);
	}
	v = 1800;
	if ((rc = get_uint(p, "api", "idle_timeout", 0, 7 * 86400, &v)) < 0)
		return rc;
	p->cfg->api_limits.idle_timeout_s = v;
	v = 10;
	if ((rc = get_uint(p, "api", "request_timeout", 1, 3600, &v)) < 0)
		return rc;
	p->cfg->api_limits.request_timeout_s = v;
	v = 30;
	if ((rc = get_uint(p, "api", "reply_timeout", 1, 3600, &v)) < 0)
		return rc;
	p->cfg->api_limits.reply_timeout_s = v;
	v = 64u << 20;
	if ((rc = get_uint(p, "api", "reply_queue_max", 1u << 20, 1u << 30, &v)) < 0)
		return rc;
	p->cfg->api_limits.reply_queue_max = v;
	v = 128u << 20;
	if ((rc = get_uint(p, "api", "reply_queue_total", 1u << 20, 4ul << 30, &v)) < 0)
		return rc;
	p->cfg->api_limits.reply_queue_total = v;
	v = 32768;
	if ((rc = get_uint(p, "mempool", "mbufs", 1024, 16u << 20, &v)) < 0)
		return rc;
	p->cfg->mbufs = v;
	v = 256;
	if ((rc = get_uint(p, "mempool", "cache", 0, 512, &v)) < 0)
		return rc;
	p->cfg->mbuf_cache = v;
	v = 1u << 21;
	if ((rc = get_uint(p, "fib", "routes", 1024, 1u << 24, &v)) < 0)
		return rc;
	p->cfg->fib_routes = v;
	v = 65536;
	if ((rc = get_uint(p, "neighbours", "max", 1024, 1u << 20, &v)) < 0)
		return rc;
	p->cfg->max_neighbours = v;
	/* an Internet table's worth of notifications in flight */
	v = 64u << 20;
	if ((rc = get_uint(p, "netlink", "rcvbuf", 4096, 1u << 30, &v)) < 0)
		return rc;
	p->cfg->netlink_rcvbuf = v;
	v = 1000;
	if ((rc = get_uint(p, "netlink", "batch_interval_us", 0, 100000, &v)) < 0)
		return rc;
	p->cfg->netlink_batch_us = v;
	v = 1;
	if ((rc = get_uint(p, "exception", "idle_sleep_max_ms", 1, 100, &v)) < 0)
		return rc;
	p->cfg->exception_idle_ms = v;
	if ((rc = parse_tables(p)) < 0)
		return rc;
	s = rte_cfgfile_get_entry(p->file, "memif", "peer_memory");
	if (s != NULL) {
		if (strcmp(s, "any") == 0)
			p->cfg->memif_accept_unsealed = true;
		else if (strcmp(s, "sealed") != 0)
			return config_fail(p, "[memif] peer_memory = '%s': expected sealed or any", s);
	}
	s = rte_cfgfile_get_entry(p->file, "log", "syslog");
	if (s != NULL) {
		if (strcmp(s, "yes") == 0)
			p->cfg->log_syslog = true;
		else if (strcmp(s, "no") != 0)
			return config_fail(p, "[log] syslog = '%s': expected yes or no", s);
	}
	return 0;
}

static void set_defaults(struct tern_config *cfg, const char *path)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->path, sizeof(cfg->path), "%s", path);
	snprintf(cfg->api_socket, sizeof(cfg->api_socket), "%s", "/run/tern/ternd.sock");
	snprintf(cfg->capture_dir, sizeof(cfg->capture_dir), "%s", "/var/lib/tern/captures");
	snprintf(cfg->store_db, sizeof(cfg->store_db), "%s", TERN_DEFAULT_DB);
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
		if (strncmp(s, "worker ", 7) == 0)
			continue;
		if (strcmp(s, "eal") && strcmp(s, "api") && strcmp(s, "store") &&
		    strcmp(s, "mempool") && strcmp(s, "fib") && strcmp(s, "neighbours") && strcmp(s, "memif") &&
		    strcmp(s, "log") && strcmp(s, "netlink") && strcmp(s, "metrics") &&
		    strcmp(s, "exception") && strcmp(s, "capture"))
			rc = config_fail(p, "[%s]: unknown section; expected eal, port NAME, worker N, mempool, fib, neighbours, memif, netlink, exception, api, store, log, metrics or capture",
				  s);
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
