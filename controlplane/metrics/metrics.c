/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd's counters as OpenMetrics text: ports, workers, drop and punt reasons, FIB, netlink. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_version.h>

#include "api/tern_version.h"
#include "controlplane/metrics/metrics.h"
#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/sflow/sflow_agent.h"
#include "dataplane/acl/acl.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/node.h"
#include "dataplane/punt/node_sink.h"
#include "dataplane/punt/punt.h"
#include "dataplane/stages.h"
#include "dataplane/workarounds/memif_channel_guard.h"
#include "dataplane/workarounds/memif_peer_guard.h"

static time_t started_at;
/* The slots of the page being rendered: its interfaces are the ones in use from first to
 * before end. */
static unsigned int page_first, page_end;

/* Each interface of the page being rendered. */
#define PAGE_FOREACH_IFACE(i) \
	for ((i) = page_first; (i) < page_end; (i)++) \
		if (!dp_port_in_use(i)) { \
		} else

/* The slots of page page (METRICS_PAGE_IFACES interfaces in use each); the number of pages
 * in *pages (1 at least). */
static void page_slots(unsigned int page, unsigned int *pages)
{
	unsigned int i, n = 0;

	page_first = page_end = dp.nb_ports;
	for (i = 0; i < dp.nb_ports; i++) {
		if (!dp_port_in_use(i))
			continue;
		if (n == (uint64_t)page * METRICS_PAGE_IFACES)
			page_first = i;
		if (n == ((uint64_t)page + 1) * METRICS_PAGE_IFACES)
			page_end = i;
		n++;
	}
	if (page_end < page_first)
		page_end = page_first;
	*pages = n == 0 ? 1 : (n + METRICS_PAGE_IFACES - 1) / METRICS_PAGE_IFACES;
}

void metrics_started(void)
{
	started_at = time(NULL);
}

static void family(struct outbuf *ob, const char *name, const char *type, const char *help)
{
	ob_printf(ob, "# TYPE %s %s\n# HELP %s %s\n", name, type, name, help);
}

static void port_counter(struct outbuf *ob, const char *name, const char *help, size_t off)
{
	unsigned int i;

	family(ob, name, "counter", help);
	PAGE_FOREACH_IFACE(i) {
		struct dp_port_stats st;

		dp_port_stats_get(&dp.ports[i], &st);
		ob_printf(ob, "%s_total{port=\"%s\"} %lu\n", name, dp.ports[i].name,
			  *(const uint64_t *)((const char *)&st + off));
	}
}

static void punt_counter(struct outbuf *ob, const char *name, const char *help, size_t off)
{
	unsigned int i;

	family(ob, name, "counter", help);
	PAGE_FOREACH_IFACE(i) {
		struct dp_punt_stats ps;

		dp_punt_stats(i, &ps);
		ob_printf(ob, "%s_total{port=\"%s\"} %lu\n", name, dp.ports[i].name,
			  *(const uint64_t *)((const char *)&ps + off));
	}
}

/* The sampled interfaces' sFlow counts, summed over the workers. */
static void sflow_ports(struct outbuf *ob)
{
	struct dp_sflow_count c;
	unsigned int i;

	family(ob, "tern_sflow_samples", "counter",
	       "Frames the workers sampled for sFlow on an interface: taken, or dropped for want of room");
	PAGE_FOREACH_IFACE(i) {
		if (dp_sflow_rate[i] == 0)
			continue;
		dp_sflow_count_get(i, &c);
		ob_printf(ob, "tern_sflow_samples_total{port=\"%s\",fate=\"taken\"} %lu\n"
			  "tern_sflow_samples_total{port=\"%s\",fate=\"dropped\"} %lu\n",
			  dp.ports[i].name, c.samples, dp.ports[i].name, c.drops);
	}
}

/* Each sFlow collector's datagrams, sent and failed. */
static void sflow_collectors_out(struct outbuf *ob)
{
	const struct sflow_collector *c;
	unsigned int n = sflow_collectors(&c), i;
	char a[48];

	family(ob, "tern_sflow_datagrams", "counter",
	       "sFlow datagrams to a collector: sent, or failed (no route, a full socket buffer)");
	for (i = 0; i < n; i++) {
		sflow_addr_text(&c[i].addr, a, sizeof(a));
		ob_printf(ob, "tern_sflow_datagrams_total{collector=\"%s\",udp_port=\"%u\",fate=\"sent\"} %lu\n"
			  "tern_sflow_datagrams_total{collector=\"%s\",udp_port=\"%u\",fate=\"failed\"} %lu\n",
			  a, c[i].port, c[i].datagrams, a, c[i].port, c[i].send_errors);
	}
}

static void ports(struct outbuf *ob)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} counters[] = {
		{ "tern_port_rx_packets", "Packets received", offsetof(struct dp_port_stats, ipackets) },
		{ "tern_port_rx_bytes", "Bytes received", offsetof(struct dp_port_stats, ibytes) },
		{ "tern_port_tx_packets", "Packets sent", offsetof(struct dp_port_stats, opackets) },
		{ "tern_port_tx_bytes", "Bytes sent", offsetof(struct dp_port_stats, obytes) },
		{ "tern_port_rx_missed", "Packets the port dropped for want of rx descriptors",
		  offsetof(struct dp_port_stats, imissed) },
		{ "tern_port_rx_errors", "Erroneous packets received", offsetof(struct dp_port_stats, ierrors) },
		{ "tern_port_rx_nombuf", "Receive failures for want of packet buffers",
		  offsetof(struct dp_port_stats, rx_nombuf) },
		{ "tern_port_tx_errors", "Transmit errors", offsetof(struct dp_port_stats, oerrors) },
		{ "tern_port_tx_drops", "Packets dropped at a full transmit queue",
		  offsetof(struct dp_port_stats, tx_drops) },
	};
	unsigned int i, r;

	for (i = 0; i < RTE_DIM(counters); i++)
		port_counter(ob, counters[i].name, counters[i].help, counters[i].off);
	family(ob, "tern_port_link_up", "gauge", "1 when the port's link is up");
	PAGE_FOREACH_IFACE(i)
		ob_printf(ob, "tern_port_link_up{port=\"%s\"} %d\n", dp.ports[i].name,
			  dp_port_link_up(&dp.ports[i], NULL));
	family(ob, "tern_port_admin_up", "gauge",
	       "1 when the port is administratively up (its kernel interface is up: no shutdown)");
	PAGE_FOREACH_IFACE(i)
		ob_printf(ob, "tern_port_admin_up{port=\"%s\"} %d\n", dp.ports[i].name,
			  dp_port_map.up[i] ? 1 : 0);
	family(ob, "tern_port_punted", "counter", "Packets sent to the kernel, by port and reason");
	PAGE_FOREACH_IFACE(i) {
		struct dp_punt_stats ps;

		dp_punt_stats(i, &ps);
		for (r = 0; r < DP_PUNT_REASON_MAX && dp_punt_reasons[r].node; r++)
			ob_printf(ob, "tern_port_punted_total{port=\"%s\",reason=\"%s\"} %lu\n",
				  dp.ports[i].name, dp_punt_reasons[r].node, ps.punted[r]);
	}
	family(ob, "tern_port_punt_class", "counter",
	       "Packets of a control-plane policing class: passed to the kernel, over its policer, lost at its full ring");
	PAGE_FOREACH_IFACE(i) {
		struct dp_punt_stats ps;

		dp_punt_stats(i, &ps);
		for (r = 0; r < DP_PUNT_CLASS_MAX; r++)
			ob_printf(ob, "tern_port_punt_class_total{port=\"%s\",class=\"%s\",fate=\"passed\"} %lu\n"
				  "tern_port_punt_class_total{port=\"%s\",class=\"%s\",fate=\"policed\"} %lu\n"
				  "tern_port_punt_class_total{port=\"%s\",class=\"%s\",fate=\"ring_full\"} %lu\n",
				  dp.ports[i].name, dp_punt_classes[r].node, ps.passed[r],
				  dp.ports[i].name, dp_punt_classes[r].node, ps.policed_by_class[r],
				  dp.ports[i].name, dp_punt_classes[r].node, ps.ring_full_by_class[r]);
	}
	punt_counter(ob, "tern_port_punt_policed", "Packets over the port's punt policer",
		     offsetof(struct dp_punt_stats, policed));
	punt_counter(ob, "tern_port_punt_ring_full", "Packets lost at a full punt ring",
		     offsetof(struct dp_punt_stats, ring_full));
	sflow_ports(ob);
}

static void workers(struct outbuf *ob)
{
	struct dp_worker_perf p[DP_MAX_WORKERS];
	unsigned int w, s;

	for (w = 0; w < dp.nb_workers; w++)
		dp_worker_perf(w, &p[w]);
	family(ob, "tern_worker_packets", "counter", "Packets a worker received");
	for (w = 0; w < dp.nb_workers; w++)
		ob_printf(ob, "tern_worker_packets_total{worker=\"%u\"} %lu\n", w, p[w].rx_packets);
	family(ob, "tern_worker_polls", "counter", "Receive polls");
	for (w = 0; w < dp.nb_workers; w++)
		ob_printf(ob, "tern_worker_polls_total{worker=\"%u\"} %lu\n", w, p[w].polls);
	family(ob, "tern_worker_busy_polls", "counter", "Receive polls that returned packets");
	for (w = 0; w < dp.nb_workers; w++)
		ob_printf(ob, "tern_worker_busy_polls_total{worker=\"%u\"} %lu\n", w, p[w].busy_polls);
	family(ob, "tern_worker_busy_cycles", "counter",
	       "TSC cycles spent in walks that handled packets (the load: their share of tern_worker_cycles)");
	for (w = 0; w < dp.nb_workers; w++)
		ob_printf(ob, "tern_worker_busy_cycles_total{worker=\"%u\"} %lu\n", w, p[w].busy_cycles);
	family(ob, "tern_worker_cycles", "counter", "TSC cycles spent per stage of the forwarding path");
	for (w = 0; w < dp.nb_workers; w++)
		for (s = 0; s < DP_STAGE_MAX; s++)
			ob_printf(ob, "tern_worker_cycles_total{worker=\"%u\",stage=\"%s\"} %lu\n", w,
				  dp_stage_names[s], p[w].stage[s].cycles);
}

static void sinks(struct outbuf *ob, const char *name, const char *help, const char *label,
		  const struct dp_sink_info *info)
{
	const struct dp_sink_info *d;

	family(ob, name, "counter", help);
	for (d = info; d->node; d++)
		ob_printf(ob, "%s_total{%s=\"%s\"} %lu\n", name, label, d->node, dp_node_objs(d->node));
}

/* The entries of every list bound to an interface (each list once), and its implicit ones. */
static void access_lists(struct outbuf *ob)
{
	static const char *const implicit6[DP_ACL6_IMPLICIT] = { "implicit_nd_ns", "implicit_nd_na" };
	static struct dp_acl *seen[DP_ACL_FAMILIES * DP_ACL_DIRS * DP_MAX_IFACES];
	unsigned int n = 0, f, d, p, k, i;

	family(ob, "tern_acl_matches", "counter",
	       "Packets each entry of a bound access list matched (seq: the entry's number, or its implicit entries)");
	for (f = 0; f < DP_ACL_FAMILIES; f++)
		for (d = 0; d < DP_ACL_DIRS; d++)
			for (p = 0; p < dp.nb_ports; p++) {
				struct dp_acl *a = dp_acl_bound[f][d][p];

				/* cppcheck-suppress uninitvar ; the first n are set */
				for (k = 0; k < n && seen[k] != a; k++)
					;
				if (a == NULL || k < n)
					continue;
				seen[n++] = a;
				for (i = 0; i <= a->nb; i++) {
					const char *fam = a->family == DP_ACL_IPV4 ? "ip" : "ipv6";

					ob_printf(ob, "tern_acl_matches_total{family=\"%s\",acl=\"%s\",seq=\"", fam,
						  a->name);
					if (i < a->nb_user)
						ob_printf(ob, "%u", a->seq[i]);
					else
						ob_printf(ob, "%s", i == a->nb ? "implicit_deny" :
							  implicit6[i - a->nb_user]);
					ob_printf(ob, "\"} %lu\n", dp_acl_hits(a, i));
				}
			}
}

static void tables(struct outbuf *ob)
{
	const struct nl_stats *ns = netlink_stats();
	struct rib_counts c;

	rib_counts(&c);
	family(ob, "tern_routes", "gauge", "Routes in the FIB, by source");
	ob_printf(ob, "tern_routes{source=\"kernel\"} %u\n", c.routes[RIB_SRC_KERNEL]);
	ob_printf(ob, "tern_routes{source=\"adjacency\"} %u\n", c.routes[RIB_SRC_ADJACENCY]);
	family(ob, "tern_routes_not_installed", "gauge",
	       "Routes in use the FIB refused for want of room, waiting to be offered again");
	ob_printf(ob, "tern_routes_not_installed %u\n", c.unplaced);
	family(ob, "tern_neighbours", "gauge", "Neighbour entries");
	ob_printf(ob, "tern_neighbours %u\n", c.neighbours);
	family(ob, "tern_fib_memory_bytes", "gauge", "Memory of the FIB's two copies");
	ob_printf(ob, "tern_fib_memory_bytes %zu\n", dp_fib_memory());
	family(ob, "tern_fib_updates", "counter", "Route changes applied to the FIB");
	ob_printf(ob, "tern_fib_updates_total %lu\n", dp_fib_updates());
	family(ob, "tern_netlink_messages", "counter", "Netlink messages from the kernel");
	ob_printf(ob, "tern_netlink_messages_total %lu\n", ns->messages);
	family(ob, "tern_netlink_batches", "counter",
	       "Batches of kernel changes applied to the FIB, each after one grace period");
	ob_printf(ob, "tern_netlink_batches_total %lu\n", ns->batches);
	family(ob, "tern_netlink_malformed", "counter", "Netlink messages refused as malformed");
	ob_printf(ob, "tern_netlink_malformed_total %lu\n", ns->malformed);
	family(ob, "tern_netlink_refused", "counter", "Kernel entries not mirrored because a table was full");
	ob_printf(ob, "tern_netlink_refused_total{table=\"routes\"} %lu\n", ns->routes_refused);
	ob_printf(ob, "tern_netlink_refused_total{table=\"routes6\"} %lu\n", ns->routes6_refused);
	ob_printf(ob, "tern_netlink_refused_total{table=\"neighbours\"} %lu\n", ns->neighs_refused);
	ob_printf(ob, "tern_netlink_refused_total{table=\"addresses\"} %lu\n", ns->addrs_refused);
	family(ob, "tern_netlink_resyncs", "counter", "Full resynchronisations with the kernel");
	ob_printf(ob, "tern_netlink_resyncs_total %lu\n", ns->resyncs);
	family(ob, "tern_netlink_overflows", "counter", "Times the kernel dropped notifications (ENOBUFS)");
	ob_printf(ob, "tern_netlink_overflows_total %lu\n", ns->overflows);
	family(ob, "tern_netlink_backlog_bytes", "gauge",
	       "Notifications queued by the kernel and not yet read: the sync lag");
	ob_printf(ob, "tern_netlink_backlog_bytes %u\n", netlink_backlog());
	family(ob, "tern_memif_regions_refused", "counter",
	       "memif peers' memory regions not mapped: past their file's end, or in a file not sealed against shrinking");
	ob_printf(ob, "tern_memif_regions_refused_total{reason=\"short\"} %lu\n",
		  memif_peer_regions_refused(MEMIF_REGION_SHORT));
	ob_printf(ob, "tern_memif_regions_refused_total{reason=\"unsealed\"} %lu\n",
		  memif_peer_regions_refused(MEMIF_REGION_UNSEALED));
	family(ob, "tern_memif_peer_connections", "counter",
	       "memif peers' control connections: accepted, closed, closed during the handshake while still watched (the peer hung up), refused for what their peer announced");
	ob_printf(ob, "tern_memif_peer_connections_total{event=\"accepted\"} %lu\n",
		  memif_channel_count(MEMIF_CHANNEL_OPENED));
	ob_printf(ob, "tern_memif_peer_connections_total{event=\"closed\"} %lu\n",
		  memif_channel_count(MEMIF_CHANNEL_CLOSED));
	ob_printf(ob, "tern_memif_peer_connections_total{event=\"abandoned\"} %lu\n",
		  memif_channel_count(MEMIF_CHANNEL_ABANDONED));
	ob_printf(ob, "tern_memif_peer_connections_total{event=\"refused\"} %lu\n",
		  memif_channel_count(MEMIF_CHANNEL_REFUSED));
	family(ob, "tern_memif_peer_files_reclaimed", "counter",
	       "Files memif peers handed over (regions, rings' eventfds) that DPDK's memif driver left open when the connection ended, closed by ternd");
	ob_printf(ob, "tern_memif_peer_files_reclaimed_total %lu\n",
		  memif_channel_count(MEMIF_CHANNEL_FILES_RECLAIMED));
}

void metrics_render(struct outbuf *ob, unsigned int page)
{
	unsigned int pages;
	char help[160];

	page_slots(page, &pages);
	if (page > 0) {	/* the interfaces' series alone */
		ports(ob);
		ob_printf(ob, "# EOF\n");
		return;
	}
	snprintf(help, sizeof(help),
		 "Pages of this exposition: /metrics?page=N for N from 0 to this less 1, each with the series of up to %u interfaces (page 0 is /metrics)",
		 METRICS_PAGE_IFACES);
	family(ob, "tern_metrics_pages", "gauge", help);
	ob_printf(ob, "tern_metrics_pages %u\n", pages);
	family(ob, "tern_build", "info", "Versions of tern and DPDK");
	ob_printf(ob, "tern_build_info{version=\"%s\",dpdk=\"%s\"} 1\n", TERN_VERSION, rte_version());
	family(ob, "tern_uptime_seconds", "gauge", "Seconds since ternd started");
	ob_printf(ob, "tern_uptime_seconds %ld\n", (long)(time(NULL) - started_at));
	ports(ob);
	workers(ob);
	sinks(ob, "tern_drops", "Packets dropped, by reason", "reason", dp_drop_reasons);
	sinks(ob, "tern_punts", "Packets punted to the kernel, by reason", "reason", dp_punt_reasons);
	sinks(ob, "tern_icmp_errors", "ICMP errors the dataplane built, by kind", "kind", dp_icmp_errors);
	access_lists(ob);
	sflow_collectors_out(ob);
	tables(ob);
	ob_printf(ob, "# EOF\n");
}
