/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The operator's static routes and static ARP entries, kept as configuration.
 *
 * The kernel drops the routes and the permanent neighbours through an
 * interface that goes down, and forgets them for good: a router keeps what
 * its operator configured. ternd keeps them here, writes to the kernel those
 * it can hold (a route with the members whose interface is up, an ARP entry
 * whose interface is up), and writes them again when an interface comes back
 * or an address changes. The running configuration is written from here, not
 * from what the kernel holds at the moment.
 */
#ifndef TERN_STATICS_H
#define TERN_STATICS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "controlplane/mirror/rib.h"

#define STATICS_ROUTES_MAX 65536
#define STATICS_ARP_MAX 4096

/* One member of a static route: a gateway, or an interface alone (gw 0). */
struct static_hop {
	uint32_t gw;		/* host order */
	int port;		/* the interface named, or -1: the one whose subnet holds gw */
	unsigned int weight;	/* 1 .. 256 */
};

struct static_route {
	uint32_t prefix;	/* host order */
	uint8_t len;
	uint8_t type;		/* RTN_UNICAST, RTN_BLACKHOLE, RTN_UNREACHABLE, RTN_PROHIBIT */
	uint32_t metric;	/* tern's distance: the kernel's priority */
	unsigned int nb_hops;
	struct static_hop hops[RIB_GROUP_MAX];
	bool active;		/* in the kernel with at least one member (or a drop route) */
};

/* Adds hop (a member: weight 0 keeps the one it has) or sets a drop type (hop NULL) at
 * prefix and metric, and writes the route to the kernel: 0, or the kernel's refusal with
 * nothing changed. */
int statics_route_add(uint32_t prefix, uint8_t len, uint32_t metric, uint8_t type,
		      const struct static_hop *hop);
/* Removes the member hop (NULL: the whole route) of the route at prefix and metric; -ENOENT. */
int statics_route_del(uint32_t prefix, uint8_t len, uint32_t metric, const struct static_hop *hop);
/* The routes at prefix (any metric), up to max: how many there are. */
unsigned int statics_route_find(uint32_t prefix, uint8_t len, const struct static_route **out,
				unsigned int max);
unsigned int statics_routes(const struct static_route **out);

int statics_arp_add(uint16_t port, uint32_t ip, const struct rte_ether_addr *mac);
int statics_arp_del(uint32_t ip);
struct static_arp {
	uint16_t port;
	uint32_t ip;
	struct rte_ether_addr mac;
};
unsigned int statics_arps(const struct static_arp **out);

/* Writes to the kernel what it lacks of the configuration, after a link or address change
 * (the mirror's link generation moved); from the control loop's tick. */
void statics_tick(void);
/* Whether a and b are the same member (a gateway named without its interface is the same as
 * with one). */
bool statics_same_hop(const struct static_hop *a, const struct static_hop *b);
/* Whether a member can be in the kernel now: its interface up, its gateway on its subnet. */
bool statics_hop_live(const struct static_hop *h);

#endif
