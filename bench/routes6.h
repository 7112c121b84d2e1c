/* SPDX-License-Identifier: BSD-3-Clause */
/* A synthetic Internet-like IPv6 table: allocations in the RIRs' blocks, prefix lengths as in
 * a full BGP feed. */
#ifndef TERN_BENCH_ROUTES6_H
#define TERN_BENCH_ROUTES6_H

#include <stdint.h>

/* A full IPv6 table, as BGP carries it today. */
#define ROUTES6_FULL 220000

/* Fills n prefixes (masked) and lengths; deterministic for a seed. */
void routes6_bgp_like(uint8_t (*prefixes)[16], uint8_t *lens, unsigned int n, uint64_t seed);
/* An address inside a random one of the n prefixes. */
void routes6_pick_address(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n,
			  uint64_t *state, uint8_t out[16]);
/* The groups of 256 entries a first level of /24 and 8-bit strides needs for the table (what
 * rte_lpm6 takes): one for each node at /24, /32 ... with a longer route below it. */
unsigned int routes6_groups(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n);

#endif
