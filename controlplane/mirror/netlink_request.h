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
/* type: RTN_UNICAST (gw, or ifindex alone for a connected route), RTN_BLACKHOLE, ...;
 * metric: the kernel's priority (tern's distance), 0 for none. */
int nlr_route(bool add, uint32_t prefix, uint8_t len, uint8_t type, uint32_t gw, uint32_t ifindex,
	      uint32_t metric);
/* One member of a multipath route: a gateway (ifindex may be 0) or an interface alone. */
struct nlr_hop {
	uint32_t gw;
	uint32_t ifindex;
	unsigned int weight;	/* 1 .. 256 */
};
/* Sets the static route of that prefix and metric in the main table to these members. */
int nlr_route_group(uint32_t prefix, uint8_t len, uint32_t metric, const struct nlr_hop *hops,
		    unsigned int n);
int nlr_neigh(bool add, uint32_t ifindex, uint32_t ip, const struct rte_ether_addr *mac);
int nlr_link(uint32_t ifindex, int up, uint32_t mtu);	/* up: -1 keeps it; mtu 0 keeps it */

#endif
