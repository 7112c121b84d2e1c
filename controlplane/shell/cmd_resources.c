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
#include "dataplane/dp.h"
#include "dataplane/fib.h"

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

static void show_process_memory(struct cmd_ctx *ctx)
{
	struct process_memory m;

	process_memory(&m);
	if (ctx->json) {
		ob_printf(ctx->out, "\"process\": {\"rss_kb\": %lu, \"rss_peak_kb\": %lu, "
			  "\"heap_in_use\": %lu, \"heap_free\": %lu, \"dpdk_in_use\": %lu, "
			  "\"dpdk_free\": %lu}, ", m.rss_kb, m.rss_peak_kb, m.heap_in_use, m.heap_free,
			  m.dpdk_in_use, m.dpdk_free);
		return;
	}
	ob_printf(ctx->out, "Resident: %lu kB (peak %lu kB), hugepages apart\n"
		  "Heap (malloc): %.1f MiB in use, %.1f MiB free\n"
		  "DPDK heap (rte_malloc): %.1f MiB in use, %.1f MiB free\n\n", m.rss_kb,
		  m.rss_peak_kb, m.heap_in_use / 1048576.0, m.heap_free / 1048576.0,
		  m.dpdk_in_use / 1048576.0, m.dpdk_free / 1048576.0);
}

static int cmd_show_memory(struct cmd_ctx *ctx)
{
	const struct nl_stats *ns = netlink_stats();
	struct rib_counts c, l;
	unsigned int s, n = 0;
	const struct {
		const char *name, *limit_from;
		uint64_t refused;
	} tables[] = {
		{ "routes", "[fib] routes", ns->routes_refused },
		{ "route alternates", "fixed", 0 },
		{ "nexthops", "fixed", 0 },
		{ "neighbours", "[neighbours] max", ns->neighs_refused },
		{ "addresses", "fixed", ns->addrs_refused },
	};
	unsigned int used[5], limit[5], t;

	rib_counts(&c);
	rib_limits(&l);
	used[0] = c.routes[RIB_SRC_KERNEL] + c.routes[RIB_SRC_ADJACENCY], limit[0] = l.routes[RIB_SRC_KERNEL];
	used[1] = c.alternates, limit[1] = l.alternates;
	used[2] = c.nexthops, limit[2] = l.nexthops;
	used[3] = c.neighbours, limit[3] = l.neighbours;
	used[4] = c.addresses, limit[4] = l.addresses;
	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{");
	}
	show_process_memory(ctx);
	if (ctx->json) {
		ob_printf(ctx->out, "\"pools\": [");
	} else {
		ob_printf(ctx->out, "%-20s %6s %10s %10s %10s %8s\n", "Packet pool", "Socket", "Size",
			  "In use", "Free", "Cache");
	}
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		const struct rte_mempool *mp = dp.pools[s];

		if (mp == NULL)
			continue;
		ob_printf(ctx->out, ctx->json ?
			  "%s{\"name\": \"%s\", \"socket\": %u, \"size\": %u, \"in_use\": %u, \"free\": %u, \"cache\": %u}" :
			  "%s%-20s %6u %10u %10u %10u %8u\n", ctx->json && n ? ", " : "", mp->name, s,
			  mp->size, rte_mempool_in_use_count(mp), rte_mempool_avail_count(mp),
			  mp->cache_size);
		n++;
	}
	if (ctx->json)
		ob_printf(ctx->out, "], \"tables\": {");
	else
		ob_printf(ctx->out, "\n%-20s %10s %10s %10s  %s\n", "Table", "Used", "Limit", "Refused",
			  "Limit set by");
	for (t = 0; t < RTE_DIM(tables); t++)
		ob_printf(ctx->out, ctx->json ?
			  "%s\"%s\": {\"used\": %u, \"limit\": %u, \"refused\": %lu}" :
			  "%s%-20s %10u %10u %10lu  %s\n", ctx->json && t ? ", " : "", tables[t].name,
			  used[t], limit[t], tables[t].refused, ctx->json ? "" : tables[t].limit_from);
	if (ctx->json)
		ob_printf(ctx->out, "}, \"fib_bytes\": %zu}", dp_fib_memory());
	else
		ob_printf(ctx->out, "\nFIB: %.1f MiB in its two copies\n", dp_fib_memory() / 1048576.0);
	return 0;
}

const struct cmd_def cmd_resources_table[] = {
	{ CMD_MODE_EXEC, "show memory", "Process memory, packet pools in use, and tables against their limits", cmd_show_memory, 0 },
	{ 0 },
};
