/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each worker's cache of access-list verdicts: the fields rte_acl reads of a packet (its
 * protocol, addresses and ports, and whether the ports could be read) and the id of its list,
 * to the entry they matched. A packet whose flow met the same list a moment before takes
 * that entry without rte_acl's walk: the same answer, for the fields are all the walk reads.
 * A list's id is never reused, so a list that replaces another never meets the other's
 * verdicts. Direct-mapped, DP_ACL_CACHE_SLOTS a family and worker; a miss takes rte_acl's walk
 * and its answer replaces what the slot held.
 *
 * Why tern has one: rte_acl walks its whole trie for every packet, 1 000 entries about 40
 * cycles a packet on the machine docs/performance.md's figures come from (perf). With
 * 1 000 entries and 1 024 flows, the pipeline benchmark's forwarding nodes took 76.1-89.5
 * cycles an IPv4 packet against 107.9-108.5 without the cache; with 65 536 flows, far more
 * than its slots, 122.8-127.2 against 105.9-112.4: a miss costs what it looks up and writes
 * on top of the walk.
 */
#ifndef TERN_ACL_CACHE_H
#define TERN_ACL_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_hash_crc.h>

#include "dataplane/acl/acl.h"

#define DP_ACL_CACHE_SLOTS 4096u	/* a power of two */

/* The key's bytes past the protocol that rte_acl reads, contiguous in both layouts: IPv4's
 * from its source address (after the checksum), IPv6's from its source (after the hop limit). */
#define ACL4_REST_AT 3
#define ACL4_REST_LEN 12
#define ACL6_REST_AT 2
#define ACL6_REST_LEN 36

/* A slot: IPv4's take 32 bytes (ACL4_REST_LEN of rest), IPv6's 64 (ACL6_REST_LEN). */
struct acl_slot {
	uint32_t list;		/* the list's id; 0: empty */
	uint16_t entry;		/* what matched: an index, nb for the implicit deny */
	uint8_t noport, proto;
	uint8_t rest[];
};

#define ACL4_SLOT_SIZE 32
#define ACL6_SLOT_SIZE 64

struct acl_cache {
	uint8_t *v4;		/* DP_ACL_CACHE_SLOTS of ACL4_SLOT_SIZE */
	uint8_t *v6;		/* DP_ACL_CACHE_SLOTS of ACL6_SLOT_SIZE */
};

/* Control thread, before the workers start: a cache for each worker (NULL: none). */
int acl_cache_init(unsigned int nb_workers);
extern struct acl_cache *acl_caches;

/* The slot hash of a key (its len bytes from at, a multiple of 4, read at any alignment: a key
 * in place lies where the packet's header does). */
static inline uint32_t acl_cache_hash(uint32_t list, const uint8_t *key, bool noport,
				      unsigned int at, unsigned int len)
{
	uint32_t h = list ^ (uint32_t)key[0] << 8 ^ (uint32_t)noport << 16;
	unsigned int i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, key + at + i, sizeof(w));
		h = rte_hash_crc_8byte(w, h);
	}
	for (; i + 4 <= len; i += 4) {
		uint32_t w;

		memcpy(&w, key + at + i, sizeof(w));
		h = rte_hash_crc_4byte(w, h);
	}
	return h;
}

#endif
