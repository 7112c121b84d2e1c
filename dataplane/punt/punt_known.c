/* SPDX-License-Identifier: BSD-3-Clause */
/* The resolved neighbours' MACs, counted by the control thread, read by the punt nodes. */
#include <errno.h>
#include <stdint.h>

#include <rte_jhash.h>

#include "dataplane/punt/punt_known.h"
#include "dataplane/rcu.h"

struct rte_hash *dp_punt_known;
static unsigned int known_tables;	/* tables made so far: which one a deferred slot is of */

int dp_punt_known_init(unsigned int max)
{
	struct rte_hash_parameters prm = {
		.name = "tern_punt_known",
		.entries = max < 8 ? 8 : max,
		.key_len = sizeof(uint64_t),
		.hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};

	/* workers read while the control thread writes only where there are workers (dp_rcu) */
	if (dp_rcu)
		prm.extra_flag |= RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF;
	dp_punt_known = rte_hash_create(&prm);
	known_tables++;
	return dp_punt_known ? 0 : -ENOMEM;
}

/* A deleted key's slot, given back once no worker can still be reading it (a lock-free
 * delete keeps it), in the table it came from, not in a later one: the deferred pointer is
 * the table's number and the slot, no allocation to lose. */
static void *slot_token(int32_t pos)
{
	return (void *)(uintptr_t)((uint64_t)known_tables << 32 | (uint32_t)pos);
}

static void free_slot(void *token)
{
	uint64_t t = (uintptr_t)token;

	if (dp_punt_known && (unsigned int)(t >> 32) == known_tables)
		rte_hash_free_key_with_position(dp_punt_known, (int32_t)(uint32_t)t);
}

void dp_punt_known_fini(void)
{
	rte_hash_free(dp_punt_known);
	dp_punt_known = NULL;
}

int dp_punt_known_ref(const struct rte_ether_addr *mac)
{
	uint64_t k = dp_punt_known_key(mac);
	void *refs = NULL;

	if (dp_punt_known == NULL)
		return 0;
	rte_hash_lookup_data(dp_punt_known, &k, &refs);
	return rte_hash_add_key_data(dp_punt_known, &k, (void *)((uintptr_t)refs + 1));
}

void dp_punt_known_unref(const struct rte_ether_addr *mac)
{
	uint64_t k = dp_punt_known_key(mac);
	int32_t pos;
	void *refs;

	if (dp_punt_known == NULL || rte_hash_lookup_data(dp_punt_known, &k, &refs) < 0)
		return;
	if ((uintptr_t)refs > 1) {
		rte_hash_add_key_data(dp_punt_known, &k, (void *)((uintptr_t)refs - 1));
		return;
	}
	pos = rte_hash_del_key(dp_punt_known, &k);
	if (pos < 0 || dp_rcu == NULL)
		return;
	dp_rcu_defer_free(slot_token(pos), free_slot);
}
