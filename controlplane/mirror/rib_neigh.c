/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbours the kernel resolved on the ports, ARP's and NDP's: a table the shell lists
 * (rib_neighs), indexed by (port, family, address) in an rte_hash, sized by [neighbours] max.
 * Each resolved IPv4 neighbour resolves the one nexthop through it and gives its address a
 * /32 adjacency (rib.c). Each entry counts its MAC in the punt nodes' known neighbours.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_hash.h>
#include <rte_jhash.h>

#include "controlplane/mirror/rib_priv.h"
#include "dataplane/dp.h"
#include "dataplane/punt/punt_known.h"

struct neigh_key {
	uint32_t ip;
	uint16_t port;
	uint8_t family;
	uint8_t pad;
	uint8_t ip6[16];
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
	if (!neighs || !neigh_index)
		return -ENOMEM;
	return dp_punt_known_init(max);
}

void rib_neigh_fini(void)
{
	dp_punt_known_fini();
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

struct rib_neigh rib_neigh_key4(uint16_t port, uint32_t ip)
{
	return (struct rib_neigh){ .port = port, .family = AF_INET, .ip = ip };
}

struct rib_neigh rib_neigh_key6(uint16_t port, const uint8_t ip6[16])
{
	struct rib_neigh n = { .port = port, .family = AF_INET6 };

	memcpy(n.ip6, ip6, 16);
	return n;
}

static struct neigh_key key_of(const struct rib_neigh *n)
{
	struct neigh_key k = { .port = n->port, .family = n->family };

	if (n->family == AF_INET6)
		memcpy(k.ip6, n->ip6, 16);
	else
		k.ip = n->ip;
	return k;
}

static int neigh_pos(const struct rib_neigh *n)
{
	struct neigh_key k = key_of(n);
	void *pos;

	if (rte_hash_lookup_data(neigh_index, &k, &pos) < 0)
		return -ENOENT;
	return (int)(uintptr_t)pos;
}

const struct rib_neigh *rib_neigh_find(uint16_t port, uint32_t ip)
{
	struct rib_neigh key = rib_neigh_key4(port, ip);
	int pos = neigh_pos(&key);

	return pos < 0 ? NULL : &neighs[pos];
}

const struct rib_neigh *rib_neigh6_find(uint16_t port, const uint8_t ip6[16])
{
	struct rib_neigh key = rib_neigh_key6(port, ip6);
	int pos = neigh_pos(&key);

	return pos < 0 ? NULL : &neighs[pos];
}

int rib_neigh_store(const struct rib_neigh *key, const struct rte_ether_addr *mac, bool permanent)
{
	int pos = neigh_pos(key), rc;
	bool changed = true;
	struct rib_neigh *n;

	if (pos < 0) {
		struct neigh_key k = key_of(key);

		if (nb_neighs == max_neighs)
			return -ENOSPC;
		rc = rte_hash_add_key_data(neigh_index, &k, (void *)(uintptr_t)nb_neighs);
		if (rc < 0)
			return rc;
		n = &neighs[nb_neighs++];
	} else {
		n = &neighs[pos];
		changed = !rte_is_same_ether_addr(&n->mac, mac);
		if (changed)
			dp_punt_known_unref(&n->mac);
	}
	if (changed)
		dp_punt_known_ref(mac);
	*n = *key;
	n->mac = *mac;
	n->permanent = permanent;
	n->gen = rib_gen;
	return changed;
}

int rib_neigh_port(uint32_t ip)
{
	unsigned int p;

	DP_FOREACH_IFACE(p) {
		struct rib_neigh key = rib_neigh_key4(p, ip);

		if (neigh_pos(&key) >= 0)
			return p;
	}
	return -ENOENT;
}

int rib_neigh6_port(const uint8_t ip6[16])
{
	unsigned int p;

	DP_FOREACH_IFACE(p) {
		struct rib_neigh key = rib_neigh_key6(p, ip6);

		if (neigh_pos(&key) >= 0)
			return p;
	}
	return -ENOENT;
}

int rib_neigh_remove(const struct rib_neigh *key)
{
	struct neigh_key k = key_of(key);
	int pos = neigh_pos(key);

	if (pos < 0)
		return -ENOENT;
	dp_punt_known_unref(&neighs[pos].mac);
	rte_hash_del_key(neigh_index, &k);
	if ((unsigned int)pos != --nb_neighs) {
		struct neigh_key moved = key_of(&neighs[nb_neighs]);

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
