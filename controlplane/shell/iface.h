/* SPDX-License-Identifier: BSD-3-Clause */
/* Control-plane state kept per interface beside the dataplane port: description, names. */
#ifndef TERN_IFACE_H
#define TERN_IFACE_H

#include "controlplane/ternd/outbuf.h"

int iface_set_description(const char *name, const char *text);
const char *iface_description(unsigned int port_index);

#endif
