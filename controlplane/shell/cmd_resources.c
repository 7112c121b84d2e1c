/* SPDX-License-Identifier: BSD-3-Clause */
/* show memory: the process's own memory, packet pools in use, and every table's use against its
 * limit. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mempool.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/render.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/ifaces.h"
#include "dataplane/punt/punt.h"

/* Under AddressSanitizer its allocator, not glibc's, hands out the heap: ask it instead. */
#if defined(__SANITIZE_ADDRESS__)
#define TERN_ASAN_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TERN_ASAN_HEAP 1
#endif
#endif
#ifdef TERN_ASAN_HEAP
size_t __sanitizer_get_current_allocated_bytes(void);
size_t __sanitizer_get_free_bytes(void);
#endif

struct process_memory {
	uint64_t rss_kb, rss_peak_kb;	/* VmRSS and VmHWM: ordinary pages only, hugepages apart */
	uint64_t heap_in_use, heap_free;	/* glibc's malloc: handed out, and held but free */
	uint64_t dpdk_in_use, dpdk_free;	/* rte_malloc's heaps, every socket */
};

static void process_memory(struct process_memory *m)
{
	struct rte_malloc_socket_stats st;
	char line[128];
	unsigned int s;
	FILE *f;

	memset(m, 0, sizeof(*m));
	f = fopen("/proc/self/status", "re");
	if (f != NULL) {
		while (fgets(line, sizeof(line), f) != NULL) {
			sscanf(line, "VmRSS: %lu", &m->rss_kb);
			sscanf(line, "VmHWM: %lu", &m->rss_peak_kb);
		}
		fclose(f);
	}
#ifdef TERN_ASAN_HEAP
	m->heap_in_use = __sanitizer_get_current_allocated_bytes();
	m->heap_free = __sanitizer_get_free_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	m->heap_in_use = mi.uordblks + mi.hblkhd;
	m->heap_free = mi.fordblks;
#endif
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		if (rte_malloc_get_socket_stats(s, &st) < 0)
			continue;
		m->dpdk_in_use += st.heap_allocsz_bytes;
		m->dpdk_free += st.heap_freesz_bytes;
	}
}

static void process_memory_render(struct render *r)
{
	struct process_memory m;

	process_memory(&m);
	render_object_begin(r, "process");
	render_uint(r, "rss_kb", "Resident: %lu kB ", m.rss_kb);
	render_uint(r, "rss_peak_kb", "(peak %lu kB), hugepages apart\n", m.rss_peak_kb);
	render_uint(r, "heap_in_use", NULL, m.heap_in_use);
	render_uint(r, "heap_free", NULL, m.heap_free);
	render_text(r, "Heap (malloc): %.1f MiB in use, %.1f MiB free\n", m.heap_in_use / 1048576.0,
		    m.heap_free / 1048576.0);
	render_uint(r, "dpdk_in_use", NULL, m.dpdk_in_use);
	render_uint(r, "dpdk_free", NULL, m.dpdk_free);
	render_text(r, "DPDK heap (rte_malloc): %.1f MiB in use, %.1f MiB free\n\n",
		    m.dpdk_in_use / 1048576.0, m.dpdk_free / 1048576.0);
	render_object_end(r);
}

static int cmd_show_memory(struct cmd_ctx *ctx)
{
	static const struct render_col pool_cols[] = {
		{ "name", "Packet pool", "%-20s", R_STR }, { "socket", "Socket", "%6lu", R_UINT },
		{ "size", "Size", "%10lu", R_UINT }, { "in_use", "In use", "%10lu", R_UINT },
		{ "free", "Free", "%10lu", R_UINT }, { "cache", "Cache", "%8lu", R_UINT },
	};
	const struct nl_stats *ns = netlink_stats();
	struct rib_counts c, l;
	struct render r;
	unsigned int s;
	const struct {
		const char *name, *limit_from;
		uint64_t refused;
	} tables[] = {
		{ "routes", "[fib] routes", ns->routes_refused },
		{ "ipv6 routes", "[fib6] max_routes", ns->routes6_refused },
		{ "route alternates", "fixed", 0 },
		{ "nexthops", "fixed", 0 },
		{ "neighbours", "[neighbours] max", ns->neighs_refused },
		{ "addresses", "fixed", ns->addrs_refused },
		{ "interfaces", "[interfaces] max", dp.ports_refused },
	};
	unsigned int used[7], limit[7], t, i;
	struct rib_counts c6, l6;

	rib_counts(&c);
	rib_limits(&l);
	rib_counts6(&c6);
	rib_limits6(&l6);
	used[0] = c.routes[RIB_SRC_KERNEL] + c.routes[RIB_SRC_ADJACENCY], limit[0] = l.routes[RIB_SRC_KERNEL];
	used[1] = c6.routes[RIB_SRC_KERNEL] + c6.routes[RIB_SRC_ADJACENCY], limit[1] = l6.routes[RIB_SRC_KERNEL];
	used[2] = c.alternates + c6.alternates, limit[2] = l.alternates;
	used[3] = c.nexthops, limit[3] = l.nexthops;
	used[4] = c.neighbours, limit[4] = l.neighbours;
	used[5] = c.addresses, limit[5] = l.addresses;
	used[6] = 0, limit[6] = dp.max_ports;
	DP_FOREACH_IFACE(i)
		used[6]++;
	render_begin(&r, ctx);
	process_memory_render(&r);
	render_table_begin(&r, "pools", pool_cols, RTE_DIM(pool_cols), true);
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		const struct rte_mempool *mp = dp.pools[s];

		if (mp != NULL)
			render_row(&r, (union render_val[]){ RS(mp->name), RU(s), RU(mp->size),
				   RU(rte_mempool_in_use_count(mp)), RU(rte_mempool_avail_count(mp)),
				   RU(mp->cache_size) });
	}
	render_table_end(&r);
	render_text(&r, "\n%-20s %10s %10s %10s  %s\n", "Table", "Used", "Limit", "Refused",
		    "Limit set by");
	render_object_begin(&r, "tables");
	for (t = 0; t < RTE_DIM(tables); t++) {
		render_object_begin(&r, tables[t].name);
		render_text(&r, "%-20s ", tables[t].name);
		render_uint(&r, "used", "%10lu ", used[t]);
		render_uint(&r, "limit", "%10lu ", limit[t]);
		render_uint(&r, "refused", "%10lu  ", tables[t].refused);
		render_text(&r, "%s\n", tables[t].limit_from);
		render_object_end(&r);
	}
	render_object_end(&r);
	render_uint(&r, "fib_bytes", NULL, dp_fib_memory());
	render_text(&r, "\nFIB: %.1f MiB in its two copies\n", dp_fib_memory() / 1048576.0);
	render_uint(&r, "fib6_bytes", NULL, dp_fib6_memory());
	render_text(&r, "IPv6 FIB: %.1f MiB in its two copies\n", dp_fib6_memory() / 1048576.0);
	render_uint(&r, "interface_tables_bytes", NULL, dp_ifaces_memory() + dp_punt_memory());
	render_text(&r, "Interface tables: %.1f MiB for %u interfaces (of which punt policers and counters %.1f MiB), their unused slots' pages untouched\n",
		    (dp_ifaces_memory() + dp_punt_memory()) / 1048576.0, dp.max_ports,
		    dp_punt_memory() / 1048576.0);
	render_end(&r);
	return 0;
}

const struct cmd_def cmd_resources_table[] = {
	{ CMD_MODE_EXEC, "show memory", "Process memory, packet pools in use, and tables against their limits", cmd_show_memory, 0 },
	{ 0 },
};
