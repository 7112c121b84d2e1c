/* SPDX-License-Identifier: BSD-3-Clause */
/* The one QSBR variable through which workers tell the control thread they hold no table entry. */
#ifndef TERN_RCU_H
#define TERN_RCU_H

#include <rte_rcu_qsbr.h>

extern struct rte_rcu_qsbr *dp_rcu;
/*
 * Workers are the readers, 0 .. max_workers - 1, and report a quiescent state after each
 * graph walk. They are the only threads that poll or send on ports: what the kernel sends
 * out of a port goes through the first worker (node kernel_out).
 */
int dp_rcu_init(unsigned int max_workers);
/* Control thread only: returns when no worker can still see what was unpublished before. */
void dp_rcu_synchronize(void);
/* Control thread only: free ptr with fn once every worker passed a quiescent state. */
int dp_rcu_defer_free(void *ptr, void (*fn)(void *));
/* Control thread only: runs the deferred frees whose grace period has ended. */
void dp_rcu_reclaim(void);

#endif
