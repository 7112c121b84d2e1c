/* SPDX-License-Identifier: BSD-3-Clause */
/* The router's own addresses, of both families: local delivery, connected subnets and the
 * ports' ICMP and ICMPv6 sources. */

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "controlplane/mirror/rib_priv.h"
#include "dataplane/icmp/icmp6.h"
#include "dataplane/node.h"

static struct rib_addr addrs[RIB_MAX_ADDRS];
static unsigned int nb_addrs;

/* The port's first address is the source of the ICMP errors it sends; its first global IPv6
 * one (not link-local, out of Duplicate Address Detection), of its ICMPv6 errors. */
static void port_source_update(uint16_t port)
{
	static const uint8_t none[16];
	const uint8_t *src6 = none;
	uint32_t src = 0;
	unsigned int i;

	for (i = 0; i < nb_addrs; i++) {
		const struct rib_addr *a = &addrs[i];

		if (a->port != port)
			continue;
		if (a->family == AF_INET && src == 0)
			src = rte_cpu_to_be_32(a->ip);
		if (a->family == AF_INET6 && src6 == none && !a->tentative &&
		    !(a->ip6[0] == 0xfe && (a->ip6[1] & 0xc0) == 0x80))
			src6 = a->ip6;
	}
	__atomic_store_n(&dp_port_ip4[port], src, __ATOMIC_RELAXED);
	if (memcmp(dp_port_ip6[port].addr, src6, 16) != 0)
		dp_port_ip6_set(port, src6);
}

static void addr_remove(unsigned int i)
{
	uint16_t port = addrs[i].port;

	addrs[i] = addrs[--nb_addrs];
	port_source_update(port);
}

int rib_addr_add(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].family == AF_INET && addrs[i].ip == ip && addrs[i].port == port) {
			addrs[i].len = len;
			addrs[i].gen = rib_gen;
			return 0;
		}
	if (nb_addrs == RIB_MAX_ADDRS)
		return -ENOSPC;
	addrs[nb_addrs++] = (struct rib_addr){ .port = port, .family = AF_INET, .ip = ip, .len = len,
					       .gen = rib_gen };
	port_source_update(port);
	return 0;
}

int rib_addr6_add(uint16_t port, const uint8_t ip6[16], uint8_t len, bool tentative)
{
	struct rib_addr *a = NULL;
	unsigned int i;

	for (i = 0; i < nb_addrs && a == NULL; i++)
		if (addrs[i].family == AF_INET6 && addrs[i].port == port &&
		    memcmp(addrs[i].ip6, ip6, 16) == 0)
			a = &addrs[i];
	if (a == NULL) {
		if (nb_addrs == RIB_MAX_ADDRS)
			return -ENOSPC;
		a = &addrs[nb_addrs++];
	}
	*a = (struct rib_addr){ .port = port, .family = AF_INET6, .len = len, .tentative = tentative,
				.gen = rib_gen };
	memcpy(a->ip6, ip6, 16);
	port_source_update(port);	/* out of DAD, it may be the source now */
	return 0;
}

int rib_addr6_del(uint16_t port, const uint8_t ip6[16], uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].family == AF_INET6 && addrs[i].port == port && addrs[i].len == len &&
		    memcmp(addrs[i].ip6, ip6, 16) == 0) {
			addr_remove(i);
			return 0;
		}
	return -ENOENT;
}

int rib_addr_forget(const struct rib_addr *a)
{
	struct rib_addr k = *a;	/* a is the table's own entry, which the removal moves */

	if (k.family == AF_INET6)
		return rib_addr6_del(k.port, k.ip6, k.len);
	return rib_addr_del(k.port, k.ip, k.len);
}


int rib_addr_del(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].family == AF_INET && addrs[i].ip == ip && addrs[i].port == port &&
		    addrs[i].len == len) {
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
		if (addrs[i].family == AF_INET && ((ip ^ addrs[i].ip) & rib_mask(addrs[i].len)) == 0 &&
		    addrs[i].len > best_len) {
			best = addrs[i].port;
			best_len = addrs[i].len;
		}
	}
	return best;
}

int rib_connected_port6(const uint8_t ip6[16])
{
	int best = -ENETUNREACH, best_len = -1;
	uint8_t a[16], b[16];
	unsigned int i;

	for (i = 0; i < nb_addrs; i++) {
		if (addrs[i].family != AF_INET6 || addrs[i].len <= best_len)
			continue;
		rib_mask6(ip6, addrs[i].len, a);
		rib_mask6(addrs[i].ip6, addrs[i].len, b);
		if (memcmp(a, b, 16) == 0) {
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
