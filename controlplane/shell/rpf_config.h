/* SPDX-License-Identifier: BSD-3-Clause */
/* Unicast RPF's per-interface configuration: set, written in the running configuration, and
 * gone with its interface. The dataplane holds the modes themselves (dataplane/fib/rpf.h). */
#ifndef TERN_RPF_CONFIG_H
#define TERN_RPF_CONFIG_H

#include "controlplane/ternd/outbuf.h"
#include "dataplane/fib/rpf.h"

void rpf_config_set(unsigned int port, enum dp_rpf_family family, enum dp_rpf_mode mode);
/* An interface's lines of the running configuration. */
void rpf_iface_running_config(struct outbuf *out, unsigned int port);
/* A removed interface's modes go with it. */
void rpf_iface_removed(unsigned int port);

#endif
