/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reads and one write into rte_fib's private DIR-24-8 layout (DPDK 22.11, lib/fib/dir24_8.h),
 * each checked at init with a scratch route and given up when the check fails.
 */
#include <stdbool.h>

#include <rte_common.h>
#include <rte_fib.h>

#include "dataplane/workarounds/fib_layout.h"

/*
 * rte_fib's DIR-24-8 (DPDK 22.11, lib/fib/dir24_8.h) keeps its first-level
 * table after a header of counters and pointers, at the next cache line:
 * entry i holds the next hop of i.0/24 shifted left by one (bit 0 marks a
 * second-level group). The layout is private, so it is checked, not assumed:
 * a scratch route in the empty copy must show up at that place with that
 * value, its neighbour must stay empty, and deleting it must empty it again;
 * otherwise the copy gets no address and ip4_fast uses rte_fib's lookup.
 */
#define FIB_TBL24_OFFSET 64
#define FIB_PROBE_PREFIX 0xc6120000u	/* 198.18.0.0/24 */
#define FIB_PROBE_NH 0x2a5u

const uint32_t *fib_layout_tbl24(struct rte_fib *fib, uint32_t empty_nh)
{
	const uint32_t *tbl24 = (const uint32_t *)((const uint8_t *)rte_fib_get_dp(fib) + FIB_TBL24_OFFSET);
	bool ok;

	if (rte_fib_add(fib, FIB_PROBE_PREFIX, 24, FIB_PROBE_NH) != 0)
		return NULL;
	ok = tbl24[FIB_PROBE_PREFIX >> 8] == FIB_PROBE_NH << 1 &&
	     tbl24[(FIB_PROBE_PREFIX >> 8) + 1] == empty_nh << 1;
	rte_fib_delete(fib, FIB_PROBE_PREFIX, 24);
	ok = ok && tbl24[FIB_PROBE_PREFIX >> 8] == empty_nh << 1;
	return ok ? tbl24 : NULL;
}

/*
 * DPDK 22.11's DIR-24-8 refuses a route longer than /24 in a /24 that holds
 * none yet once its count of reserved second-level groups reaches the number
 * it has. It counts one when such a route goes in, except when the route's
 * covering route has the same next hop (it writes nothing then), and gives
 * one back when the last such route of the /24 goes, whether counted or not.
 * A route longer than /24 under a cover with the same next hop, added and
 * withdrawn (a customer's /29 inside its provider's /22, flapping), so drove
 * the count below zero: it wrapped, and from then on every new route longer
 * than /24 failed with ENOSPC, forever (its traffic followed the cover). After each change dp_fib mends the
 * count: never below the groups actually in use, which is what it guards.
 * The counters head the private header (number, reserved, in use); like the
 * first-level table's place, that is checked at init with a scratch route,
 * and a copy that fails the check is left as DPDK keeps it.
 */
struct fib_tbl8_counts *fib_layout_tbl8_counts(struct rte_fib *fib, uint32_t num_tbl8)
{
	struct fib_tbl8_counts *c = rte_fib_get_dp(fib);
	bool ok;

	if (c->number != RTE_ALIGN_CEIL(num_tbl8, 64) || c->reserved != 0 || c->in_use != 0)
		return NULL;
	if (rte_fib_add(fib, FIB_PROBE_PREFIX | 0x80, 25, FIB_PROBE_NH) != 0)
		return NULL;
	ok = c->reserved == 1 && c->in_use == 1;
	rte_fib_delete(fib, FIB_PROBE_PREFIX | 0x80, 25);
	ok = ok && c->reserved == 0 && c->in_use == 0;
	return ok ? c : NULL;
}
