/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unicast reverse-path forwarding (RFC 3704), per interface and family. A packet that comes
 * in on an interface where it is on is forwarded, or taken by the router, only when the FIB
 * has a route back to its source: in strict mode ("reachable-via rx") one that leaves by that
 * interface (of an ECMP route, any member that does), in loose mode ("reachable-via any") any
 * route that leads somewhere: not a blackhole, unreachable or prohibit route, not one of the
 * router's own addresses, not "no route". The default route counts, as with Linux's
 * rp_filter and Juniper's rpf-check. A failure is counted as drop_rpf.
 *
 * What is never checked: what goes to the kernel before the lookup (multicast, broadcast,
 * IPv4 options, neighbour discovery), so DHCP's 0.0.0.0 to 255.255.255.255 still reaches
 * the router (RFC 3704 §2.3 names it), and IPv6 link-local sources, which never leave their
 * link (RFC 4291 §2.5.6) and so have no route to check against.
 *
 * The control thread sets an interface's mode; workers read it without a lock: a mode is
 * one byte, and each packet meets the one its worker read.
 */
#ifndef TERN_RPF_H
#define TERN_RPF_H

#include <stdbool.h>
#include <stdint.h>

#include "dataplane/dp.h"
#include "dataplane/fib/nexthop.h"

enum dp_rpf_mode {
	DP_RPF_OFF,
	DP_RPF_STRICT,		/* reachable-via rx */
	DP_RPF_LOOSE,		/* reachable-via any */
	DP_RPF_MODES,
};

enum dp_rpf_family {
	DP_RPF_IPV4,
	DP_RPF_IPV6,
	DP_RPF_FAMILIES,
};

struct dp_rpf_map {
	volatile uint8_t *mode[DP_RPF_FAMILIES];	/* enum dp_rpf_mode, by interface */
	uint32_t on[DP_RPF_FAMILIES];	/* interfaces with a mode other than off */
};

extern struct dp_rpf_map dp_rpf;

/* Control thread: an interface's mode for a family; off when it is removed. */
void dp_rpf_set(unsigned int port, enum dp_rpf_family family, enum dp_rpf_mode mode);

static inline enum dp_rpf_mode dp_rpf_get(unsigned int port, enum dp_rpf_family family)
{
	return (enum dp_rpf_mode)dp_rpf.mode[family][port];
}

/* Whether any interface checks the family's sources: the nodes skip the check when none. */
static inline bool dp_rpf_any(enum dp_rpf_family family)
{
	return __atomic_load_n(&dp_rpf.on[family], __ATOMIC_RELAXED) != 0;
}

/* Whether a packet in on port in mode passes, nh being its source's route. */
static inline bool dp_rpf_pass(const struct dp_nexthop *nh, uint8_t mode, uint16_t port)
{
	unsigned int i;

	switch (nh->kind) {
	case DP_NH_FORWARD:
	case DP_NH_UNRESOLVED:
		return mode == DP_RPF_LOOSE || nh->port == port;
	case DP_NH_GROUP:
		if (mode == DP_RPF_LOOSE)
			return true;
		for (i = 0; i < nh->nb_members; i++)
			if (dp_nh_get(nh->members[i])->port == port)
				return true;
		return false;
	default:
		return false;
	}
}

/* The mode's words, "off", "rx", "any"; an out-of-range mode is "off". */
const char *dp_rpf_mode_name(enum dp_rpf_mode mode);

#endif
