/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RIB as a whole: the router's addresses, the batch of FIB changes that route,
 * neighbour and nexthop changes lead to, resynchronisation marks, and names for the shell.
 * Routes are in rib_route.c, nexthops in rib_nexthop.c, neighbours in rib_neigh.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "controlplane/mirror/rib_priv.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/fib.h"
#include "dataplane/ip4.h"
#include "dataplane/nexthop.h"
#include "dataplane/node.h"

#define RIB_MAX_ADDRS 1024
#define RIB_BATCH 65536

static struct rib_addr addrs[RIB_MAX_ADDRS];
static unsigned int nb_addrs;
static struct dp_fib_op *pending;
static unsigned int nb_pending;
uint16_t rib_gen;

void rib_limits(struct rib_counts *l)
{
	memset(l, 0, sizeof(*l));
	rib_route_limits(l);
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
	pending = calloc(RIB_BATCH, sizeof(*pending));
	return rc < 0 || pending == NULL ? -ENOMEM : 0;
}

void rib_fini(void)
{
	rib_routes_fini();
	rib_neigh_fini();
	rib_nh_fini();
	free(pending);
	pending = NULL;
	nb_addrs = nb_pending = 0;
}

static void addr_remove(unsigned int i);

int rib_queue_op(uint32_t prefix, uint8_t len, bool del, uint32_t nh)
{
	if (nb_pending == RIB_BATCH) {
		int rc = rib_commit();

		if (rc < 0)
			return rc;
	}
	pending[nb_pending++] = (struct dp_fib_op){ .prefix = prefix, .depth = len, .del = del,
						    .nh = nh };
	return 0;
}

int rib_commit(void)
{
	int rc = dp_fib_apply(pending, nb_pending);	/* to the standby alone while staging */

	nb_pending = 0;
	/* while staging, workers still read the copy that may name them */
	if (!dp_fib_staging())
		rib_nh_release_unused();
	if (rc < 0)
		TERN_LOG_RATELIMITED(rib, ERR, "FIB update failed: %s", strerror(-rc));
	return rc;
}

void rib_stage_begin(void)
{
	dp_fib_stage(NULL, 0);
}

int rib_publish(void)
{
	int rc = rib_commit();

	dp_fib_publish();
	rib_nh_release_unused();
	return rc;
}

void rib_mark_begin(void)
{
	rib_gen++;
}

unsigned int rib_sweep(void)
{
	unsigned int swept = rib_routes_sweep(rib_gen) + rib_neigh_sweep(rib_gen), i;

	for (i = 0; i < nb_addrs;) {
		if (addrs[i].gen != rib_gen) {
			swept++;
			addr_remove(i);
		} else {
			i++;
		}
	}
	return swept;
}

void rib_counts(struct rib_counts *c)
{
	const struct rib_neigh *n;

	memset(c, 0, sizeof(*c));
	rib_route_counts(c);
	c->nexthops = rib_nh_count();
	c->neighbours = rib_neighs(&n);
	c->addresses = nb_addrs;
}

/* The port's first address is the source of the ICMP errors it sends. */
static void port_source_update(uint16_t port)
{
	uint32_t src = 0;
	unsigned int i;

	for (i = 0; i < nb_addrs && src == 0; i++)
		if (addrs[i].port == port)
			src = rte_cpu_to_be_32(addrs[i].ip);
	__atomic_store_n(&dp_port_ip4[port], src, __ATOMIC_RELAXED);
}

int rib_addr_add(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip && addrs[i].port == port) {
			addrs[i].len = len;
			addrs[i].gen = rib_gen;
			return 0;
		}
	if (nb_addrs == RIB_MAX_ADDRS)
		return -ENOSPC;
	addrs[nb_addrs++] = (struct rib_addr){ .port = port, .ip = ip, .len = len, .gen = rib_gen };
	port_source_update(port);
	return 0;
}

static void addr_remove(unsigned int i)
{
	uint16_t port = addrs[i].port;

	addrs[i] = addrs[--nb_addrs];
	port_source_update(port);
}

int rib_addr_del(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip && addrs[i].port == port && addrs[i].len == len) {
			addr_remove(i);
			return 0;
		}
	return -ENOENT;
}

int rib_connected_port(uint32_t ip)
{
	int best = -ENETUNREACH, best_len = -1;
	unsigned int i;

	for (i = 0; i < nb_addrs; i++) {
		if (((ip ^ addrs[i].ip) & rib_mask(addrs[i].len)) == 0 && addrs[i].len > best_len) {
			best = addrs[i].port;
			best_len = addrs[i].len;
		}
	}
	return best;
}

int rib_port_changed(uint16_t port)
{
	return rib_nh_refresh(port, 0);
}

unsigned int rib_addrs(const struct rib_addr **out)
{
	*out = addrs;
	return nb_addrs;
}

const char *rib_kproto_name(uint8_t p)
{
	switch (p) {
	case RTPROT_KERNEL: return "kernel";
	case RTPROT_BOOT: return "boot";
	case RTPROT_STATIC: return "static";
	case RTPROT_ZEBRA: return "zebra";
	case RTPROT_BIRD: return "bird";
	case RTPROT_DHCP: return "dhcp";
	case 186: return "bgp";
	case 188: return "ospf";
	}
	return "other";
}

const char *rib_nh_type_name(enum rib_nh_type t)
{
	static const char *const names[] = {
		[RIB_NH_GATEWAY] = "gateway", [RIB_NH_CONNECTED] = "connected",
		[RIB_NH_LOCAL] = "local", [RIB_NH_BLACKHOLE] = "blackhole",
		[RIB_NH_UNREACHABLE] = "unreachable", [RIB_NH_PROHIBIT] = "prohibit",
		[RIB_NH_GROUP] = "ecmp",
	};
	return t <= RIB_NH_GROUP ? names[t] : "?";
}

static int hop_describe(const struct rib_hop *h, char *buf, size_t len)
{
	uint32_t g = h->gw;

	if (g == 0)
		return snprintf(buf, len, "dev %s", dp.ports[h->port].name);
	return snprintf(buf, len, "via " IP4_FMT " dev %s", IP4_ARGS(g), dp.ports[h->port].name);
}

void rib_nh_describe(const struct rib_nh_spec *nh, char *buf, size_t len)
{
	unsigned int m;
	int n = 0;

	switch (nh->type) {
	case RIB_NH_GATEWAY:
	case RIB_NH_CONNECTED:
		hop_describe(&nh->hop, buf, len);
		return;
	case RIB_NH_GROUP:
		for (m = 0; m < nh->nb_members && n < (int)len; m++) {
			n += snprintf(buf + n, len - n, "%s", m ? ", " : "");
			if (n < (int)len)
				n += hop_describe(&nh->members[m], buf + n, len - n);
		}
		return;
	default:
		snprintf(buf, len, "%s", rib_nh_type_name(nh->type));
	}
}
