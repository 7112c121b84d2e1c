/* SPDX-License-Identifier: BSD-3-Clause */
/* Control-plane state kept per interface beside the dataplane port: description, names. */
#ifndef TERN_IFACE_H
#define TERN_IFACE_H

#include <stdbool.h>

#include "controlplane/ternd/outbuf.h"

int iface_set_description(const char *name, const char *text);
const char *iface_description(unsigned int port_index);
/* ipv6 enable: the sub-interface keeps an IPv6 link-local address without any other. */
void iface_set_ipv6_enable(unsigned int port_index, bool on);
bool iface_ipv6_enable(unsigned int port_index);

#endif
