/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rtnetlink messages parsed and checked in one place before anything acts on
 * them: links, addresses, routes and neighbours of both families, and nexthop objects. Pure functions: a
 * malformed message gets -EINVAL or -EBADMSG and changes nothing.
 */
#ifndef TERN_NETLINK_PARSE_H
#define TERN_NETLINK_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

#define NL_MAX_PATHS 64

enum nl_kind {
	NL_LINK,
	NL_ADDR,
	NL_ROUTE,
	NL_NEIGH,
	NL_NEXTHOP,
	NL_IGNORED,	/* well-formed but of no interest (another family, a done message) */
};

struct nl_link {
	uint32_t ifindex;
	char name[16];
	bool up;		/* IFF_UP */
	bool running;		/* IFF_RUNNING: carrier */
	uint32_t mtu;
	uint8_t mac[6];
	bool has_mac;
};

struct nl_addr {
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint32_t ifindex;
	uint32_t ip;		/* AF_INET, host order: IFA_LOCAL, else IFA_ADDRESS */
	uint8_t ip6[16];	/* AF_INET6: IFA_ADDRESS */
	uint8_t len;
	bool tentative;		/* AF_INET6: still in Duplicate Address Detection */
};

struct nl_path {
	uint32_t ifindex;
	uint32_t gw;		/* IPv4 gateway, host order; 0 (and gw6 ::) when directly connected */
	uint8_t gw6[16];	/* IPv6 gateway (gw_family AF_INET6): an IPv6 route's, or an IPv4
				 * route's through RTA_VIA (RFC 8950) */
	uint8_t gw_family;	/* AF_INET6 for gw6, else 0 */
	uint8_t weight;		/* rtnh_hops + 1 */
};

struct nl_route {
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint32_t table;
	uint32_t prefix;	/* AF_INET: host order */
	uint8_t prefix6[16];	/* AF_INET6 */
	uint8_t len;
	uint8_t type;		/* RTN_UNICAST, RTN_LOCAL, RTN_BROADCAST, RTN_BLACKHOLE, ... */
	uint8_t protocol;	/* RTPROT_KERNEL, RTPROT_STATIC, RTPROT_BIRD, ... */
	uint8_t tos;
	uint32_t priority;	/* metric */
	uint32_t nh_id;		/* RTA_NH_ID: through a kernel nexthop object; 0: none */
	unsigned int nb_paths;
	struct nl_path paths[NL_MAX_PATHS];
};

struct nl_neigh {
	uint8_t family;		/* AF_INET (ARP) or AF_INET6 (NDP) */
	uint32_t ifindex;
	uint32_t ip;		/* AF_INET: host order */
	uint8_t ip6[16];	/* AF_INET6 */
	uint16_t state;		/* NUD_* */
	uint8_t mac[6];
	bool has_mac;
};

/* A kernel nexthop object (RTM_NEWNEXTHOP): one hop, a blackhole, or a group of others. */
struct nl_nexthop {
	uint32_t id;
	bool mirrored;		/* a hop of either family, a blackhole or a group: what ternd can
				 * mirror (not a bridge's or a tunnel's) */
	bool blackhole;
	uint32_t ifindex;
	uint32_t gw;		/* IPv4, host order; 0 (and gw6 ::): on-link */
	uint8_t gw6[16];	/* IPv6 (gw_family AF_INET6) */
	uint8_t gw_family;	/* AF_INET6 for gw6, else 0 */
	unsigned int nb_members;	/* a group's */
	struct {
		uint32_t id;
		uint16_t weight;	/* 1..256 */
	} members[NL_MAX_PATHS];
};

struct nl_msg {
	enum nl_kind kind;
	bool del;		/* RTM_DEL* */
	uint16_t flags;		/* nlmsg_flags: NLM_F_REPLACE, NLM_F_APPEND, ... */
	union {
		struct nl_link link;
		struct nl_addr addr;
		struct nl_route route;
		struct nl_neigh neigh;
		struct nl_nexthop nexthop;
	};
};

/* Parses one message; 0 and *out filled, or a negative errno for a malformed one. */
int nl_parse(const struct nlmsghdr *nlh, struct nl_msg *out);
/*
 * Walks the messages in a receive buffer, calling cb for each whole one; stops
 * at the first length that does not fit, padding included (libmnl's check takes
 * a length over 2^31 for a negative one, and its attribute walk reads to the
 * aligned end). Returns the number of messages, or -EBADMSG.
 */
int nl_for_each(const void *buf, size_t len, int (*cb)(const struct nlmsghdr *, void *), void *data);
/* Whether a neighbour in this state gives a usable MAC. */
bool nl_neigh_usable(uint16_t state);

#endif
