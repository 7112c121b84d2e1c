/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rates over the last interval: the control thread samples the counters once
 * a second (rates_tick, from its 100 ms tick) and keeps the last two samples.
 */
#ifndef TERN_RATES_H
#define TERN_RATES_H

#include <stdint.h>

#include "dataplane/stages.h"

struct port_rates {
	double rx_pps, tx_pps, rx_bps, tx_bps;
};

struct worker_rates {
	double pps;			/* packets received per second */
	double load_pct;		/* cycles spent in walks that handled packets: near
					 * 100 %, the worker is at its limit */
	double busy_pct;		/* polls that found packets */
	double burst;			/* packets a poll that found some brought */
	double cycles_per_packet;	/* all stages, over the interval */
	double stage_cpp[DP_STAGE_MAX];	/* each stage's cycles per received packet */
};

void rates_tick(void);
/* Seconds the rates cover; 0 before the second sample. */
double rates_interval_s(void);
void rates_port(unsigned int port, struct port_rates *r);
void rates_worker(unsigned int worker, struct worker_rates *r);
/* Packets per second through a drop, punt or ICMP node, by name. */
double rates_node(const char *node);

#endif
