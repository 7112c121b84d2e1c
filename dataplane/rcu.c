/* SPDX-License-Identifier: BSD-3-Clause */
/* QSBR grace periods for the FIB and nexthop tables; workers report quiescence once per loop. */
#include <errno.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "dataplane/rcu.h"

struct rte_rcu_qsbr *dp_rcu;
static struct rte_rcu_qsbr_dq *defer_q;

struct deferred {
	void *ptr;
	void (*fn)(void *);
};

static void deferred_free(void *p, void *e, unsigned int n)
{
	struct deferred *d = e;
	unsigned int i;

	for (i = 0; i < n; i++)
		d[i].fn(d[i].ptr);
}

int dp_rcu_init(unsigned int max_workers)
{
	struct rte_rcu_qsbr_dq_parameters prm = { 0 };
	size_t sz = rte_rcu_qsbr_get_memsize(max_workers);

	dp_rcu = rte_zmalloc("tern_rcu", sz, RTE_CACHE_LINE_SIZE);
	if (dp_rcu == NULL)
		return -ENOMEM;
	if (rte_rcu_qsbr_init(dp_rcu, max_workers) != 0)
		return -EINVAL;
	prm.name = "tern_defer";
	prm.size = 1 << 16;
	prm.esize = sizeof(struct deferred);
	prm.trigger_reclaim_limit = 1 << 10;
	prm.max_reclaim_size = 1 << 12;
	prm.free_fn = deferred_free;
	prm.v = dp_rcu;
	prm.flags = RTE_RCU_QSBR_DQ_MT_UNSAFE;	/* the control thread is the only user */
	defer_q = rte_rcu_qsbr_dq_create(&prm);
	return defer_q ? 0 : -ENOMEM;
}

void dp_rcu_synchronize(void)
{
	rte_rcu_qsbr_synchronize(dp_rcu, RTE_QSBR_THRID_INVALID);
}

int dp_rcu_defer_free(void *ptr, void (*fn)(void *))
{
	struct deferred d = { ptr, fn };

	if (rte_rcu_qsbr_dq_enqueue(defer_q, &d) == 0)
		return 0;
	/* Queue full: wait for the grace period here rather than leak. */
	dp_rcu_synchronize();
	rte_rcu_qsbr_dq_reclaim(defer_q, ~0u, NULL, NULL, NULL);
	fn(ptr);
	return 0;
}

void dp_rcu_reclaim(void)
{
	if (defer_q != NULL)
		rte_rcu_qsbr_dq_reclaim(defer_q, ~0u, NULL, NULL, NULL);
}
