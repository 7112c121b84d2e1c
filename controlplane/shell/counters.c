/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What clear counters resets, as the shell shows it: a port's punt and exception-path
 * counters are kept from their baseline at the last clear, so show counters and show
 * exception start again from zero, while the metrics endpoint (Prometheus counters, which
 * must only grow) reads them whole. A port's packet counters have their own baseline in the
 * dataplane (dp_port_stats_reset).
 */
#include <string.h>

#include "controlplane/shell/counters.h"
#include "dataplane/dp.h"

static struct dp_punt_stats punt_base[DP_MAX_IFACES];
static struct kni_port_stats kni_base[DP_MAX_IFACES];

void counters_punt(unsigned int port, struct dp_punt_stats *st)
{
	const struct dp_punt_stats *b = &punt_base[port];
	unsigned int k;

	dp_punt_stats(port, st);
	for (k = 0; k < DP_PUNT_REASON_MAX; k++)
		st->punted[k] -= b->punted[k];
	for (k = 0; k < DP_PUNT_CLASS_MAX; k++) {
		st->passed[k] -= b->passed[k];
		st->policed_by_class[k] -= b->policed_by_class[k];
		st->ring_full_by_class[k] -= b->ring_full_by_class[k];
	}
	st->policed -= punt_base[port].policed;
	st->ring_full -= punt_base[port].ring_full;
}

void counters_kni(unsigned int port, struct kni_port_stats *st)
{
	const struct kni_port_stats *b = &kni_base[port];

	kni_port_stats(port, st);
	st->to_kernel -= b->to_kernel;
	st->to_kernel_errors -= b->to_kernel_errors;
	st->from_kernel -= b->from_kernel;
	st->from_kernel_drops -= b->from_kernel_drops;
	st->from_kernel_too_long -= b->from_kernel_too_long;
	st->from_kernel_link_down -= b->from_kernel_link_down;
}

void counters_clear(unsigned int port)
{
	dp_port_stats_reset(&dp.ports[port]);
	dp_punt_stats(port, &punt_base[port]);
	kni_port_stats(port, &kni_base[port]);
}

void counters_forget(unsigned int port)
{
	memset(&punt_base[port], 0, sizeof(punt_base[port]));
	memset(&kni_base[port], 0, sizeof(kni_base[port]));
}
