/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link aggregates on DPDK's bonding driver: the bond is one port of ternd
 * (workers poll it, it has one TAP); its members are ports that only the
 * bonding driver configures, starts and polls. LACP (802.3ad) is DPDK's.
 * Owner: the control thread makes bonds before the ports start and takes
 * members out and back (shutdown); workers only poll and send on the bond.
 */
#ifndef TERN_BOND_H
#define TERN_BOND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/dp.h"

enum dp_bond_mode { DP_BOND_8023AD, DP_BOND_ACTIVE_BACKUP, DP_BOND_BALANCE_XOR };
enum dp_bond_hash { DP_BOND_HASH_L2, DP_BOND_HASH_L23, DP_BOND_HASH_L34 };

struct dp_bond_params {
	const char *name;		/* the tern interface's */
	enum dp_bond_mode mode;
	enum dp_bond_hash hash;
	bool lacp_fast;
	const uint16_t *members;	/* their indexes in dp.ports (added as members) */
	unsigned int nb_members;
	const uint8_t *mac;		/* NULL: the first member's */
};

/* Adds a port that a bond will own: its ethdev found, nothing configured. */
int dp_bond_member_add(const struct dp_port_params *prm, char *err, size_t errlen);
/* Makes the bonding ethdev over the members; ethdev receives its name, for dp_port_add. */
int dp_bond_create(const struct dp_bond_params *prm, char *ethdev, size_t len, char *err,
		   size_t errlen);
/* Takes a member out of its bond and stops it (its peer sees the link go down), or puts it
 * back; 0 or a negative errno with why in err. */
int dp_bond_member_set(struct dp_port *member, bool in, char *err, size_t errlen);
const char *dp_bond_mode_name(enum dp_bond_mode mode);
enum dp_bond_mode dp_bond_mode_get(const struct dp_port *bond);

/* Control thread's tick: members whose driver announces no link change (TAP) leave their bond
 * while their link is down and come back with it; true when one did. */
bool dp_bond_sync(void);

/* A member as show interfaces gives it. */
struct dp_bond_member_info {
	bool in_bond;			/* not shut down, nor out for its link */
	bool active;			/* carrying traffic (802.3ad: distributing; active-backup: the active one) */
	bool link;
	bool lacp;			/* the states below hold (802.3ad) */
	uint8_t actor_state, partner_state;	/* 802.1AX's bits */
};
int dp_bond_member_info(const struct dp_port *member, struct dp_bond_member_info *info);
/* "collecting,distributing": the state bits in 802.1AX's words. */
void dp_bond_lacp_state_words(uint8_t state, char *buf, size_t len);

/* Worker: an idle bond still gets the tx bursts that send its LACPDUs (see the .c). */
void dp_bond_tx_idle(unsigned int queue);

#endif
