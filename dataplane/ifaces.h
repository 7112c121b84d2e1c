/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-interface tables: dp.ports and every table indexed by an interface's slot
 * (dp_port_map, the ICMP source addresses, the sub-interfaces' tags and counters, unicast
 * RPF modes, access-list bindings). Sized together, at start, for dp.max_ports interfaces;
 * the punt policers and counters follow dp.max_ports in dp_punt_init. Owner: the control
 * thread, before any interface is made.
 */
#ifndef TERN_IFACES_H
#define TERN_IFACES_H

#include <stddef.h>

/*
 * Makes the tables for max interfaces (DP_IFACES_MIN .. DP_MAX_IFACES) and nb_workers
 * workers, all zero, in place of the ones before: only while no interface exists (-EBUSY),
 * else -EINVAL (max out of range) or -ENOMEM, the tables before kept. Until it is first
 * called the tables hold DP_IFACES_MIN interfaces and DP_MAX_WORKERS workers.
 */
int dp_ifaces_init(unsigned int max, unsigned int nb_workers);
/* Bytes the tables take (the punt tables apart: dp_punt_memory). */
size_t dp_ifaces_memory(void);

#endif
