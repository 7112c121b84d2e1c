/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-interface tables, made together. They are ordinary heap (calloc): a worker reads
 * a few bytes of each for the interfaces it serves, and the pages of the slots never used
 * are never touched.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dataplane/acl/acl.h"
#include "dataplane/fib/rpf.h"
#include "dataplane/icmp/icmp6.h"
#include "dataplane/ifaces.h"
#include "dataplane/l2/group_count.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/node.h"

/* One table: where its pointer is, an entry's size, and entries beyond one per interface. */
struct iface_table {
	void **at;
	size_t size;
	unsigned int extra;
};

#define TABLE(ptr, extra) { (void **)&(ptr), sizeof((ptr)[0]), (extra) }

static size_t bytes;

static unsigned int tables_list(struct iface_table *t, unsigned int nb_workers)
{
	unsigned int n = 0, f, d, w;

	t[n++] = (struct iface_table)TABLE(dp.ports, 0);
	t[n++] = (struct iface_table)TABLE(dp_port_map.mac, 0);
	t[n++] = (struct iface_table)TABLE(dp_port_map.index, RTE_MAX_ETHPORTS);
	t[n++] = (struct iface_table)TABLE(dp_port_map.up, 0);
	t[n++] = (struct iface_table)TABLE(dp_port_map.link_down, 0);
	t[n++] = (struct iface_table)TABLE(dp_port_map.vlans, 0);
	t[n++] = (struct iface_table)TABLE(dp_port_map.tx, 0);
	t[n++] = (struct iface_table)TABLE(dp_port_ip4, 0);
	t[n++] = (struct iface_table)TABLE(dp_port_ip6, 0);
	t[n++] = (struct iface_table)TABLE(dp_tx_tags, 0);
	t[n++] = (struct iface_table)TABLE(dp_sflow_rate, 0);
	for (f = 0; f < DP_RPF_FAMILIES; f++)
		t[n++] = (struct iface_table)TABLE(dp_rpf.mode[f], 0);
	for (f = 0; f < DP_ACL_FAMILIES; f++)
		for (d = 0; d < DP_ACL_DIRS; d++)
			t[n++] = (struct iface_table)TABLE(dp_acl_bound[f][d], 0);	/* NOLINT: pointers */
	for (w = 0; w < nb_workers; w++) {
		t[n++] = (struct iface_table)TABLE(dp_vlan_stats[w], 0);
		t[n++] = (struct iface_table)TABLE(dp_group_counts[w], 0);
		t[n++] = (struct iface_table)TABLE(dp_sflow_counts[w], 0);
	}
	return n;
}

#define TABLES_MAX (16 + DP_RPF_FAMILIES + DP_ACL_FAMILIES * DP_ACL_DIRS + 3 * DP_MAX_WORKERS)

int dp_ifaces_init(unsigned int max, unsigned int nb_workers)
{
	struct iface_table t[TABLES_MAX];
	void *made[TABLES_MAX];
	unsigned int n, i, w;
	size_t sum = 0;

	if (max < DP_IFACES_MIN || max > DP_MAX_IFACES || nb_workers == 0 ||
	    nb_workers > DP_MAX_WORKERS)
		return -EINVAL;
	if (dp.nb_ports != 0)
		return -EBUSY;
	n = tables_list(t, nb_workers);
	for (i = 0; i < n; i++) {
		made[i] = calloc(max + t[i].extra, t[i].size);
		if (made[i] == NULL) {
			while (i-- > 0)
				free(made[i]);
			return -ENOMEM;
		}
		sum += (max + t[i].extra) * t[i].size;
	}
	/* the workers' counters beyond nb_workers go too: no worker will write them */
	for (w = nb_workers; w < DP_MAX_WORKERS; w++) {
		free(dp_vlan_stats[w]);
		dp_vlan_stats[w] = NULL;
		free(dp_group_counts[w]);
		dp_group_counts[w] = NULL;
		free(dp_sflow_counts[w]);
		dp_sflow_counts[w] = NULL;
	}
	for (i = 0; i < n; i++) {
		free(*t[i].at);
		*t[i].at = made[i];
	}
	dp.max_ports = max;
	bytes = sum;
	return 0;
}

size_t dp_ifaces_memory(void)
{
	return bytes;
}

/* The tables exist from the start, so that a program that makes no interfaces of its own
 * (a unit test, a tool) can index them as ternd does. */
static void __attribute__((constructor)) ifaces_init_min(void)
{
	if (dp_ifaces_init(DP_IFACES_MIN, DP_MAX_WORKERS) < 0)
		abort();
}
