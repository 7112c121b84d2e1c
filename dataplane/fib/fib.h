/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 FIB: a DIR-24-8 table made safe for lock-free readers.
 * Owner: the control thread writes, workers read the active copy.
 *
 * Two copies of the table: a batch of changes is written to the standby
 * copy, the copies are switched, and once a QSBR grace period has passed
 * (checked when the other copy is next written, not waited for at the
 * switch) the entries the batch wrote are copied into it. The routes themselves (and
 * which of them covers which entry) are kept once, in fib_update.c, so a
 * change costs one update and an entry copy, not two.
 *
 * A table loaded in bulk (ternd's start, with a full table in the kernel) is
 * staged instead: every batch goes to the standby alone, dp_fib_publish
 * switches the copies once, and the copy workers left is brought level a
 * slice at a time (dp_fib_level, from the control loop) instead of doubling
 * the time until the FIB is complete. The next dp_fib_apply levels whatever
 * is left first, so the copies never differ by more than the lag.
 *
 * An entry of the first level (2^24 of them, one per /24) holds a next hop
 * shifted left by one or, with bit 0 set, the index of a second-level group
 * of 256 entries, one per address of that /24, each a next hop shifted left
 * by one.
 */
#ifndef TERN_FIB_H
#define TERN_FIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

struct dp_fib_op {
	uint32_t prefix;	/* host order */
	uint8_t depth;
	uint8_t del;
	uint8_t refused;	/* set by the FIB: the change was not made (no room, or invalid) */
	uint32_t nh;
};

#define DP_FIB_GROUP 1u		/* bit 0 of a first-level entry: a second-level group */

extern unsigned int dp_fib_active_idx;
/* Each copy's first level (2^24 entries) and second-level groups (256 entries each). */
extern const uint32_t *dp_fib_tbl24[2];
extern const uint32_t *dp_fib_tbl8[2];

/* Makes the tables for max_routes routes; on failure, frees what it made. */
int dp_fib_init(unsigned int max_routes, int socket);
/* Frees the tables (no worker may read them any more). */
void dp_fib_fini(void);
/* Applies a batch atomically for readers: they see all of it or none. Each change the FIB
 * cannot make is marked refused and leaves the table as it was; the first one's error is
 * returned, and the others are made. */
int dp_fib_apply(struct dp_fib_op *ops, unsigned int n);
/* Changes the standby alone, not yet seen by workers, until dp_fib_publish; while staging,
 * dp_fib_apply stages too. n = 0 only begins staging. */
int dp_fib_stage(struct dp_fib_op *ops, unsigned int n);
bool dp_fib_staging(void);
/* Switches to the staged copy; the other one now lags. */
void dp_fib_publish(void);
/* Copies up to budget of the entries the lagging copy lacks, once no worker reads it; true
 * while some remain. */
bool dp_fib_level(unsigned int budget);
/* Waits until no worker reads the copy the last switch left, and brings it level: after it,
 * nothing a worker can read names what the changes before it dropped. */
void dp_fib_settle(void);
/* Entries the standby copy lacks. */
unsigned int dp_fib_lag(void);
int dp_fib_add(uint32_t prefix, uint8_t depth, uint32_t nh);
int dp_fib_del(uint32_t prefix, uint8_t depth);
uint32_t dp_fib_lookup(uint32_t ip);
/* Whether the FIB holds a route prefix/depth, and its next hop in *nh (nh may be NULL). */
bool dp_fib_route(uint32_t prefix, uint8_t depth, uint32_t *nh);
/* Whether a route prefix/depth the FIB does not hold would find room now: a free route, and
 * for one longer than /24 a second-level group (its /24's, or a free one). */
bool dp_fib_fits(uint32_t prefix, uint8_t depth);
uint64_t dp_fib_updates(void);
/* Routes held, and second-level groups in use of those there are. */
unsigned int dp_fib_routes(void);
void dp_fib_groups(unsigned int *used, unsigned int *total);

/* Where the control thread's FIB updates went, in TSC cycles since start. */
struct dp_fib_cost {
	uint64_t standby;	/* the routes' changes, written to the copy workers do not read */
	uint64_t grace;		/* after a switch, waiting out the workers on the other copy */
	uint64_t level;		/* the entries written copied to the other copy */
};
void dp_fib_cost(struct dp_fib_cost *c);
/* Their sum. */
uint64_t dp_fib_cycles(void);
size_t dp_fib_memory(void);

/* The copy workers read now: index for dp_fib_tbl24 and dp_fib_tbl8. */
static inline unsigned int dp_fib_active_index(void)
{
	return __atomic_load_n(&dp_fib_active_idx, __ATOMIC_ACQUIRE);
}

/* The next hop for ip whose first-level entry is e, in copy's second level when e is a group. */
static inline uint32_t dp_fib_entry_nh(unsigned int copy, uint32_t e, uint32_t ip)
{
	if (unlikely(e & DP_FIB_GROUP))
		e = dp_fib_tbl8[copy][(e >> 1) << 8 | (ip & 0xff)];
	return e >> 1;
}

static inline uint32_t dp_fib_lookup_in(unsigned int copy, uint32_t ip)
{
	return dp_fib_entry_nh(copy, dp_fib_tbl24[copy][ip >> 8], ip);
}

/* The next hops of n addresses (host order) in the copy workers read now. */
static inline void dp_fib_lookup_bulk(const uint32_t *ip, uint32_t *nh, unsigned int n)
{
	unsigned int copy = dp_fib_active_index(), i;

	for (i = 0; i < n; i++)
		rte_prefetch0(&dp_fib_tbl24[copy][ip[i] >> 8]);
	for (i = 0; i < n; i++)
		nh[i] = dp_fib_lookup_in(copy, ip[i]);
}

#endif
