/* SPDX-License-Identifier: BSD-3-Clause */
/* BGP-shaped synthetic tables: mostly /24, then /22, /23, /20, /21 ... and a few longer than /24. */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/args.h"
#include "bench/routes.h"
#include "bench/routes6.h"
#include "dataplane/ip4/ip4.h"

uint64_t routes_rand(uint64_t *s)
{
	/* xorshift64*: fast, deterministic, good enough to scatter prefixes */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/*
 * Share of each prefix length in 100 000 routes, as in a 2024 full IPv4 feed
 * (about 950 000 routes: some 16 /8s, 1 400 /14s, 13 500 /16s, 120 000 /22s,
 * 560 000 /24s), plus a tenth of a percent longer than /24, which a DFZ feed
 * filters but a router's own table (customers, loopbacks) holds. The /8s are
 * as few as in a real feed: with one in a thousand, every address would have
 * a /8 above it, and the FIB does not write an entry that already holds the
 * next hop, so a route would cost less than it does.
 */
static const struct {
	uint8_t len;
	uint32_t per_100k;
} shape[] = {
	{ 24, 59000 }, { 23, 11100 }, { 22, 12600 }, { 21, 6100 }, { 20, 4400 }, { 19, 2600 },
	{ 18, 1400 }, { 17, 840 }, { 16, 1420 }, { 15, 200 }, { 14, 120 }, { 13, 60 },
	{ 12, 30 }, { 11, 10 }, { 10, 4 }, { 9, 1 }, { 8, 2 }, { 25, 30 }, { 26, 25 },
	{ 27, 15 }, { 28, 13 }, { 29, 10 }, { 30, 10 }, { 32, 10 },
};

void routes_bgp_like(uint32_t *prefixes, uint8_t *lens, unsigned int n, uint64_t seed)
{
	uint64_t s = seed ? seed : 0x7465726e;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		unsigned int r = routes_rand(&s) % 100000, acc = 0;
		uint32_t a;

		for (k = 0; k < sizeof(shape) / sizeof(shape[0]) - 1; k++) {
			acc += shape[k].per_100k;
			if (r < acc)
				break;
		}
		lens[i] = shape[k].len;
		do	/* unicast space, not loopback, away from the benchmarking range the harness routes */
			a = (uint32_t)(routes_rand(&s) >> 32);
		while (a < 0x01000000u || a >= 0xe0000000u || (a >> 24) == 127 ||
		       (a >> 17) == (0xc6120000u >> 17));
		prefixes[i] = a & (~0u << (32 - lens[i]));
	}
}

uint32_t routes_pick_address(const uint32_t *prefixes, const uint8_t *lens, unsigned int n,
			     uint64_t *state)
{
	unsigned int i = routes_rand(state) % n;
	uint32_t host = lens[i] == 32 ? 0 : (uint32_t)routes_rand(state) & ~(~0u << (32 - lens[i]));

	return prefixes[i] | host;
}

/* The IPv6 table: BGP-shaped prefixes in the RIRs' blocks (routes6.c). */
static int routes6_print(unsigned long n, unsigned long seed)
{
	uint8_t (*p)[16] = calloc(n, sizeof(*p)), *l = calloc(n, 1);
	char text[INET6_ADDRSTRLEN];
	unsigned long i;

	if (p == NULL || l == NULL) {
		free(p);
		free(l);
		return fprintf(stderr, "tern-bench routes: no memory for %lu routes\n", n), 1;
	}
	routes6_bgp_like(p, l, n, seed);
	for (i = 0; i < n; i++)
		printf("%s/%u\n", inet_ntop(AF_INET6, p[i], text, sizeof(text)), l[i]);
	free(p);
	free(l);
	return 0;
}

int routes_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' }, { "seed", required_argument, NULL, 's' },
		{ "ipv6", no_argument, NULL, '6' }, { 0 },
	};
	unsigned long n = 1000, i;
	unsigned long seed = 7;
	bool ipv6 = false;
	uint32_t *p;
	uint8_t *l;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n' && arg_count(optarg, 1, ROUTES_MAX, &n) < 0)
			return fprintf(stderr, "tern-bench routes: --count '%s': expected 1 to %u\n", optarg,
				       ROUTES_MAX), 2;
		else if (c == 's' && arg_count(optarg, 0, ULONG_MAX, &seed) < 0)
			return fprintf(stderr, "tern-bench routes: --seed '%s': expected a number\n", optarg), 2;
		else if (c == '6')
			ipv6 = true;
		else if (c != 'n' && c != 's')
			return fprintf(stderr, "usage: tern-bench routes [--count N] [--seed S] [--ipv6]\n"), 2;
	}
	if (ipv6)
		return routes6_print(n, seed);
	p = calloc(n, sizeof(*p));
	l = calloc(n, 1);
	if (p == NULL || l == NULL)
		return fprintf(stderr, "tern-bench routes: no memory for %lu routes\n", n), 1;
	routes_bgp_like(p, l, n, seed);
	for (i = 0; i < n; i++)
		printf(IP4_FMT "/%u\n", IP4_ARGS(p[i]), l[i]);
	free(p);
	free(l);
	return 0;
}
