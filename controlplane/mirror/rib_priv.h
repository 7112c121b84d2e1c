/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the RIB's files share: rib.c keeps addresses and the batch of FIB changes,
 * rib_nexthop.c the nexthops, rib_neigh.c the neighbours, and rib_route.c the routes
 * (choosing, for each prefix, the one the FIB gets). Only controlplane/rib*.c include this.
 */
#ifndef TERN_RIB_PRIV_H
#define TERN_RIB_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "controlplane/mirror/rib.h"

static inline uint32_t rib_mask(uint8_t len)
{
	return len ? ~0u << (32 - len) : 0;
}

/* The mark of the current resynchronisation (see rib_mark_begin). */
extern uint16_t rib_gen;

/* Nexthops, shared by every route naming the same spec and counted by reference. */
int rib_nh_init(void);
void rib_nh_fini(void);
unsigned int rib_nh_count(void);
/* Clears the nexthops no route holds any more: after the FIB batch that named them. */
void rib_nh_release_unused(void);
/* Republishes the nexthop through (port, ip), or every nexthop on port when ip is 0. */
int rib_nh_refresh(uint16_t port, uint32_t ip);
int rib_nh_get(const struct rib_nh_spec *s, uint32_t *id);
void rib_nh_put(uint32_t id);
/* The id of the nexthop equal to s, or 0 when none is (no reference taken). */
uint32_t rib_nh_find(const struct rib_nh_spec *s);
void rib_nh_spec_of(uint32_t id, struct rib_nh_spec *out);
enum rib_nh_type rib_nh_kind_of(uint32_t id);
bool rib_nh_uses_port(uint32_t id, uint16_t port);

/* Queues one FIB change for the next rib_commit (which runs early when the batch is full). */
int rib_queue_op(uint32_t prefix, uint8_t len, bool del, uint32_t nh);
/* The port of the resolved neighbour ip, or -ENOENT. */
int rib_neigh_port(uint32_t ip);
int rib_neigh_init(unsigned int max);
void rib_neigh_fini(void);
unsigned int rib_neigh_max(void);
const struct rib_neigh *rib_neigh_find(uint16_t port, uint32_t ip);
/* Removes the neighbours not marked with g; returns how many. */
unsigned int rib_neigh_sweep(uint16_t g);

int rib_routes_init(unsigned int max_routes);
void rib_routes_fini(void);
/* Drops the host route an adjacency gave ip, if that is what holds ip/32. */
void rib_adjacency_del(uint32_t ip);
/* Removes the kernel routes (in use or aside) not marked with g; returns how many. */
unsigned int rib_routes_sweep(uint16_t g);
void rib_route_counts(struct rib_counts *c);
void rib_route_limits(struct rib_counts *l);

#endif
