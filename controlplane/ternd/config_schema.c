/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every section and key of ternd.conf, said once: type, range, default and help.
 *
 * The parser reads plain keys by this table and refuses keys and sections it does not
 * list; the keys whose value has a shape of its own (a device, a MAC, an rx list, a list of
 * tables, a listen address, octal permissions) are read by config.c, but are listed here all
 * the same. The man page's sections are printed from it (`ternd --config-reference`, `make
 * man`), and test_config_schema holds docs/man/ternd.conf.5 and etc/ternd.conf to it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/ternd/config_priv.h"
#include "dataplane/dp.h"

#define CFG(member) offsetof(struct tern_config, member), sizeof(((struct tern_config *)0)->member)
#define PORT(member) offsetof(struct tern_port_config, member), \
	sizeof(((struct tern_port_config *)0)->member)
#define WORKER(member) offsetof(struct tern_worker_config, member), \
	sizeof(((struct tern_worker_config *)0)->member)
#define API(member) offsetof(struct tern_config, api_limits.member), \
	sizeof(((struct api_limits *)0)->member)
#define OWN 0, 0	/* read by config.c */

const struct config_section config_sections[] = {
	{ "eal", NULL, "EAL, and the control thread's lcore." },
	{ "port", "NAME", "One per port. NAME (1 to 15 letters, digits, '_', '-', '.') is also the name of its kernel interface unless tap says otherwise." },
	{ "bond", "NAME", "A link aggregate of ports, on DPDK's bonding driver (LACP is DPDK's). Workers poll it (rx = NAME:0), never its members; it has one kernel interface, named NAME unless tap says otherwise, and its members none. It also takes the keys of [port] but dev: rxq, txq, mtu, mac, tap, tap_persist, punt_rate and punt_burst." },
	{ "worker", "N", "A forwarding worker pinned on lcore N (not the main lcore). Every rx queue of every port is polled by exactly one worker." },
	{ "mempool", NULL, "Packet buffers, per NUMA socket with ports." },
	{ "fib", NULL, "The forwarding table." },
	{ "fib6", NULL, "The IPv6 forwarding table." },
	{ "interfaces", NULL, "The interfaces ternd holds: ports, bonds and their members, and sub-interfaces." },
	{ "neighbours", NULL, "The neighbours mirrored from the kernel." },
	{ "acl", NULL, "Access lists (ip access-list, ipv6 access-list in the shell), compiled by DPDK's classifier (rte_acl)." },
	{ "memif", NULL, "What a memif server port accepts from its peers." },
	{ "netlink", NULL, "The kernel mirror." },
	{ "exception", NULL, "The exception service between the workers and the kernel." },
	{ "control-plane", NULL, "Control-plane policing: what is punted to the kernel is classed in the workers (routing: BGP, OSPF, BFD, VRRP; neighbour: ARP, IPv6 ND and MLD; management; ICMP to the router; next hops the kernel must resolve; and the rest, policed by each port's punt_rate), each class with a policer of its own on every port and a ring of its own, served in that order, so that a flood of one class never takes another's share. ARP and IPv6 ND from a MAC the router has resolved go with the routing class, 10 frames a second each such MAC at most, so that the router and its peers keep confirming each other through a flood of the neighbour class. The shell's control-plane mode (class NAME rate PPS burst N) changes a class's rate on every port while ternd runs." },
	{ "api", NULL, "The socket the shell talks to. Of 64 sessions, the last 4 are root's." },
	{ "store", NULL, "The configuration database." },
	{ "log", NULL, "Logging." },
	{ "metrics", NULL, "The OpenMetrics endpoint." },
	{ "snmp", NULL, "SNMP: ternd serves IF-MIB's ifTable and ifXTable for its interfaces, and IP-MIB's ipAddressTable and inetCidrRouteNumber, as an AgentX subagent of the system's snmpd (net-snmp)." },
	{ "capture", NULL, "Packet captures." },
	{ 0 },
};

const struct config_key config_keys[] = {
	{ "eal", "args", CFG_STRING, 0, 0, NULL, NULL, CFG(eal_args),
	  "extra EAL arguments. ternd adds --vdev or -a for each port, --no-pci when no port is a PCI device (so the host's own NICs are never probed), -l with the main and worker lcores unless given, and --file-prefix tern (so dpdk-dumpcap, dpdk-proc-info and dpdk-telemetry.py find ternd).", NULL },
	{ "eal", "main_lcore", CFG_UINT, 0, 1023, "0", NULL, CFG(main_lcore),
	  "the control thread's lcore; workers must use others.", NULL },

	{ "port", "dev", CFG_OWN, 0, 0, NULL, "required", OWN,
	  "a PCI address (0000:03:00.0) or a DPDK vdev string (net_memif0,role=server,...).", NULL },
	{ "port", "rxq", CFG_UINT, 1, TERN_MAX_RXQ, "1", NULL, PORT(rxq),
	  "receive queues, spread by RSS where the device has it.", NULL },
	{ "port", "txq", CFG_UINT, 1, TERN_MAX_WORKERS + 1, NULL, "default: one per worker", PORT(txq),
	  "transmit queues, at least one per worker (what the kernel sends out of the port leaves through the first worker).", NULL },
	{ "port", "mtu", CFG_UINT, DP_MTU_MIN, DP_MTU_MAX, "1500", NULL, PORT(mtu),
	  "the port's MTU; the port must take it (its driver's range; memif and TAP carry up to 9216). Every packet buffer holds a frame of the largest mtu of all ports: jumbo frames cost memory, not speed. A larger MTU set while ternd runs takes effect at once on a port whose driver chains buffers (TAP, memif, most NICs), its frames then chains of them.", NULL },
	{ "port", "mac", CFG_OWN, 0, 0, NULL, "default: the device's; a virtual device (net_tap, net_memif, ...) gets one derived from the machine-id and the port's name, the same at every start", OWN,
	  "the port's MAC, a unicast address such as 02:00:00:00:00:01.", NULL },
	{ "port", "tap", CFG_OWN, 0, 0, NULL, "default: NAME", OWN,
	  "the name of the port's kernel interface.", NULL },
	{ "port", "tap_persist", CFG_CHOICE, 0, 0, "no", NULL, PORT(tap_persist),
	  "yes: the kernel interface outlives ternd, with its addresses, neighbours and the kernel's routes through it, and the next ternd takes it over (give the port a fixed mac: a new MAC flushes the neighbours).", "no|yes" },
	{ "port", "punt_rate", CFG_UINT, 1, TERN_PUNT_RATE_MAX, "10000", NULL, PORT(punt_rate),
	  "packets a second the policer in front of the kernel lets through of what no other class of control-plane policing takes ([control-plane]).", NULL },
	{ "port", "punt_burst", CFG_UINT, 1, TERN_PUNT_BURST_MAX, "1000", NULL, PORT(punt_burst),
	  "the policer's burst.", NULL },

	{ "bond", "members", CFG_OWN, 0, 0, NULL, "required", OWN,
	  "its member ports, each defined in a [port] section of its own and in no other bond, separated by spaces: members = l0 l1.", NULL },
	{ "bond", "mode", CFG_CHOICE, 0, 0, "802.3ad", NULL, PORT(bond_mode),
	  "802.3ad (LACP), active-backup (one member carries traffic, the next takes over when its link goes down) or balance-xor (members by xmit_hash, no LACP).",
	  "802.3ad|active-backup|balance-xor" },
	{ "bond", "xmit_hash", CFG_CHOICE, 0, 0, "l2", NULL, PORT(xmit_hash),
	  "how 802.3ad and balance-xor spread frames over the members: by MAC addresses (l2), and IPv4 addresses (l23), or IPv4 addresses and ports (l34).",
	  "l2|l23|l34" },
	{ "bond", "lacp_rate", CFG_CHOICE, 0, 0, "slow", NULL, PORT(lacp_rate),
	  "802.3ad: slow sends LACPDUs every 30 s and expires a partner silent 90 s; fast every second and after 3 s. DPDK 22.11 never asks the partner to send fast (its actor's LACP timeout bit stays long): fast needs a partner that sends fast itself, as ternd with lacp_rate fast does.",
	  "slow|fast" },
	{ "worker", "rx", CFG_OWN, 0, 0, NULL, "required", OWN,
	  "the PORT:QUEUE pairs the worker polls, such as dp0:0 dp1:0.", NULL },
	{ "worker", "rx_burst", CFG_UINT, 1, TERN_RX_BURST_MAX, NULL, "default 128, the dataplane's", WORKER(rx_burst),
	  "the most packets one poll of a queue takes, so the longest vector the worker's graph walks. Bigger bursts forward more per cycle when the worker is at its limit; smaller ones bound how long one vector holds it.", NULL },

	{ "mempool", "mbufs", CFG_UINT, 1024, 16u << 20, "32768", NULL, CFG(mbufs),
	  "packet buffers per NUMA socket with ports.", NULL },
	{ "mempool", "cache", CFG_UINT, 0, 512, "256", NULL, CFG(mbuf_cache),
	  "buffers each lcore keeps at hand.", NULL },

	{ "fib", "routes", CFG_UINT, 1024, 1u << 24, "2097152", NULL, CFG(fib_routes),
	  "the FIB's capacity in routes (an Internet table is about 1M).", NULL },
	{ "fib6", "max_routes", CFG_UINT, 1024, 1u << 20, "262144", NULL, CFG(fib6_routes),
	  "the IPv6 FIB's capacity in routes (an IPv6 Internet table is about 220 000). Its two copies take 128 MiB, and about 2.6 KiB a route (show memory).", NULL },

	{ "interfaces", "max", CFG_UINT, DP_IFACES_MIN, DP_MAX_IFACES, "16384", NULL, CFG(max_interfaces),
	  "interfaces in all: ports, bonds and their members, and sub-interfaces (up to 4094 a port, in 802.1Q and in QinQ). Every per-interface table is made for this many at start, in ordinary memory whose pages are touched only as interfaces use them (show memory); beyond it a new sub-interface is refused with a sentence.", NULL },
	{ "neighbours", "max", CFG_UINT, 1024, 1u << 20, "65536", NULL, CFG(max_neighbours),
	  "neighbours mirrored from the kernel; beyond it a neighbour is refused and counted (show memory, show netlink).", NULL },

	{ "acl", "memory_mb", CFG_UINT, 1, 1024, "64", NULL, CFG(acl_memory_mb),
	  "MiB the classifier may take for one access list; a change to a bound list that would need more is refused with a sentence and the list stays as it was (64 MiB hold 8 000 entries of random prefixes and port ranges).", NULL },

	{ "memif", "peer_memory", CFG_CHOICE, 0, 0, "sealed", NULL, CFG(memif_accept_unsealed),
	  "sealed: a memif server port maps a peer's region only from a file at least its size and sealed against shrinking (F_SEAL_SHRINK), as the memfds of DPDK's memif PMD and libmemif are; any other is refused, logged and counted. any: also files that may shrink, such as the hugepage files a DPDK zero-copy client offers: only for peers trusted not to cut them (a local traffic generator).", "sealed|any" },

	{ "netlink", "rcvbuf", CFG_UINT, 4096, 1u << 30, "67108864", NULL, CFG(netlink_rcvbuf),
	  "bytes of receive buffer for the kernel mirror's socket (set with SO_RCVBUFFORCE); if it ever overflows, ternd resynchronises from a full dump.", NULL },
	{ "netlink", "batch_interval_us", CFG_UINT, 0, 100000, "1000", NULL, CFG(netlink_batch_us),
	  "the least time in microseconds between two batches of kernel changes applied to the FIB. Each batch costs one wait for every worker's next loop; changes closer together go in together. A change after a quiet spell goes in at once, and the shell applies whatever waits before it answers. 0 applies every read of the socket as it comes.", NULL },
	{ "netlink", "batch_interval_max_us", CFG_UINT, 0, 100000, "8000", NULL, CFG(netlink_batch_max_us),
	  "the most that time grows to while changes keep coming: when a wait ends with changes waiting the next wait doubles, up to this; a wait that ends with nothing new, or a change after a quiet spell, brings it back to batch_interval_us. Fewer, larger batches cost the control thread less CPU a change (a full table in bench/mirror_scale.sh: about a tenth less at 8000 than at 1000); the FIB then lags the kernel by up to this much during a burst, and rcvbuf must hold what the kernel sends meanwhile (about 830 bytes a route: 64 MiB holds 8 ms of 10M routes a second). Below batch_interval_us it is batch_interval_us; with batch_interval_us at 0 there is no wait at all.", NULL },
	{ "netlink", "tables", CFG_OWN, 0, 0, NULL, "default: none", OWN,
	  "kernel tables mirrored besides local and main: up to 8 numbers (or default), separated by spaces or commas, merged into the one FIB. For the same prefix local wins, then main, then these in the order listed; across prefixes the longest match wins.", NULL },

	{ "exception", "idle_sleep_max_ms", CFG_UINT, 1, 100, "1", NULL, CFG(exception_idle_ms),
	  "the longest sleep in milliseconds of the idle exception service between polls of the workers' punt rings, so how long a packet for the kernel may wait after a quiet spell. 1 costs about 3 % of the service's CPU; raise it where that CPU is also a worker's.", NULL },

	{ "control-plane", "routing_rate", CFG_UINT, 1, TERN_PUNT_RATE_MAX, "20000", NULL, CFG(copp_rate[0]),
	  "packets a second of BGP (TCP 179 either way), OSPF (protocol 89), BFD (UDP 3784, 3785, 4784) and VRRP (protocol 112) to the router, in either family that each port lets through to the kernel.", NULL },
	{ "control-plane", "routing_burst", CFG_UINT, 1, TERN_PUNT_BURST_MAX, "5000", NULL, CFG(copp_burst[0]),
	  "the routing policer's burst.", NULL },
	{ "control-plane", "neighbour_rate", CFG_UINT, 1, TERN_PUNT_RATE_MAX, "2000", NULL, CFG(copp_rate[1]),
	  "packets a second of ARP, IPv6 Neighbour Discovery and MLD that each port lets through to the kernel.", NULL },
	{ "control-plane", "neighbour_burst", CFG_UINT, 1, TERN_PUNT_BURST_MAX, "500", NULL, CFG(copp_burst[1]),
	  "the neighbour policer's burst.", NULL },
	{ "control-plane", "management_rate", CFG_UINT, 1, TERN_PUNT_RATE_MAX, "1000", NULL, CFG(copp_rate[2]),
	  "packets a second of TCP and UDP to the router on a management port (management_ports) that each port lets through to the kernel.", NULL },
	{ "control-plane", "management_burst", CFG_UINT, 1, TERN_PUNT_BURST_MAX, "200", NULL, CFG(copp_burst[2]),
	  "the management policer's burst.", NULL },
	{ "control-plane", "icmp_rate", CFG_UINT, 1, TERN_PUNT_RATE_MAX, "1000", NULL, CFG(copp_rate[3]),
	  "packets a second of ICMP and ICMPv6 to the router, ND and MLD aside that each port lets through to the kernel.", NULL },
	{ "control-plane", "icmp_burst", CFG_UINT, 1, TERN_PUNT_BURST_MAX, "200", NULL, CFG(copp_burst[3]),
	  "the icmp policer's burst.", NULL },
	{ "control-plane", "resolve_rate", CFG_UINT, 1, TERN_PUNT_RATE_MAX, "1000", NULL, CFG(copp_rate[4]),
	  "packets a second of transit packets whose next hop the kernel must resolve that each port lets through to the kernel.", NULL },
	{ "control-plane", "resolve_burst", CFG_UINT, 1, TERN_PUNT_BURST_MAX, "200", NULL, CFG(copp_burst[4]),
	  "the resolve policer's burst.", NULL },
	{ "control-plane", "management_ports", CFG_OWN, 0, 0, "22 161", NULL, OWN,
	  "the TCP and UDP ports of the management class, up to 16, separated by spaces or commas: SSH and SNMP by default; the metrics endpoint's port (metrics listen) joins them.", NULL },

	{ "api", "socket", CFG_STRING, 0, 0, "/run/tern/ternd.sock", NULL, CFG(api_socket),
	  "the socket's path. A socket file left by a ternd that died is replaced; any other file at the path stops ternd with a sentence.", NULL },
	{ "api", "mode", CFG_OWN, 0, 0, "0660", NULL, OWN,
	  "the socket's permissions, octal; the owner must read and write. 0666 lets any local user read, never configure.", NULL },
	{ "api", "idle_timeout", CFG_UINT, 0, 7 * 86400, "1800", NULL, API(idle_timeout_s),
	  "seconds without a request after which a session is closed; 0: never.", NULL },
	{ "api", "request_timeout", CFG_UINT, 1, 3600, "10", NULL, API(request_timeout_s),
	  "seconds within which a message begun must be whole.", NULL },
	{ "api", "reply_timeout", CFG_UINT, 1, 3600, "30", NULL, API(reply_timeout_s),
	  "seconds within which a client must take its queued replies.", NULL },
	{ "api", "reply_queue_max", CFG_UINT, 1u << 20, 1u << 30, "67108864", NULL, API(reply_queue_max),
	  "bytes of unread replies (a job's output among them) past which a client is closed.", NULL },
	{ "api", "reply_queue_total", CFG_UINT, 1u << 20, 4ul << 30, "134217728", NULL, API(reply_queue_total),
	  "bytes of all clients' unread replies together past which the client that adds to them is closed.", NULL },

	{ "store", "db", CFG_STRING, 0, 0, TERN_DEFAULT_DB, NULL, CFG(store_db),
	  "the configuration database (sqlite3, WAL).", NULL },

	{ "log", "syslog", CFG_CHOICE, 0, 0, "no", NULL, CFG(log_syslog),
	  "yes: log to syslog (daemon facility) as well as to stderr.", "no|yes" },

	{ "metrics", "listen", CFG_OWN, 0, 0, NULL, "default: no endpoint", OWN,
	  "PORT (on 127.0.0.1) or ADDRESS:PORT, in ternd's network namespace: ternd serves its counters as OpenMetrics text at http://ADDRESS:PORT/metrics; a router of more than 1024 interfaces in pages of 1024, /metrics?page=N (tern_metrics_pages says how many).", NULL },

	{ "snmp", "agentx", CFG_PATH, 0, 0, NULL, "default: no subagent", CFG(snmp_agentx),
	  "the AgentX master's socket, an absolute path (net-snmp's snmpd: master agentx, agentXSocket; /var/agentx/master by default). ternd connects to it as a subagent and serves a row of ifTable and ifXTable for each port, bond, bond member and sub-interface, ifIndex the ifindex of its kernel interface (a bond member's, which has none, 1000000000 plus its slot), IP-MIB's ipAddressTable (the interfaces' addresses, both families) and inetCidrRouteNumber (the RIB's routes), and sends linkUp and linkDown notifications for ports, bonds and members; a master that is absent or goes away is connected to every 5 s. snmpd must be told to leave those to ternd: snmpd -I -ifTable,ifXTable,ipAddressTable,inetCidrRouteTable (ternd(8), SNMP; /usr/share/tern/snmp).", NULL },

	{ "capture", "dir", CFG_PATH, 0, 0, "/var/lib/tern/captures", NULL, CFG(capture_dir),
	  "the only directory capture writes into, an absolute path. ternd makes it (mode 0750) and refuses one that is not its own or that others may write.", NULL },
	{ 0 },
};

const struct config_section *config_section_find(const char *kind)
{
	const struct config_section *s;

	for (s = config_sections; s->name != NULL; s++)
		if (strcmp(s->name, kind) == 0)
			return s;
	return NULL;
}

const struct config_key *config_key_find(const char *kind, const char *key)
{
	const struct config_key *k;

	for (k = config_keys; k->section != NULL; k++)
		if (strcmp(k->section, kind) == 0 && strcmp(k->name, key) == 0)
			return k;
	return NULL;
}

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

int config_parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	return parse_uint(s, min, max, out);
}

static void store_uint(void *field, size_t size, unsigned long v)
{
	switch (size) {
	case 1: *(uint8_t *)field = v; break;
	case 2: *(uint16_t *)field = v; break;
	case 4: *(uint32_t *)field = v; break;
	default: *(uint64_t *)field = v; break;
	}
}

/* The index of value among "a|b|c", or -1. */
static int choice_index(const char *choices, const char *value)
{
	size_t n = strlen(value);
	const char *c = choices;
	int i;

	for (i = 0; c != NULL; i++, c = strchr(c, '|') ? strchr(c, '|') + 1 : NULL)
		if (strncmp(c, value, n) == 0 && (c[n] == '|' || c[n] == '\0'))
			return i;
	return -1;
}

static int apply_key(struct parse *p, const struct config_key *k, const char *sect, const char *v,
		     void *field)
{
	unsigned long u;
	int i;

	switch (k->type) {
	case CFG_UINT:
		if (parse_uint(v, k->min, k->max, &u) < 0)
			return config_fail(p, "[%s] %s = '%s': expected an integer from %lu to %lu",
					   sect, k->name, v, k->min, k->max);
		store_uint(field, k->size, u);
		return 0;
	case CFG_PATH:
		if (*v != '/')
			return config_fail(p, "[%s] %s = '%s': expected an absolute path", sect, k->name, v);
		/* fall through */
	case CFG_STRING:
		if (*v == '\0' || strlen(v) >= k->size)
			return config_fail(p, "[%s] %s: expected a value of 1 to %zu characters", sect,
					   k->name, k->size - 1);
		snprintf(field, k->size, "%s", v);
		return 0;
	case CFG_CHOICE:
		i = choice_index(k->choices, v);
		if (i < 0) {
			char alts[64];
			char *bar;

			snprintf(alts, sizeof(alts), "%s", k->choices);
			bar = strrchr(alts, '|');
			*bar = '\0';
			return config_fail(p, "[%s] %s = '%s': expected %s or %s", sect, k->name, v,
					   alts, bar + 1);
		}
		store_uint(field, k->size, i);
		return 0;
	case CFG_OWN:
		break;
	}
	return 0;
}

int config_schema_apply(struct parse *p, const char *kind, const char *sect, void *base)
{
	int n = rte_cfgfile_section_num_entries(p->file, sect);
	struct rte_cfgfile_entry *e;
	int i;

	if (n > 0) {
		e = calloc(n, sizeof(*e));
		if (e == NULL)
			return -ENOMEM;
		rte_cfgfile_section_entries(p->file, sect, e, n);
		for (i = 0; i < n; i++) {
			if (config_key_find(kind, e[i].name) == NULL) {
				char name[CFG_NAME_LEN];

				snprintf(name, sizeof(name), "%s", e[i].name);
				free(e);
				return config_fail(p, "[%s] unknown key '%s'", sect, name);
			}
		}
		free(e);
	}
	return config_schema_apply_keys(p, kind, sect, base);
}

int config_schema_apply_keys(struct parse *p, const char *kind, const char *sect, void *base)
{
	const struct config_key *k;
	int rc;

	for (k = config_keys; k->section != NULL; k++) {
		const char *v;

		if (strcmp(k->section, kind) != 0 || k->type == CFG_OWN)
			continue;
		v = rte_cfgfile_get_entry(p->file, sect, k->name);
		if (v == NULL)
			v = k->def;
		if (v == NULL)
			continue;
		rc = apply_key(p, k, sect, v, (char *)base + k->offset);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int config_sections_expected(char *buf, size_t len)
{
	const struct config_section *s;
	size_t at = 0;

	for (s = config_sections; s->name != NULL && at < len; s++)
		at += snprintf(buf + at, len - at, "%s%s%s%s", s == config_sections ? "" :
			       s[1].name == NULL ? " or " : ", ", s->name, s->arg ? " " : "",
			       s->arg ? s->arg : "");
	return at < len ? 0 : -ENOSPC;
}

/* Text for a man page: '-' as a hyphen-minus, a backslash escaped, no line begun by '.'. */
static void man_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else
			fputc(*s, out);
	}
}

static void man_key(FILE *out, const struct config_key *k)
{
	fprintf(out, ".TP\n.B %s\n(", k->name);
	if (k->type == CFG_UINT)
		fprintf(out, "%lu..%lu; ", k->min, k->max);
	if (k->type == CFG_CHOICE) {
		man_text(out, k->choices);
		fputs("; ", out);
	}
	if (k->def != NULL) {
		fputs("default ", out);
		man_text(out, k->def);
	} else if (k->absent != NULL) {
		man_text(out, k->absent);
	} else {
		fputs("no default", out);
	}
	fputs(")\n", out);
	man_text(out, k->help);
	fputc('\n', out);
}

void tern_config_reference(FILE *out)
{
	const struct config_section *s;
	const struct config_key *k;

	fputs(".\\\" Made by `make man` (ternd --config-reference) from controlplane/ternd/config_schema.c.\n"
	      ".TH TERND.CONF 5 \"2026\" \"tern\" \"File Formats\"\n"
	      ".SH NAME\n"
	      "ternd.conf \\- configuration of the tern router daemon\n"
	      ".SH DESCRIPTION\n"
	      "An INI file read with DPDK's rte_cfgfile; comments start with \\fB#\\fR.\n"
	      "Unknown sections and keys are errors. Every error is reported as one line\n"
	      "naming the file, the line, the section, the key and what was expected, and\n"
	      ".BR ternd (8)\n"
	      "exits with status 2 without starting anything.\n"
	      "\\fBternd \\-\\-check\\-config \\-f\\fR \\fIFILE\\fR checks a file offline.\n"
	      ".SH SECTIONS\n", out);
	for (s = config_sections; s->name != NULL; s++) {
		fprintf(out, ".SS [%s%s%s]\n", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
		man_text(out, s->help);
		fputc('\n', out);
		for (k = config_keys; k->section != NULL; k++)
			if (strcmp(k->section, s->name) == 0)
				man_key(out, k);
	}
	fputs(".SH FILES\n/etc/tern/ternd.conf\n.SH SEE ALSO\n.BR ternd (8),\n.BR tern (8)\n", out);
}
