/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB as a whole: its tables made and counted together, resynchronisation marks, and a
 * neighbour's arrival or departure carried to the nexthop through it and to its adjacency.
 * Calls go one way, from here down: routes (rib_route.c) to the FIB batch (rib_fib.c) and the
 * nexthops (rib_nexthop.c), nexthops to the neighbour table (rib_neigh.c); addresses are in
 * rib_addr.c and the shell's names in rib_name.c.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>


#include "controlplane/mirror/rib_priv.h"
#include "dataplane/fib/nexthop.h"

uint16_t rib_gen;

void rib_limits(struct rib_counts *l)
{
	memset(l, 0, sizeof(*l));
	rib_route_limits(AF_INET, l);
	l->nexthops = DP_NH_MAX - 1;
	l->neighbours = rib_neigh_max();
	l->addresses = RIB_MAX_ADDRS;
}

int rib_init(unsigned int max_routes, unsigned int max_neighbours)
{
	int rc = rib_routes_init(max_routes);

	if (rc == 0)
		rc = rib_nh_init();
	if (rc == 0)
		rc = rib_neigh_init(max_neighbours);
	if (rc == 0)
		rc = rib_fib_init();
	if (rc == 0)
		rc = rib_unplaced_init(max_routes);
	return rc < 0 ? -ENOMEM : 0;
}

int rib_init6(unsigned int max_routes6)
{
	struct rib_counts l;
	int rc = rib_routes6_init(max_routes6);

	rib_route_limits(AF_INET, &l);
	if (rc == 0)
		rc = rib_unplaced_init(l.routes[RIB_SRC_KERNEL] + max_routes6);
	return rc < 0 ? -ENOMEM : 0;
}

void rib_fini(void)
{
	rib_routes_fini();
	rib_neigh_fini();
	rib_nh_fini();
	rib_fib_fini();
	rib_unplaced_fini();
	rib_addr_fini();
}

void rib_mark_begin(void)
{
	rib_gen++;
}

unsigned int rib_sweep(void)
{
	unsigned int swept = rib_routes_sweep(rib_gen) + rib_addr_sweep(rib_gen), i, n;
	const struct rib_neigh *nb;

	for (i = 0, n = rib_neighs(&nb); i < n; n = rib_neighs(&nb)) {
		if (nb[i].gen != rib_gen) {
			swept++;
			rib_neigh_forget(&nb[i]);	/* the last takes its place */
		} else {
			i++;
		}
	}
	return swept;
}

void rib_counts6(struct rib_counts *c)
{
	memset(c, 0, sizeof(*c));
	rib_route_counts(AF_INET6, c);
}

void rib_limits6(struct rib_counts *l)
{
	memset(l, 0, sizeof(*l));
	rib_route_limits(AF_INET6, l);
}

void rib_counts(struct rib_counts *c)
{
	const struct rib_neigh *n;
	const struct rib_addr *a;

	memset(c, 0, sizeof(*c));
	rib_route_counts(AF_INET, c);
	c->nexthops = rib_nh_count();
	c->neighbours = rib_neighs(&n);
	c->addresses = rib_addrs(&a);
}

int rib_neigh_set(uint16_t port, uint32_t ip, const struct rte_ether_addr *mac, bool permanent)
{
	struct rib_route_attrs adj = { .src = RIB_SRC_ADJACENCY };
	struct rib_nh_spec s = { .type = RIB_NH_GATEWAY, .hop = { .port = port, .gw = ip } };
	struct rib_neigh key = rib_neigh_key4(port, ip);
	int rc = rib_neigh_store(&key, mac, permanent);

	if (rc <= 0)
		return rc;	/* refused, or known with that MAC */
	rc = rib_nh_refresh(port, ip);
	if (rc < 0)
		return rc;
	rc = rib_route_add(ip, 32, &adj, &s, RIB_ADD_REPLACE);
	return rc == -EEXIST ? 0 : rc;
}

int rib_neigh_del(uint16_t port, uint32_t ip)
{
	struct rib_neigh key = rib_neigh_key4(port, ip);
	int rc = rib_neigh_remove(&key);

	if (rc < 0)
		return rc;
	rib_adjacency_del(ip);
	return rib_nh_refresh(port, ip);
}

/* Link-local neighbours (fe80::/10) are gateways on their link alone: no host route of the
 * one FIB can name them, since each link has its own. */
static bool link_local(const uint8_t ip6[16])
{
	return ip6[0] == 0xfe && (ip6[1] & 0xc0) == 0x80;
}

int rib_neigh6_set(uint16_t port, const uint8_t ip6[16], const struct rte_ether_addr *mac,
		   bool permanent)
{
	struct rib_route_attrs adj = { .src = RIB_SRC_ADJACENCY };
	struct rib_nh_spec s = { .type = RIB_NH_GATEWAY, .hop = { .port = port, .family = AF_INET6 } };
	struct rib_neigh key = rib_neigh_key6(port, ip6);
	int rc = rib_neigh_store(&key, mac, permanent);

	if (rc <= 0)
		return rc;	/* refused, or known with that MAC */
	rc = rib_nh_refresh6(port, ip6);
	if (rc < 0 || link_local(ip6))
		return rc;
	memcpy(s.hop.gw6, ip6, 16);
	rc = rib_route6_add(ip6, 128, &adj, &s, RIB_ADD_REPLACE);
	return rc == -EEXIST || rc == -ENOSPC ? 0 : rc;
}

int rib_neigh6_del(uint16_t port, const uint8_t ip6[16])
{
	struct rib_neigh key = rib_neigh_key6(port, ip6);
	int rc = rib_neigh_remove(&key);

	if (rc < 0)
		return rc;
	rib_adjacency6_del(ip6);
	return rib_nh_refresh6(port, ip6);
}

int rib_neigh_forget(const struct rib_neigh *n)
{
	struct rib_neigh key = *n;	/* n is the table's own entry, which the removal moves */

	if (key.family == AF_INET6)
		return rib_neigh6_del(key.port, key.ip6);
	return rib_neigh_del(key.port, key.ip);
}

