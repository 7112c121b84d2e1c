/* SPDX-License-Identifier: BSD-3-Clause */
#include "controlplane/snmp/if_counters.h"

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
