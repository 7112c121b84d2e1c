/* SPDX-License-Identifier: BSD-3-Clause */
/* MTUs above 1500 on DPDK 22.11's memif and TAP ports, which carry them (see the .c). */
#ifndef TERN_VDEV_MTU_H
#define TERN_VDEV_MTU_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>

#include "dataplane/dp.h"

/* The largest MTU a memif or TAP port carries, whatever its dev_info says. */
#define VDEV_MTU_MAX DP_MTU_MAX

/* The largest MTU the port's driver carries: dev_info's (by ethdev's own rule, the frame
 * must also fit max_rx_pktlen), or VDEV_MTU_MAX for the drivers whose dev_info understates
 * it. Returns 0 or a negative errno. */
int vdev_mtu_range(uint16_t port_id, uint32_t *min, uint32_t *max);

/* Sets the port's MTU: rte_eth_dev_set_mtu() within dev_info's range; beyond it, for memif
 * and TAP, ethdev's record of the MTU, and for TAP also the MTU of its kernel interface.
 * Returns 0, -ENOTSUP where the driver has no MTU to set, or a negative errno. */
int vdev_mtu_set(uint16_t port_id, uint16_t mtu);

/* Whether the port receives a frame longer than a packet buffer as a chain of them without
 * RTE_ETH_RX_OFFLOAD_SCATTER, which its driver does not offer: memif, and a bond of memif
 * ports (a bond offers what all its members do). */
bool vdev_rx_chains(uint16_t port_id);

#endif
