/* SPDX-License-Identifier: BSD-3-Clause */
/* Synchronous rtnetlink requests with ACK: the kernel's error is the operator's error. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "controlplane/mirror/netlink_request.h"

static int transact(struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *s = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	unsigned int portid;
	int rc, n;

	if (s == NULL)
		return -errno;
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(s);
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = time(NULL);
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0) {
		rc = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(s, buf, sizeof(buf));
	if (n < 0) {
		rc = -errno;
		goto out;
	}
	rc = mnl_cb_run(buf, n, nlh->nlmsg_seq, portid, NULL, NULL);
	rc = rc < 0 ? -errno : 0;
out:
	mnl_socket_close(s);
	return rc;
}

int nlr_addr(bool add, uint32_t ifindex, uint32_t ip, uint8_t len)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifaddrmsg *ifa;
	uint32_t be = htonl(ip), bcast = htonl(ip | (len < 31 ? ~(~0u << (32 - len)) : 0));

	nlh->nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
	nlh->nlmsg_flags = add ? NLM_F_CREATE | NLM_F_EXCL : 0;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = len;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = ifindex;
	mnl_attr_put_u32(nlh, IFA_LOCAL, be);
	mnl_attr_put_u32(nlh, IFA_ADDRESS, be);
	if (add && len < 31)
		mnl_attr_put_u32(nlh, IFA_BROADCAST, bcast);
	return transact(nlh);
}

int nlr_addr6(bool add, uint32_t ifindex, const uint8_t ip6[16], uint8_t len)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifaddrmsg *ifa;

	nlh->nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
	nlh->nlmsg_flags = add ? NLM_F_CREATE | NLM_F_EXCL : 0;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET6;
	ifa->ifa_prefixlen = len;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = ifindex;
	/* Duplicate Address Detection as the kernel does it: tentative until it is over */
	mnl_attr_put(nlh, IFA_LOCAL, 16, ip6);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, ip6);
	return transact(nlh);
}

static void put_addr(struct nlmsghdr *nlh, uint16_t type, uint8_t family, uint32_t ip,
		     const uint8_t *ip6)
{
	if (family == AF_INET6)
		mnl_attr_put(nlh, type, 16, ip6);
	else
		mnl_attr_put_u32(nlh, type, htonl(ip));
}

static bool hop_has_gw(const struct nlr_hop *h)
{
	static const uint8_t none[16];

	return h->family == AF_INET6 ? memcmp(h->gw6, none, 16) != 0 : h->gw != 0;
}

/* The head of a static route request in the main table: header, rtmsg, RTA_DST, RTA_PRIORITY. */
static struct nlmsghdr *static_route_msg(char *buf, bool add, const struct nlr_prefix *p,
					 uint8_t type, uint8_t scope, uint32_t metric)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;

	nlh->nlmsg_type = add ? RTM_NEWROUTE : RTM_DELROUTE;
	nlh->nlmsg_flags = add ? NLM_F_CREATE | NLM_F_REPLACE : 0;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = p->family;
	rtm->rtm_dst_len = p->len;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_type = type;
	rtm->rtm_scope = scope;
	put_addr(nlh, RTA_DST, p->family, p->prefix, p->prefix6);
	if (metric)
		mnl_attr_put_u32(nlh, RTA_PRIORITY, metric);
	return nlh;
}

/* A hop's gateway: RTA_GATEWAY of the route's family, or RTA_VIA of the other's. */
static void put_gateway(struct nlmsghdr *nlh, uint8_t route_family, const struct nlr_hop *h)
{
	char via[sizeof(struct rtvia) + 16];
	struct rtvia *v = (struct rtvia *)via;

	if (!hop_has_gw(h))
		return;
	if ((h->family == AF_INET6) == (route_family == AF_INET6)) {
		put_addr(nlh, RTA_GATEWAY, route_family, h->gw, h->gw6);
		return;
	}
	v->rtvia_family = h->family == AF_INET6 ? AF_INET6 : AF_INET;
	if (h->family == AF_INET6) {
		memcpy(v->rtvia_addr, h->gw6, 16);
		mnl_attr_put(nlh, RTA_VIA, sizeof(*v) + 16, via);
	} else {
		uint32_t be = htonl(h->gw);

		memcpy(v->rtvia_addr, &be, 4);
		mnl_attr_put(nlh, RTA_VIA, sizeof(*v) + 4, via);
	}
}

int nlr_route(bool add, const struct nlr_prefix *p, uint8_t type, const struct nlr_hop *hop,
	      uint32_t metric)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint8_t scope = !add ? RT_SCOPE_NOWHERE :
			type == RTN_UNICAST && hop != NULL && !hop_has_gw(hop) ? RT_SCOPE_LINK :
			RT_SCOPE_UNIVERSE;
	struct nlmsghdr *nlh = static_route_msg(buf, add, p, type, scope, metric);

	if (hop != NULL) {
		put_gateway(nlh, p->family, hop);
		if (hop->ifindex)
			mnl_attr_put_u32(nlh, RTA_OIF, hop->ifindex);
	}
	return transact(nlh);
}

int nlr_route_group(const struct nlr_prefix *p, uint32_t metric, const struct nlr_hop *hops,
		    unsigned int n)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *mp;
	unsigned int i;

	if (n == 0 || n > 256)
		return -EINVAL;
	nlh = static_route_msg(buf, true, p, RTN_UNICAST, RT_SCOPE_UNIVERSE, metric);
	mp = mnl_attr_nest_start(nlh, RTA_MULTIPATH);
	for (i = 0; i < n; i++) {
		struct rtnexthop *rtnh = mnl_nlmsg_get_payload_tail(nlh);
		size_t at = nlh->nlmsg_len;

		mnl_nlmsg_put_extra_header(nlh, RTNH_ALIGN(sizeof(*rtnh)));
		rtnh->rtnh_ifindex = hops[i].ifindex;
		rtnh->rtnh_hops = hops[i].weight ? hops[i].weight - 1 : 0;	/* the kernel's weight - 1 */
		put_gateway(nlh, p->family, &hops[i]);
		rtnh->rtnh_len = nlh->nlmsg_len - at;
	}
	mnl_attr_nest_end(nlh, mp);
	return transact(nlh);
}

int nlr_neigh(bool add, uint32_t ifindex, uint8_t family, uint32_t ip, const uint8_t *ip6,
	      const struct rte_ether_addr *mac)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ndmsg *ndm;

	nlh->nlmsg_type = add ? RTM_NEWNEIGH : RTM_DELNEIGH;
	nlh->nlmsg_flags = add ? NLM_F_CREATE | NLM_F_REPLACE : 0;
	ndm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));
	ndm->ndm_family = family == AF_INET6 ? AF_INET6 : AF_INET;
	ndm->ndm_ifindex = ifindex;
	ndm->ndm_state = NUD_PERMANENT;
	put_addr(nlh, NDA_DST, ndm->ndm_family, ip, ip6);
	if (add)
		mnl_attr_put(nlh, NDA_LLADDR, RTE_ETHER_ADDR_LEN, mac->addr_bytes);
	return transact(nlh);
}

int nlr_link(uint32_t ifindex, int up, uint32_t mtu)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = RTM_NEWLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	if (up >= 0) {
		ifi->ifi_change = IFF_UP;
		ifi->ifi_flags = up ? IFF_UP : 0;
	}
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	return transact(nlh);
}
