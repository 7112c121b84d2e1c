/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sFlow v5 datagrams (controlplane/sflow/sflow_datagram.h): the header, an expanded flow
 * sample with its raw header padded to a word and extended router data, an expanded counter
 * sample, each in XDR as sflow_version_5.txt lays them out; a sample that does not fit
 * leaves the datagram as it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "controlplane/sflow/sflow_datagram.h"

static uint32_t word(const uint8_t *b, size_t at)
{
	return (uint32_t)b[at] << 24 | (uint32_t)b[at + 1] << 16 | (uint32_t)b[at + 2] << 8 |
	       b[at + 3];
}

static const struct sflow_addr agent = { 4, { 198, 18, 0, 1 } };

static void test_the_header_names_the_agent_and_counts_the_samples(void **state)
{
	struct sflow_datagram d;
	uint8_t buf[SFLOW_DATAGRAM_MAX];

	(void)state;
	assert_int_equal(sflow_datagram_begin(&d, buf, sizeof(buf), &agent, 7, 1234), 0);
	assert_int_equal(d.len, 28);
	assert_int_equal(word(buf, 0), 5);		/* version */
	assert_int_equal(word(buf, 4), 1);		/* IPv4 */
	assert_memory_equal(buf + 8, agent.bytes, 4);
	assert_int_equal(word(buf, 12), 0);		/* sub-agent */
	assert_int_equal(word(buf, 16), 7);
	assert_int_equal(word(buf, 20), 1234);
	assert_int_equal(word(buf, 24), 0);		/* no sample yet */
}

static void test_a_flow_sample_pads_its_header_and_carries_the_router_data(void **state)
{
	struct sflow_datagram d;
	uint8_t buf[SFLOW_DATAGRAM_MAX], frame[61];
	struct sflow_flow f = {
		.sequence = 3, .source_ifindex = 1000000002, .rate = 1000, .pool = 5000,
		.drops = 1, .in_ifindex = 5, .out_ifindex = 6, .frame_length = 64,
		.header_length = sizeof(frame), .header = frame, .routed = true,
		.next_hop = { 4, { 198, 18, 1, 2 } }, .src_mask = 24, .dst_mask = 16,
	};
	size_t s;

	(void)state;
	memset(frame, 0xab, sizeof(frame));
	assert_int_equal(sflow_datagram_begin(&d, buf, sizeof(buf), &agent, 1, 0), 0);
	s = d.len;
	assert_int_equal(sflow_datagram_add_flow(&d, &f), 0);
	assert_int_equal(word(buf, 24), 1);
	assert_int_equal(word(buf, s), 3);		/* expanded flow sample */
	assert_int_equal(word(buf, s + 4), d.len - s - 8);
	assert_int_equal(word(buf, s + 16), 1000000002);	/* a whole word: expanded */
	assert_int_equal(word(buf, s + 20), 1000);
	assert_int_equal(word(buf, s + 24), 5000);
	assert_int_equal(word(buf, s + 28), 1);
	assert_int_equal(word(buf, s + 36), 5);
	assert_int_equal(word(buf, s + 44), 6);
	assert_int_equal(word(buf, s + 48), 2);	/* records: raw header, router */
	assert_int_equal(word(buf, s + 52), 1);	/* raw packet header */
	assert_int_equal(word(buf, s + 56), 16 + 64);	/* 61 bytes padded to 64 */
	assert_int_equal(word(buf, s + 64), 64);	/* frame length */
	assert_int_equal(word(buf, s + 72), 61);
	assert_memory_equal(buf + s + 76, frame, sizeof(frame));
	assert_int_equal(buf[s + 76 + 61], 0);	/* the padding */
	assert_int_equal(word(buf, s + 140), 1002);	/* extended router */
	assert_int_equal(word(buf, s + 144), 16);
	assert_int_equal(word(buf, s + 148), 1);
	assert_memory_equal(buf + s + 152, f.next_hop.bytes, 4);
	assert_int_equal(word(buf, s + 156), 24);
	assert_int_equal(word(buf, s + 160), 16);
	assert_int_equal(d.len, s + 164);
}

static void test_a_counter_sample_is_the_generic_interface_record(void **state)
{
	struct sflow_datagram d;
	uint8_t buf[SFLOW_DATAGRAM_MAX];
	struct sflow_counters c = {
		.sequence = 9, .ifindex = 4, .type = 6, .speed = 10000000000ull, .admin_up = true,
		.oper_up = true, .in_octets = 1ull << 33, .in_ucast = 11, .out_octets = 7,
		.out_errors = 2,
	};
	size_t s;

	(void)state;
	assert_int_equal(sflow_datagram_begin(&d, buf, sizeof(buf), &agent, 1, 0), 0);
	s = d.len;
	assert_int_equal(sflow_datagram_add_counters(&d, &c), 0);
	assert_int_equal(word(buf, s), 4);		/* expanded counter sample */
	assert_int_equal(word(buf, s + 8), 9);
	assert_int_equal(word(buf, s + 16), 4);
	assert_int_equal(word(buf, s + 20), 1);	/* one record */
	assert_int_equal(word(buf, s + 24), 1);	/* generic interface counters */
	assert_int_equal(word(buf, s + 28), 88);	/* its length */
	assert_int_equal(word(buf, s + 40), 2);	/* speed's high word */
	assert_int_equal(word(buf, s + 44), 1410065408);
	assert_int_equal(word(buf, s + 52), 3);	/* admin and operational up */
	assert_int_equal(word(buf, s + 56), 2);	/* in octets, high word */
	assert_int_equal(word(buf, s + 64), 11);
	assert_int_equal(word(buf, s + 112), 2);	/* out errors */
	assert_int_equal(d.len, s + 32 + 88);
}

static void test_a_sample_that_does_not_fit_leaves_the_datagram_as_it_was(void **state)
{
	struct sflow_datagram d;
	uint8_t buf[300], frame[128] = { 0 };
	struct sflow_flow f = { .header_length = sizeof(frame), .header = frame };
	size_t len;

	(void)state;
	assert_int_equal(sflow_datagram_begin(&d, buf, sizeof(buf), &agent, 1, 0), 0);
	/* 28 + 8 + 44 + 8 + 16 + 128 = 232 bytes; a second would need 436 */
	assert_int_equal(sflow_datagram_add_flow(&d, &f), 0);
	len = d.len;
	assert_int_equal(sflow_datagram_add_flow(&d, &f), -ENOSPC);
	assert_int_equal(d.len, len);
	assert_int_equal(word(buf, 24), 1);
	assert_int_equal(sflow_datagram_begin(&d, buf, 20, &agent, 1, 0), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_header_names_the_agent_and_counts_the_samples),
		cmocka_unit_test(test_a_flow_sample_pads_its_header_and_carries_the_router_data),
		cmocka_unit_test(test_a_counter_sample_is_the_generic_interface_record),
		cmocka_unit_test(test_a_sample_that_does_not_fit_leaves_the_datagram_as_it_was),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
