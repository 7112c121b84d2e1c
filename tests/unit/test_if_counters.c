/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IF-MIB's counters (controlplane/snmp/if_counters.h): they add what the dataplane's
 * counters grew by, go on from where they were when those are cleared, and the unicast
 * count, packets less group frames read a moment apart, never goes back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "controlplane/snmp/if_counters.h"

static void reading(struct if_counters *c, uint64_t pkts, uint64_t mcast, uint64_t bcast)
{
	uint64_t raw[IFC_MAX] = { 0 };

	raw[IFC_IN_PKTS] = raw[IFC_OUT_PKTS] = pkts;
	raw[IFC_IN_MCAST] = raw[IFC_OUT_MCAST] = mcast;
	raw[IFC_IN_BCAST] = raw[IFC_OUT_BCAST] = bcast;
	raw[IFC_IN_OCTETS] = raw[IFC_OUT_OCTETS] = pkts * 64;
	if_counters_add(c, raw);
}

static void test_counters_add_what_grew(void **state)
{
	struct if_counters c;

	(void)state;
	memset(&c, 0, sizeof(c));
	reading(&c, 100, 10, 5);
	assert_int_equal(c.total[IFC_IN_PKTS], 100);
	assert_int_equal(c.in_ucast, 85);
	reading(&c, 250, 20, 5);
	assert_int_equal(c.total[IFC_IN_OCTETS], 250 * 64);
	assert_int_equal(c.in_ucast, 225);
	assert_int_equal(c.out_ucast, 225);
}

static void test_a_cleared_counter_goes_on_from_where_it_was(void **state)
{
	struct if_counters c;

	(void)state;
	memset(&c, 0, sizeof(c));
	reading(&c, 1000, 0, 0);
	reading(&c, 30, 0, 0);	/* clear counters: the dataplane counts from 0 again */
	assert_int_equal(c.total[IFC_IN_PKTS], 1030);
	assert_int_equal(c.total[IFC_IN_OCTETS], 1030 * 64);
	assert_int_equal(c.in_ucast, 1030);
	reading(&c, 40, 0, 0);
	assert_int_equal(c.total[IFC_IN_PKTS], 1040);
}

static void test_unicast_never_goes_back_while_group_frames_catch_up(void **state)
{
	struct if_counters c;

	(void)state;
	memset(&c, 0, sizeof(c));
	/* 3 broadcast frames are in the packets but not yet in their group */
	reading(&c, 103, 0, 0);
	assert_int_equal(c.in_ucast, 103);
	reading(&c, 103, 0, 3);
	assert_int_equal(c.in_ucast, 103);	/* not 100: it said 103 before */
	reading(&c, 110, 0, 3);
	assert_int_equal(c.in_ucast, 107);
	/* more group frames than packets read (their packets not yet counted): no underflow */
	memset(&c, 0, sizeof(c));
	reading(&c, 2, 5, 0);
	assert_int_equal(c.in_ucast, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_add_what_grew),
		cmocka_unit_test(test_a_cleared_counter_goes_on_from_where_it_was),
		cmocka_unit_test(test_unicast_never_goes_back_while_group_frames_catch_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
