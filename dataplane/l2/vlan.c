/* SPDX-License-Identifier: BSD-3-Clause */
/* Sub-interfaces: their slots in dp.ports, the VLAN map vlan_input reads, the tags vlan_output
 * writes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "dataplane/rcu.h"
#include "dataplane/l2/group_count.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/l2/vlan_map.h"

struct dp_vlan_map dp_vlan_map;
struct dp_vlan_stats *dp_vlan_stats[DP_MAX_WORKERS];

int dp_vlan_encap_format(const struct dp_vlan_encap *e, char *buf, size_t len)
{
	if (e->inner_vid)
		return snprintf(buf, len, "dot1ad %u dot1q %u", e->outer_vid, e->inner_vid);
	return snprintf(buf, len, "dot1q %u", e->outer_vid);
}

static bool same_encap(const struct dp_port *p, const struct dp_vlan_encap *e)
{
	return p->outer_tpid == e->outer_tpid && p->outer_vid == e->outer_vid &&
	       p->inner_vid == e->inner_vid;
}

/* The sub-interface of port parent with tags e in the VLAN map, or 0. */
static unsigned int map_find(unsigned int parent, const struct dp_vlan_encap *e)
{
	if (e->inner_vid == 0)
		return dp_vlan_map.dot1q[parent] ? dp_vlan_map.dot1q[parent][e->outer_vid] : 0;
	return dp_vlan_qinq_find(parent, e->outer_vid, e->inner_vid);
}

/* Whether encap e suits a sub-interface of port parent (skip: the one being changed). */
static int encap_check(unsigned int parent, const struct dp_vlan_encap *e, unsigned int skip,
		       char *err, size_t errlen)
{
	const struct dp_port *pp = &dp.ports[parent];
	char what[40];
	unsigned int i;

	dp_vlan_encap_format(e, what, sizeof(what));
	if (parent >= dp.nb_ports || parent >= RTE_MAX_ETHPORTS || pp->kind != DP_PORT_ETH) {
		snprintf(err, errlen, "a sub-interface's parent must be a port");
		return -EINVAL;
	}
	if (e->outer_vid < DP_VLAN_VID_MIN || e->outer_vid > DP_VLAN_VID_MAX ||
	    (e->inner_vid != 0 && e->inner_vid > DP_VLAN_VID_MAX)) {
		unsigned int bad = e->outer_vid < DP_VLAN_VID_MIN || e->outer_vid > DP_VLAN_VID_MAX ?
				   e->outer_vid : e->inner_vid;

		snprintf(err, errlen, "VLAN id %u is out of range: expected %u to %u", bad,
			 (unsigned int)DP_VLAN_VID_MIN, (unsigned int)DP_VLAN_VID_MAX);
		return -EINVAL;
	}
	if ((e->outer_tpid == RTE_ETHER_TYPE_QINQ) != (e->inner_vid != 0)) {
		snprintf(err, errlen, "802.1ad takes an outer and an inner VLAN id (dot1ad S dot1q C)");
		return -EINVAL;
	}
	i = map_find(parent, e);
	if (i != 0 && i != skip) {
		snprintf(err, errlen, "%s already has %s (sub-interface %s)", pp->name, what,
			 dp.ports[i].name);
		return -EEXIST;
	}
	return 0;
}

static void tags_write(unsigned int index, const struct dp_port *p)
{
	struct dp_tx_tags *t = &dp_tx_tags[index];
	rte_be16_t w[4];

	w[0] = rte_cpu_to_be_16(p->outer_tpid);
	w[1] = rte_cpu_to_be_16(p->outer_vid);
	w[2] = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	w[3] = rte_cpu_to_be_16(p->inner_vid);
	t->parent = p->parent;
	t->tx = dp_port_map.tx[p->parent];
	memcpy(t->tag, w, sizeof(w));
	t->len = p->inner_vid ? 2 * RTE_VLAN_HLEN : RTE_VLAN_HLEN;
}

/* The VLAN map's tables for a sub-interface of port parent, made the first time. */
static int map_make(unsigned int parent, bool qinq, char *err, size_t errlen)
{
	struct rte_hash_parameters prm = {
		.name = "tern_qinq", .entries = RTE_MAX(dp.max_ports, 8u),
		.key_len = sizeof(struct dp_vlan_qinq_key), .socket_id = SOCKET_ID_ANY,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	uint16_t *t;

	if (dp_vlan_map.dot1q[parent] == NULL) {
		t = calloc(DP_VLAN_VIDS, sizeof(*t));	/* a frame's VID is any of its 12 bits */
		if (t == NULL)
			goto nomem;
		__atomic_store_n(&dp_vlan_map.dot1q[parent], t, __ATOMIC_RELEASE);
	}
	if (qinq && dp_vlan_map.qinq == NULL) {
		struct rte_hash *h;

		h = rte_hash_create(&prm);
		if (h == NULL)
			goto nomem;
		__atomic_store_n(&dp_vlan_map.qinq, h, __ATOMIC_RELEASE);
	}
	return 0;
nomem:
	snprintf(err, errlen, "no memory for the VLAN map of %s", dp.ports[parent].name);
	return -ENOMEM;
}

/* Workers find the sub-interface by its tags from here on (its tables made: map_make). */
static int map(unsigned int index)
{
	const struct dp_port *p = &dp.ports[index];

	if (p->inner_vid) {
		struct dp_vlan_qinq_key k = { p->parent, p->outer_vid, p->inner_vid, 0 };
		int rc = rte_hash_add_key_data(dp_vlan_map.qinq, &k, (void *)(uintptr_t)index);

		if (rc < 0)
			return rc;
	} else {
		__atomic_store_n(&dp_vlan_map.dot1q[p->parent][p->outer_vid], index,
				 __ATOMIC_RELEASE);
	}
	__atomic_store_n(&dp_port_map.vlans[p->parent], 1, __ATOMIC_RELEASE);
	return 0;
}

/* Workers no longer find it once this returns. */
static void unmap(unsigned int index)
{
	const struct dp_port *p = &dp.ports[index];
	unsigned int i, left = 0;

	struct dp_vlan_qinq_key k = { p->parent, p->outer_vid, p->inner_vid, 0 };
	int32_t pos = -1;

	if (p->inner_vid)
		pos = rte_hash_del_key(dp_vlan_map.qinq, &k);
	else
		__atomic_store_n(&dp_vlan_map.dot1q[p->parent][p->outer_vid], 0, __ATOMIC_RELEASE);
	for (i = 0; i < dp.nb_ports; i++)
		if (i != index && dp.ports[i].kind == DP_PORT_VLAN && dp.ports[i].parent == p->parent)
			left++;
	if (left == 0)
		__atomic_store_n(&dp_port_map.vlans[p->parent], 0, __ATOMIC_RELEASE);
	dp_rcu_synchronize();
	/* no worker can still be reading the key's slot */
	if (pos >= 0)
		rte_hash_free_key_with_position(dp_vlan_map.qinq, pos);
}

/* The slot is free again, and dp.nb_ports ends after the last slot in use. */
static void slot_free(struct dp_port *p)
{
	p->kind = DP_PORT_FREE;
	p->name[0] = '\0';
	while (dp.nb_ports > 0 && dp.ports[dp.nb_ports - 1].kind == DP_PORT_FREE)
		dp.nb_ports--;
}

static void encap_set(struct dp_port *p, const struct dp_vlan_encap *e)
{
	p->outer_tpid = e->outer_tpid;
	p->outer_vid = e->outer_vid;
	p->inner_vid = e->inner_vid;
}

int dp_vlan_add(const char *name, unsigned int parent, const struct dp_vlan_encap *encap,
		char *err, size_t errlen)
{
	const struct dp_port *pp = &dp.ports[parent];
	unsigned int index, w;
	struct dp_port *p;
	int rc;

	rc = encap_check(parent, encap, 0, err, errlen);	/* skips none: slot 0 is a port */
	if (rc < 0)
		return rc;
	if (strlen(name) >= sizeof(p->name)) {
		snprintf(err, errlen, "interface name %s is too long: at most %zu characters", name,
			 sizeof(p->name) - 1);
		return -EINVAL;
	}
	for (index = 0; index < dp.nb_ports && dp.ports[index].kind != DP_PORT_FREE; index++)
		;
	if (index == dp.max_ports) {
		dp.ports_refused++;
		snprintf(err, errlen, "no room for another interface: ports and sub-interfaces are at most %u ([interfaces] max)",
			 dp.max_ports);
		return -ENOSPC;
	}
	rc = map_make(parent, encap->inner_vid != 0, err, errlen);
	if (rc < 0)
		return rc;
	p = &dp.ports[index];
	memset(p, 0, sizeof(*p));
	p->kind = DP_PORT_VLAN;
	p->port_id = pp->port_id;
	p->ifid = DP_VLAN_IFID_BASE + index;
	p->parent = parent;
	encap_set(p, encap);
	snprintf(p->name, sizeof(p->name), "%s", name);
	memcpy(p->dev, pp->name, sizeof(pp->name));	/* its port's name */
	p->mtu = pp->mtu;
	p->base_mtu = pp->base_mtu;
	p->socket = pp->socket;
	p->mac = pp->mac;
	p->pool = pp->pool;
	p->chains = pp->chains;
	p->started = true;
	tags_write(index, p);
	dp_port_map.index[p->ifid] = index;
	dp_port_map.mac[index].word = 0;
	dp_port_map.mac[index].addr = p->mac;
	dp_port_map.up[index] = 0;	/* until its kernel interface is up */
	dp_port_map.tx[index] = DP_TX_VLAN;
	for (w = 0; w < DP_MAX_WORKERS && dp_vlan_stats[w] != NULL; w++) {
		dp_vlan_stats[w][index].rx.packets = 0;
		dp_vlan_stats[w][index].rx.bytes = 0;
		dp_vlan_stats[w][index].tx.packets = 0;
		dp_vlan_stats[w][index].tx.bytes = 0;
	}
	dp_group_count_zero(index);
	dp_sflow_zero(index);
	dp_punt_port_init(index, parent);
	if (index == dp.nb_ports)
		dp.nb_ports++;
	dp_port_stats_reset(p);
	rc = map(index);
	if (rc < 0) {
		snprintf(err, errlen, "cannot add %s to the VLAN map: %s", name, strerror(-rc));
		slot_free(p);
		return rc;
	}
	return index;
}

int dp_vlan_set_encap(unsigned int index, const struct dp_vlan_encap *encap, char *err,
		      size_t errlen)
{
	struct dp_port *p = &dp.ports[index];
	struct dp_vlan_encap was;
	int rc;

	if (!dp_port_in_use(index) || p->kind != DP_PORT_VLAN)
		return -ENODEV;
	if (same_encap(p, encap))
		return 0;
	rc = encap_check(p->parent, encap, index, err, errlen);
	if (rc == 0)
		rc = map_make(p->parent, encap->inner_vid != 0, err, errlen);
	if (rc < 0)
		return rc;
	was = (struct dp_vlan_encap){ p->outer_tpid, p->outer_vid, p->inner_vid };
	unmap(index);
	encap_set(p, encap);
	rc = map(index);
	if (rc < 0) {
		snprintf(err, errlen, "cannot add %s to the VLAN map: %s", p->name, strerror(-rc));
		encap_set(p, &was);	/* its old key's slot was freed: it fits again */
		map(index);
		return rc;
	}
	tags_write(index, p);
	return 0;
}

int dp_vlan_del(unsigned int index)
{
	struct dp_port *p = &dp.ports[index];

	if (!dp_port_in_use(index) || p->kind != DP_PORT_VLAN)
		return -ENODEV;
	dp_port_map.up[index] = 0;
	dp_sflow_rate_set(index, 0);
	unmap(index);
	/* frames the kernel sent before still leave tagged: dp_tx_tags stays as it is */
	slot_free(p);
	return 0;
}
