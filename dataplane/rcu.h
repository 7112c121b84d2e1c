/* The one QSBR variable through which workers tell the control thread they hold no table entry. */
#ifndef TERN_RCU_H
#define TERN_RCU_H

#include <rte_rcu_qsbr.h>

extern struct rte_rcu_qsbr *dp_rcu;

int dp_rcu_init(unsigned int max_workers);
/* Control thread only: returns when no worker can still see what was unpublished before. */
void dp_rcu_synchronize(void);
/* Control thread only: free ptr with fn once every worker passed a quiescent state. */
int dp_rcu_defer_free(void *ptr, void (*fn)(void *));
/* Control thread only: runs the deferred frees whose grace period has ended. */
void dp_rcu_reclaim(void);

#endif
