/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BGP-shaped synthetic IPv6 tables. Prefixes are announced from allocations (/32 mostly, /29
 * some) in the regional registries' /12s, as the real table is: half of them /48s (sites and
 * anycast), an eighth the /32 allocations themselves, the rest between, a few shorter
 * aggregates and longer ones. The allocations' clustering decides how many tables of 256
 * entries a lookup structure needs, so it is kept (routes6_groups counts them).
 */
#include <stdlib.h>
#include <string.h>

#include "bench/routes.h"
#include "bench/routes6.h"

/* Share of each prefix length in 100 000 routes of a 2024 full IPv6 feed (some 210 000). */
static const struct {
	uint8_t len;
	uint32_t per_100k;
} shape[] = {
	{ 48, 52000 }, { 32, 13000 }, { 44, 9000 }, { 40, 6000 }, { 36, 3500 }, { 29, 3000 },
	{ 46, 2200 }, { 47, 2000 }, { 45, 1200 }, { 42, 1000 }, { 28, 900 }, { 41, 700 },
	{ 43, 600 }, { 33, 600 }, { 34, 600 }, { 35, 500 }, { 38, 500 }, { 39, 400 }, { 30, 400 },
	{ 31, 300 }, { 37, 300 }, { 64, 400 }, { 56, 200 }, { 24, 200 }, { 27, 150 }, { 26, 100 },
	{ 25, 80 }, { 22, 30 }, { 20, 20 }, { 19, 20 },
};

/* The registries' blocks (2001::/16 for the early ones, then a /12 each) and their shares. */
static const struct {
	uint16_t first;		/* the block's first 16 bits */
	uint8_t len;
	uint32_t per_100;
} rir[] = {
	{ 0x2a00, 12, 40 }, { 0x2600, 12, 22 }, { 0x2400, 12, 22 }, { 0x2001, 16, 8 },
	{ 0x2800, 12, 6 }, { 0x2c00, 12, 2 },
};

static void set_bits(uint8_t *a, unsigned int from, unsigned int to, uint64_t *s)
{
	unsigned int b;

	for (b = from; b < to; b++)
		if (routes_rand(s) & 0x100)
			a[b / 8] |= 0x80 >> (b % 8);
}

static void mask(uint8_t *a, unsigned int len)
{
	unsigned int b;

	for (b = len; b < 128; b++)
		a[b / 8] &= ~(0x80 >> (b % 8));
}

void routes6_bgp_like(uint8_t (*prefixes)[16], uint8_t *lens, unsigned int n, uint64_t seed)
{
	uint64_t s = seed ? seed : 0x7465726e;
	unsigned int nb_alloc = n / 3 + 1, total = 0, i, k;
	uint8_t (*alloc)[16] = calloc(nb_alloc, 16), *alloc_len = calloc(nb_alloc, 1);

	if (alloc == NULL || alloc_len == NULL)
		abort();
	for (k = 0; k < sizeof(shape) / sizeof(shape[0]); k++)
		total += shape[k].per_100k;
	for (i = 0; i < nb_alloc; i++) {
		unsigned int r = routes_rand(&s) % 100, acc = 0;

		for (k = 0; k < sizeof(rir) / sizeof(rir[0]) - 1; k++)
			if (r < (acc += rir[k].per_100))
				break;
		alloc[i][0] = rir[k].first >> 8;
		alloc[i][1] = rir[k].first & 0xff;
		alloc_len[i] = routes_rand(&s) % 5 == 0 ? 29 : 32;
		set_bits(alloc[i], rir[k].len, alloc_len[i], &s);
	}
	for (i = 0; i < n; i++) {
		unsigned int r = routes_rand(&s) % total, acc = 0, a = routes_rand(&s) % nb_alloc;

		for (k = 0; k < sizeof(shape) / sizeof(shape[0]) - 1; k++)
			if (r < (acc += shape[k].per_100k))
				break;
		lens[i] = shape[k].len;
		memcpy(prefixes[i], alloc[a], 16);
		set_bits(prefixes[i], alloc_len[a], lens[i], &s);
		mask(prefixes[i], lens[i]);
	}
	free(alloc);
	free(alloc_len);
}

void routes6_pick_address(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n,
			  uint64_t *state, uint8_t out[16])
{
	unsigned int i = routes_rand(state) % n;

	memcpy(out, prefixes[i], 16);
	set_bits(out, lens[i], 128, state);
}

struct node_key {
	uint8_t a[16];
	uint8_t len;
};

static int key_cmp(const void *x, const void *y)
{
	const struct node_key *p = x, *q = y;

	return p->len != q->len ? p->len - q->len : memcmp(p->a, q->a, 16);
}

unsigned int routes6_groups(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n)
{
	struct node_key *keys;
	unsigned int i, b, k = 0, groups = 0, cap = 0;

	for (i = 0; i < n; i++)
		cap += lens[i] > 24 ? (lens[i] - 24 + 7) / 8 : 0;
	keys = calloc(cap ? cap : 1, sizeof(*keys));
	if (keys == NULL)
		abort();
	for (i = 0; i < n; i++)
		for (b = 24; b < lens[i]; b += 8) {
			memcpy(keys[k].a, prefixes[i], 16);
			mask(keys[k].a, b);
			keys[k++].len = b;
		}
	qsort(keys, k, sizeof(*keys), key_cmp);
	for (i = 0; i < k; i++)
		groups += i == 0 || key_cmp(&keys[i], &keys[i - 1]) != 0;
	free(keys);
	return groups;
}
