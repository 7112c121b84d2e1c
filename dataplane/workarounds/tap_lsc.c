/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK 22.11's TAP driver says it raises link events (RTE_ETH_DEV_INTR_LSC) and
 * follows its kernel interface's link over netlink, updating the port's link
 * state, but never calls rte_eth_dev_callback_process (drivers/net/tap/
 * rte_eth_tap.c of 22.11.11: tap_nl_msg_handler ends in tap_link_update). The
 * bonding driver counts on that event for members that claim it, and polls
 * only the others: a bond over TAP ports keeps sending on a member whose link
 * went down. ternd's tick reads such members' links itself (dp_bond_sync) and
 * takes a member out of its bond while its link is down.
 */
#include <string.h>

#include <rte_ethdev.h>

#include "dataplane/workarounds/tap_lsc.h"

bool tap_lsc_silent(uint16_t port_id)
{
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(port_id, &info) == 0 &&
	       strcmp(info.driver_name, "net_tap") == 0;
}
