/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the RIB's files share: rib_route.c keeps the routes (choosing, for each prefix, the one
 * the FIB gets), rib_fib.c the batch of FIB changes, rib_nexthop.c the nexthops, rib_neigh.c
 * the neighbour table, rib_addr.c the addresses, and rib.c the whole. Only
 * controlplane/mirror/rib*.c include this.
 */
#ifndef TERN_RIB_PRIV_H
#define TERN_RIB_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "controlplane/mirror/rib.h"
#include "dataplane/dp.h"

static inline uint32_t rib_mask(uint8_t len)
{
	return len ? ~0u << (32 - len) : 0;
}

/* prefix masked to its first len bits (len <= 128) in out. */
static inline void rib_mask6(const uint8_t prefix[16], uint8_t len, uint8_t out[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++, len = len > 8 ? len - 8 : 0)
		out[i] = len >= 8 ? prefix[i] : prefix[i] & (uint8_t)(0xff00 >> len);
}

struct route_key;

/* The mark of the current resynchronisation (see rib_mark_begin). */
extern uint16_t rib_gen;

/* Nexthops, shared by every route naming the same spec and counted by reference. */
int rib_nh_init(void);
void rib_nh_fini(void);
unsigned int rib_nh_count(void);
/* Routes in use by their nexthop's type, counted as they come and go (rib_nh_count_route,
 * +1 or -1), so show ip route summary walks the nexthops rather than every route; a nexthop
 * replaced in place moves its routes to its new type. */
void rib_nh_count_route(uint32_t id, uint8_t family, int d);
void rib_nh_routes_by_type(uint8_t family, unsigned int *by_type);
/*
 * Nexthops no route holds any more are cleared in two steps, since a copy of
 * the FIB workers still read may name them: a commit sets aside those released
 * so far (rib_nh_set_aside), and the next one, once the copies have settled
 * (dp_fib_settle), frees what it set aside (rib_nh_free_aside).
 */
void rib_nh_set_aside(void);
void rib_nh_free_aside(void);
/* Republishes the nexthop through (port, ip), or every nexthop on port when ip is 0. */
int rib_nh_refresh(uint16_t port, uint32_t ip);
/* Republishes the nexthops through the IPv6 gateway (port, ip6). */
int rib_nh_refresh6(uint16_t port, const uint8_t ip6[16]);
int rib_nh_get(const struct rib_nh_spec *s, uint32_t *id);
void rib_nh_put(uint32_t id);
/* The id of the nexthop equal to s, or 0 when none is (no reference taken). */
uint32_t rib_nh_find(const struct rib_nh_spec *s);
bool rib_nh_uses_port(uint32_t id, uint16_t port);

/* Queues one FIB change for the next rib_commit (which runs early when the batch is full). */
int rib_queue_op(const struct route_key *k, bool del, uint32_t nh);
typedef int (*rib_queue_fn)(const struct route_key *k, bool del, uint32_t nh);
/* The most changes a batch holds before it is committed early (RIB_BATCH, 65536; tests make
 * it small to reach a full batch). */
void rib_fib_set_batch(unsigned int n);
int rib_fib_init(void);
void rib_fib_fini(void);

/* Routes the FIB refused for want of room (rib_unplaced.c), offered again as room comes back. */
struct dp_fib_op;
struct dp_fib6_op;
int rib_unplaced_init(unsigned int max_routes);
void rib_unplaced_fini(void);
/* Marks unplaced the routes of a batch the FIB refused and left out. */
void rib_unplaced_mark(const struct dp_fib_op *ops, unsigned int n);
void rib_unplaced_mark6(const struct dp_fib6_op *ops, unsigned int n);
/* Queues, with queue (rib_fib.c's, which calls here: calls run one way), up to room of the
 * unplaced routes that fit in the FIB now; returns how many. */
unsigned int rib_unplaced_offer(unsigned int room, rib_queue_fn queue);
/* After the batch of an offer: unmarks the routes the FIB now holds. */
void rib_unplaced_settle(void);
/* An unplaced route's slot is gone (its prefix withdrawn). */
void rib_unplaced_forget(uint8_t family);
/* Routes of family unplaced; AF_UNSPEC: of both. */
unsigned int rib_unplaced_count(uint8_t family);

/* Addresses of both families: four an interface at the most interfaces (an IPv4 address, an
 * IPv6 link-local and global ones, and one more), so that no interface lacks its own. */
#define RIB_MAX_ADDRS (4 * DP_MAX_IFACES)
/* Removes the addresses not marked with g; returns how many. */
unsigned int rib_addr_sweep(uint16_t g);
void rib_addr_fini(void);
/* The port of the resolved neighbour ip, or -ENOENT. */
int rib_neigh_port(uint32_t ip);
int rib_neigh6_port(const uint8_t ip6[16]);
int rib_neigh_init(unsigned int max);
void rib_neigh_fini(void);
unsigned int rib_neigh_max(void);
const struct rib_neigh *rib_neigh_find(uint16_t port, uint32_t ip);
const struct rib_neigh *rib_neigh6_find(uint16_t port, const uint8_t ip6[16]);
/* The neighbour table alone (rib_neigh_set and _del carry a change on): 1 when the entry is
 * new or its MAC changed, 0 when it was known so, or -ENOSPC; and 0 or -ENOENT. key's family
 * says which of ip and ip6 is its address. */
int rib_neigh_store(const struct rib_neigh *key, const struct rte_ether_addr *mac, bool permanent);
int rib_neigh_remove(const struct rib_neigh *key);
/* The key of an IPv4 or an IPv6 neighbour. */
struct rib_neigh rib_neigh_key4(uint16_t port, uint32_t ip);
struct rib_neigh rib_neigh_key6(uint16_t port, const uint8_t ip6[16]);

int rib_routes_init(unsigned int max_routes);
int rib_routes6_init(unsigned int max_routes);
void rib_routes_fini(void);
/* Drops the host route an adjacency gave ip, if that is what holds ip/32 (ip6/128). */
void rib_adjacency_del(uint32_t ip);
void rib_adjacency6_del(const uint8_t ip6[16]);
/* Removes the kernel routes (in use or aside) not marked with g; returns how many. */
unsigned int rib_routes_sweep(uint16_t g);
void rib_route_counts(uint8_t family, struct rib_counts *c);
void rib_route_limits(uint8_t family, struct rib_counts *l);

#endif
