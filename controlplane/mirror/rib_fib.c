/* SPDX-License-Identifier: BSD-3-Clause */
/* The batch of FIB changes that route, neighbour and nexthop changes lead to, applied at once. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "controlplane/mirror/rib_priv.h"
#include "controlplane/ternd/log.h"
#include "dataplane/fib/fib.h"

#define RIB_BATCH 65536

static struct dp_fib_op *pending;
static unsigned int nb_pending;
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
	t = rte_rdtsc();
	rib_nh_free_aside();
	reclaim_cycles += rte_rdtsc() - t;
}

int rib_fib_init(void)
{
	pending = calloc(RIB_BATCH, sizeof(*pending));
	return pending == NULL ? -ENOMEM : 0;
}

void rib_fib_fini(void)
{
	free(pending);
	pending = NULL;
	nb_pending = 0;
}

/* The change is queued whatever the early commit of a full batch answers: its error is about
 * the changes already in that batch (rib_commit logs it), and by now the RIB has already
 * moved to the new state (a delete has released the route's nexthop), so a change left out
 * would leave the FIB naming a freed, then reused, nexthop for good. */
int rib_queue_op(uint32_t prefix, uint8_t len, bool del, uint32_t nh)
{
	if (nb_pending >= batch_max)
		rib_commit();
	pending[nb_pending++] = (struct dp_fib_op){ .prefix = prefix, .depth = len, .del = del,
						    .nh = nh };
	return 0;
}

void rib_fib_set_batch(unsigned int n)
{
	batch_max = n >= 1 && n <= RIB_BATCH ? n : RIB_BATCH;
}

/* The batch queued, applied; the routes the FIB refused marked as such. */
static int commit_batch(void)
{
	int rc;

	/* while staging, workers still read the copy that may name them */
	if (!dp_fib_staging())
		reclaim();
	rc = dp_fib_apply(pending, nb_pending);	/* to the standby alone while staging */
	if (rc < 0)
		rib_unplaced_mark(pending, nb_pending);
	if (rc < 0 && rc != -ENOSPC)
		TERN_LOG_RATELIMITED(rib, ERR, "FIB update failed: %s", strerror(-rc));
	nb_pending = 0;
	if (!dp_fib_staging())
		rib_nh_set_aside();
	return rc;
}

/* Returns the error of the first change the FIB refused, if one was; the routes refused for
 * want of room wait, and each commit that leaves room offers those that fit in one more batch. */
int rib_commit(void)
{
	int rc = commit_batch();

	if (rib_unplaced_count() > 0 && rib_unplaced_offer(batch_max, rib_queue_op) > 0) {
		commit_batch();
		rib_unplaced_settle();
	}
	return rc;
}

void rib_stage_begin(void)
{
	dp_fib_stage(NULL, 0);
}

int rib_publish(void)
{
	int rc = rib_commit();

	dp_fib_publish();
	rib_nh_set_aside();	/* freed at the next commit, after the publish's grace period */
	return rc;
}
