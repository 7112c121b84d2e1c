/*
 * The control plane's view of routes, addresses and neighbours, and the
 * nexthops it derives from them for the dataplane.
 * Owner: the control thread; it alone writes the FIB and nexthop tables.
 */
#ifndef TERN_RIB_H
#define TERN_RIB_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "controlplane/outbuf.h"

enum rib_proto {
	RIB_PROTO_CONNECTED,
	RIB_PROTO_LOCAL,
	RIB_PROTO_STATIC,
	RIB_PROTO_NEIGHBOR,	/* host route to a resolved neighbour (an adjacency) */
	RIB_PROTO_MAX,
};

enum rib_nh_type {
	RIB_NH_GATEWAY,		/* via an address on a port: forward once resolved */
	RIB_NH_CONNECTED,	/* on a port's subnet: the kernel resolves each host */
	RIB_NH_LOCAL,
	RIB_NH_BLACKHOLE,
	RIB_NH_UNREACHABLE,
	RIB_NH_PROHIBIT,
};

struct rib_nh_spec {
	enum rib_nh_type type;
	uint16_t port;		/* GATEWAY, CONNECTED */
	uint32_t gw;		/* GATEWAY, host order */
};

struct rib_route_info {
	uint32_t prefix;	/* host order */
	uint8_t len;
	enum rib_proto proto;
	uint32_t nh_id;
	struct rib_nh_spec nh;
};

struct rib_addr {
	uint16_t port;
	uint32_t ip;		/* host order */
	uint8_t len;
};

struct rib_neigh {
	uint16_t port;
	uint32_t ip;
	struct rte_ether_addr mac;
	bool is_static;
};

int rib_init(unsigned int max_routes);
void rib_fini(void);

/* All changes are queued and reach the FIB together at rib_commit(). */
int rib_route_add(uint32_t prefix, uint8_t len, enum rib_proto proto, const struct rib_nh_spec *nh);
int rib_route_del(uint32_t prefix, uint8_t len, enum rib_proto proto);
int rib_commit(void);

int rib_addr_add(uint16_t port, uint32_t ip, uint8_t len);
int rib_addr_del(uint16_t port, uint32_t ip, uint8_t len);
int rib_neigh_set(uint16_t port, uint32_t ip, const struct rte_ether_addr *mac, bool is_static);
int rib_neigh_del(uint16_t port, uint32_t ip);
/* Re-derives every nexthop on a port (after its MAC, MTU or state changed). */
int rib_port_changed(uint16_t port);

/* The port whose connected subnet holds ip, or -ENETUNREACH. */
int rib_connected_port(uint32_t ip);
/* The longest-prefix route covering ip, as the RIB has it. */
int rib_route_lookup(uint32_t ip, struct rib_route_info *out);
int rib_route_get(uint32_t prefix, uint8_t len, struct rib_route_info *out);

/* Iteration in prefix order (sorted copies; fine for display). */
int rib_routes_sorted(struct rib_route_info **out, unsigned int *n);
unsigned int rib_addrs(const struct rib_addr **out);
unsigned int rib_neighs(const struct rib_neigh **out);
unsigned int rib_route_count(enum rib_proto proto);

const char *rib_proto_name(enum rib_proto p);
void rib_nh_describe(const struct rib_nh_spec *nh, char *buf, size_t len);

#endif
