/* SPDX-License-Identifier: BSD-3-Clause */
/* Parsing of rtnetlink link, address, route, neighbour and nexthop messages with libmnl. */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/neighbour.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "controlplane/mirror/netlink_parse.h"

#define MAX_ATTR 64

struct attrs {
	const struct nlattr *tb[MAX_ATTR];
};

static int collect(const struct nlattr *a, void *data)
{
	struct attrs *t = data;
	int type = mnl_attr_get_type(a);

	/* attributes we do not know are skipped, as the kernel's newer ones must be */
	if (type >= 0 && type < MAX_ATTR)
		t->tb[type] = a;
	return MNL_CB_OK;
}

static int get_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return -EINVAL;
	*v = mnl_attr_get_u32(a);
	return 0;
}

static int get_ip4(const struct nlattr *a, uint32_t *ip)
{
	uint32_t be;

	if (mnl_attr_get_payload_len(a) != 4)
		return -EINVAL;
	memcpy(&be, mnl_attr_get_payload(a), 4);
	*ip = ntohl(be);
	return 0;
}

static int get_ip6(const struct nlattr *a, uint8_t ip6[16])
{
	if (mnl_attr_get_payload_len(a) != 16)
		return -EINVAL;
	memcpy(ip6, mnl_attr_get_payload(a), 16);
	return 0;
}

static int parse_link(const struct nlmsghdr *nlh, struct nl_link *l)
{
	const struct ifinfomsg *ifi;
	struct attrs t = { 0 };

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return -EBADMSG;
	ifi = mnl_nlmsg_get_payload(nlh);
	if (mnl_attr_parse(nlh, sizeof(*ifi), collect, &t) < 0)
		return -EBADMSG;
	memset(l, 0, sizeof(*l));
	l->ifindex = ifi->ifi_index;
	l->up = ifi->ifi_flags & IFF_UP;
	l->running = ifi->ifi_flags & IFF_RUNNING;
	if (t.tb[IFLA_IFNAME]) {
		if (mnl_attr_validate(t.tb[IFLA_IFNAME], MNL_TYPE_NUL_STRING) < 0 ||
		    strlen(mnl_attr_get_str(t.tb[IFLA_IFNAME])) >= sizeof(l->name))
			return -EINVAL;
		strcpy(l->name, mnl_attr_get_str(t.tb[IFLA_IFNAME]));
	}
	if (t.tb[IFLA_MTU] && get_u32(t.tb[IFLA_MTU], &l->mtu) < 0)
		return -EINVAL;
	if (t.tb[IFLA_ADDRESS] && mnl_attr_get_payload_len(t.tb[IFLA_ADDRESS]) == 6) {
		memcpy(l->mac, mnl_attr_get_payload(t.tb[IFLA_ADDRESS]), 6);
		l->has_mac = true;
	}
	return 0;
}

/* An IPv4 or IPv6 address; *mirrored false for another family's. */
static int parse_addr(const struct nlmsghdr *nlh, struct nl_addr *a, bool *mirrored)
{
	const struct ifaddrmsg *ifa;
	struct attrs t = { 0 };

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return -EBADMSG;
	ifa = mnl_nlmsg_get_payload(nlh);
	*mirrored = ifa->ifa_family == AF_INET || ifa->ifa_family == AF_INET6;
	if (!*mirrored)
		return 0;
	if (mnl_attr_parse(nlh, sizeof(*ifa), collect, &t) < 0 ||
	    ifa->ifa_prefixlen > (ifa->ifa_family == AF_INET6 ? 128 : 32))
		return -EBADMSG;
	memset(a, 0, sizeof(*a));
	a->family = ifa->ifa_family;
	a->ifindex = ifa->ifa_index;
	a->len = ifa->ifa_prefixlen;
	if (a->family == AF_INET6) {	/* IFA_ADDRESS is the address (IFA_LOCAL: a peer's link) */
		a->tentative = ifa->ifa_flags & IFA_F_TENTATIVE;
		if (t.tb[IFA_ADDRESS] == NULL)
			return -EINVAL;
		return get_ip6(t.tb[IFA_ADDRESS], a->ip6);
	}
	if (t.tb[IFA_LOCAL])
		return get_ip4(t.tb[IFA_LOCAL], &a->ip);
	if (t.tb[IFA_ADDRESS])
		return get_ip4(t.tb[IFA_ADDRESS], &a->ip);
	return -EINVAL;
}

/* A hop's gateway: RTA_GATEWAY of the route's family, or RTA_VIA (struct rtvia: a family and
 * an address) of either, which is how an IPv4 route names an IPv6 gateway (RFC 8950). */
static int parse_gateway(const struct nlattr *a, uint8_t family, struct nl_path *p)
{
	if (mnl_attr_get_type(a) == RTA_VIA) {
		const struct rtvia *via = mnl_attr_get_payload(a);
		size_t len = mnl_attr_get_payload_len(a);

		if (len < sizeof(*via))
			return -EINVAL;
		len -= sizeof(*via);
		if (via->rtvia_family == AF_INET6 && len == 16) {
			memcpy(p->gw6, via->rtvia_addr, 16);
			p->gw_family = AF_INET6;
			return 0;
		}
		if (via->rtvia_family == AF_INET && len == 4) {
			memcpy(&p->gw, via->rtvia_addr, 4);
			p->gw = ntohl(p->gw);
			return 0;
		}
		return -EINVAL;
	}
	if (family == AF_INET6) {
		p->gw_family = AF_INET6;
		return get_ip6(a, p->gw6);
	}
	return get_ip4(a, &p->gw);
}

static int parse_multipath(const struct nlattr *mp, struct nl_route *r)
{
	const struct rtnexthop *nh = mnl_attr_get_payload(mp);
	int left = mnl_attr_get_payload_len(mp);

	while (left > 0) {
		struct nl_path *p;

		if (left < (int)sizeof(*nh) || nh->rtnh_len < sizeof(*nh) || nh->rtnh_len > left)
			return -EBADMSG;
		if (r->nb_paths == NL_MAX_PATHS)
			return -E2BIG;
		p = &r->paths[r->nb_paths++];
		memset(p, 0, sizeof(*p));
		p->ifindex = nh->rtnh_ifindex;
		p->weight = nh->rtnh_hops + 1;
		if (nh->rtnh_len > RTNH_LENGTH(0)) {
			/* the hop's own attributes follow it */
			const void *payload = RTNH_DATA(nh);
			size_t plen = nh->rtnh_len - RTNH_LENGTH(0);
			const struct nlattr *attr;	/* the name libmnl's macro uses */

			mnl_attr_for_each_payload(payload, plen) {
				if ((mnl_attr_get_type(attr) == RTA_GATEWAY ||
				     mnl_attr_get_type(attr) == RTA_VIA) &&
				    parse_gateway(attr, r->family, p) < 0)
					return -EINVAL;
			}
		}
		left -= RTNH_ALIGN(nh->rtnh_len);
		nh = RTNH_NEXT(nh);
	}
	return 0;
}

/*
 * A route's attributes are picked as they are walked, without the table of
 * every type the other kinds fill: routes are most of what comes, and
 * clearing that table and calling back for each attribute was a third of a
 * route's parse (bench/mirror_scale.sh).
 */
static int parse_route(const struct nlmsghdr *nlh, struct nl_route *r, bool *mirrored)
{
	const struct nlattr *attr, *table = NULL, *dst = NULL, *prio = NULL, *nh_id = NULL;
	const struct nlattr *mp = NULL, *oif = NULL, *gw = NULL;
	const struct rtmsg *rtm;
	int rc;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*rtm)))
		return -EBADMSG;
	rtm = mnl_nlmsg_get_payload(nlh);
	*mirrored = rtm->rtm_family == AF_INET || rtm->rtm_family == AF_INET6;
	if (!*mirrored)
		return 0;
	if (rtm->rtm_dst_len > (rtm->rtm_family == AF_INET6 ? 128 : 32))
		return -EBADMSG;
	/* the last of a type counts; types we do not know are skipped, as the kernel's newer
	 * ones must be */
	mnl_attr_for_each(attr, nlh, sizeof(*rtm)) {
		switch (mnl_attr_get_type(attr)) {
		case RTA_TABLE: table = attr; break;
		case RTA_DST: dst = attr; break;
		case RTA_PRIORITY: prio = attr; break;
		case RTA_NH_ID: nh_id = attr; break;
		case RTA_MULTIPATH: mp = attr; break;
		case RTA_OIF: oif = attr; break;
		case RTA_GATEWAY:
		case RTA_VIA: gw = attr; break;
		}
	}
	memset(r, 0, offsetof(struct nl_route, paths));	/* paths: up to nb_paths written below */
	r->family = rtm->rtm_family;
	r->table = rtm->rtm_table;
	r->len = rtm->rtm_dst_len;
	r->type = rtm->rtm_type;
	r->protocol = rtm->rtm_protocol;
	r->tos = rtm->rtm_tos;
	if (table && get_u32(table, &r->table) < 0)
		return -EINVAL;
	if (dst && (r->family == AF_INET6 ? get_ip6(dst, r->prefix6) : get_ip4(dst, &r->prefix)) < 0)
		return -EINVAL;
	if (prio && get_u32(prio, &r->priority) < 0)
		return -EINVAL;
	if (nh_id && get_u32(nh_id, &r->nh_id) < 0)
		return -EINVAL;
	if (mp)
		return parse_multipath(mp, r);
	if (oif || gw) {
		struct nl_path *p = &r->paths[r->nb_paths++];

		*p = (struct nl_path){ .weight = 1 };
		if (oif && (rc = get_u32(oif, &p->ifindex)) < 0)
			return rc;
		if (gw && (rc = parse_gateway(gw, r->family, p)) < 0)
			return rc;
	}
	return 0;
}

/* An ARP or NDP neighbour; *mirrored false for another family's (a bridge's FDB). */
static int parse_neigh(const struct nlmsghdr *nlh, struct nl_neigh *n, bool *mirrored)
{
	const struct ndmsg *ndm;
	struct attrs t = { 0 };

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ndm)))
		return -EBADMSG;
	ndm = mnl_nlmsg_get_payload(nlh);
	*mirrored = ndm->ndm_family == AF_INET || ndm->ndm_family == AF_INET6;
	if (!*mirrored)
		return 0;
	if (mnl_attr_parse(nlh, sizeof(*ndm), collect, &t) < 0 || t.tb[NDA_DST] == NULL)
		return -EBADMSG;
	memset(n, 0, sizeof(*n));
	n->family = ndm->ndm_family;
	n->ifindex = ndm->ndm_ifindex;
	n->state = ndm->ndm_state;
	if (n->family == AF_INET6 ? get_ip6(t.tb[NDA_DST], n->ip6) < 0 :
				    get_ip4(t.tb[NDA_DST], &n->ip) < 0)
		return -EINVAL;
	if (t.tb[NDA_LLADDR]) {
		if (mnl_attr_get_payload_len(t.tb[NDA_LLADDR]) != 6)
			return -EINVAL;
		memcpy(n->mac, mnl_attr_get_payload(t.tb[NDA_LLADDR]), 6);
		n->has_mac = true;
	}
	return 0;
}

static int parse_nexthop(const struct nlmsghdr *nlh, struct nl_nexthop *n)
{
	const struct nhmsg *nhm;
	struct attrs t = { 0 };
	int rc;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*nhm)))
		return -EBADMSG;
	nhm = mnl_nlmsg_get_payload(nlh);
	if (mnl_attr_parse(nlh, sizeof(*nhm), collect, &t) < 0 || t.tb[NHA_ID] == NULL)
		return -EBADMSG;
	memset(n, 0, sizeof(*n));
	if ((rc = get_u32(t.tb[NHA_ID], &n->id)) < 0 || n->id == 0)
		return -EINVAL;
	if (t.tb[NHA_GROUP]) {
		const struct nexthop_grp *g = mnl_attr_get_payload(t.tb[NHA_GROUP]);
		size_t len = mnl_attr_get_payload_len(t.tb[NHA_GROUP]), i;

		if (len == 0 || len % sizeof(*g) != 0 || len / sizeof(*g) > NL_MAX_PATHS)
			return -EINVAL;
		n->nb_members = len / sizeof(*g);
		for (i = 0; i < n->nb_members; i++) {
			if (g[i].id == 0)
				return -EINVAL;
			n->members[i].id = g[i].id;
			n->members[i].weight = g[i].weight + 1;
		}
		n->mirrored = true;
		return 0;
	}
	if (t.tb[NHA_BLACKHOLE]) {
		n->blackhole = n->mirrored = true;
		return 0;
	}
	if ((nhm->nh_family != AF_INET && nhm->nh_family != AF_INET6) || t.tb[NHA_FDB] ||
	    t.tb[NHA_ENCAP])
		return 0;	/* a bridge's or a tunnel's: nothing ternd forwards by */
	n->mirrored = true;
	if (t.tb[NHA_OIF] && (rc = get_u32(t.tb[NHA_OIF], &n->ifindex)) < 0)
		return rc;
	if (t.tb[NHA_GATEWAY] && nhm->nh_family == AF_INET6) {
		n->gw_family = AF_INET6;
		return get_ip6(t.tb[NHA_GATEWAY], n->gw6);
	}
	if (t.tb[NHA_GATEWAY] && (rc = get_ip4(t.tb[NHA_GATEWAY], &n->gw)) < 0)
		return rc;
	return 0;
}

int nl_parse(const struct nlmsghdr *nlh, struct nl_msg *out)
{
	bool mirrored = true;
	int rc;

	/* each kind's parser clears its own part (a route's paths only as far as it fills them) */
	out->kind = NL_IGNORED;
	out->del = false;
	if (nlh->nlmsg_len < sizeof(*nlh))
		return -EBADMSG;
	out->flags = nlh->nlmsg_flags;
	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		out->kind = NL_LINK;
		out->del = nlh->nlmsg_type == RTM_DELLINK;
		return parse_link(nlh, &out->link);
	case RTM_NEWADDR:
	case RTM_DELADDR:
		out->del = nlh->nlmsg_type == RTM_DELADDR;
		rc = parse_addr(nlh, &out->addr, &mirrored);
		out->kind = mirrored ? NL_ADDR : NL_IGNORED;
		return rc;
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		out->del = nlh->nlmsg_type == RTM_DELROUTE;
		rc = parse_route(nlh, &out->route, &mirrored);
		out->kind = mirrored ? NL_ROUTE : NL_IGNORED;
		return rc;
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		out->del = nlh->nlmsg_type == RTM_DELNEIGH;
		rc = parse_neigh(nlh, &out->neigh, &mirrored);
		out->kind = mirrored ? NL_NEIGH : NL_IGNORED;
		return rc;
	case RTM_NEWNEXTHOP:
	case RTM_DELNEXTHOP:
		out->del = nlh->nlmsg_type == RTM_DELNEXTHOP;
		out->kind = NL_NEXTHOP;
		return parse_nexthop(nlh, &out->nexthop);
	}
	return 0;
}

int nl_for_each(const void *buf, size_t len, int (*cb)(const struct nlmsghdr *, void *), void *data)
{
	const uint8_t *p = buf;
	int n = 0;

	while (len >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		/* NLMSG_ALIGN masks with an unsigned int: a length near 2^32 would align to 0 */
		size_t step = ((size_t)nlh->nlmsg_len + NLMSG_ALIGNTO - 1) & ~(size_t)(NLMSG_ALIGNTO - 1);

		/* the aligned length too: libmnl walks a message's attributes to its aligned
		 * end, so a last message whose padding is missing would be read past the buffer */
		if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > len || step > len)
			return -EBADMSG;
		if (nlh->nlmsg_type != NLMSG_DONE && nlh->nlmsg_type != NLMSG_NOOP)
			cb(nlh, data);
		n++;
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return n;
}

bool nl_neigh_usable(uint16_t state)
{
	return state & (NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE | NUD_PERMANENT | NUD_NOARP);
}
