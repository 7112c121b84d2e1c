/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd: reads its configuration, starts EAL, ports and workers, and serves the control loop. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_pdump.h>

#include "api/tern_version.h"
#include "controlplane/metrics/metrics.h"
#include "controlplane/metrics/rates.h"
#include "controlplane/metrics/telemetry.h"
#include "controlplane/sflow/sflow_agent.h"
#include "controlplane/snmp/snmp_agent.h"
#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/cmd_config.h"
#include "controlplane/shell/acls.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/statics.h"
#include "controlplane/shell/store.h"
#include "controlplane/ternd/api_server.h"
#include "controlplane/ternd/config.h"
#include "controlplane/ternd/eal_args.h"
#include "controlplane/ternd/event_loop.h"
#include "controlplane/ternd/last_stop.h"
#include "controlplane/ternd/log.h"
#include "dataplane/l2/bond.h"
#include "dataplane/acl/acl.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/ifaces.h"
#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/punt/punt_class.h"
#include "dataplane/rcu.h"
#include "dataplane/trace.h"
#include "dataplane/workarounds/eal_exit.h"
#include "dataplane/workarounds/memif_channel_guard.h"
#include "dataplane/workarounds/memif_peer_guard.h"
#include "kni/exception.h"

_Static_assert(TERN_RX_BURST_MAX == DP_BURST_MAX, "[worker N] rx_burst allows what a worker takes");

#define EXIT_CONFIG 2

void cmd_show_started(void);

static struct tern_config cfg;
static struct ev_handler sig_handler = { .fd = -1 };

static void usage(FILE *f)
{
	fprintf(f, "usage: ternd [-f FILE] [--check-config] [-V]\n"
		   "  -f, --config FILE   configuration file (default %s)\n"
		   "  -n, --check-config  check the configuration and exit (0 valid, 2 invalid)\n"
		   "  --reserve-hugepages reserve the hugepages [eal] args needs, per NUMA node, and exit\n"
		   "  --config-reference  print every section and key of the file (the man page ternd.conf(5))\n"
		   "  -V, --version       print the version and exit\n", TERN_DEFAULT_CONFIG);
}

static void on_signal(struct ev_handler *h, uint32_t events)
{
	struct signalfd_siginfo si;

	last_stop_begin();
	if (read(h->fd, &si, sizeof(si)) == sizeof(si))
		TERN_LOG(main, NOTICE, "signal %u: stopping", si.ssi_signo);
	ev_stop();
}

static void signals_block(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	/* before EAL starts its threads, so that they inherit the mask and only
	 * the control loop's signalfd sees these signals */
	pthread_sigmask(SIG_BLOCK, set, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int signals_setup(sigset_t set)
{
	sig_handler.fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	sig_handler.cb = on_signal;
	if (sig_handler.fd < 0)
		return -errno;
	return ev_add(&sig_handler, EPOLLIN);
}

static uint16_t max_mtu(void)
{
	uint16_t m = 0;
	unsigned int i;

	for (i = 0; i < cfg.nb_ports; i++)
		if (cfg.ports[i].mtu > m)
			m = cfg.ports[i].mtu;
	return m;
}

/* One TAP per port, and the punt rings with each port's policers (a class's each). */
static int exception_path_init(char *err, size_t errlen)
{
	struct dp_punt_policy policy[TERN_MAX_PORTS];
	const char *taps[TERN_MAX_PORTS];
	bool persist[TERN_MAX_PORTS];
	unsigned int i;
	int rc;

	_Static_assert(TERN_PUNT_CLASSES == DP_PUNT_CLASS_MAX, "one rate a punt class");
	for (i = 0; i < cfg.nb_mgmt_ports; i++)
		dp_punt_mgmt_ports[cfg.mgmt_ports[i] >> 6] |= 1ull << (cfg.mgmt_ports[i] & 63);
	for (i = 0; i < cfg.nb_ports; i++) {
		unsigned int c;

		for (c = 0; c < DP_PUNT_CLASS_other; c++)
			policy[i].cls[c] = (struct dp_punt_rate){ cfg.copp_rate[c], cfg.copp_burst[c] };
		policy[i].cls[DP_PUNT_CLASS_other] =
			(struct dp_punt_rate){ cfg.ports[i].punt_rate, cfg.ports[i].punt_burst };
		taps[i] = cfg.ports[i].member_of ? "" : cfg.ports[i].tap;	/* members: none */
		persist[i] = cfg.ports[i].tap_persist;
	}
	/* RFC 1812 §4.3.2.8: errors are rate limited; 1000/s per worker, bursts of 100 */
	dp_icmp_limit_init(cfg.nb_workers, 1000, 100);
	rc = dp_punt_init(cfg.nb_workers, policy, cfg.nb_ports);
	if (rc < 0) {
		snprintf(err, errlen, "cannot create the punt rings: %s", strerror(-rc));
		return rc;
	}
	rc = dp_sflow_init(cfg.nb_workers);
	if (rc < 0) {
		snprintf(err, errlen, "cannot create the sFlow sample rings: %s", strerror(-rc));
		return rc;
	}
	return kni_init(taps, persist, err, errlen);
}

static void log_memif_refusal(enum memif_region_refusal why, size_t len)
{
	if (why == MEMIF_REGION_SHORT)
		TERN_LOG_RATELIMITED(main, ERR,
				     "a memif peer announced a region of %zu bytes over a smaller file; connection refused",
				     len);
	else
		TERN_LOG_RATELIMITED(main, ERR,
				     "a memif peer sent a region of %zu bytes in a file not sealed against shrinking (F_SEAL_SHRINK); connection refused",
				     len);
}

static void log_memif_msg_refusal(enum memif_msg_refusal why)
{
	TERN_LOG_RATELIMITED(main, ERR, "a memif peer announced %s; connection refused",
			     memif_channel_refusal_str(why));
}

/*
 * A virtual device (net_tap, net_memif, ...) makes up a new MAC at every start, and the
 * neighbours' ARP caches then point at one that is gone: a port of one without mac = gets a
 * locally administered MAC derived from the machine (its machine-id, else its hostname) and
 * the port's name, the same at every start. A NIC keeps its own.
 */
static void derived_mac(const char *port, uint8_t mac[RTE_ETHER_ADDR_LEN])
{
	char id[128] = "";
	FILE *f = fopen("/etc/machine-id", "r");
	uint64_t h = 0xcbf29ce484222325u;	/* FNV-1a */
	const char *p;

	if (f == NULL || fgets(id, sizeof(id), f) == NULL)
		gethostname(id, sizeof(id) - 1);
	if (f != NULL)
		fclose(f);
	for (p = id; *p && *p != '\n'; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3u;
	for (p = port; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3u;
	mac[0] = 0x02;	/* locally administered, unicast */
	memcpy(mac + 1, &h, RTE_ETHER_ADDR_LEN - 1);
}

/* A port, a bond's member (the bond drives it) or a bond (made on its members, added before). */
static int port_add(const struct tern_port_config *pc, struct dp_port_params *prm, char *err,
		    size_t errlen)
{
	char ethdev[RTE_ETH_NAME_MAX_LEN];
	struct dp_bond_params bp = {
		.name = pc->name, .mode = (enum dp_bond_mode)pc->bond_mode,
		.hash = (enum dp_bond_hash)pc->xmit_hash, .lacp_fast = pc->lacp_rate == 1,
		.members = pc->members, .nb_members = pc->nb_members,
		.mac = pc->has_mac ? pc->mac : NULL,
	};
	int rc;

	if (pc->member_of)
		return dp_bond_member_add(prm, err, errlen);
	if (!pc->is_bond)
		return dp_port_add(prm, err, errlen);
	rc = dp_bond_create(&bp, ethdev, sizeof(ethdev), err, errlen);
	if (rc < 0)
		return rc;
	prm->dev = ethdev;
	prm->mac = NULL;	/* the bond has it already */
	rc = dp_port_add(prm, err, errlen);
	if (rc == 0)
		dp.ports[dp.nb_ports - 1].is_bond = true;
	return rc;
}

static int dataplane_start(char *err, size_t errlen)
{
	unsigned int i, r;
	int rc;

	rc = dp_ifaces_init(cfg.max_interfaces, cfg.nb_workers);
	if (rc < 0) {
		snprintf(err, errlen, "cannot make the tables for %u interfaces ([interfaces] max): %s",
			 cfg.max_interfaces, strerror(-rc));
		return rc;
	}
	if ((rc = dp_acl_init(cfg.nb_workers, cfg.acl_memory_mb)) < 0 ||
	    (rc = dp_rcu_init(cfg.nb_workers)) < 0 || (rc = dp_nh_init()) < 0 ||
	    (rc = dp_node_meta_register()) < 0 || (rc = dp_trace_init(cfg.nb_workers)) < 0) {
		snprintf(err, errlen, "cannot set up the dataplane tables: %s", strerror(-rc));
		return rc;
	}
	rc = dp_fib_init(cfg.fib_routes, rte_socket_id());
	if (rc < 0) {
		snprintf(err, errlen, "cannot create a FIB for %u routes: %s (hugepages too few? see [fib] routes)",
			 cfg.fib_routes, strerror(-rc));
		return rc;
	}
	rc = dp_fib6_init(cfg.fib6_routes, rte_socket_id());
	if (rc < 0) {
		snprintf(err, errlen, "cannot create an IPv6 FIB for %u routes: %s (hugepages too few? see [fib6] max_routes)",
			 cfg.fib6_routes, strerror(-rc));
		return rc;
	}
	rc = rib_init(cfg.fib_routes, cfg.max_neighbours);
	if (rc == 0)
		rc = rib_init6(cfg.fib6_routes);
	if (rc < 0) {
		snprintf(err, errlen, "cannot create the route tables for %u IPv4 and %u IPv6 routes: %s",
			 cfg.fib_routes, cfg.fib6_routes, strerror(-rc));
		return rc;
	}
	rib_set_tables(cfg.tables, cfg.nb_tables);	/* checked by the configuration's parser */
	memif_peer_guard_accept_unsealed(cfg.memif_accept_unsealed);
	memif_peer_guard_on_refusal(log_memif_refusal);
	memif_channel_guard_on_refusal(log_memif_msg_refusal);
	if (cfg.memif_accept_unsealed)
		TERN_LOG(main, NOTICE, "[memif] peer_memory = any: memif peers' regions are mapped from files that may shrink; trust them not to");
	dp_pools_create(cfg.mbufs, cfg.mbuf_cache, max_mtu());
	for (i = 0; i < cfg.nb_ports; i++) {
		const struct tern_port_config *pc = &cfg.ports[i];
		struct dp_port_params prm = {
			.name = pc->name, .dev = pc->dev, .nb_rxq = pc->rxq, .nb_txq = pc->txq,
			.mtu = pc->mtu, .mac = pc->has_mac ? pc->mac : NULL,
		};
		uint8_t mac[RTE_ETHER_ADDR_LEN];

		if (!pc->has_mac && !pc->is_bond && !pc->member_of &&
		    strncmp(pc->dev, "net_", 4) == 0) {
			derived_mac(pc->name, mac);
			prm.mac = mac;
			prm.mac_soft = true;
		}

		rc = port_add(pc, &prm, err, errlen);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < cfg.nb_workers; i++) {
		struct dp_rxq rxq[DP_MAX_RXQ_PER_WORKER];
		unsigned int n = 0, p, q;

		for (r = 0; r < cfg.workers[i].nb_rx && n < DP_MAX_RXQ_PER_WORKER; r++) {
			rxq[n].port = cfg.workers[i].rx[r].port;
			rxq[n++].queue = cfg.workers[i].rx[r].queue;
		}
		/* queues a driver insisted on beyond the configured ones, round-robin */
		for (p = 0; p < dp.nb_ports; p++)
			for (q = cfg.ports[p].rxq; q < dp.ports[p].nb_rxq; q++)
				if ((q - cfg.ports[p].rxq) % cfg.nb_workers == i &&
				    n < DP_MAX_RXQ_PER_WORKER)
					rxq[n++] = (struct dp_rxq){ .port = p, .queue = q };
		rc = dp_worker_add(cfg.workers[i].lcore, rxq, n, cfg.workers[i].rx_burst);
		if (rc < 0) {
			if (rc == -EINVAL)
				snprintf(err, errlen, "worker %u: rx_burst is above %d",
					 cfg.workers[i].lcore, DP_BURST_MAX);
			else
				snprintf(err, errlen, "worker %u: too many rx queues", cfg.workers[i].lcore);
			return rc;
		}
	}
	rc = exception_path_init(err, errlen);
	if (rc < 0)
		return rc;
	for (i = 0; i < dp.nb_ports; i++) {
		if (dp.ports[i].kind == DP_PORT_MEMBER)
			continue;	/* its bond starts it */
		rc = dp_port_start(&dp.ports[i], err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* After the kernel's tables are in: until then the first worker's lcore reads the route dump. */
static int dataplane_go(char *err, size_t errlen)
{
	int rc;

	dp_ip6_forwarding = 1;	/* the IPv6 FIB holds the kernel's routes now */
	rc = dp_workers_start(err, errlen);

	return rc < 0 ? rc : kni_start(cfg.exception_idle_ms, err, errlen);
}

/* Without a database ternd still routes; saving and the startup configuration are refused. */
static void config_store_open(void)
{
	char err[4608];
	char dir[256], *slash;
	int rc;

	snprintf(dir, sizeof(dir), "%s", cfg.store_db);
	slash = strrchr(dir, '/');
	if (slash != NULL && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0750);
	}
	rc = store_open(cfg.store_db, err, sizeof(err));
	if (rc == -EUCLEAN) {
		TERN_LOG(main, ERR, "%s: starting with an empty configuration", err);
	} else if (rc < 0) {
		TERN_LOG(main, ERR, "%s: starting with an empty configuration", err);
		config_store_unavailable(err);
	}
}

/* The kernel forwards what the dataplane punts for an unresolved next hop, of either family,
 * and keeps an interface's IPv6 addresses while it is down, as it keeps IPv4's: a router's
 * configured addresses outlive a shutdown. */
static void kernel_forwarding_enable(void)
{
	static const struct {
		const char *path, *what;
	} knobs[] = {
		{ "/proc/sys/net/ipv4/ip_forward", "enable IPv4 forwarding in the kernel" },
		{ "/proc/sys/net/ipv6/conf/all/forwarding", "enable IPv6 forwarding in the kernel" },
		{ "/proc/sys/net/ipv6/conf/all/keep_addr_on_down", "keep IPv6 addresses on interfaces that go down" },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(knobs); i++) {
		FILE *f = fopen(knobs[i].path, "we");

		if (f == NULL || fputs("1\n", f) < 0)
			TERN_LOG(main, WARNING, "cannot %s: %s; %s", knobs[i].what, strerror(errno),
				 i < 2 ? "packets to unresolved next hops will be lost" :
					 "a port set down loses its IPv6 addresses");
		if (f != NULL)
			fclose(f);
	}
}

static void tick(void)
{
	dp_port_links_refresh();	/* first: a link down carries nothing from now on */
	kni_sync();
	dp_bond_sync();
	memif_channel_guard_sweep();
	dp_rcu_reclaim();
	statics_tick();		/* after a link or address change: what the kernel dropped goes back */
	cmd_trace_tick();
	acl_log_tick();
	rates_tick();
	api_server_tick();
	metrics_server_tick();
	snmp_agent_tick();
	sflow_agent_tick();
}

/* The FIB copy workers left at start, brought level in slices of 1 MiB of entries. */
static bool fib_level_slice(void)
{
	return dp_fib_level(1u << 18);
}

static void shutdown_all(void)
{
	api_server_stop();
	metrics_server_stop();
	snmp_agent_stop();
	sflow_agent_stop();
	netlink_stop();
	dp_workers_stop();
	kni_stop();
	dp_ports_stop();
	cmd_fini();
	store_close();
	ev_fini();
	if (!eal_exit_cleanup())	/* dataplane/workarounds/eal_exit.c */
		TERN_LOG(main, INFO, "leaving EAL's memory to the exit: a memif server port was made, and DPDK 22.11's cleanup can fault after one");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'f' },
		{ "check-config", no_argument, NULL, 'n' },
		{ "reserve-hugepages", no_argument, NULL, 'H' },
		{ "version", no_argument, NULL, 'V' },
		{ "config-reference", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *path = TERN_DEFAULT_CONFIG;
	struct tern_eal_args eal;
	bool check_only = false, reserve = false;
	char err[512] = "";
	uint64_t t_start, t_eal, t_dp, t_nl;	/* monotonic ms */
	char stop_file[128], stop_said[96] = "";
	int prefetch_rc;
	double stop_took, stop_ago;
	sigset_t sigs;
	int c, rc;

	while ((c = getopt_long(argc, argv, "f:nVh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': path = optarg; break;
		case 'n': check_only = true; break;
		case 'H': reserve = true; break;
		case 'V': printf("ternd %s\n", TERN_VERSION); return 0;
		case 'R': tern_config_reference(stdout); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_CONFIG;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ternd: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return EXIT_CONFIG;
	}
	if (tern_config_load(path, &cfg, err, sizeof(err)) < 0 ||
	    tern_eal_args_build(&cfg, &eal, err, sizeof(err)) < 0) {
		fprintf(stderr, "ternd: %s\n", err);
		return EXIT_CONFIG;
	}
	if (reserve)
		return tern_reserve_hugepages(&cfg, stdout) < 0 ? 1 : 0;
	if (check_only) {
		unsigned int w = tern_config_warnings(&cfg, stdout);

		printf("ternd: %s: valid (%u ports, %u workers)%s\n", path, cfg.nb_ports, cfg.nb_workers,
		       w ? ", with the warnings above" : "");
		return 0;
	}
	signals_block(&sigs);
	t_start = tern_log_now_ms();
	/* the kernel's route dump runs while EAL and the ports start (netlink_prefetch.c) */
	prefetch_rc = netlink_prefetch_start(cfg.netlink_rcvbuf);
	rc = rte_eal_init(eal.argc, eal.argv);
	if (rc < 0) {
		fprintf(stderr, "ternd: EAL initialisation failed: %s (arguments from [eal] args and the ports)\n",
			rte_strerror(rte_errno));
		return 1;
	}
	tern_log_init();
	if (prefetch_rc < 0)
		TERN_LOG(main, WARNING, "cannot read the kernel's routes ahead: %s; they are read once the ports are up",
			 strerror(-prefetch_rc));
	/* dpdk-dumpcap and dpdk-pdump attach as secondary processes (hugepage memory only) */
	if (rte_pdump_init() < 0)
		TERN_LOG(main, WARNING, "packet capture unavailable: %s", rte_strerror(rte_errno));
	tern_telemetry_register();
	if ((rc = ev_init()) < 0 || (rc = signals_setup(sigs)) < 0 || (rc = cmd_init()) < 0) {
		fprintf(stderr, "ternd: cannot set up the control loop: %s\n", strerror(-rc));
		rte_eal_cleanup();
		return 1;
	}
	cmd_tools_set_capture_dir(cfg.capture_dir);
	kernel_forwarding_enable();
	t_eal = tern_log_now_ms();
	rc = dataplane_start(err, sizeof(err));
	t_dp = tern_log_now_ms();
	if (rc == 0)
		rc = netlink_start(cfg.netlink_rcvbuf, cfg.netlink_batch_us, cfg.netlink_batch_max_us,
				   dp.nb_workers ? dp.workers[0].lcore : RTE_MAX_LCORE, cfg.fib_routes,
				   err, sizeof(err));
	t_nl = tern_log_now_ms();
	if (rc == 0)
		rc = dataplane_go(err, sizeof(err));
	if (rc == 0)
		config_store_open();
	if (rc == 0)
		rc = api_server_start(cfg.api_socket, cfg.api_mode,
				      &cfg.api_limits, err, sizeof(err));
	if (rc == 0 && cfg.metrics_listen[0])
		rc = metrics_server_start(cfg.metrics_listen, err, sizeof(err));
	if (rc == 0 && cfg.snmp_agentx[0])
		rc = snmp_agent_start(cfg.snmp_agentx, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ternd: %s\n", err);
		shutdown_all();
		return 1;
	}
	cmd_show_started();
	config_startup_replay();
	snprintf(stop_file, sizeof(stop_file), "%s.laststop", cfg.api_socket);
	if (last_stop_take(stop_file, &stop_took, &stop_ago) == 0)
		snprintf(stop_said, sizeof(stop_said), "; the last stop took %.3f s and began %.3f s ago",
			 stop_took, stop_ago);
	TERN_LOG(main, NOTICE, "ready in %.3f s (EAL %.3f s, dataplane %.3f s, kernel tables %.3f s, workers and API %.3f s): %u ports, %u workers, API on %s%s",
		 (tern_log_now_ms() - t_start) / 1e3, (t_eal - t_start) / 1e3, (t_dp - t_eal) / 1e3,
		 (t_nl - t_dp) / 1e3, (tern_log_now_ms() - t_nl) / 1e3, dp.nb_ports, dp.nb_workers,
		 cfg.api_socket, stop_said);
	ev_set_background(fib_level_slice);
	rc = ev_run(tick, 100);
	shutdown_all();
	last_stop_write(stop_file);
	TERN_LOG(main, NOTICE, "stopped");
	return rc < 0 ? 1 : 0;
}
