/* BGP-shaped synthetic tables: mostly /24, then /22, /23, /20, /21 ... and a few longer than /24. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/routes.h"

uint64_t routes_rand(uint64_t *s)
{
	/* xorshift64*: fast, deterministic, good enough to scatter prefixes */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/* Share of each prefix length in per-mille, roughly as in a 2024 full IPv4 feed. */
static const struct {
	uint8_t len;
	uint16_t permille;
} shape[] = {
	{ 24, 600 }, { 23, 70 }, { 22, 110 }, { 21, 50 }, { 20, 45 }, { 19, 30 }, { 18, 20 },
	{ 17, 15 }, { 16, 30 }, { 15, 5 }, { 14, 5 }, { 13, 4 }, { 12, 3 }, { 11, 2 },
	{ 10, 1 }, { 9, 1 }, { 8, 1 }, { 25, 2 }, { 26, 2 }, { 27, 1 }, { 28, 1 }, { 29, 1 },
	{ 30, 1 }, { 32, 1 },
};

void routes_bgp_like(uint32_t *prefixes, uint8_t *lens, unsigned int n, uint64_t seed)
{
	uint64_t s = seed ? seed : 0x7465726e;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		unsigned int r = routes_rand(&s) % 1000, acc = 0;
		uint32_t a;

		for (k = 0; k < sizeof(shape) / sizeof(shape[0]) - 1; k++) {
			acc += shape[k].permille;
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

int routes_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' }, { "seed", required_argument, NULL, 's' }, { 0 },
	};
	unsigned long n = 1000, i;
	uint64_t seed = 7;
	uint32_t *p;
	uint8_t *l;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n')
			n = strtoul(optarg, NULL, 10);
		else if (c == 's')
			seed = strtoull(optarg, NULL, 10);
		else
			return fprintf(stderr, "usage: tern-bench routes [--count N] [--seed S]\n"), 2;
	}
	p = calloc(n ? n : 1, sizeof(*p));
	l = calloc(n ? n : 1, 1);
	if (p == NULL || l == NULL)
		return 1;
	routes_bgp_like(p, l, n, seed);
	for (i = 0; i < n; i++)
		printf("%u.%u.%u.%u/%u\n", p[i] >> 24, (p[i] >> 16) & 255, (p[i] >> 8) & 255, p[i] & 255, l[i]);
	free(p);
	free(l);
	return 0;
}
