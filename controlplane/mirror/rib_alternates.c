/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel routes that wait aside while another of their prefix is in use: of another table
 * or metric, or after the first of the same table and metric (ip route append and prepend).
 * The best of them takes over when the one in use goes (rib_route.c). They are few, so one
 * array walked whole serves both families.
 */
#include <errno.h>
#include <stdlib.h>

#include "controlplane/mirror/rib_priv.h"
#include "controlplane/mirror/rib_table.h"

static struct alternate *alts;
static unsigned int nb_alts;
/* A prepended route gets a seq below every other, an appended one above. */
static uint32_t seq_first = 1u << 31, seq_last = 1u << 31;

int alt_init(void)
{
	alts = calloc(RIB_ALTERNATES_MAX, sizeof(*alts));
	nb_alts = 0;
	return alts ? 0 : -ENOMEM;
}

void alt_fini(void)
{
	free(alts);
	alts = NULL;
	nb_alts = 0;
}

unsigned int alt_count(void)
{
	return nb_alts;
}

const struct alternate *alt_at(unsigned int i)
{
	return &alts[i];
}

struct route_rec *alt_rec(unsigned int i)
{
	return &alts[i].rec;
}

int alt_first(const struct route_key *k, const struct route_rec *slot)
{
	int first = -ENOENT;
	unsigned int i;

	for (i = 0; i < nb_alts; i++)
		if (route_same_key(&alts[i].key, k) && route_same_slot(&alts[i].rec, slot) &&
		    (first < 0 || alts[i].seq < alts[first].seq))
			first = i;
	return first;
}

int alt_find(const struct route_key *k, const struct route_rec *slot, uint32_t nh)
{
	unsigned int i;

	for (i = 0; i < nb_alts; i++)
		if (route_same_key(&alts[i].key, k) && route_same_slot(&alts[i].rec, slot) &&
		    alts[i].rec.nh == nh)
			return i;
	return -ENOENT;
}

int alt_best(const struct route_key *k)
{
	int best = -ENOENT;
	unsigned int i;

	for (i = 0; i < nb_alts; i++) {
		const struct alternate *a = &alts[i];

		if (!route_same_key(&a->key, k))
			continue;
		if (best < 0 || route_rec_better(&a->rec, &alts[best].rec) ||
		    (route_same_slot(&a->rec, &alts[best].rec) && a->seq < alts[best].seq))
			best = i;
	}
	return best;
}

struct route_rec alt_take(unsigned int i)
{
	struct route_rec r = alts[i].rec;

	alts[i] = alts[--nb_alts];
	return r;
}

void alt_remove(unsigned int i)
{
	rib_nh_put(alt_take(i).nh);
}

int alt_store(const struct route_key *k, const struct route_rec *r, bool first)
{
	if (nb_alts == RIB_ALTERNATES_MAX)
		return -ENOSPC;
	alts[nb_alts++] = (struct alternate){ .key = *k, .rec = *r,
					      .seq = first ? --seq_first : ++seq_last };
	return 0;
}
