/* SPDX-License-Identifier: BSD-3-Clause */
/* Bonds: the bonding ethdev over member ports, members out and back, LACP state for show. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_eth_bond.h>
#include <rte_eth_bond_8023ad.h>

#include "dataplane/l2/bond.h"
#include "dataplane/node.h"
#include "dataplane/workarounds/tap_lsc.h"

/* The bonds' ethdevs, for the workers' idle tx bursts (written before workers start). */
static uint16_t bond_ports[RTE_MAX_ETHPORTS];
static unsigned int nb_bond_ports;
/* Members out of their bond while their link is down (workarounds/tap_lsc.c). */
static bool link_out[DP_MAX_IFACES];

static const char *const mode_names[] = { "802.3ad", "active-backup", "balance-xor" };

const char *dp_bond_mode_name(enum dp_bond_mode mode)
{
	return mode < RTE_DIM(mode_names) ? mode_names[mode] : "?";
}

enum dp_bond_mode dp_bond_mode_get(const struct dp_port *bond)
{
	switch (rte_eth_bond_mode_get(bond->port_id)) {
	case BONDING_MODE_ACTIVE_BACKUP: return DP_BOND_ACTIVE_BACKUP;
	case BONDING_MODE_BALANCE: return DP_BOND_BALANCE_XOR;
	default: return DP_BOND_8023AD;
	}
}

int dp_bond_member_add(const struct dp_port_params *prm, char *err, size_t errlen)
{
	struct dp_port *p;
	int rc = dp_port_claim(prm, &p, err, errlen);

	if (rc < 0)
		return rc;
	p->kind = DP_PORT_MEMBER;	/* its parent becomes its bond's index once made */
	p->admin_up = true;
	rte_eth_macaddr_get(p->port_id, &p->mac);
	dp_port_map.index[p->port_id] = dp.nb_ports;
	dp.nb_ports++;
	return 0;
}

int dp_bond_create(const struct dp_bond_params *prm, char *ethdev, size_t len, char *err,
		   size_t errlen)
{
	static const uint8_t modes[] = { BONDING_MODE_8023AD, BONDING_MODE_ACTIVE_BACKUP,
					 BONDING_MODE_BALANCE };
	static const uint8_t hashes[] = { BALANCE_XMIT_POLICY_LAYER2, BALANCE_XMIT_POLICY_LAYER23,
					  BALANCE_XMIT_POLICY_LAYER34 };
	const struct dp_port *first = &dp.ports[prm->members[0]];
	struct rte_ether_addr mac = first->mac;
	unsigned int i;
	int port, rc;

	snprintf(ethdev, len, "net_bonding_%s", prm->name);
	port = rte_eth_bond_create(ethdev, modes[prm->mode], first->socket < 0 ? 0 : first->socket);
	if (port < 0) {
		snprintf(err, errlen, "bond %s: DPDK's bonding driver cannot make it: %s", prm->name,
			 rte_strerror(-port));
		return port;
	}
	for (i = 0; i < prm->nb_members; i++) {
		struct dp_port *m = &dp.ports[prm->members[i]];

		rc = rte_eth_bond_slave_add(port, m->port_id);
		if (rc < 0) {
			snprintf(err, errlen, "bond %s: cannot take member %s: %s", prm->name, m->name,
				 rte_strerror(-rc));
			return rc;
		}
		m->parent = dp.nb_ports;	/* the bond is the next port added */
		/* the bonding driver hands frames over with their member's port id */
		dp_port_map.index[m->port_id] = dp.nb_ports;
	}
	if (prm->mode != DP_BOND_ACTIVE_BACKUP &&
	    (rc = rte_eth_bond_xmit_policy_set(port, hashes[prm->hash])) < 0) {
		snprintf(err, errlen, "bond %s: cannot set its transmit hash: %s", prm->name,
			 rte_strerror(-rc));
		return rc;
	}
	if (prm->mode == DP_BOND_8023AD) {
		struct rte_eth_bond_8023ad_conf conf;

		/*
		 * DPDK's actor never sets the short-timeout bit, so a partner is never asked
		 * to send fast, and its timers for a partner that sends slow are the ones in
		 * use: fast makes them 802.1AX's fast ones (a LACPDU each second, a partner
		 * expired after 3 s), for partners that send fast themselves. DPDK wants
		 * each fast timer below its slow one.
		 */
		if ((rc = rte_eth_bond_8023ad_conf_get(port, &conf)) == 0 && prm->lacp_fast) {
			conf.slow_periodic_ms = 1000;
			conf.long_timeout_ms = 3000;
			conf.fast_periodic_ms = RTE_MIN(conf.fast_periodic_ms, 900u);
			conf.short_timeout_ms = RTE_MIN(conf.short_timeout_ms, 2900u);
			rc = rte_eth_bond_8023ad_setup(port, &conf);
		}
		if (rc < 0) {
			snprintf(err, errlen, "bond %s: cannot set its LACP timers: %s", prm->name,
				 rte_strerror(-rc));
			return rc;
		}
	}
	/* its own MAC, kept when members come and go (else it follows the primary member's) */
	if (prm->mac != NULL)
		memcpy(mac.addr_bytes, prm->mac, RTE_ETHER_ADDR_LEN);
	rc = rte_eth_bond_mac_address_set(port, &mac);
	if (rc < 0) {
		if (prm->mode != DP_BOND_8023AD)
			snprintf(err, errlen, "bond %s: %s gives its members the bond's MAC address, and a member's driver cannot change it (memif cannot): %s",
				 prm->name, dp_bond_mode_name(prm->mode), rte_strerror(-rc));
		else
			snprintf(err, errlen, "bond %s: cannot set its MAC address: %s", prm->name,
				 rte_strerror(-rc));
		return rc;
	}
	bond_ports[nb_bond_ports++] = port;
	return 0;
}

int dp_bond_member_set(struct dp_port *m, bool in, char *err, size_t errlen)
{
	const struct dp_port *bond = &dp.ports[m->parent];
	int rc;

	if (m->kind != DP_PORT_MEMBER)
		return -EINVAL;
	if (in == m->admin_up)
		return 0;
	if (link_out[m - dp.ports]) {	/* out already, for its link: only the flag moves */
		m->admin_up = in;
		return 0;
	}
	if (in) {
		rc = rte_eth_bond_slave_add(bond->port_id, m->port_id);
	} else {
		rc = rte_eth_bond_slave_remove(bond->port_id, m->port_id);
		/* its peer sees the link go down, rather than wait for LACP to time out */
		if (rc == 0)
			rte_eth_dev_stop(m->port_id);
	}
	if (rc < 0) {
		snprintf(err, errlen, "the bonding driver cannot %s %s %s: %s", in ? "put" : "take",
			 m->name, in ? "back into its bond" : "out of its bond", rte_strerror(-rc));
		return rc;
	}
	m->admin_up = in;
	return 0;
}

bool dp_bond_sync(void)
{
	bool changed = false;
	unsigned int i;

	DP_FOREACH_IFACE(i) {
		struct dp_port *m = &dp.ports[i];
		struct rte_eth_link link;
		bool up;

		if (m->kind != DP_PORT_MEMBER || !m->admin_up || !tap_lsc_silent(m->port_id) ||
		    rte_eth_link_get_nowait(m->port_id, &link) != 0)
			continue;
		up = link.link_status == RTE_ETH_LINK_UP;
		if (up == !link_out[i])
			continue;
		if (up ? rte_eth_bond_slave_add(dp.ports[m->parent].port_id, m->port_id) :
			 rte_eth_bond_slave_remove(dp.ports[m->parent].port_id, m->port_id))
			continue;
		link_out[i] = !up;
		changed = true;
	}
	return changed;
}

int dp_bond_member_info(const struct dp_port *m, struct dp_bond_member_info *info)
{
	const struct dp_port *bond = &dp.ports[m->parent];
	uint16_t active[RTE_MAX_ETHPORTS];
	struct rte_eth_bond_8023ad_slave_info li;
	struct rte_eth_link link;
	enum dp_bond_mode mode;
	int n, i;

	memset(info, 0, sizeof(*info));
	info->in_bond = m->admin_up && !link_out[m - dp.ports];
	info->link = rte_eth_link_get_nowait(m->port_id, &link) == 0 &&
		     link.link_status == RTE_ETH_LINK_UP;
	n = rte_eth_bond_active_slaves_get(bond->port_id, active, RTE_DIM(active));
	for (i = 0; i < n; i++)
		info->active |= active[i] == m->port_id;
	mode = dp_bond_mode_get(bond);
	if (mode == DP_BOND_ACTIVE_BACKUP)
		info->active = info->active && rte_eth_bond_primary_get(bond->port_id) == m->port_id;
	if (info->in_bond && mode == DP_BOND_8023AD &&
	    rte_eth_bond_8023ad_slave_info(bond->port_id, m->port_id, &li) == 0) {
		info->lacp = true;
		info->actor_state = li.actor_state;
		info->partner_state = li.partner_state;
		info->active = info->active && (li.actor_state & STATE_DISTRIBUTING);
	}
	return 0;
}

void dp_bond_lacp_state_words(uint8_t state, char *buf, size_t len)
{
	static const char *const words[] = { "active", "short-timeout", "aggregation",
					     "synchronization", "collecting", "distributing",
					     "defaulted", "expired" };
	size_t at = 0;
	unsigned int b;

	buf[0] = '\0';
	for (b = 0; b < RTE_DIM(words) && at < len; b++)
		if (state & (1u << b))
			at += snprintf(buf + at, len - at, "%s%s", at ? "," : "", words[b]);
}

/*
 * DPDK's 802.3ad wants rx and tx bursts on the bond at least every 100 ms: its
 * LACPDUs wait in a ring that only a tx burst empties. Workers poll the bond's
 * rx all the time but send only when they forward; an idle one calls this often
 * (worker.c), and an empty tx burst on its own queue sends what waits.
 */
void dp_bond_tx_idle(unsigned int queue)
{
	unsigned int i;

	for (i = 0; i < nb_bond_ports; i++)
		rte_eth_tx_burst(bond_ports[i], queue, NULL, 0);
}
