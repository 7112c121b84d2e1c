/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK 22.11's memif and TAP drivers report a standard frame (max_rx_pktlen 1518 and
 * 1522) though their datapaths carry jumbo frames, so rte_eth_dev_set_mtu() and
 * rte_eth_dev_configure() refuse every MTU above 1500 (1504 for TAP): "Frame size (9018) >
 * device max frame size (1522)".
 *
 * What the drivers do with a long frame, read in drivers/net/memif/rte_eth_memif.c and
 * drivers/net/tap/rte_eth_tap.c of 22.11.11:
 * - memif receives a frame spread over several descriptors (MEMIF_DESC_FLAG_NEXT) into one
 *   mbuf as long as it fits the mbuf's data room, chaining more mbufs only beyond it, and
 *   transmits a frame over as many descriptors as it takes. It has no MTU call and never
 *   reads the MTU.
 * - TAP reads a frame with readv() into its next mbuf, whole when the data room holds it,
 *   and writes an mbuf chain with writev(); but it drops (and counts as an error) every
 *   frame longer than ethdev's record of the MTU (dev->data->mtu) plus 22 bytes. Its MTU
 *   call sets the MTU of its kernel interface (SIOCSIFMTU).
 * ternd sizes its packet buffers for the largest [port] mtu of ternd.conf, so a frame
 * within the MTU is one mbuf.
 *
 * So for these two drivers ternd takes MTUs up to VDEV_MTU_MAX. Within dev_info's range it
 * calls rte_eth_dev_set_mtu() as for any port; beyond it, it writes ethdev's record of the
 * MTU, which ethdev keeps private (struct rte_eth_dev_data in ethdev_driver.h, in the
 * "rte_eth_dev_data" memzone), and does what the driver's MTU call does (TAP: SIOCSIFMTU on
 * the interface named by dev_info's if_index). The record is found by the port's name in
 * the memzone and checked against rte_eth_dev_get_mtu() and the port's queue counts before
 * any write; where that check fails, these ports keep dev_info's range.
 *
 * A bond (net_bonding) reports the smallest of its members' ranges and its MTU call sets
 * each member's through rte_eth_dev_set_mtu(), so a bond of memif or TAP ports inherits
 * their understatement. A bond whose members are all such ports takes the same MTUs: beyond
 * its range each member's is set as above, then the bond's own record.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_eth_bond.h>
#include <rte_memzone.h>

#include "dataplane/workarounds/vdev_mtu.h"

/* struct rte_eth_dev_data of DPDK 22.11 up to its mtu: every member's type is public. */
struct ethdev_data_head {
	char name[RTE_ETH_NAME_MAX_LEN];
	void **rx_queues;
	void **tx_queues;
	uint16_t nb_rx_queues;
	uint16_t nb_tx_queues;
	struct rte_eth_dev_sriov sriov;
	void *dev_private;
	struct rte_eth_link dev_link;
	struct rte_eth_conf dev_conf;
	uint16_t mtu;
};

/* The memzone starts with an owner id and a lock; the records follow, cache-aligned. */
static struct ethdev_data_head *ethdev_record(uint16_t port_id)
{
	const struct rte_memzone *mz = rte_memzone_lookup("rte_eth_dev_data");
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_dev_info info;
	struct ethdev_data_head *d;
	uint16_t mtu;
	size_t off;

	if (mz == NULL || rte_eth_dev_get_name_by_port(port_id, name) != 0 ||
	    rte_eth_dev_get_mtu(port_id, &mtu) != 0 || rte_eth_dev_info_get(port_id, &info) != 0)
		return NULL;
	for (off = RTE_CACHE_LINE_SIZE; off + sizeof(*d) <= mz->len; off += RTE_CACHE_LINE_SIZE) {
		d = RTE_PTR_ADD(mz->addr, off);
		if (strncmp(d->name, name, sizeof(d->name)) == 0)
			return d->mtu == mtu && d->nb_rx_queues == info.nb_rx_queues &&
			       d->nb_tx_queues == info.nb_tx_queues ? d : NULL;
	}
	return NULL;
}

static int understated(const struct rte_eth_dev_info *info)
{
	return strcmp(info->driver_name, "net_memif") == 0 ||
	       strcmp(info->driver_name, "net_tap") == 0;
}

/* A bond's members in m (at most RTE_MAX_ETHPORTS), how many; 0 for a port that is not a
 * bond. */
static int bond_members(uint16_t port_id, const struct rte_eth_dev_info *info, uint16_t *m)
{
	int n;

	if (strcmp(info->driver_name, "net_bonding") != 0)
		return 0;
	n = rte_eth_bond_slaves_get(port_id, m, RTE_MAX_ETHPORTS);
	return n < 0 ? 0 : n;
}

/* Whether a port's dev_info understates what it carries and ternd can set its MTU past it:
 * memif and TAP with their records, a bond whose members all are. */
static bool takes_more(uint16_t port_id, const struct rte_eth_dev_info *info)
{
	uint16_t m[RTE_MAX_ETHPORTS];
	int n, i;

	if (understated(info))
		return ethdev_record(port_id) != NULL;
	n = bond_members(port_id, info, m);
	if (n == 0 || ethdev_record(port_id) == NULL)
		return false;
	for (i = 0; i < n; i++) {
		struct rte_eth_dev_info mi;

		if (rte_eth_dev_info_get(m[i], &mi) != 0 || !understated(&mi) ||
		    ethdev_record(m[i]) == NULL)
			return false;
	}
	return true;
}

/* ethdev's range: an MTU whose frame also fits max_rx_pktlen (eth_dev_validate_mtu). */
static void ethdev_range(const struct rte_eth_dev_info *info, uint32_t *min, uint32_t *max)
{
	uint32_t overhead;

	overhead = info->max_mtu != UINT16_MAX && info->max_rx_pktlen > info->max_mtu ?
		   info->max_rx_pktlen - info->max_mtu : RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	*min = info->min_mtu;
	*max = RTE_MIN((uint32_t)info->max_mtu, info->max_rx_pktlen - overhead);
}

int vdev_mtu_range(uint16_t port_id, uint32_t *min, uint32_t *max)
{
	struct rte_eth_dev_info info;
	int rc;

	if ((rc = rte_eth_dev_info_get(port_id, &info)) < 0)
		return rc;
	ethdev_range(&info, min, max);
	if (*max < VDEV_MTU_MAX && takes_more(port_id, &info))
		*max = VDEV_MTU_MAX;
	return 0;
}

static int tap_kernel_mtu(const struct rte_eth_dev_info *info, uint16_t mtu)
{
	struct ifreq ifr = { .ifr_mtu = mtu };
	int fd, rc = 0;

	if (info->if_index == 0 || if_indextoname(info->if_index, ifr.ifr_name) == NULL)
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCSIFMTU, &ifr) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int vdev_mtu_set(uint16_t port_id, uint16_t mtu)
{
	uint16_t m[RTE_MAX_ETHPORTS];
	struct ethdev_data_head *d;
	struct rte_eth_dev_info info;
	uint32_t min, max;
	int rc, n, i;

	if ((rc = rte_eth_dev_info_get(port_id, &info)) < 0)
		return rc;
	ethdev_range(&info, &min, &max);
	if ((mtu >= min && mtu <= max) || !takes_more(port_id, &info))
		return rte_eth_dev_set_mtu(port_id, mtu);
	if (mtu < min || mtu > VDEV_MTU_MAX || (d = ethdev_record(port_id)) == NULL)
		return -EINVAL;
	/* a bond: its members first, as its own MTU call would */
	n = bond_members(port_id, &info, m);
	for (i = 0; i < n; i++)
		if ((rc = vdev_mtu_set(m[i], mtu)) < 0)
			return rc;
	if (strcmp(info.driver_name, "net_tap") == 0 && (rc = tap_kernel_mtu(&info, mtu)) < 0)
		return rc;
	__atomic_store_n(&d->mtu, mtu, __ATOMIC_RELAXED);
	return 0;
}

bool vdev_rx_chains(uint16_t port_id)
{
	uint16_t m[RTE_MAX_ETHPORTS];
	struct rte_eth_dev_info info;
	int n, i;

	if (rte_eth_dev_info_get(port_id, &info) != 0)
		return false;
	if (strcmp(info.driver_name, "net_memif") == 0)
		return true;
	n = bond_members(port_id, &info, m);
	for (i = 0; i < n; i++)
		if (!vdev_rx_chains(m[i]))
			return false;
	return n > 0;
}
