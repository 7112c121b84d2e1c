/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench churn's route changes: what they ask the kernel, read back as ternd's mirror reads them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <linux/rtnetlink.h>

#include "bench/churn.h"
#include "controlplane/mirror/netlink_parse.h"

static const struct churn_params params = {
	.base = 0x64400000u,	/* 100.64.0.0/10 */
	.base_len = 10,
	.len = 24,
	.via = 0xc6120102u,	/* 198.18.1.2 */
	.rate = 10000,
	.seconds = 1,
};

static struct nl_msg parse_change(const struct churn_params *p, uint64_t n, struct nlmsghdr *nh)
{
	static uint8_t buf[CHURN_ROUTE_MSG_SIZE] __attribute__((aligned(4)));
	struct nl_msg m;

	churn_route_msg_build(buf, p, n, 77);
	memcpy(nh, buf, sizeof(*nh));
	assert_int_equal(nl_parse((const struct nlmsghdr *)buf, &m), 0);
	return m;
}

static void test_churn_a_change_reads_back_as_the_route_it_asks_for(void **state)
{
	struct nlmsghdr nh;
	struct nl_msg m;

	m = parse_change(&params, 0, &nh);
	assert_int_equal(nh.nlmsg_len, CHURN_ROUTE_MSG_SIZE);
	assert_int_equal(nh.nlmsg_type, RTM_NEWROUTE);
	assert_int_equal(nh.nlmsg_flags, NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL);
	assert_int_equal(nh.nlmsg_seq, 77);
	assert_int_equal(m.kind, NL_ROUTE);
	assert_false(m.del);
	assert_int_equal(m.route.table, RT_TABLE_MAIN);
	assert_int_equal(m.route.prefix, 0x64400000u);
	assert_int_equal(m.route.len, 24);
	assert_int_equal(m.route.type, RTN_UNICAST);
	assert_int_equal(m.route.protocol, RTPROT_STATIC);
	assert_int_equal(m.route.nb_paths, 1);
	assert_int_equal(m.route.paths[0].gw, 0xc6120102u);
	assert_int_equal(m.route.paths[0].ifindex, 0);	/* the kernel finds the interface */
}

static void test_churn_each_prefix_is_added_then_deleted(void **state)
{
	struct nlmsghdr nh;
	struct nl_msg m;

	m = parse_change(&params, 1, &nh);
	assert_int_equal(nh.nlmsg_type, RTM_DELROUTE);
	assert_int_equal(nh.nlmsg_flags, NLM_F_REQUEST);
	assert_true(m.del);
	assert_int_equal(m.route.prefix, 0x64400000u);
	m = parse_change(&params, 2, &nh);
	assert_int_equal(nh.nlmsg_type, RTM_NEWROUTE);
	assert_int_equal(m.route.prefix, 0x64400100u);	/* the next /24 */
	m = parse_change(&params, 2 * 16383 + 1, &nh);
	assert_true(m.del);
	assert_int_equal(m.route.prefix, 0x647fff00u);	/* the last /24 of the /10 */
}

static void test_churn_wraps_around_the_covering_prefix(void **state)
{
	struct churn_params p = params;
	struct nlmsghdr nh;
	struct nl_msg m;

	assert_int_equal(churn_slots(&p), 16384);
	m = parse_change(&p, 2 * 16384, &nh);
	assert_false(m.del);
	assert_int_equal(m.route.prefix, 0x64400000u);
	p.len = 32;
	p.base = 0xc6130000u;	/* 198.19.0.0/16: host routes */
	p.base_len = 16;
	assert_int_equal(churn_slots(&p), 65536);
	m = parse_change(&p, 2 * 65537, &nh);
	assert_int_equal(m.route.prefix, 0xc6130001u);
	assert_int_equal(m.route.len, 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_churn_a_change_reads_back_as_the_route_it_asks_for),
		cmocka_unit_test(test_churn_each_prefix_is_added_then_deleted),
		cmocka_unit_test(test_churn_wraps_around_the_covering_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
