/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbours the kernel resolved on the ports: a table the shell lists (rib_neighs),
 * indexed by (port, address) in an rte_hash, sized by [neighbours] max. Each resolved
 * neighbour resolves the one nexthop through it and gives its address a /32 adjacency.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <rte_hash.h>
#include <rte_jhash.h>

#include "controlplane/mirror/rib_priv.h"
#include "dataplane/dp.h"

struct neigh_key {
	uint32_t ip;
	uint32_t port;
};

static struct rib_neigh *neighs;
static unsigned int nb_neighs, max_neighs;
static struct rte_hash *neigh_index;	/* neigh_key -> position in neighs */

int rib_neigh_init(unsigned int max)
{
	struct rte_hash_parameters prm = {
		.name = "tern_rib_neighs",
		.entries = max,
		.key_len = sizeof(struct neigh_key),
		.hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
		/* without it a full bucket pair refuses a key well before max */
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};

	max_neighs = max;
	neighs = calloc(max, sizeof(*neighs));
	neigh_index = rte_hash_create(&prm);
	return neighs && neigh_index ? 0 : -ENOMEM;
}

void rib_neigh_fini(void)
{
	rte_hash_free(neigh_index);
	free(neighs);
	neigh_index = NULL;
	neighs = NULL;
	nb_neighs = 0;
}

unsigned int rib_neigh_max(void)
{
	return max_neighs;
}

static int neigh_pos(uint16_t port, uint32_t ip)
{
	struct neigh_key k = { .ip = ip, .port = port };
	void *pos;

	if (rte_hash_lookup_data(neigh_index, &k, &pos) < 0)
		return -ENOENT;
	return (int)(uintptr_t)pos;
}

const struct rib_neigh *rib_neigh_find(uint16_t port, uint32_t ip)
{
	int pos = neigh_pos(port, ip);

	return pos < 0 ? NULL : &neighs[pos];
}

int rib_neigh_store(uint16_t port, uint32_t ip, const struct rte_ether_addr *mac, bool permanent)
{
	struct rib_neigh *n = (struct rib_neigh *)rib_neigh_find(port, ip);
	bool changed = true;
	int rc;

	if (n == NULL) {
		struct neigh_key k = { .ip = ip, .port = port };

		if (nb_neighs == max_neighs)
			return -ENOSPC;
		rc = rte_hash_add_key_data(neigh_index, &k, (void *)(uintptr_t)nb_neighs);
		if (rc < 0)
			return rc;
		n = &neighs[nb_neighs++];
	} else {
		changed = !rte_is_same_ether_addr(&n->mac, mac);
	}
	*n = (struct rib_neigh){ .port = port, .ip = ip, .mac = *mac, .permanent = permanent,
				 .gen = rib_gen };
	return changed;
}

int rib_neigh_port(uint32_t ip)
{
	unsigned int p;

	DP_FOREACH_IFACE(p)
		if (neigh_pos(p, ip) >= 0)
			return p;
	return -ENOENT;
}

int rib_neigh_remove(uint16_t port, uint32_t ip)
{
	struct neigh_key k = { .ip = ip, .port = port };
	int pos = neigh_pos(port, ip);

	if (pos < 0)
		return -ENOENT;
	rte_hash_del_key(neigh_index, &k);
	if ((unsigned int)pos != --nb_neighs) {
		struct neigh_key moved = { .ip = neighs[nb_neighs].ip, .port = neighs[nb_neighs].port };

		neighs[pos] = neighs[nb_neighs];
		rte_hash_add_key_data(neigh_index, &moved, (void *)(uintptr_t)pos);
	}
	return 0;
}

unsigned int rib_neighs(const struct rib_neigh **out)
{
	*out = neighs;
	return nb_neighs;
}
