/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 FIB: tern's own table (fib6_table.c: a first level of 2^24 entries, then groups of
 * 256, one per byte), in two copies switched under QSBR, the scheme of the IPv4 FIB (fib.h).
 * Owner: the control thread writes, workers read the active copy.
 *
 * A batch of changes is made in the standby copy, the copies are switched, and the batch is
 * kept in a log. Once a grace period has passed (checked when the other copy is next
 * written, not waited for at the switch) the log is made in the copy workers left, each
 * change the way it was made in the first (a withdrawal falls back to the route that covered
 * it then), so both copies hold the same routes. A table loaded in bulk is staged as the
 * IPv4 FIB's is (dp_fib6_stage, dp_fib6_publish, then dp_fib6_level a slice at a time).
 *
 * A /48 is found in at most 4 dependent reads (the first level and 3 groups), and a vector's
 * lookups go down the levels together, each level's reads fetched ahead of it. Why this and
 * not DPDK's rte_lpm6 or rte_fib6, with numbers: ARCHITECTURE.md, "The IPv6 FIB".
 */
#ifndef TERN_FIB6_H
#define TERN_FIB6_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

struct dp_fib6_op {
	uint8_t prefix[16];
	uint8_t depth;		/* 0..128 */
	uint8_t del;
	uint8_t refused;	/* set by the FIB: the change was not made (no room, or invalid) */
	uint32_t nh;
};

extern unsigned int dp_fib6_active_idx;
/* Each copy's first level, groups, and default route (::/0, kept beside the table). */
extern const uint32_t *dp_fib6_tbl24[2];
extern const uint32_t *dp_fib6_groups[2];
extern uint32_t dp_fib6_default[2];

/* Makes both copies for max_routes routes; on failure, frees what it made. */
int dp_fib6_init(unsigned int max_routes, int socket);
/* Frees the copies (no worker may read them any more). */
void dp_fib6_fini(void);
/* Applies a batch atomically for readers: they see all of it or none. A change the FIB
 * cannot make is marked refused and leaves the table as it was; the first one's error is
 * returned, and the others are made. */
int dp_fib6_apply(struct dp_fib6_op *ops, unsigned int n);
/* Changes the standby alone until dp_fib6_publish; while staging, dp_fib6_apply stages too.
 * n = 0 only begins staging. */
int dp_fib6_stage(struct dp_fib6_op *ops, unsigned int n);
bool dp_fib6_staging(void);
void dp_fib6_publish(void);
/* Makes up to budget of the changes the lagging copy lacks, once no worker reads it; true
 * while some remain. */
bool dp_fib6_level(unsigned int budget);
/* Waits until no worker reads the copy the last switch left, and brings it level. */
void dp_fib6_settle(void);
/* Changes the standby copy lacks. */
unsigned int dp_fib6_lag(void);
int dp_fib6_add(const uint8_t prefix[16], uint8_t depth, uint32_t nh);
int dp_fib6_del(const uint8_t prefix[16], uint8_t depth);
/* Whether the FIB holds the route prefix/depth, and its next hop in *nh (nh may be NULL). */
bool dp_fib6_route(const uint8_t prefix[16], uint8_t depth, uint32_t *nh);
/* Whether a route prefix/depth would find room now (it may be there already). */
bool dp_fib6_fits(const uint8_t prefix[16], uint8_t depth);
uint32_t dp_fib6_lookup(const uint8_t ip[16]);
unsigned int dp_fib6_routes(void);
/* Groups in use in the copy the last change went to, and of those there are. */
void dp_fib6_groups_used(unsigned int *used, unsigned int *total);
uint64_t dp_fib6_updates(void);
size_t dp_fib6_memory(void);
/* TSC cycles the control thread spent: the changes in the standby, the lagging copy's, waits. */
uint64_t dp_fib6_cycles(void);
/* Those cycles apart: making changes (both copies), and waiting for workers to leave a copy. */
void dp_fib6_cost(uint64_t *work, uint64_t *wait);

static inline unsigned int dp_fib6_active_index(void)
{
	return __atomic_load_n(&dp_fib6_active_idx, __ATOMIC_ACQUIRE);
}

static inline uint32_t dp_fib6_tbl24_index(const uint8_t *a)
{
	return (uint32_t)a[0] << 16 | (uint32_t)a[1] << 8 | a[2];
}

/* The entry of byte b of an address in group e (an entry with bit 0 set). */
static inline const uint32_t *dp_fib6_group_entry(unsigned int copy, uint32_t e, uint8_t b)
{
	return &dp_fib6_groups[copy][(size_t)(e >> 1) * 256 + b];
}

/* The next hop of a route entry: 0 falls back to the default route. */
static inline uint32_t dp_fib6_entry_nh(unsigned int copy, uint32_t e)
{
	e >>= 9;
	return e ? e : __atomic_load_n(&dp_fib6_default[copy], __ATOMIC_RELAXED);
}

/* The next hop of one address in copy. */
static inline uint32_t dp_fib6_lookup_in(unsigned int copy, const uint8_t *a)
{
	uint32_t e = dp_fib6_tbl24[copy][dp_fib6_tbl24_index(a)];
	unsigned int b = 3;

	while (unlikely(e & 1))
		e = *dp_fib6_group_entry(copy, e, a[b++]);
	return dp_fib6_entry_nh(copy, e);
}

/*
 * The next hops of n addresses in the copy workers read now. The addresses go down the
 * levels together: each level's entries are fetched for all of them before any is read,
 * so the misses of a vector overlap instead of adding up address by address.
 */
static inline void dp_fib6_lookup_bulk(const uint8_t (*ips)[16], uint32_t *nh, unsigned int n)
{
	unsigned int copy = dp_fib6_active_index(), i, b;
	const uint32_t *tbl24 = dp_fib6_tbl24[copy];
	uint32_t e[n ? n : 1];
	bool deeper = false;

	for (i = 0; i < n; i++)
		rte_prefetch0(&tbl24[dp_fib6_tbl24_index(ips[i])]);
	for (i = 0; i < n; i++) {
		e[i] = tbl24[dp_fib6_tbl24_index(ips[i])];
		if (e[i] & 1) {
			rte_prefetch0(dp_fib6_group_entry(copy, e[i], ips[i][3]));
			deeper = true;
		}
	}
	for (b = 3; deeper && b < 16; b++) {
		deeper = false;
		for (i = 0; i < n; i++) {
			if (!(e[i] & 1))
				continue;
			e[i] = *dp_fib6_group_entry(copy, e[i], ips[i][b]);
			if (e[i] & 1) {
				rte_prefetch0(dp_fib6_group_entry(copy, e[i], ips[i][b + 1]));
				deeper = true;
			}
		}
	}
	for (i = 0; i < n; i++)
		nh[i] = dp_fib6_entry_nh(copy, e[i]);
}

#endif
