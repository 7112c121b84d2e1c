/* SPDX-License-Identifier: BSD-3-Clause */
/* The router's own addresses: local delivery, connected subnets and the ports' ICMP sources. */

#include <errno.h>

#include "controlplane/mirror/rib_priv.h"
#include "dataplane/node.h"

static struct rib_addr addrs[RIB_MAX_ADDRS];
static unsigned int nb_addrs;

/* The port's first address is the source of the ICMP errors it sends. */
static void port_source_update(uint16_t port)
{
	uint32_t src = 0;
	unsigned int i;

	for (i = 0; i < nb_addrs && src == 0; i++)
		if (addrs[i].port == port)
			src = rte_cpu_to_be_32(addrs[i].ip);
	__atomic_store_n(&dp_port_ip4[port], src, __ATOMIC_RELAXED);
}

int rib_addr_add(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip && addrs[i].port == port) {
			addrs[i].len = len;
			addrs[i].gen = rib_gen;
			return 0;
		}
	if (nb_addrs == RIB_MAX_ADDRS)
		return -ENOSPC;
	addrs[nb_addrs++] = (struct rib_addr){ .port = port, .ip = ip, .len = len, .gen = rib_gen };
	port_source_update(port);
	return 0;
}

static void addr_remove(unsigned int i)
{
	uint16_t port = addrs[i].port;

	addrs[i] = addrs[--nb_addrs];
	port_source_update(port);
}

int rib_addr_del(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip && addrs[i].port == port && addrs[i].len == len) {
			addr_remove(i);
			return 0;
		}
	return -ENOENT;
}

int rib_connected_port(uint32_t ip)
{
	int best = -ENETUNREACH, best_len = -1;
	unsigned int i;

	for (i = 0; i < nb_addrs; i++) {
		if (((ip ^ addrs[i].ip) & rib_mask(addrs[i].len)) == 0 && addrs[i].len > best_len) {
			best = addrs[i].port;
			best_len = addrs[i].len;
		}
	}
	return best;
}

int rib_port_changed(uint16_t port)
{
	return rib_nh_refresh(port, 0);
}

unsigned int rib_addrs(const struct rib_addr **out)
{
	*out = addrs;
	return nb_addrs;
}

/* Removes the addresses not marked with g; returns how many. */
unsigned int rib_addr_sweep(uint16_t g)
{
	unsigned int swept = 0, i;

	for (i = 0; i < nb_addrs;) {
		if (addrs[i].gen != g) {
			swept++;
			addr_remove(i);
		} else {
			i++;
		}
	}
	return swept;
}

void rib_addr_fini(void)
{
	nb_addrs = 0;
}
