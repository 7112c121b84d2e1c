/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An interface's IF-MIB counters, which never go back while ternd runs: each reading of the
 * dataplane's counters adds what grew since the one before, and a counter found lower than
 * before (clear counters) adds its new value, as counted from its reset. Unicast packets are
 * the packets less the multicast and broadcast ones, read a moment apart: a group frame on its
 * way can be counted in one and not yet in the other, so the unicast count reported is never
 * below the one reported before (it waits where it was for the next reading).
 */
#ifndef TERN_IF_COUNTERS_H
#define TERN_IF_COUNTERS_H

#include <stdint.h>

/* Each direction's in the same order (IF-MIB's columns rely on it). */
enum if_count {
	IFC_IN_OCTETS,
	IFC_IN_PKTS,
	IFC_IN_MCAST,
	IFC_IN_BCAST,
	IFC_IN_DISCARDS,
	IFC_IN_ERRORS,
	IFC_OUT_OCTETS,
	IFC_OUT_PKTS,
	IFC_OUT_MCAST,
	IFC_OUT_BCAST,
	IFC_OUT_DISCARDS,
	IFC_OUT_ERRORS,
	IFC_MAX,
};

struct if_counters {
	uint64_t raw[IFC_MAX];		/* the last reading */
	uint64_t total[IFC_MAX];	/* what they counted since the interface's start */
	uint64_t in_ucast, out_ucast;	/* as last reported */
};

/* Adds a reading (the dataplane's counters as they are now) to c; zero c first for a new
 * interface, whose counters start at zero. */
void if_counters_add(struct if_counters *c, const uint64_t raw[IFC_MAX]);

/* Reads interface slot's counters as the dataplane holds them now (the control thread). */
void if_counters_read(unsigned int slot, uint64_t raw[IFC_MAX]);

#endif
