/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The netlink walker takes a message only when its aligned length fits the buffer: libmnl
 * reads a message's attributes up to its aligned end, so a last message short of its
 * padding was read past the buffer (an input of fuzz_netlink: an IFLA_IFNAME of 7 bytes
 * in a 46-byte RTM_DELLINK).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <libmnl/libmnl.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "controlplane/mirror/netlink_parse.h"

static const uint8_t dellink[46] = {
	0x2e, 0x00, 0x00, 0x00, 0x11, 0x00, 0x02, 0x00, 0xd8, 0x18, 0x71, 0x00, 0x19, 0x01, 0x00, 0x00,
	0x02, 0x08, 0x80, 0xfe, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x00, 0x5f, 0x00, 0x00, 0x00,
	0x08, 0x00, 0x02, 0x00, 0x7f, 0x00, 0x00, 0x01, 0x07, 0x00, 0x03, 0x00, 0xff, 0x06,
};

static int count(const struct nlmsghdr *nlh, void *data)
{
	struct nl_msg m;

	nl_parse(nlh, &m);
	++*(int *)data;
	return 0;
}

static void test_a_message_short_of_its_padding_is_refused(void **state)
{
	uint8_t *buf = malloc(sizeof(dellink));	/* exactly its size: ASan sees a read past it */
	int n = 0;

	memcpy(buf, dellink, sizeof(dellink));
	assert_int_equal(nl_for_each(buf, sizeof(dellink), count, &n), -EBADMSG);
	assert_int_equal(n, 0);
	free(buf);
}

static void test_the_same_message_with_its_padding_is_walked(void **state)
{
	uint8_t *buf = calloc(1, 48);
	int n = 0;

	memcpy(buf, dellink, sizeof(dellink));
	assert_int_equal(nl_for_each(buf, 48, count, &n), 1);
	assert_int_equal(n, 1);
	/* and two in a row */
	buf = realloc(buf, 96);
	memcpy(buf + 48, buf, 48);
	n = 0;
	assert_int_equal(nl_for_each(buf, 96, count, &n), 2);
	assert_int_equal(n, 2);
	free(buf);
}

/* A length near 2^32, which NLMSG_ALIGN's unsigned int mask aligns to 0: refused, not
 * walked forever (another input of fuzz_netlink). */
static void test_a_length_near_2_to_the_32_is_refused(void **state)
{
	uint8_t buf[64] = { 0 };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int n = 0;

	nlh->nlmsg_len = 0xfffffffd;
	nlh->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(nl_for_each(buf, sizeof(buf), count, &n), -EBADMSG);
	assert_int_equal(n, 0);
}

/* An RTM_NEWNEXTHOP of family fam and id into buf. */
static struct nlmsghdr *nexthop_msg(char *buf, uint8_t fam, uint32_t id)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nhmsg *nhm;

	nlh->nlmsg_type = RTM_NEWNEXTHOP;
	nhm = mnl_nlmsg_put_extra_header(nlh, sizeof(*nhm));
	nhm->nh_family = fam;
	mnl_attr_put_u32(nlh, NHA_ID, id);
	return nlh;
}

static void test_nexthop_objects_parse(void **state)
{
	char buf[512];
	struct nexthop_grp g[2] = { { .id = 100, .weight = 0 }, { .id = 101, .weight = 2 } };
	struct nlmsghdr *nlh;
	struct nl_msg m;

	(void)state;
	nlh = nexthop_msg(buf, AF_INET, 7);
	mnl_attr_put_u32(nlh, NHA_OIF, 3);
	mnl_attr_put_u32(nlh, NHA_GATEWAY, htonl(0xc6120102));
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_int_equal(m.kind, NL_NEXTHOP);
	assert_true(m.nexthop.mirrored);
	assert_int_equal(m.nexthop.id, 7);
	assert_int_equal(m.nexthop.ifindex, 3);
	assert_int_equal(m.nexthop.gw, 0xc6120102);

	nlh = nexthop_msg(buf, AF_UNSPEC, 200);
	mnl_attr_put(nlh, NHA_GROUP, sizeof(g), g);
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_int_equal(m.nexthop.nb_members, 2);
	assert_int_equal(m.nexthop.members[0].weight, 1);
	assert_int_equal(m.nexthop.members[1].id, 101);
	assert_int_equal(m.nexthop.members[1].weight, 3);

	nlh = nexthop_msg(buf, AF_UNSPEC, 9);
	mnl_attr_put(nlh, NHA_BLACKHOLE, 0, NULL);
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_true(m.nexthop.blackhole);

	/* IPv6: a 16-byte gateway; one of 4 bytes refused; a bridge's kept as not ternd's */
	nlh = nexthop_msg(buf, AF_INET6, 10);
	mnl_attr_put_u32(nlh, NHA_OIF, 3);
	mnl_attr_put(nlh, NHA_GATEWAY, 16, "\xfe\x80\0\0\0\0\0\0\0\0\0\0\0\0\0\x01");
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_true(m.nexthop.mirrored);
	assert_int_equal(m.nexthop.gw_family, AF_INET6);
	assert_int_equal(m.nexthop.gw6[0], 0xfe);
	assert_int_equal(m.nexthop.gw6[15], 1);
	nlh = nexthop_msg(buf, AF_INET6, 12);
	mnl_attr_put_u32(nlh, NHA_GATEWAY, htonl(0xc6120102));
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
	nlh = nexthop_msg(buf, AF_BRIDGE, 13);
	mnl_attr_put_u32(nlh, NHA_OIF, 3);
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_false(m.nexthop.mirrored);

	/* a group cut inside a member, a member of id 0, an object of id 0: refused */
	nlh = nexthop_msg(buf, AF_UNSPEC, 201);
	mnl_attr_put(nlh, NHA_GROUP, sizeof(g) - 1, g);
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
	g[0].id = 0;
	nlh = nexthop_msg(buf, AF_UNSPEC, 202);
	mnl_attr_put(nlh, NHA_GROUP, sizeof(g), g);
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
	nlh = nexthop_msg(buf, AF_INET, 0);
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
	/* a gateway that is not 4 bytes */
	nlh = nexthop_msg(buf, AF_INET, 11);
	mnl_attr_put(nlh, NHA_GATEWAY, 3, "abc");
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
}

static void test_a_route_names_its_nexthop_object(void **state)
{
	char buf[512];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;
	struct nl_msg m;

	(void)state;
	nlh->nlmsg_type = RTM_NEWROUTE;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	rtm->rtm_dst_len = 24;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put_u32(nlh, RTA_DST, htonl(0xc6131400));
	mnl_attr_put_u32(nlh, RTA_NH_ID, 100);
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_int_equal(m.kind, NL_ROUTE);
	assert_int_equal(m.route.nh_id, 100);
	assert_int_equal(m.route.nb_paths, 0);
}

/* An RTM_NEWROUTE of family fam, dst_len bits of dst (dlen bytes), in the main table. */
static struct nlmsghdr *route_msg(char *buf, uint8_t fam, uint8_t dst_len, const void *dst,
				  size_t dlen)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;

	nlh->nlmsg_type = RTM_NEWROUTE;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = fam;
	rtm->rtm_dst_len = dst_len;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_DST, dlen, dst);
	return nlh;
}

/* IPv6 routes: 16-byte prefixes and gateways, one hop or several; lengths past 128 and
 * addresses of the wrong size refused. */
static void test_ipv6_routes(void **state)
{
	static const uint8_t pfx[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 };
	static const uint8_t gw[16] = { 0xfe, 0x80, [15] = 1 }, gw2[16] = { 0xfe, 0x80, [15] = 2 };
	char buf[512];
	struct nlmsghdr *nlh;
	struct nlattr *mp;
	struct rtnexthop *rtnh;
	struct nl_msg m;
	int i;

	(void)state;
	nlh = route_msg(buf, AF_INET6, 48, pfx, 16);
	mnl_attr_put_u32(nlh, RTA_OIF, 7);
	mnl_attr_put(nlh, RTA_GATEWAY, 16, gw);
	mnl_attr_put_u32(nlh, RTA_PRIORITY, 1024);
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_int_equal(m.kind, NL_ROUTE);
	assert_int_equal(m.route.family, AF_INET6);
	assert_int_equal(m.route.len, 48);
	assert_memory_equal(m.route.prefix6, pfx, 16);
	assert_int_equal(m.route.priority, 1024);
	assert_int_equal(m.route.nb_paths, 1);
	assert_int_equal(m.route.paths[0].ifindex, 7);
	assert_int_equal(m.route.paths[0].gw_family, AF_INET6);
	assert_memory_equal(m.route.paths[0].gw6, gw, 16);
	/* two hops, each its gateway */
	nlh = route_msg(buf, AF_INET6, 48, pfx, 16);
	mp = mnl_attr_nest_start(nlh, RTA_MULTIPATH);
	for (i = 0; i < 2; i++) {
		rtnh = mnl_nlmsg_get_payload_tail(nlh);
		mnl_attr_nest_start(nlh, 0);	/* room for the rtnexthop, filled below */
		nlh->nlmsg_len -= sizeof(struct nlattr);
		nlh->nlmsg_len += RTNH_ALIGN(sizeof(*rtnh));
		rtnh->rtnh_ifindex = 7 + i;
		rtnh->rtnh_hops = i;
		rtnh->rtnh_flags = 0;
		mnl_attr_put(nlh, RTA_GATEWAY, 16, i ? gw2 : gw);
		rtnh->rtnh_len = (char *)mnl_nlmsg_get_payload_tail(nlh) - (char *)rtnh;
	}
	mnl_attr_nest_end(nlh, mp);
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_int_equal(m.route.nb_paths, 2);
	assert_memory_equal(m.route.paths[1].gw6, gw2, 16);
	assert_int_equal(m.route.paths[1].ifindex, 8);
	assert_int_equal(m.route.paths[1].weight, 2);
	/* a length past 128, a prefix or a gateway of the wrong size */
	nlh = route_msg(buf, AF_INET6, 129, pfx, 16);
	assert_int_equal(nl_parse(nlh, &m), -EBADMSG);
	nlh = route_msg(buf, AF_INET6, 48, pfx, 4);
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
	nlh = route_msg(buf, AF_INET6, 48, pfx, 16);
	mnl_attr_put(nlh, RTA_GATEWAY, 4, gw);
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
}

/* RFC 8950: an IPv4 route whose gateway is IPv6 names it with RTA_VIA. */
static void test_an_ipv4_route_via_an_ipv6_gateway(void **state)
{
	static const uint8_t gw[16] = { 0xfe, 0x80, [15] = 1 };
	uint32_t dst = htonl(0xc6130700);
	char buf[512], via[sizeof(struct rtvia) + 16];
	struct rtvia *v = (struct rtvia *)via;
	struct nlmsghdr *nlh;
	struct nl_msg m;

	(void)state;
	v->rtvia_family = AF_INET6;
	memcpy(v->rtvia_addr, gw, 16);
	nlh = route_msg(buf, AF_INET, 24, &dst, 4);
	mnl_attr_put_u32(nlh, RTA_OIF, 7);
	mnl_attr_put(nlh, RTA_VIA, sizeof(via), via);
	assert_int_equal(nl_parse(nlh, &m), 0);
	assert_int_equal(m.route.family, AF_INET);
	assert_int_equal(m.route.prefix, 0xc6130700);
	assert_int_equal(m.route.paths[0].gw_family, AF_INET6);
	assert_memory_equal(m.route.paths[0].gw6, gw, 16);
	/* an address of the wrong size for its family */
	nlh = route_msg(buf, AF_INET, 24, &dst, 4);
	mnl_attr_put(nlh, RTA_VIA, sizeof(struct rtvia) + 4, via);
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
	nlh = route_msg(buf, AF_INET, 24, &dst, 4);
	mnl_attr_put(nlh, RTA_VIA, 1, via);
	assert_int_equal(nl_parse(nlh, &m), -EINVAL);
}

/* An RTM_NEWNEIGH of family fam for dst (dst_len bytes) on ifindex 7, with a MAC. */
static struct nlmsghdr *neigh_msg(char *buf, uint8_t fam, const void *dst, size_t dst_len)
{
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0xc0, 1 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ndmsg *ndm;

	nlh->nlmsg_type = RTM_NEWNEIGH;
	ndm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));
	ndm->ndm_family = fam;
	ndm->ndm_ifindex = 7;
	ndm->ndm_state = NUD_REACHABLE;
	mnl_attr_put(nlh, NDA_DST, dst_len, dst);
	mnl_attr_put(nlh, NDA_LLADDR, sizeof(mac), mac);
	return nlh;
}

/* Neighbours of both families are parsed, each with its own address size; a bridge's (another
 * family) is ignored. */
static void test_neighbours_of_both_families(void **state)
{
	static const uint8_t a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 5 };
	uint32_t a4 = htonl(0xc6120002);
	char buf[512];
	struct nl_msg m;

	(void)state;
	assert_int_equal(nl_parse(neigh_msg(buf, AF_INET, &a4, 4), &m), 0);
	assert_int_equal(m.kind, NL_NEIGH);
	assert_int_equal(m.neigh.family, AF_INET);
	assert_int_equal(m.neigh.ip, 0xc6120002);
	assert_true(m.neigh.has_mac);
	assert_int_equal(nl_parse(neigh_msg(buf, AF_INET6, a6, 16), &m), 0);
	assert_int_equal(m.kind, NL_NEIGH);
	assert_int_equal(m.neigh.family, AF_INET6);
	assert_memory_equal(m.neigh.ip6, a6, 16);
	assert_int_equal(m.neigh.ifindex, 7);
	assert_int_equal(m.neigh.mac[5], 1);
	/* an address of the other family's size is malformed */
	assert_int_equal(nl_parse(neigh_msg(buf, AF_INET6, &a4, 4), &m), -EINVAL);
	assert_int_equal(nl_parse(neigh_msg(buf, AF_INET, a6, 16), &m), -EINVAL);
	assert_int_equal(nl_parse(neigh_msg(buf, AF_BRIDGE, a6, 6), &m), 0);
	assert_int_equal(m.kind, NL_IGNORED);
}

/* An RTM_NEWADDR of family fam, prefix length len, for addr (addr_len bytes) in IFA_ADDRESS. */
static struct nlmsghdr *addr_msg(char *buf, uint8_t fam, uint8_t len, uint8_t flags,
				 const void *addr, size_t addr_len)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifaddrmsg *ifa;

	nlh->nlmsg_type = RTM_NEWADDR;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = fam;
	ifa->ifa_prefixlen = len;
	ifa->ifa_flags = flags;
	ifa->ifa_index = 3;
	mnl_attr_put(nlh, IFA_ADDRESS, addr_len, addr);
	return nlh;
}

/* IPv6 addresses are parsed with their length and whether DAD still runs; a length over 128
 * or an address of IPv4's size is malformed. */
static void test_ipv6_addresses(void **state)
{
	static const uint8_t a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	char buf[512];
	struct nl_msg m;

	(void)state;
	assert_int_equal(nl_parse(addr_msg(buf, AF_INET6, 64, IFA_F_TENTATIVE, a6, 16), &m), 0);
	assert_int_equal(m.kind, NL_ADDR);
	assert_int_equal(m.addr.family, AF_INET6);
	assert_memory_equal(m.addr.ip6, a6, 16);
	assert_int_equal(m.addr.len, 64);
	assert_int_equal(m.addr.ifindex, 3);
	assert_true(m.addr.tentative);
	assert_int_equal(nl_parse(addr_msg(buf, AF_INET6, 128, 0, a6, 16), &m), 0);
	assert_false(m.addr.tentative);
	assert_int_equal(nl_parse(addr_msg(buf, AF_INET6, 129, 0, a6, 16), &m), -EBADMSG);
	assert_int_equal(nl_parse(addr_msg(buf, AF_INET6, 64, 0, a6, 4), &m), -EINVAL);
	assert_int_equal(nl_parse(addr_msg(buf, AF_INET, 33, 0, a6, 4), &m), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_message_short_of_its_padding_is_refused),
		cmocka_unit_test(test_the_same_message_with_its_padding_is_walked),
		cmocka_unit_test(test_a_length_near_2_to_the_32_is_refused),
		cmocka_unit_test(test_nexthop_objects_parse),
		cmocka_unit_test(test_a_route_names_its_nexthop_object),
		cmocka_unit_test(test_neighbours_of_both_families),
		cmocka_unit_test(test_ipv6_addresses),
		cmocka_unit_test(test_ipv6_routes),
		cmocka_unit_test(test_an_ipv4_route_via_an_ipv6_gateway),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
