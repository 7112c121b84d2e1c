/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which kernel interface each port's TAP is (its ifindex, learnt from the kernel's links), and
 * the generation that moves with the ports' states and addresses. Kept apart from the rest of
 * the mirror, which all reads it, so that calls between the mirror's files run one way.
 */
#include <stdbool.h>
#include <stdint.h>

#include "controlplane/mirror/netlink.h"
#include "dataplane/dp.h"

static uint32_t port_ifindex[DP_MAX_IFACES];
static uint64_t links_gen;

uint64_t mirror_links_gen(void)
{
	return links_gen;
}

void mirror_links_moved(void)
{
	links_gen++;
}

uint32_t mirror_port_ifindex(unsigned int port)
{
	return port < DP_MAX_IFACES ? port_ifindex[port] : 0;
}

bool mirror_port_set_ifindex(unsigned int port, uint32_t ifindex)
{
	bool changed;

	if (port >= DP_MAX_IFACES)
		return false;
	changed = port_ifindex[port] != ifindex;
	port_ifindex[port] = ifindex;
	return changed;
}

int mirror_ifindex_port(uint32_t ifindex)
{
	unsigned int i;

	if (ifindex == 0)
		return -1;
	for (i = 0; i < dp.nb_ports; i++)
		if (port_ifindex[i] == ifindex)
			return i;
	return -1;
}
