/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ternd as an AgentX subagent (RFC 2741) of the system's snmpd, on net-snmp's agent library,
 * serving IF-MIB (if_mib.h) and IP-MIB (ip_mib.h):
 * its sockets in the control thread's epoll loop, its timers on the tick, its requests
 * answered on the control thread from the tables that thread owns. A master that is absent
 * or goes away is connected to again every SNMP_AGENT_PING_S seconds, and each change logged
 * once. net-snmp opens its session, registers and pings synchronously: every such wait is
 * cut to SNMP_AGENT_WAIT_MS with no retry, the longest a master that accepts and then says
 * nothing can hold the control thread.
 */
#ifndef TERN_SNMP_AGENT_H
#define TERN_SNMP_AGENT_H

#include <stdbool.h>
#include <stddef.h>

#define SNMP_AGENT_PING_S 5
#define SNMP_AGENT_WAIT_MS 200

/* Starts the subagent on the master's socket (an absolute path); 0, or a negative errno with
 * one sentence in err. An absent master is no error: ternd connects when it comes. */
int snmp_agent_start(const char *socket, char *err, size_t errlen);
/* The control thread's tick: net-snmp's timers, link notifications. */
void snmp_agent_tick(void);
void snmp_agent_stop(void);
bool snmp_agent_connected(void);

#endif
