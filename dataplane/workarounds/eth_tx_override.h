/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A port's transmit function replaced after start, by a write to ethdev's fast-path table
 * (rte_eth_fp_ops, DPDK 22.11's internal layout behind rte_eth_tx_burst).
 *
 * ethdev offers no way to give a started port another transmit function. The pipeline
 * harness needs one: its net_null ports must free what they are sent without net_null's
 * shared atomic counters, and keep a copy for the tests that compare frames. Only the
 * harness calls it, never ternd.
 */
#ifndef TERN_ETH_TX_OVERRIDE_H
#define TERN_ETH_TX_OVERRIDE_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdint.h>

#include <rte_ethdev.h>

static inline void eth_tx_override(uint16_t port_id, eth_tx_burst_t tx)
{
	rte_eth_fp_ops[port_id].tx_pkt_burst = tx;
}

#endif
