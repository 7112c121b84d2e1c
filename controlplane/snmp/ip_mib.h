/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IP-MIB's ipAddressTable (RFC 4293) and IP-FORWARD-MIB's inetCidrRouteNumber (RFC 4292), both
 * families, from the RIB: the addresses of tern's interfaces, each with the ifIndex of IF-MIB's
 * row (if_mib.h), and the number of routes the RIB holds.
 */
#ifndef TERN_IP_MIB_H
#define TERN_IP_MIB_H

/* Registers them with net-snmp's agent; 0 or a negative errno. */
int ip_mib_init(void);

#endif
