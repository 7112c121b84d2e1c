/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The netlink mirror: ternd follows the kernel's links, IPv4 addresses, IPv4
 * routes (main and local tables) and neighbours on its ports' TAPs. Subscribe
 * first, then dump, so nothing that changes in between is missed; a socket
 * error or overflow (ENOBUFS) triggers a resync: reopen, dump everything,
 * sweep what the dump did not show.
 */
#ifndef TERN_NETLINK_H
#define TERN_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mnl_socket;
struct nlmsghdr;

#include "controlplane/mirror/netlink_parse.h"
#include "controlplane/mirror/rib.h"

struct nl_stats {
	uint64_t messages;
	uint64_t links, addrs, routes, neighs;
	uint64_t malformed;
	uint64_t routes_skipped;	/* not through a port, another table, unsupported type */
	uint64_t routes_refused, neighs_refused, addrs_refused;	/* a table was full */
	uint64_t routes6_refused;	/* IPv6 routes (routes_refused: IPv4's) */
	uint64_t resyncs;
	uint64_t overflows;		/* ENOBUFS: the kernel dropped messages for us */
	uint64_t swept;			/* stale entries removed by resyncs */
	uint64_t batches;
	uint64_t max_batch;
	uint64_t batch_waits;		/* batches that waited for the spacing after the last */
	unsigned int batch_interval_us, batch_interval_max_us;
	unsigned int batch_spacing_us;	/* the wait after the last batch */
	double last_resync_s;
	unsigned int rcvbuf;
	/* the control thread's TSC cycles on kernel messages: reading them from the socket,
	 * parsing them, and applying them to the RIB and the nexthops (the FIB's share is
	 * dp_fib_cost's; the nexthops a batch left unused are cleared in rib_reclaim_cycles) */
	uint64_t cycles_read, cycles_parse, cycles_rib;
};

/* Subscribes and loads the kernel's tables; helper_lcore (or RTE_MAX_LCORE) reads the route
 * dump ahead while this thread applies it. Later changes reach the FIB in batches at least
 * batch_interval_us apart (0: each read of the socket is a batch), spaced up to
 * batch_interval_max_us apart while changes keep coming. */
int netlink_start(unsigned int rcvbuf, unsigned int batch_interval_us,
		  unsigned int batch_interval_max_us, unsigned int helper_lcore, unsigned int max_routes,
		  char *err, size_t errlen);
void netlink_stop(void);
/* Processes whatever the kernel has sent so far (after a config change), whether or not the
 * batch interval is over. */
void netlink_drain(void);
/* The same, if a batch is waiting for the interval: before an API request is answered. */
void netlink_catch_up(void);
int netlink_resync(void);
/* A socket with a dump request sent on it; *seq and *portid to check the answers by; NULL
 * and *rc (netlink_dump.c). */
struct mnl_socket *netlink_dump_request(uint16_t type, uint8_t family, unsigned int *seq,
					unsigned int *portid, int *rc);
/* Whether a dump's received bytes hold its end (NLMSG_DONE, or an error). */
bool netlink_dump_ends(const char *data, int len);
/* A socket subscribed to the kernel's link, address, route, neighbour and nexthop changes,
 * with a receive buffer of rcvbuf bytes (netlink.c). */
int netlink_events_open(unsigned int rcvbuf, struct mnl_socket **s);
/* Subscribes and asks for the IPv4 route dump at once, a thread receiving it while ternd
 * starts; netlink_start then applies it (netlink_prefetch.c). */
int netlink_prefetch_start(unsigned int rcvbuf);
bool netlink_prefetch_started(void);
/* The subscription made by netlink_prefetch_start, handed over once; NULL without one. */
struct mnl_socket *netlink_prefetch_events(void);
/* Applies the prefetched dump with cb, in order, waiting for what has not come yet; -ENOENT
 * without one. */
int netlink_prefetch_apply(int (*cb)(const struct nlmsghdr *, void *), void *data);
/* Dumps one kernel table on its own socket, calling cb for each message (netlink_dump.c). */
int netlink_dump(uint16_t type, uint8_t family, int (*cb)(const struct nlmsghdr *, void *),
		 void *data);
/* The same, with the kernel's side of the dump run by a reader on lcore, an idle EAL worker
 * lcore, while cb runs here; the plain dump when lcore is not idle (or RTE_MAX_LCORE). */
int netlink_dump_ahead(uint16_t type, uint8_t family,
		       int (*cb)(const struct nlmsghdr *, void *), void *data, unsigned int lcore);
const struct nl_stats *netlink_stats(void);
/* Bytes the kernel has queued for us and we have not read yet. */
unsigned int netlink_backlog(void);

/* The mirror's side: applies one parsed message (netlink_mirror.c). */
void mirror_apply(const struct nl_msg *m, struct nl_stats *st);
/* Before n messages are applied: logs each at DEBUG, and brings what their routes will read
 * into the cache. */
void mirror_prepare(const struct nl_msg *m, unsigned int n);
/* What the FIB should hold for a kernel route: 0 and *s, or -ENODEV/-ENOTSUP (not mirrored). */
int mirror_route_nh(const struct nl_route *r, struct rib_nh_spec *s);
enum rib_add_mode mirror_add_mode(uint16_t flags);
/* The kernel's nexthop objects (nexthop_objects.c): routes that name one (RTA_NH_ID) are
 * resolved through it, and again when it changes or goes. */
struct nhobj_stats {
	uint64_t messages;		/* RTM_NEWNEXTHOP and RTM_DELNEXTHOP applied */
	unsigned int objects;		/* kept */
	unsigned int routes;		/* routes that name one */
	uint64_t refused;		/* objects beyond the table */
	uint64_t routes_untracked;	/* routes beyond the route index */
	uint64_t replaced_in_place;	/* replaces that changed one nexthop, not its routes */
	uint64_t refresh_lost;		/* routes not resolved again for want of memory */
};
int nhobj_init(unsigned int max_routes);
void nhobj_apply(const struct nl_nexthop *n, bool del);
int nhobj_spec(uint32_t id, struct rib_nh_spec *s);
void nhobj_route_track(const struct nl_route *r, bool del);
void nhobj_clear(void);
void nhobj_fini(void);
/* The kernel removes the objects on an interface that goes down, and says nothing. */
void nhobj_link_down(uint32_t ifindex);
void nhobj_stats(struct nhobj_stats *out);
/* After nhobj_apply or nhobj_link_down: the next route through a changed object, to be
 * resolved again (its object anew) or removed; false when there is none left. */
bool nhobj_next_refresh(struct nl_route *r);

/* mirror_ports.c. ifindex of port's TAP, 0 when unknown; port of an ifindex, or -1; setting
 * it says whether it changed. */
uint32_t mirror_port_ifindex(unsigned int port);
int mirror_ifindex_port(uint32_t ifindex);
bool mirror_port_set_ifindex(unsigned int port, uint32_t ifindex);
/* Moves each time a port goes administratively up or down, or an address comes or goes:
 * what depends on them (the static configuration) looks again when it has moved. */
uint64_t mirror_links_gen(void);
void mirror_links_moved(void);
/* Drops what the RIB holds of port (its routes, addresses and neighbours) and its kernel
 * interface's ifindex, for a sub-interface being removed; returns the routes dropped. */
unsigned int mirror_port_forget(unsigned int port);
/* Gives port i the MTU (and its routes' nexthops with it), or records it as refused and
 * returns a negative errno with why; the kernel interface is the caller's to set. */
int mirror_port_mtu(unsigned int i, uint32_t mtu, char *why, size_t len);

#endif
