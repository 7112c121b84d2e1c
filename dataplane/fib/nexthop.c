/* SPDX-License-Identifier: BSD-3-Clause */
/* The nexthop table: immutable entries behind pointers, replaced under QSBR. */
#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "dataplane/fib/nexthop.h"
#include "dataplane/node.h"
#include "dataplane/rcu.h"

struct dp_nexthop **dp_nh_table;

static const struct dp_nexthop noroute = { .kind = DP_NH_NOROUTE };

int dp_nh_init(void)
{
	uint32_t i;

	/* a table of pointers to entries */
	dp_nh_table = rte_zmalloc("tern_nh", DP_NH_MAX * sizeof(*dp_nh_table), /* NOLINT(bugprone-sizeof-expression) */
				  RTE_CACHE_LINE_SIZE);
	if (dp_nh_table == NULL)
		return -ENOMEM;
	/* Every slot points somewhere: a stale id reads "no route", never NULL. */
	for (i = 0; i < DP_NH_MAX; i++)
		dp_nh_table[i] = (struct dp_nexthop *)&noroute;
	return 0;
}

static void nh_free(void *p)
{
	rte_free(p);
}

static void nh_replace(uint32_t id, struct dp_nexthop *n)
{
	struct dp_nexthop *old = __atomic_exchange_n(&dp_nh_table[id], n, __ATOMIC_RELEASE);

	if (old != &noroute)
		dp_rcu_defer_free(old, nh_free);
}

int dp_nh_set(uint32_t id, const struct dp_nexthop *nh, const uint32_t *members)
{
	size_t msz = nh->kind == DP_NH_GROUP ? nh->nb_members * sizeof(uint32_t) : 0;
	struct dp_nexthop *n;

	if (id == DP_NH_NONE || id >= DP_NH_MAX || nh->kind >= DP_NH_KIND_MAX)
		return -EINVAL;
	if (nh->kind == DP_NH_GROUP && (nh->nb_members == 0 || nh->nb_members > DP_NH_GROUP_MAX))
		return -EINVAL;
	n = rte_zmalloc("tern_nh_entry", sizeof(*n) + msz, 0);
	if (n == NULL)
		return -ENOMEM;
	memcpy(n, nh, sizeof(*n));
	n->tx = n->port < dp.max_ports ? dp_port_map.tx[n->port] : DP_TX_VLAN;
	if (msz)
		memcpy(n->members, members, msz);
	nh_replace(id, n);
	return 0;
}

void dp_nh_clear(uint32_t id)
{
	if (id != DP_NH_NONE && id < DP_NH_MAX)
		nh_replace(id, (struct dp_nexthop *)&noroute);
}

const char *dp_nh_kind_name(enum dp_nh_kind k)
{
	static const char *const names[DP_NH_KIND_MAX] = {
		[DP_NH_NOROUTE] = "no-route", [DP_NH_FORWARD] = "forward",
		[DP_NH_LOCAL] = "local", [DP_NH_UNRESOLVED] = "unresolved",
		[DP_NH_BLACKHOLE] = "blackhole", [DP_NH_UNREACHABLE] = "unreachable",
		[DP_NH_PROHIBIT] = "prohibit", [DP_NH_GROUP] = "ecmp",
	};
	return k < DP_NH_KIND_MAX ? names[k] : "invalid";
}
