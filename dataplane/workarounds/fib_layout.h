/* SPDX-License-Identifier: BSD-3-Clause */
/* Where rte_fib's DIR-24-8 keeps its first-level table and its second-level counts (see the .c). */
#ifndef TERN_FIB_LAYOUT_H
#define TERN_FIB_LAYOUT_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdint.h>

struct rte_fib;

/* The first-level table of an empty fib whose default next hop is empty_nh: entry i holds the
 * next hop of i.0/24 shifted left by one, bit 0 marking a second-level group. NULL when the
 * layout is not the one checked for. */
const uint32_t *fib_layout_tbl24(struct rte_fib *fib, uint32_t empty_nh);

/* The second-level group counters at the head of the private header. */
struct fib_tbl8_counts {
	uint32_t number;
	uint32_t reserved;
	uint32_t in_use;
};

/* The counters of an empty fib made with num_tbl8 groups; NULL when they are not where checked. */
struct fib_tbl8_counts *fib_layout_tbl8_counts(struct rte_fib *fib, uint32_t num_tbl8);

/* After each change: the reserved count never below the groups in use (see the .c). */
static inline void fib_layout_mend_tbl8_counts(struct fib_tbl8_counts *c)
{
	if (c != NULL && (int32_t)(c->reserved - c->in_use) < 0)
		c->reserved = c->in_use;
}

#endif
