/* SPDX-License-Identifier: BSD-3-Clause */
/* A bond's TAP members' link changes, which DPDK 22.11's TAP driver never announces (see the .c). */
#ifndef TERN_TAP_LSC_H
#define TERN_TAP_LSC_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether the port's driver keeps its link state without raising link events: net_tap. */
bool tap_lsc_silent(uint16_t port_id);

#endif
