/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The netlink walker takes a message only when its aligned length fits the buffer: libmnl
 * reads a message's attributes up to its aligned end, so a last message short of its
 * padding was read past the buffer (an input of fuzz_netlink: an IFLA_IFNAME of 7 bytes
 * in a 46-byte RTM_DELLINK).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_message_short_of_its_padding_is_refused),
		cmocka_unit_test(test_the_same_message_with_its_padding_is_walked),
		cmocka_unit_test(test_a_length_near_2_to_the_32_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
