/* SPDX-License-Identifier: BSD-3-Clause */
/* The batch of FIB changes that route, neighbour and nexthop changes lead to, applied at once. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "controlplane/mirror/rib_priv.h"
#include "controlplane/mirror/rib_table.h"
#include "controlplane/ternd/log.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"

#define RIB_BATCH 65536

/* A batch a family: each goes to its FIB, both before the nexthops they stopped naming are
 * freed, since the nexthops are shared. */
static struct dp_fib_op *pending;
static unsigned int nb_pending;
static struct dp_fib6_op *pending6;
static unsigned int nb_pending6;
static unsigned int batch_max = RIB_BATCH;	/* smaller in tests: rib_fib_set_batch */
static uint64_t reclaim_cycles;

uint64_t rib_reclaim_cycles(void)
{
	return reclaim_cycles;
}

/* Frees the nexthops the last commit set aside, once no copy of the FIB workers read names
 * them; its cycles counted (the wait for the copies, if any, is the FIB's). */
static void reclaim(void)
{
	uint64_t t;

	dp_fib_settle();
	dp_fib6_settle();
	t = rte_rdtsc();
	rib_nh_free_aside();
	reclaim_cycles += rte_rdtsc() - t;
}

int rib_fib_init(void)
{
	pending = calloc(RIB_BATCH, sizeof(*pending));
	pending6 = calloc(RIB_BATCH, sizeof(*pending6));
	return pending == NULL || pending6 == NULL ? -ENOMEM : 0;
}

void rib_fib_fini(void)
{
	free(pending);
	free(pending6);
	pending = NULL;
	pending6 = NULL;
	nb_pending = nb_pending6 = 0;
}

/* The change is queued whatever the early commit of a full batch answers: its error is about
 * the changes already in that batch (rib_commit logs it), and by now the RIB has already
 * moved to the new state (a delete has released the route's nexthop), so a change left out
 * would leave the FIB naming a freed, then reused, nexthop for good. */
int rib_queue_op(const struct route_key *k, bool del, uint32_t nh)
{
	if (nb_pending >= batch_max || nb_pending6 >= batch_max)
		rib_commit();
	if (k->family == AF_INET6) {
		struct dp_fib6_op *op = &pending6[nb_pending6++];

		*op = (struct dp_fib6_op){ .depth = k->len, .del = del, .nh = nh };
		memcpy(op->prefix, k->prefix6, 16);
		return 0;
	}
	pending[nb_pending++] = (struct dp_fib_op){ .prefix = k->prefix, .depth = k->len,
						    .del = del, .nh = nh };
	return 0;
}

void rib_fib_set_batch(unsigned int n)
{
	batch_max = n >= 1 && n <= RIB_BATCH ? n : RIB_BATCH;
}

/* The batch queued, applied; the routes the FIB refused marked as such. */
static int commit_batch(void)
{
	int rc = 0, rc6 = 0;

	/* while staging, workers still read the copy that may name them */
	if (!dp_fib_staging())
		reclaim();
	if (nb_pending > 0 || nb_pending6 == 0)
		rc = dp_fib_apply(pending, nb_pending);	/* to the standby alone while staging */
	if (rc < 0)
		rib_unplaced_mark(pending, nb_pending);
	if (rc < 0 && rc != -ENOSPC)
		TERN_LOG_RATELIMITED(rib, ERR, "FIB update failed: %s", strerror(-rc));
	if (nb_pending6 > 0)
		rc6 = dp_fib6_apply(pending6, nb_pending6);
	if (rc6 < 0)
		rib_unplaced_mark6(pending6, nb_pending6);
	if (rc6 < 0 && rc6 != -ENOSPC)
		TERN_LOG_RATELIMITED(rib, ERR, "IPv6 FIB update failed: %s", strerror(-rc6));
	nb_pending = nb_pending6 = 0;
	if (!dp_fib_staging())
		rib_nh_set_aside();
	return rc < 0 ? rc : rc6;
}

/* Returns the error of the first change the FIB refused, if one was; the routes refused for
 * want of room wait, and each commit that leaves room offers those that fit in one more batch. */
int rib_commit(void)
{
	int rc = commit_batch();

	if (rib_unplaced_count(AF_UNSPEC) > 0 && rib_unplaced_offer(batch_max, rib_queue_op) > 0) {
		commit_batch();
		rib_unplaced_settle();
	}
	return rc;
}

void rib_stage_begin(void)
{
	dp_fib_stage(NULL, 0);
	dp_fib6_stage(NULL, 0);
}

int rib_publish(void)
{
	int rc = rib_commit();

	dp_fib_publish();
	dp_fib6_publish();
	rib_nh_set_aside();	/* freed at the next commit, after the publish's grace period */
	return rc;
}
