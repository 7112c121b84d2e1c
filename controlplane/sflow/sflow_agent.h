/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ternd's sFlow agent: the configuration (a rate for every port and bond, one per interface,
 * the collectors, the agent address), the samples the workers take (dataplane/l2/sflow_sample.h)
 * drained at each tick and sent as sFlow v5 datagrams (sflow_datagram.h) with what the RIB
 * knows of each (the egress interface, the next hop, both prefix lengths), and a counter sample
 * of each sampled interface every polling interval (SFLOW_POLLING_S unless set). Datagrams go over UDP from ternd's
 * namespace, to every collector; a send that fails is counted, and costs nothing else.
 */
#ifndef TERN_SFLOW_AGENT_H
#define TERN_SFLOW_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "controlplane/sflow/sflow_datagram.h"
#include "controlplane/ternd/outbuf.h"

#define SFLOW_COLLECTORS_MAX 4
#define SFLOW_PORT 6343
#define SFLOW_POLLING_S 20		/* counter samples' interval, by default */
#define SFLOW_POLLING_MAX_S 3600
/* The agent's ifIndex of no interface: the router itself (a frame to one of its addresses). */
#define SFLOW_IFINDEX_INTERNAL 0x3fffffffu
/* A frame the router discards (a blackhole, unreachable or prohibit route). */
#define SFLOW_IFINDEX_DISCARD 0x40000000u

struct sflow_collector {
	struct sflow_addr addr;
	uint16_t port;
	uint64_t datagrams, send_errors;
};

struct sflow_stats {
	uint64_t datagrams, flow_samples, counter_samples;
};

/* The rate over every port and bond without one of its own; 0 turns it off. */
void sflow_set_global_rate(uint32_t rate);
uint32_t sflow_global_rate(void);
/* Seconds between an interface's counter samples, 1 .. SFLOW_POLLING_MAX_S; 0: the default. */
void sflow_set_polling(unsigned int seconds);
unsigned int sflow_polling(void);
/* Interface slot's own rate; 0: none (a port or bond takes the global one). */
void sflow_set_iface_rate(unsigned int slot, uint32_t rate);
uint32_t sflow_iface_rate(unsigned int slot);
/* The rate interface slot samples at now (its own, or the global one), 0 for none. */
uint32_t sflow_effective_rate(unsigned int slot);
/* A removed interface's rate goes with it. */
void sflow_iface_removed(unsigned int slot);
/* 0, -EEXIST (already one), or -ENOSPC (SFLOW_COLLECTORS_MAX already). */
int sflow_collector_add(const struct sflow_addr *a, uint16_t port);
/* 0, or -ENOENT. */
int sflow_collector_del(const struct sflow_addr *a, uint16_t port);
unsigned int sflow_collectors(const struct sflow_collector **out);
/* NULL clears it: datagrams then carry the address the kernel sends from to the first
 * collector. */
void sflow_set_agent_address(const struct sflow_addr *a);
/* The configured one; false when none is. */
bool sflow_agent_address(struct sflow_addr *out);
void sflow_stats_get(struct sflow_stats *st);

/* Control thread's tick: drains the samples into datagrams and sends them; the counter
 * samples when they are due. */
void sflow_agent_tick(void);
void sflow_agent_stop(void);

/* The configuration's lines: the global ones, and an interface's. */
void sflow_running_config(struct outbuf *out);
void sflow_iface_running_config(struct outbuf *out, unsigned int slot);

/* "198.18.5.2" or "2001:db8::2" into a, or -EINVAL. */
int sflow_addr_parse(const char *text, struct sflow_addr *a);
void sflow_addr_text(const struct sflow_addr *a, char *buf, size_t len);

#endif
