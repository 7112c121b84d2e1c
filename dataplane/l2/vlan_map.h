/* SPDX-License-Identifier: BSD-3-Clause */
/* The VLAN map vlan_input reads: which sub-interface a port's tagged frame belongs to. */
#ifndef TERN_VLAN_MAP_H
#define TERN_VLAN_MAP_H

#include <stdint.h>

#include "dataplane/dp.h"

struct dp_vlan_qinq {
	uint16_t parent, outer_vid, inner_vid;
	uint16_t index;			/* 0: a free entry (slot 0 is always a port) */
};

struct dp_vlan_map {
	/* a port's 802.1Q sub-interface by VID: its index, 0 for none (4 KiB a port) */
	uint8_t dot1q[DP_MAX_PORTS][4096];
	/* 802.1ad sub-interfaces, at their own index: a QinQ frame scans them */
	struct dp_vlan_qinq qinq[DP_MAX_PORTS];
};
extern struct dp_vlan_map dp_vlan_map;
_Static_assert(DP_MAX_PORTS <= UINT8_MAX, "dot1q holds an interface index in a byte");

#endif
