/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration written to the kernel: addresses, routes and static neighbours
 * on the ports' TAPs, and their link state. Each request waits for the
 * kernel's answer; the change then comes back through the mirror, the one
 * path into the FIB.
 */
#ifndef TERN_NETLINK_REQUEST_H
#define TERN_NETLINK_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

int nlr_addr(bool add, uint32_t ifindex, uint32_t ip, uint8_t len);
int nlr_addr6(bool add, uint32_t ifindex, const uint8_t ip6[16], uint8_t len);
/* A route's prefix, of either family. */
struct nlr_prefix {
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint8_t len;
	uint32_t prefix;	/* AF_INET, host order */
	uint8_t prefix6[16];	/* AF_INET6 */
};
/* One member of a route: a gateway (ifindex may be 0) or an interface alone. */
struct nlr_hop {
	uint8_t family;		/* the gateway's: AF_INET6 for gw6, else gw */
	uint32_t gw;		/* host order; 0 (and gw6 ::): none */
	uint8_t gw6[16];
	uint32_t ifindex;
	unsigned int weight;	/* 1 .. 256 */
};
/* type: RTN_UNICAST (hop: a gateway, or an interface alone for a connected route),
 * RTN_BLACKHOLE, ... (hop NULL); metric: the kernel's priority (tern's distance), 0 for none.
 * A deletion (add false, type RTN_UNSPEC) names the prefix and metric alone. */
int nlr_route(bool add, const struct nlr_prefix *p, uint8_t type, const struct nlr_hop *hop,
	      uint32_t metric);
/* Sets the static route of that prefix and metric in the main table to these members. */
int nlr_route_group(const struct nlr_prefix *p, uint32_t metric, const struct nlr_hop *hops,
		    unsigned int n);
/* A permanent neighbour of either family: ip (AF_INET, host order) or ip6. */
int nlr_neigh(bool add, uint32_t ifindex, uint8_t family, uint32_t ip, const uint8_t *ip6,
	      const struct rte_ether_addr *mac);
int nlr_link(uint32_t ifindex, int up, uint32_t mtu);	/* up: -1 keeps it; mtu 0 keeps it */

#endif
