/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The operator's static routes and static neighbours (ARP's and NDP's), of both families,
 * kept as configuration.
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

/* One member of a static route: a gateway, or an interface alone (no gateway). */
struct static_hop {
	union {
		uint32_t gw;		/* IPv4, host order; 0: none */
		uint8_t gw6[16];	/* IPv6 (family AF_INET6) */
	};
	uint8_t family;		/* the gateway's: AF_INET6, else IPv4 */
	int port;		/* the interface named, or -1: the one whose subnet holds gw */
	unsigned int weight;	/* 1 .. 256 */
};

/* Whether h names a gateway (else an interface alone). */
bool statics_hop_has_gw(const struct static_hop *h);

struct static_route {
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint32_t prefix;	/* AF_INET, host order */
	uint8_t prefix6[16];	/* AF_INET6 */
	uint8_t len;
	uint8_t type;		/* RTN_UNICAST, RTN_BLACKHOLE, RTN_UNREACHABLE, RTN_PROHIBIT */
	uint32_t metric;	/* tern's distance: the kernel's priority */
	unsigned int nb_hops;
	struct static_hop hops[RIB_GROUP_MAX];
	bool active;		/* in the kernel with at least one member (or a drop route) */
};

/* The routes below are named by key's family, prefix, length and metric. */
/* Adds hop (a member: weight 0 keeps the one it has) or sets a drop type (hop NULL) at key's
 * prefix and metric, and writes the route to the kernel: 0, or the kernel's refusal with
 * nothing changed. */
int statics_route_add(const struct static_route *key, uint8_t type, const struct static_hop *hop);
/* Removes the member hop (NULL: the whole route) of the route at key; -ENOENT. */
int statics_route_del(const struct static_route *key, const struct static_hop *hop);
/* The routes at key's prefix (any metric), up to max: how many there are. */
unsigned int statics_route_find(const struct static_route *key, const struct static_route **out,
				unsigned int max);
unsigned int statics_routes(const struct static_route **out);

/* A static neighbour: an ARP entry, or an NDP one (family AF_INET6). */
struct static_arp {
	uint16_t port;
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint32_t ip;		/* AF_INET, host order */
	uint8_t ip6[16];	/* AF_INET6 */
	struct rte_ether_addr mac;
};
/* Adds or moves a's entry (its family and address name it) and writes it to the kernel. */
int statics_arp_add(const struct static_arp *a);
/* Removes the entry of key's family and address; -ENOENT. */
int statics_arp_del(const struct static_arp *key);
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
