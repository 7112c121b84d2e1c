/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports: packet pools per NUMA socket, ethdev configuration, start, stop and counters. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "dataplane/dp.h"
#include "dataplane/node.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/workarounds/eal_exit.h"
#include "dataplane/workarounds/memseg_fd_guard.h"
#include "dataplane/workarounds/vdev_mtu.h"

#define RX_DESC 1024
#define TX_DESC 1024

struct dataplane dp;
static uint16_t pool_data_room;
static unsigned int mbufs_per_socket = 32768, mbuf_cache = 256;

int dp_pools_create(unsigned int mbufs, unsigned int cache, uint16_t max_mtu)
{
	unsigned int room = RTE_PKTMBUF_HEADROOM + DP_FRAME_OVERHEAD + max_mtu;

	pool_data_room = room < RTE_MBUF_DEFAULT_BUF_SIZE ? RTE_MBUF_DEFAULT_BUF_SIZE : room;
	mbufs_per_socket = mbufs;
	mbuf_cache = cache;
	return 0;
}

/* Pools are made lazily for each socket a port sits on. */
static struct rte_mempool *pool_for_socket(int socket, unsigned int mbufs, unsigned int cache)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	int s = socket < 0 ? 0 : socket;

	if (dp.pools[s] != NULL)
		return dp.pools[s];
	snprintf(name, sizeof(name), "tern_pool_%d", s);
	dp.pools[s] = rte_pktmbuf_pool_create(name, mbufs, cache, 0, pool_data_room, socket);
	return dp.pools[s];
}

struct dp_port *dp_port_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < dp.nb_ports; i++)
		if (dp_port_in_use(i) && strcmp(dp.ports[i].name, name) == 0)
			return &dp.ports[i];
	return NULL;
}

static int ethdev_name(const char *dev, char *name, size_t len)
{
	size_t n = strcspn(dev, ",");

	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(name, dev, n);
	name[n] = '\0';
	return 0;
}

static int port_configure(struct dp_port *p, char *err, size_t errlen)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	uint16_t nb_rxd = RX_DESC, nb_txd = TX_DESC, q;
	int rc;

	rc = rte_eth_dev_info_get(p->port_id, &info);
	if (rc < 0)
		goto fail;
	/* The TAP PMD wants as many rx as tx queues: the extra rx queues are
	 * polled too (main hands them to workers), so nothing lands unread. */
	if (strcmp(info.driver_name, "net_tap") == 0 && p->nb_rxq < p->nb_txq)
		p->nb_rxq = p->nb_txq;
	if (p->nb_rxq > info.max_rx_queues || p->nb_txq > info.max_tx_queues) {
		snprintf(err, errlen, "port %s: asks for %u rx / %u tx queues; %s offers at most %u / %u",
			 p->name, p->nb_rxq, p->nb_txq, info.driver_name, info.max_rx_queues,
			 info.max_tx_queues);
		return -EINVAL;
	}
	if (p->nb_rxq > 1 && info.flow_type_rss_offloads) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf =
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) & info.flow_type_rss_offloads;
	}
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
	/*
	 * A frame longer than a packet buffer comes in as a chain of them where the driver
	 * scatters (memif always does) and goes out as one where it sends chains: then the port
	 * takes any MTU its driver does while ternd runs, its buffers sized at start or not.
	 * Fast free, which frees a chain's first buffer alone, is not asked of such a port.
	 */
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	p->chains = (conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_MULTI_SEGS) &&
		    ((conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) || vdev_rx_chains(p->port_id));
	if (!p->chains && (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE))
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	rc = rte_eth_dev_configure(p->port_id, p->nb_rxq, p->nb_txq, &conf);
	if (rc < 0)
		goto fail;
	/*
	 * TAP has no ring: when it scatters, it reads each frame with one readv over every
	 * buffer of the queue's "descriptors". RX_DESC of them made that a copy of 1025 iovecs
	 * into the kernel a frame, and ternd fell behind a 60 000-frame-a-second punt flood that
	 * it keeps up with otherwise (test_copp_sessions): it gets as many as the largest frame
	 * takes.
	 */
	if ((conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) &&
	    strcmp(info.driver_name, "net_tap") == 0)
		nb_rxd = (DP_MTU_MAX + DP_FRAME_OVERHEAD) / (pool_data_room - RTE_PKTMBUF_HEADROOM) + 2;
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(p->port_id, &nb_rxd, &nb_txd);
	if (rc < 0)
		goto fail;
	p->pool = pool_for_socket(p->socket, mbufs_per_socket, mbuf_cache);
	if (p->pool == NULL) {
		snprintf(err, errlen, "port %s: cannot create a pool of %u mbufs on socket %d: %s",
			 p->name, mbufs_per_socket, p->socket, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	for (q = 0; q < p->nb_rxq; q++) {
		rc = rte_eth_rx_queue_setup(p->port_id, q, nb_rxd, p->socket, NULL, p->pool);
		if (rc < 0)
			goto fail;
	}
	for (q = 0; q < p->nb_txq; q++) {
		rc = rte_eth_tx_queue_setup(p->port_id, q, nb_txd, p->socket, NULL);
		if (rc < 0)
			goto fail;
	}
	return 0;
fail:
	snprintf(err, errlen, "port %s (%s): configuration failed: %s", p->name, p->dev,
		 rte_strerror(-rc));
	return rc;
}

int dp_port_claim(const struct dp_port_params *prm, struct dp_port **out, char *err,
		  size_t errlen)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct dp_port *p;
	uint16_t port_id;

	if (dp.nb_ports == dp.max_ports) {
		snprintf(err, errlen, "port %s: too many interfaces; at most %u ([interfaces] max)",
			 prm->name, dp.max_ports);
		return -ENOSPC;
	}
	if (ethdev_name(prm->dev, name, sizeof(name)) < 0 ||
	    rte_eth_dev_get_port_by_name(name, &port_id) != 0) {
		snprintf(err, errlen, "port %s: device '%s' was not found by DPDK (is its driver loaded, and the address right?)",
			 prm->name, prm->dev);
		return -ENODEV;
	}
	if (dp_tx_edge_take(dp.nb_ports) < 0) {
		snprintf(err, errlen, "port %s: too many ports; at most %d", prm->name,
			 RTE_MAX_ETHPORTS);
		return -ENOSPC;
	}
	p = &dp.ports[dp.nb_ports];
	memset(p, 0, sizeof(*p));
	p->port_id = port_id;
	p->ifid = port_id;
	p->kind = DP_PORT_ETH;
	p->parent = dp.nb_ports;
	snprintf(p->name, sizeof(p->name), "%s", prm->name);
	snprintf(p->dev, sizeof(p->dev), "%s", prm->dev);
	eal_exit_note_port(prm->dev);
	p->nb_rxq = prm->nb_rxq;
	p->nb_txq = prm->nb_txq;
	p->mtu = prm->mtu;
	p->base_mtu = prm->mtu;
	p->socket = rte_eth_dev_socket_id(port_id);
	*out = p;
	return 0;
}

int dp_port_add(const struct dp_port_params *prm, char *err, size_t errlen)
{
	struct dp_port *p;
	uint16_t port_id;
	char why[192];
	int rc;

	if ((rc = dp_port_claim(prm, &p, err, errlen)) < 0)
		return rc;
	port_id = p->port_id;
	rc = port_configure(p, err, errlen);
	if (rc < 0)
		return rc;
	if (prm->mac != NULL) {
		memcpy(p->mac.addr_bytes, prm->mac, RTE_ETHER_ADDR_LEN);
		rc = rte_eth_dev_default_mac_addr_set(port_id, &p->mac);
		if (rc < 0 && !prm->mac_soft) {
			snprintf(err, errlen, "port %s: cannot set MAC address: %s", p->name,
				 rte_strerror(-rc));
			return rc;
		}
	}
	rte_eth_macaddr_get(port_id, &p->mac);
	rc = dp_port_set_mtu(p, prm->mtu, why, sizeof(why));
	if (rc < 0) {
		snprintf(err, errlen, "port %s: cannot take MTU %u: %s", p->name, prm->mtu, why);
		return rc;
	}
	dp_port_map.index[port_id] = dp.nb_ports;
	dp_port_map.mac[dp.nb_ports].word = 0;
	dp_port_map.mac[dp.nb_ports].addr = p->mac;
	dp.nb_ports++;
	return 0;
}

int dp_port_start(struct dp_port *p, char *err, size_t errlen)
{
	int rc;

	/* a zero-copy memif client hands these to its peer (memseg_fd_guard.c) */
	rc = memseg_fd_guard_arm();
	if (rc < 0) {
		snprintf(err, errlen, "port %s: cannot guard the hugepage files a zero-copy memif port shares: %s",
			 p->name, rte_strerror(-rc));
		return rc;
	}
	rc = rte_eth_dev_start(p->port_id);
	if (rc < 0) {
		snprintf(err, errlen, "port %s: cannot start: %s", p->name, rte_strerror(-rc));
		return rc;
	}
	/*
	 * Routing protocols need multicast; the MAC filter is done in eth_input. A bond
	 * takes allmulticast only if a member does, and in 802.3ad DPDK's bonding drops
	 * broadcast and multicast frames (ARP among them) without it; memif has no
	 * allmulticast call but takes every frame (promiscuous from the start), so such a
	 * bond is made promiscuous instead, which its members already are.
	 */
	if (rte_eth_allmulticast_enable(p->port_id) != 0 && p->is_bond)
		rte_eth_promiscuous_enable(p->port_id);
	p->started = true;
	p->admin_up = true;
	dp_port_map.up[p - dp.ports] = 1;
	return 0;
}

void dp_ports_stop(void)
{
	unsigned int i;

	for (i = 0; i < dp.nb_ports; i++) {
		if (!dp.ports[i].started || dp.ports[i].kind != DP_PORT_ETH)
			continue;
		rte_eth_dev_stop(dp.ports[i].port_id);
		rte_eth_dev_close(dp.ports[i].port_id);
		dp.ports[i].started = false;
	}
}

/* What the counters read at the last clear: shown values are relative to it. */
static struct dp_port_stats baseline[DP_MAX_IFACES];

static void port_stats_raw(const struct dp_port *p, struct dp_port_stats *st)
{
	unsigned int idx = p - dp.ports, w;
	char pattern[32];

	memset(st, 0, sizeof(*st));
	if (p->kind == DP_PORT_MEMBER) {
		struct rte_eth_stats s;

		/* its bond polls and sends on it: only the driver counts its frames */
		if (rte_eth_stats_get(p->port_id, &s) == 0) {
			st->ipackets = s.ipackets;
			st->opackets = s.opackets;
		}
		return;
	}
	if (p->kind == DP_PORT_VLAN) {
		/* what vlan_input gave it and vlan_output handed its port; bytes without the
		 * tags, as its kernel interface counts them */
		for (w = 0; w < dp.nb_workers; w++) {
			st->ipackets += dp_vlan_stats[w][idx].rx.packets;
			st->ibytes += dp_vlan_stats[w][idx].rx.bytes;
			st->opackets += dp_vlan_stats[w][idx].tx.packets;
			st->obytes += dp_vlan_stats[w][idx].tx.bytes;
		}
		return;
	}
	/* a port's frames, its sub-interfaces' included */
	snprintf(pattern, sizeof(pattern), "port_rx-%u-*", p->port_id);
	st->ipackets = dp_node_objs(pattern);
	snprintf(pattern, sizeof(pattern), "port_tx-%u", idx);
	st->tx_drops = dp_node_port_tx_drops(idx);
	st->opackets = dp_node_objs(pattern) - st->tx_drops;
}

int dp_port_stats_get(const struct dp_port *p, struct dp_port_stats *st)
{
	const struct dp_port_stats *b = &baseline[p - dp.ports];
	struct rte_eth_stats s;
	int rc;

	port_stats_raw(p, st);
	st->ipackets -= b->ipackets;
	st->opackets -= b->opackets;
	st->tx_drops -= b->tx_drops;
	if (p->kind == DP_PORT_VLAN) {
		st->ibytes -= b->ibytes;
		st->obytes -= b->obytes;
		return 0;
	}
	rc = rte_eth_stats_get(p->port_id, &s);
	if (rc < 0)
		return rc;
	st->ibytes = s.ibytes;
	st->obytes = s.obytes;
	st->imissed = s.imissed;
	st->ierrors = s.ierrors;
	st->oerrors = s.oerrors;
	st->rx_nombuf = s.rx_nombuf;
	return 0;
}

void dp_port_stats_reset(const struct dp_port *p)
{
	port_stats_raw(p, &baseline[p - dp.ports]);
	if (p->kind != DP_PORT_VLAN)
		rte_eth_stats_reset(p->port_id);
}

bool dp_port_link_up(const struct dp_port *p, uint32_t *speed_mbps)
{
	struct rte_eth_link link;

	if (rte_eth_link_get_nowait(p->port_id, &link) < 0)
		return false;
	if (speed_mbps != NULL)
		*speed_mbps = link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : link.link_speed;
	return link.link_status == RTE_ETH_LINK_UP;
}

unsigned int dp_port_links_refresh(void)
{
	unsigned int i, pass, changed = 0;

	/* ports and bonds ask their drivers (a TAP's, a system call each), then each
	 * sub-interface takes its port's answer: thousands of them cost no call of their own */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < dp.nb_ports; i++) {
			const struct dp_port *p = &dp.ports[i];
			uint8_t down;

			if (!p->started || (p->kind == DP_PORT_VLAN) != (pass == 1))
				continue;
			down = pass == 0 ? !dp_port_link_up(p, NULL) : dp_port_map.link_down[p->parent];
			if (down != dp_port_map.link_down[i]) {
				dp_port_map.link_down[i] = down;
				changed++;
			}
		}
	return changed;
}

const char *dp_port_driver(const struct dp_port *p)
{
	struct rte_eth_dev_info info;

	if (p->kind == DP_PORT_VLAN)
		return p->inner_vid ? "802.1ad" : "802.1Q";
	if (p->is_bond)
		return "bonding";
	if (rte_eth_dev_info_get(p->port_id, &info) < 0)
		return "unknown";
	return info.driver_name;
}

int dp_port_set_mtu(struct dp_port *p, uint32_t mtu, char *err, size_t errlen)
{
	unsigned int room = pool_data_room - RTE_PKTMBUF_HEADROOM;
	uint32_t min, max;
	uint16_t cur;
	int rc;

	if (p->kind == DP_PORT_VLAN) {
		const struct dp_port *parent = &dp.ports[p->parent];
		/* a frame with two tags: one more than the buffers' room counts */
		unsigned int tags = p->inner_vid ? RTE_VLAN_HLEN : 0;

		if (mtu < DP_MTU_MIN || mtu > parent->mtu) {
			snprintf(err, errlen, "a sub-interface takes MTU %u to its port's (%s: %u)",
				 (unsigned int)DP_MTU_MIN, parent->name, parent->mtu);
			return -EINVAL;
		}
		if (mtu + DP_FRAME_OVERHEAD + tags > room && !parent->chains) {
			snprintf(err, errlen, "a frame of MTU %u with two VLAN tags does not fit the %u-byte packet buffers ternd made at start",
				 mtu, room);
			return -EMSGSIZE;
		}
		p->mtu = mtu;
		return 0;
	}
	if (vdev_mtu_range(p->port_id, &min, &max) == 0 && (mtu < min || mtu > max)) {
		snprintf(err, errlen, "its driver (%s) takes MTU %u to %u", dp_port_driver(p), min, max);
		return -EINVAL;
	}
	if (mtu > DP_MTU_MAX) {
		snprintf(err, errlen, "ternd takes MTU %u to %u", (unsigned int)DP_MTU_MIN,
			 (unsigned int)DP_MTU_MAX);
		return -EINVAL;
	}
	if (mtu + DP_FRAME_OVERHEAD > room && !p->chains) {
		snprintf(err, errlen,
			 "a frame of MTU %u does not fit the %u-byte packet buffers ternd made at start, and its driver (%s) cannot chain them (give a [port] mtu of ternd.conf the largest MTU wanted)",
			 mtu, room, dp_port_driver(p));
		return -EMSGSIZE;
	}
	/* the MTU it has already: a bond's members take it only once configured */
	if (rte_eth_dev_get_mtu(p->port_id, &cur) == 0 && cur == mtu) {
		p->mtu = mtu;
		return 0;
	}
	rc = vdev_mtu_set(p->port_id, mtu);
	if (rc < 0 && rc != -ENOTSUP) {
		snprintf(err, errlen, "its driver (%s) refuses it: %s", dp_port_driver(p),
			 rte_strerror(-rc));
		return rc;
	}
	p->mtu = mtu;
	return 0;
}
