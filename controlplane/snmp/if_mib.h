/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IF-MIB (RFC 2863) for tern's interfaces, served through the AgentX subagent: ifTable and
 * ifXTable, a row for each port, bond, bond member and sub-interface, indexed by the ifindex
 * of its kernel interface (a member, which has none, by IF_MIB_MEMBER_IFINDEX_BASE plus its
 * slot); its counters are the dataplane's (if_counters.h); linkUp and linkDown notifications
 * when a port's or bond's operational state changes.
 */
#ifndef TERN_IF_MIB_H
#define TERN_IF_MIB_H

#include <stdbool.h>
#include <stdint.h>

#define IF_MIB_MEMBER_IFINDEX_BASE 1000000000u

/* Registers the tables with net-snmp's agent; 0 or a negative errno. */
int if_mib_init(void);
/* Control thread's tick: follows each interface's operational state; notifies the master of
 * a port's or bond's change when connected. */
void if_mib_tick(bool connected);
void if_mib_fini(void);
/* The ifIndex of interface slot, 0 when it has none yet (its kernel interface not seen). */
uint32_t if_mib_ifindex(unsigned int slot);

#endif
