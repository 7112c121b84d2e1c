/* SPDX-License-Identifier: BSD-3-Clause */
/* A synthetic Internet-like IPv4 table: prefix lengths distributed as in a full BGP feed. */
#ifndef TERN_BENCH_ROUTES_H
#define TERN_BENCH_ROUTES_H

#include <stdint.h>

/* The most routes a table is made of (a full Internet table is about a million). */
#define ROUTES_MAX (1u << 24)

/* Fills n prefixes (host order, masked) and lengths; deterministic for a seed. */
void routes_bgp_like(uint32_t *prefixes, uint8_t *lens, unsigned int n, uint64_t seed);
/* An address inside a random one of the n prefixes. */
uint32_t routes_pick_address(const uint32_t *prefixes, const uint8_t *lens, unsigned int n,
			     uint64_t *state);
uint64_t routes_rand(uint64_t *state);
/* tern-bench routes [--count N] [--seed S]: prints the table, one A.B.C.D/L a line. */
int routes_cmd(int argc, char **argv);

#endif
