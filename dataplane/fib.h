/*
 * The IPv4 FIB: rte_fib DIR-24-8 made safe for lock-free readers.
 * Owner: the control thread writes, workers read dp_fib_active().
 * Two copies: updates go to the standby copy, the copies are switched, and
 * after a QSBR grace period the same updates are replayed on the old one.
 */
#ifndef TERN_FIB_H
#define TERN_FIB_H

#include <stdint.h>

#include <rte_fib.h>

struct dp_fib_op {
	uint32_t prefix;	/* host order */
	uint8_t depth;
	uint8_t del;
	uint32_t nh;
};

extern struct rte_fib *dp_fib_copies[2];
extern unsigned int dp_fib_active_idx;

int dp_fib_init(unsigned int max_routes, int socket);
/* Applies a batch atomically for readers: they see all of it or none. */
int dp_fib_apply(const struct dp_fib_op *ops, unsigned int n);
int dp_fib_add(uint32_t prefix, uint8_t depth, uint32_t nh);
int dp_fib_del(uint32_t prefix, uint8_t depth);
uint32_t dp_fib_lookup(uint32_t ip);
uint64_t dp_fib_updates(void);
size_t dp_fib_memory(void);

static inline struct rte_fib *dp_fib_active(void)
{
	return dp_fib_copies[__atomic_load_n(&dp_fib_active_idx, __ATOMIC_ACQUIRE)];
}

#endif
