/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "controlplane/snmp/if_counters.h"
#include "dataplane/dp.h"
#include "dataplane/l2/group_count.h"
#include "dataplane/punt/punt.h"

static uint64_t ucast(uint64_t pkts, uint64_t mcast, uint64_t bcast, uint64_t before)
{
	uint64_t group = mcast + bcast;
	uint64_t u = pkts > group ? pkts - group : 0;

	return u > before ? u : before;
}

void if_counters_add(struct if_counters *c, const uint64_t raw[IFC_MAX])
{
	unsigned int k;

	for (k = 0; k < IFC_MAX; k++) {
		c->total[k] += raw[k] >= c->raw[k] ? raw[k] - c->raw[k] : raw[k];
		c->raw[k] = raw[k];
	}
	c->in_ucast = ucast(c->total[IFC_IN_PKTS], c->total[IFC_IN_MCAST], c->total[IFC_IN_BCAST],
			    c->in_ucast);
	c->out_ucast = ucast(c->total[IFC_OUT_PKTS], c->total[IFC_OUT_MCAST],
			     c->total[IFC_OUT_BCAST], c->out_ucast);
}

void if_counters_read(unsigned int slot, uint64_t raw[IFC_MAX])
{
	struct dp_group_count g;
	struct dp_port_stats st;
	struct dp_punt_stats ps;

	/* The packets first, then the groups. A frame sent is in its group (kernel_out) before
	 * it is in the packets (port_tx), so one on its way can only make unicast lag, until the
	 * next reading (if_counters.h holds the count where it was). A frame received is in the
	 * packets (port_rx) before its group (eth_input): one caught between the two nodes at
	 * the very moment of the reads makes unicast run ahead by it, which the next unicast
	 * frame makes good. */
	if (dp_port_stats_get(&dp.ports[slot], &st) < 0)
		memset(&st, 0, sizeof(st));
	dp_group_count_get(slot, &g);
	dp_punt_stats(slot, &ps);
	raw[IFC_IN_OCTETS] = st.ibytes;
	raw[IFC_IN_PKTS] = st.ipackets;
	raw[IFC_IN_MCAST] = g.rx_mcast;
	raw[IFC_IN_BCAST] = g.rx_bcast;
	raw[IFC_IN_DISCARDS] = st.imissed + st.rx_nombuf + ps.policed + ps.ring_full;
	raw[IFC_IN_ERRORS] = st.ierrors;
	raw[IFC_OUT_OCTETS] = st.obytes;
	raw[IFC_OUT_PKTS] = st.opackets;
	raw[IFC_OUT_MCAST] = g.tx_mcast;
	raw[IFC_OUT_BCAST] = g.tx_bcast;
	raw[IFC_OUT_DISCARDS] = st.tx_drops;
	raw[IFC_OUT_ERRORS] = st.oerrors;
}
