/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control plane's copy of the kernel's routes, addresses and neighbours
 * (the kernel is the RIB; this mirrors it), and the nexthops derived from them.
 * Owner: the control thread; it alone writes the FIB and nexthop tables.
 */
#ifndef TERN_RIB_H
#define TERN_RIB_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_ether.h>

#define RIB_GROUP_MAX 64
#define RIB_MAX_TABLES 8	/* kernel tables mirrored besides local and main */

enum rib_source {
	RIB_SRC_KERNEL,		/* mirrored from a kernel routing table */
	RIB_SRC_ADJACENCY,	/* host route to a resolved neighbour on a connected subnet */
	RIB_SRC_MAX,
};

enum rib_nh_type {
	RIB_NH_GATEWAY,		/* via an address on a port: forward once resolved */
	RIB_NH_CONNECTED,	/* on a port's subnet: the kernel resolves each host */
	RIB_NH_LOCAL,		/* one of the router's addresses */
	RIB_NH_BLACKHOLE,
	RIB_NH_UNREACHABLE,
	RIB_NH_PROHIBIT,
	RIB_NH_BROADCAST,	/* a port's subnet broadcast: the router's while the port is up */
	RIB_NH_GROUP,		/* ECMP over gateway/connected members */
};

/* Whether a nexthop of this type is bound to one port (its spec's hop.port). */
static inline bool rib_nh_on_port(enum rib_nh_type type)
{
	return type == RIB_NH_GATEWAY || type == RIB_NH_CONNECTED || type == RIB_NH_BROADCAST;
}

/* A hop: a port, and the gateway on it (none: connected). An IPv4 route may have an IPv6
 * gateway (RFC 8950), resolved through the IPv6 neighbour; a link-local one is only
 * meaningful with its port, which is always part of the hop. */
struct rib_hop {
	uint16_t port;
	union {
		uint32_t gw;		/* IPv4, host order; 0: connected */
		uint8_t gw6[16];	/* IPv6 (family AF_INET6) */
	};
	uint8_t family;		/* the gateway's: AF_INET6, else IPv4 */
};

static inline bool rib_hop_is_v6(const struct rib_hop *h)
{
	return h->family == AF_INET6;
}

/* Whether the hop names a gateway (else it is a connected hop). */
static inline bool rib_hop_has_gw(const struct rib_hop *h)
{
	static const uint8_t zero[16];

	return rib_hop_is_v6(h) ? memcmp(h->gw6, zero, 16) != 0 : h->gw != 0;
}

struct rib_nh_spec {
	enum rib_nh_type type;
	uint32_t knh;				/* the kernel nexthop object it comes from; 0: none */
	/* LOCAL: the kernel interface that holds the address. Two interfaces may hold one
	 * address (an IPv6 link-local one often), each with its own local route: the kernel
	 * removing one leaves the other. */
	uint32_t local_dev;
	struct rib_hop hop;			/* GATEWAY, CONNECTED, BROADCAST (port) */
	uint8_t nb_members;			/* GROUP */
	struct rib_hop members[RIB_GROUP_MAX];	/* GROUP; a weight-w member appears w times */
};

struct rib_route_attrs {
	enum rib_source src;
	uint8_t kproto;		/* the kernel's rtm_protocol (RTPROT_*) */
	uint32_t metric;	/* the kernel's priority: lower wins */
	uint32_t table;		/* the kernel's table (RT_TABLE_MAIN, ...); 0 for an adjacency */
};

/* How a kernel route joins others of the same prefix, table and metric (the kernel's flags). */
enum rib_add_mode {
	RIB_ADD_REPLACE,	/* NLM_F_REPLACE: takes the first one's place */
	RIB_ADD_APPEND,		/* NLM_F_APPEND, a new route, a dump: goes last (or renews its twin) */
	RIB_ADD_PREPEND,	/* NLM_F_CREATE alone (ip route prepend): goes first */
};

/* A route as a listing holds it: its nexthop by id (rib_nh_spec_of gives the whole). */
struct rib_route_entry {
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint8_t len;
	bool unplaced;		/* in use, but the FIB refused it (no room): it waits */
	bool waiting;		/* not in use: another route of its prefix is preferred */
	uint32_t prefix;	/* AF_INET: host order */
	uint8_t prefix6[16];	/* AF_INET6 */
	struct rib_route_attrs attrs;
	uint32_t nh_id;
};

/* A route with its nexthop spelt out. */
struct rib_route_info {
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint32_t prefix;	/* AF_INET: host order */
	uint8_t prefix6[16];	/* AF_INET6 */
	uint8_t len;
	struct rib_route_attrs attrs;
	uint32_t nh_id;
	bool unplaced;		/* in use, but the FIB refused it (no room): it waits */
	bool waiting;		/* not in use: another route of its prefix is preferred */
	struct rib_nh_spec nh;
};

/* One of the router's addresses, of either family. */
struct rib_addr {
	uint16_t port;
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint32_t ip;		/* AF_INET: host order; 0 for AF_INET6 */
	uint8_t ip6[16];	/* AF_INET6 */
	uint8_t len;
	bool tentative;		/* AF_INET6: in Duplicate Address Detection */
	uint16_t gen;
};

/* A neighbour of either family: ARP's and NDP's in one table, keyed by port, family and
 * address. */
struct rib_neigh {
	uint16_t port;
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint32_t ip;		/* AF_INET: host order; 0 for AF_INET6 */
	uint8_t ip6[16];	/* AF_INET6 */
	struct rte_ether_addr mac;
	bool permanent;
	uint16_t gen;
};

int rib_init(unsigned int max_routes, unsigned int max_neighbours);
/* The IPv6 route table, for max_routes routes (after rib_init); without it IPv6 routes are
 * refused, and IPv6 neighbours give no host routes. */
int rib_init6(unsigned int max_routes);
void rib_fini(void);

/*
 * Kernel tables mirrored besides local and main, in order of preference. For one prefix the FIB
 * gets the route of the first table (local, main, then these), then of the lowest metric, then
 * the kernel's first of those; across prefixes, the longest match over all of them.
 */
int rib_set_tables(const uint32_t *ids, unsigned int n);
/* The table's preference (0: local, 1: main, 2...: the configured ones), or -ENOENT. */
int rib_table_rank(uint32_t table);

/* Route changes are queued and reach the FIB together at rib_commit(). */
int rib_route_add(uint32_t prefix, uint8_t len, const struct rib_route_attrs *a,
		  const struct rib_nh_spec *nh, enum rib_add_mode mode);
/* Deletes the kernel route of that table and metric whose nexthop is nh (the first of them when
 * nh is NULL); the best route waiting takes its place. */
int rib_route_del(uint32_t prefix, uint8_t len, uint32_t table, uint32_t metric,
		  const struct rib_nh_spec *nh);
/* IPv6 routes, as their IPv4 twins above; the same nexthops, of either family's gateways. */
int rib_route6_add(const uint8_t prefix[16], uint8_t len, const struct rib_route_attrs *a,
		   const struct rib_nh_spec *nh, enum rib_add_mode mode);
int rib_route6_del(const uint8_t prefix[16], uint8_t len, uint32_t table, uint32_t metric,
		   const struct rib_nh_spec *nh);
int rib_commit(void);
/* Brings the record of a route about to change into the cache. */
void rib_route_prefetch(uint32_t prefix, uint8_t len);
void rib_route6_prefetch(const uint8_t prefix[16], uint8_t len);
/*
 * A bulk load (the kernel's tables at start): commits until rib_publish go to
 * the FIB's standby copy alone, and rib_publish shows them all at once; the
 * other copy is brought level afterwards (dp_fib_level).
 */
void rib_stage_begin(void);
int rib_publish(void);
/* Drops every kernel route through port: the kernel flushes them silently on link down. */
unsigned int rib_flush_port(uint16_t port);

int rib_addr_add(uint16_t port, uint32_t ip, uint8_t len);
int rib_addr_del(uint16_t port, uint32_t ip, uint8_t len);
/* IPv6 addresses: a port's first global one is the source of its ICMPv6 errors (their routes
 * come from the kernel's local table). */
int rib_addr6_add(uint16_t port, const uint8_t ip6[16], uint8_t len, bool tentative);
int rib_addr6_del(uint16_t port, const uint8_t ip6[16], uint8_t len);
/* Removes a, of either family. */
int rib_addr_forget(const struct rib_addr *a);
int rib_neigh_set(uint16_t port, uint32_t ip, const struct rte_ether_addr *mac, bool permanent);
int rib_neigh_del(uint16_t port, uint32_t ip);
/* IPv6 neighbours (NDP), in the same table: the nexthops through them of either family's
 * routes resolve, and a global one gets its /128 adjacency. */
int rib_neigh6_set(uint16_t port, const uint8_t ip6[16], const struct rte_ether_addr *mac,
		   bool permanent);
int rib_neigh6_del(uint16_t port, const uint8_t ip6[16]);
/* Removes n, of either family, as rib_neigh_del and rib_neigh6_del do. */
int rib_neigh_forget(const struct rib_neigh *n);
/*
 * The nexthop of the routes through kernel nexthop object knh becomes s (whose knh is knh):
 * in place, one dataplane update however many routes share it. -ENOENT when no route goes
 * through knh.
 */
int rib_nh_replace_object(uint32_t knh, const struct rib_nh_spec *s);
/* Re-derives every nexthop on a port (after its MAC or MTU changed). */
int rib_port_changed(uint16_t port);

/* Mark and sweep for resynchronisation: begin, re-add everything, then sweep what was not seen. */
void rib_mark_begin(void);
unsigned int rib_sweep(void);

/* The port whose connected subnet holds ip (ip6), or -ENETUNREACH. */
int rib_connected_port(uint32_t ip);
int rib_connected_port6(const uint8_t ip6[16]);
/* The longest route in use that the FIB holds for ip (what forwards it), or -ENETUNREACH. */
int rib_route_lookup(uint32_t ip, struct rib_route_info *out);
int rib_route_get(uint32_t prefix, uint8_t len, struct rib_route_info *out);
int rib_route6_lookup(const uint8_t ip6[16], struct rib_route_info *out);
int rib_route6_get(const uint8_t prefix[16], uint8_t len, struct rib_route_info *out);
/* The kernel route of that table and metric (the one in use, or the first waiting). */
int rib_route_find(uint32_t prefix, uint8_t len, uint32_t table, uint32_t metric,
		   struct rib_route_info *out);
int rib_route6_find(const uint8_t prefix[16], uint8_t len, uint32_t table, uint32_t metric,
		    struct rib_route_info *out);
/* The routes of family in use, and with waiting those aside too, in prefix order, then table
 * and metric (a sorted copy; free() it). */
int rib_routes_sorted(uint8_t family, struct rib_route_entry **out, unsigned int *n,
		      bool waiting);
/* The nexthop with that id, spelt out (a listing's nh_id, until the RIB next changes). */
void rib_nh_spec_of(uint32_t id, struct rib_nh_spec *out);
unsigned int rib_addrs(const struct rib_addr **out);
unsigned int rib_neighs(const struct rib_neigh **out);

struct rib_counts {
	unsigned int routes[RIB_SRC_MAX];
	unsigned int alternates;
	unsigned int unplaced;	/* routes in use the FIB refused for want of room */
	unsigned int by_type[RIB_NH_GROUP + 1];
	unsigned int nexthops;
	unsigned int neighbours;
	unsigned int addresses;
};
/* IPv4's routes, and the nexthops, neighbours and addresses of both families. */
void rib_counts(struct rib_counts *c);
/* IPv6's routes alone (routes, alternates, unplaced, by_type). */
void rib_counts6(struct rib_counts *c);
/* Routes of every source, without rib_counts' walk over them all. */
unsigned int rib_route_total(void);
/* Each table's capacity, in the same shape (routes[RIB_SRC_KERNEL]: all routes). */
void rib_limits(struct rib_counts *l);
void rib_limits6(struct rib_counts *l);

const char *rib_kproto_name(uint8_t kproto);
const char *rib_nh_type_name(enum rib_nh_type t);
void rib_nh_describe(const struct rib_nh_spec *nh, char *buf, size_t len);
/* A hop's gateway as text, of either family ("" when it has none). */
int rib_hop_gw_text(const struct rib_hop *h, char *buf, size_t len);

/* TSC cycles spent clearing the nexthops FIB batches left unused (rib_fib.c). */
uint64_t rib_reclaim_cycles(void);

#endif
