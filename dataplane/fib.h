/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 FIB: rte_fib DIR-24-8 made safe for lock-free readers.
 * Owner: the control thread writes, workers read dp_fib_active().
 * Two copies: updates go to the standby copy, the copies are switched, and
 * after a QSBR grace period the same updates are replayed on the old one.
 *
 * A table loaded in bulk (ternd's start, with a full table in the kernel) is
 * staged instead: every batch goes to the standby alone, dp_fib_publish
 * switches the copies once, and the copy workers left is brought level a
 * slice at a time (dp_fib_level, from the control loop) instead of doubling
 * the time until the FIB is complete. The next dp_fib_apply levels whatever
 * is left first, so the copies never diverge by more than the lag.
 */
#ifndef TERN_FIB_H
#define TERN_FIB_H

#include <stdbool.h>
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
/*
 * Each copy's first-level table (2^24 entries of 4 bytes), found at init in
 * rte_fib's private layout and checked there against a route it adds, or NULL
 * when the check fails. ip4_fast prefetches and reads its entries (second-level
 * groups it leaves to rte_fib_lookup_bulk); with NULL it looks every packet
 * up with rte_fib_lookup_bulk. Workers read only the active copy, which the
 * control thread does not write.
 */
extern const uint32_t *dp_fib_tbl24[2];

int dp_fib_init(unsigned int max_routes, int socket);
/* Applies a batch atomically for readers: they see all of it or none. */
int dp_fib_apply(const struct dp_fib_op *ops, unsigned int n);
/* Changes the standby alone, not yet seen by workers, until dp_fib_publish; while staging,
 * dp_fib_apply stages too. n = 0 only begins staging. */
int dp_fib_stage(const struct dp_fib_op *ops, unsigned int n);
bool dp_fib_staging(void);
/* Switches to the staged copy; the other one now lags. */
void dp_fib_publish(void);
/* Applies up to budget of the lagging copy's changes; true while some remain. */
bool dp_fib_level(unsigned int budget);
/* Changes the standby copy lacks. */
unsigned int dp_fib_lag(void);
int dp_fib_add(uint32_t prefix, uint8_t depth, uint32_t nh);
int dp_fib_del(uint32_t prefix, uint8_t depth);
uint32_t dp_fib_lookup(uint32_t ip);
uint64_t dp_fib_updates(void);

/* Where the control thread's FIB updates went, in TSC cycles since start. */
struct dp_fib_cost {
	uint64_t sort;		/* batches put in address order */
	uint64_t standby;	/* changes written to the copy workers do not read */
	uint64_t grace;		/* after a switch, waiting out the workers on the other copy */
	uint64_t level;		/* the same changes written to the other copy */
};
void dp_fib_cost(struct dp_fib_cost *c);
/* Their sum. */
uint64_t dp_fib_cycles(void);
size_t dp_fib_memory(void);

/* The copy workers read now: index for dp_fib_copies and dp_fib_tbl24. */
static inline unsigned int dp_fib_active_index(void)
{
	return __atomic_load_n(&dp_fib_active_idx, __ATOMIC_ACQUIRE);
}

static inline struct rte_fib *dp_fib_active(void)
{
	return dp_fib_copies[dp_fib_active_index()];
}

#endif
