/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sub-interfaces from the shell: interface dp0.100 makes one (802.1Q, VLAN
 * 100; encapsulation gives it others), no interface dp0.100 removes it. Each
 * has a TAP named like it, carrying its frames untagged: ternd adds and takes
 * off the tags, so the kernel needs no 8021q module and routing daemons see an
 * ordinary interface.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/netlink_request.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/acls.h"
#include "controlplane/sflow/sflow_agent.h"
#include "controlplane/shell/rpf_config.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/counters.h"
#include "controlplane/shell/iface.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/ip6/ip6.h"
#include "dataplane/l2/vlan.h"
#include "kni/exception.h"

/* A VLAN id as typed: 0 and a negative errno with the sentence written when it is not one. */
static int vid_parse(struct cmd_ctx *ctx, const char *w, uint16_t *vid)
{
	char *end;
	unsigned long v = strtoul(w, &end, 10);

	if (*w == '\0' || *end != '\0' || !isdigit((unsigned char)*w))
		return cmd_error(ctx, -EINVAL, "%% VLAN id '%s' is not a number: expected %u to %u", w,
				 (unsigned int)DP_VLAN_VID_MIN, (unsigned int)DP_VLAN_VID_MAX);
	if (v < DP_VLAN_VID_MIN || v > DP_VLAN_VID_MAX)
		return cmd_error(ctx, -EINVAL, "%% VLAN id %s is out of range: expected %u to %u", w,
				 (unsigned int)DP_VLAN_VID_MIN, (unsigned int)DP_VLAN_VID_MAX);
	*vid = v;
	return 0;
}

static int cmd_subif_make(struct cmd_ctx *ctx)
{
	const char *name = ctx->argv[1], *dot = strrchr(name, '.');
	struct dp_vlan_encap e = { .outer_tpid = RTE_ETHER_TYPE_VLAN };
	char parent[16], err[192];
	struct dp_port *pp;
	int rc, index;

	if ((size_t)(dot - name) >= sizeof(parent) || dot == name)
		return cmd_error(ctx, -EINVAL, "%% %s is not a sub-interface name: expected PORT.VLAN, such as dp0.100",
				 name);
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - name), name);
	pp = dp_port_by_name(parent);
	if (pp == NULL || pp->kind != DP_PORT_ETH) {
		struct outbuf ports;

		ob_init(&ports);
		cmd_ifname_list(&ports, true);
		rc = cmd_error(ctx, -ENODEV, "%% Cannot make %s: %s is not a port (ports: %s)",
			       name, parent, ports.buf ? ports.buf : "none");
		ob_free(&ports);
		return rc;
	}
	if ((rc = vid_parse(ctx, dot + 1, &e.outer_vid)) < 0)
		return rc;
	index = dp_vlan_add(name, pp - dp.ports, &e, err, sizeof(err));
	if (index < 0)
		return cmd_error(ctx, index, "%% Cannot make %s: %s", name, err);
	counters_forget(index);	/* the slot's counters start again from 0 */
	rc = kni_tap_add(index, err, sizeof(err));
	if (rc < 0) {
		dp_vlan_del(index);
		return cmd_error(ctx, rc, "%% Cannot make %s: %s", name, err);
	}
	/* the mirror learns its kernel interface now, so that addresses can go on at once */
	netlink_drain();
	TERN_LOG(rib, NOTICE, "%s: sub-interface of %s, 802.1Q VLAN %u", name, pp->name,
		 e.outer_vid);
	snprintf(ctx->s->ifname, sizeof(ctx->s->ifname), "%s", name);
	ctx->s->mode = CMD_MODE_CONFIG_IF;
	return 0;
}

static int cmd_no_interface(struct cmd_ctx *ctx)
{
	struct dp_port *p = dp_port_by_name(ctx->argv[2]);
	unsigned int index, routes;

	if (p->kind != DP_PORT_VLAN)
		return cmd_error(ctx, -EPERM, "%% %s is a port of ternd.conf: only sub-interfaces can be removed",
				 p->name);
	index = p - dp.ports;
	TERN_LOG(rib, NOTICE, "%s: sub-interface removed", p->name);
	/* the kernel interface first: what the kernel says of it then is still this one's */
	kni_tap_remove(index);
	netlink_drain();
	routes = mirror_port_forget(index);
	if (routes)
		TERN_LOG(rib, NOTICE, "%u routes through the removed sub-interface flushed", routes);
	iface_set_description(p->name, "");
	iface_set_ipv6_enable(index, false);
	acl_iface_removed(index);
	rpf_iface_removed(index);
	sflow_iface_removed(index);
	dp_vlan_del(index);
	return 0;
}

static int cmd_encapsulation(struct cmd_ctx *ctx)
{
	struct dp_port *p = dp_port_by_name(ctx->s->ifname);
	const char *outer = cmd_arg(ctx, "dot1ad");
	struct dp_vlan_encap e;
	char err[192];
	int rc;

	if (p == NULL)
		return cmd_error(ctx, -ENODEV, "%% Interface %s no longer exists", ctx->s->ifname);
	if (p->kind != DP_PORT_VLAN)
		return cmd_error(ctx, -EINVAL, "%% %s is a port: encapsulation is for sub-interfaces (interface %s.VLAN)",
				 p->name, p->name);
	memset(&e, 0, sizeof(e));
	e.outer_tpid = outer ? RTE_ETHER_TYPE_QINQ : RTE_ETHER_TYPE_VLAN;
	if (outer) {
		if ((rc = vid_parse(ctx, outer, &e.outer_vid)) < 0 ||
		    (rc = vid_parse(ctx, cmd_arg(ctx, "dot1q"), &e.inner_vid)) < 0)
			return rc;
	} else if ((rc = vid_parse(ctx, cmd_arg(ctx, "dot1q"), &e.outer_vid)) < 0) {
		return rc;
	}
	rc = dp_vlan_set_encap(p - dp.ports, &e, err, sizeof(err));
	if (rc < 0)
		return cmd_error(ctx, rc, "%% %s: %s", p->name, err);
	dp_vlan_encap_format(&e, err, sizeof(err));	/* the tags it takes from now on */
	TERN_LOG(rib, NOTICE, "%s: encapsulation %s", p->name, err);
	return 0;
}

/* The sub-interface being configured; NULL, with the sentence written, for anything else. */
static struct dp_port *subif_here(struct cmd_ctx *ctx, const char *what)
{
	struct dp_port *p = dp_port_by_name(ctx->s->ifname);

	if (p == NULL)
		cmd_error(ctx, -ENODEV, "%% Interface %s no longer exists", ctx->s->ifname);
	else if (p->kind != DP_PORT_VLAN)
		cmd_error(ctx, -EINVAL, "%% %s has its IPv6 link-local address from the start: %s is for sub-interfaces",
			  p->name, what);
	else
		return p;
	return NULL;
}

/* A sub-interface's TAP has an IPv6 link-local address only beside another IPv6 address
 * (kni_tap_open): ipv6 enable gives it one alone, for a protocol that speaks from it (OSPFv3,
 * BGP over a link-local address). */
static int cmd_ipv6_enable(struct cmd_ctx *ctx)
{
	struct dp_port *p = subif_here(ctx, "ipv6 enable");
	int rc;

	if (p == NULL)
		return -EINVAL;
	rc = kni_link_local_start(p - dp.ports);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel would not make the IPv6 link-local address of %s: %s",
				 p->name, strerror(-rc));
	iface_set_ipv6_enable(p - dp.ports, true);
	netlink_drain();
	return 0;
}

/* Takes the link-local address away, unless another IPv6 address keeps it. */
static int cmd_no_ipv6_enable(struct cmd_ctx *ctx)
{
	struct dp_port *p = subif_here(ctx, "no ipv6 enable");
	struct kni_link_locals ll;
	const struct rib_addr *all;
	unsigned int index, n, a;
	int rc;

	if (p == NULL)
		return -EINVAL;
	index = p - dp.ports;
	iface_set_ipv6_enable(index, false);
	n = rib_addrs(&all);
	for (a = 0; a < n; a++)
		if (all[a].port == index && all[a].family == AF_INET6 && !ip6_is_link_local(all[a].ip6))
			return 0;	/* it keeps its link-local address beside this one */
	/* read from the kernel: the mirror learns a link-local address once its DAD is over */
	rc = kni_link_local_stop(index, &ll);
	for (a = 0; rc == 0 && a < ll.n; a++) {
		rc = nlr_addr6(false, ll.ifindex, ll.addr[a], ll.len[a]);
		if (rc == -EADDRNOTAVAIL)	/* gone already: as wanted */
			rc = 0;
	}
	if (rc < 0)
		return cmd_error(ctx, rc, "%% The kernel would not take the IPv6 link-local address of %s away: %s",
				 p->name, strerror(-rc));
	netlink_drain();
	return 0;
}

const struct cmd_def cmd_subif_table[] = {
	{ CMD_MODE_CONFIG, "interface IFNAME.VLAN", "Make a sub-interface of a port (dp0.100: 802.1Q VLAN 100)",
	  cmd_subif_make, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG, "no interface IFNAME", "Remove a sub-interface", cmd_no_interface, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "encapsulation dot1q NUMBER", "The sub-interface's 802.1Q VLAN id",
	  cmd_encapsulation, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "encapsulation dot1ad NUMBER dot1q NUMBER",
	  "QinQ: the sub-interface's 802.1ad (outer) and 802.1Q (inner) VLAN ids", cmd_encapsulation,
	  CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "ipv6 enable", "Give the sub-interface an IPv6 link-local address without another IPv6 address",
	  cmd_ipv6_enable, CMD_F_CONFIG },
	{ CMD_MODE_CONFIG_IF, "no ipv6 enable", "Its IPv6 link-local address only beside another IPv6 address",
	  cmd_no_ipv6_enable, CMD_F_CONFIG },
	{ 0, NULL, NULL, NULL, 0 },
};
