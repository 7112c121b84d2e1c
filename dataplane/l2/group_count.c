/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "dataplane/l2/group_count.h"

struct dp_group_count *dp_group_counts[DP_MAX_WORKERS];

void dp_group_count_get(unsigned int index, struct dp_group_count *sum)
{
	unsigned int w;

	memset(sum, 0, sizeof(*sum));
	for (w = 0; w < DP_MAX_WORKERS && dp_group_counts[w] != NULL; w++) {
		const struct dp_group_count *c = &dp_group_counts[w][index];

		sum->rx_mcast += c->rx_mcast;
		sum->rx_bcast += c->rx_bcast;
		sum->tx_mcast += c->tx_mcast;
		sum->tx_bcast += c->tx_bcast;
	}
}

void dp_group_count_zero(unsigned int index)
{
	unsigned int w;

	for (w = 0; w < DP_MAX_WORKERS && dp_group_counts[w] != NULL; w++)
		memset(&dp_group_counts[w][index], 0, sizeof(dp_group_counts[w][index]));
}
