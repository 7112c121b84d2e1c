/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MACs of the neighbours the router resolved, for the punt nodes: ARP and neighbour
 * discovery from one of them goes with the routing class, up to its allowance (punt.h).
 * The control thread counts each MAC's neighbour entries (an IPv4 one, a global and a
 * link-local IPv6 one often share it) and keeps the MAC here while one remains; workers
 * look it up without locks, and a deleted key's slot is reused only after every worker
 * passed a quiescent state (dp_rcu's defer queue).
 */
#ifndef TERN_PUNT_KNOWN_H
#define TERN_PUNT_KNOWN_H

#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_hash.h>

extern struct rte_hash *dp_punt_known;

/* Control thread: a table for up to max MACs (before workers start), and its end. */
int dp_punt_known_init(unsigned int max);
void dp_punt_known_fini(void);
/* Control thread: one neighbour entry more, or less, with this MAC. */
int dp_punt_known_ref(const struct rte_ether_addr *mac);
void dp_punt_known_unref(const struct rte_ether_addr *mac);

static inline uint64_t dp_punt_known_key(const struct rte_ether_addr *mac)
{
	uint64_t k = 0;

	memcpy(&k, mac->addr_bytes, RTE_ETHER_ADDR_LEN);
	return k;
}

/* Workers: the MAC's slot in the table (>= 0), or a negative errno when it is not known. */
static inline int dp_punt_known_slot(const struct rte_ether_addr *mac)
{
	uint64_t k = dp_punt_known_key(mac);

	return dp_punt_known ? rte_hash_lookup(dp_punt_known, &k) : -ENOENT;
}

#endif
