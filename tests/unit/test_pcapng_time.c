/* SPDX-License-Identifier: BSD-3-Clause */
/* A captured packet's time: DPDK 22.11 pcapng's overflow after 2^64 / 10^9 TSC cycles, avoided. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dataplane/workarounds/pcapng_time.h"

/* The exact time, in 128 bits. */
static uint64_t exact_ns(const struct pcapng_time *b, uint64_t cycles)
{
	return b->ns + (uint64_t)((unsigned __int128)(cycles - b->cycles) * 1000000000u / b->hz);
}

/* From a second to a year of uptime, at TSC rates from 1 to 5 GHz: the time is the exact one
 * (22.11 computed cycles * 10^9 in 64 bits, which wraps after 7.4 s at 2.5 GHz). */
static void test_the_time_is_right_after_any_uptime(void **state)
{
	static const uint64_t hz[] = { 1000000000u, 2500000000u, 2899999999u, 5000000000u };
	static const uint64_t uptime_s[] = { 1, 7, 8, 60, 3600, 86400, 31536000 };
	struct pcapng_time b = { .ns = 1796000000000000000u, .cycles = 123456789 };
	unsigned int i, k;

	for (i = 0; i < sizeof(hz) / sizeof(hz[0]); i++)
		for (k = 0; k < sizeof(uptime_s) / sizeof(uptime_s[0]); k++) {
			uint64_t c = b.cycles + uptime_s[k] * hz[i] + 12345;

			b.hz = hz[i];
			assert_int_equal(pcapng_time_ns(&b, c), exact_ns(&b, c));
		}
}

/* A packet stamped just before the base was taken is just before the base's time. */
static void test_a_packet_before_the_base(void **state)
{
	struct pcapng_time b = { .ns = 1796000000000000000u, .cycles = 5000000000u, .hz = 2500000000u };

	assert_int_equal(pcapng_time_ns(&b, b.cycles - 2500), b.ns - 1000);
}

/* The Enhanced Packet Block's time is written, high word then low, after its type, length and
 * interface id; any other block is left alone. */
static void test_restamp_writes_an_enhanced_packet_blocks_time(void **state)
{
	struct pcapng_time b = { .ns = 0x0123456789abcdefu, .cycles = 100, .hz = 1000000000u };
	uint8_t block[32] = { 6, 0, 0, 0, 32 }, other[32] = { 3 }, copy[32];
	uint32_t hi, lo;

	assert_true(pcapng_time_restamp(block, sizeof(block), &b, 100));
	memcpy(&hi, block + 12, 4);
	memcpy(&lo, block + 16, 4);
	assert_int_equal(hi, 0x01234567u);
	assert_int_equal(lo, 0x89abcdefu);
	memcpy(copy, other, sizeof(copy));
	assert_false(pcapng_time_restamp(other, sizeof(other), &b, 100));
	assert_memory_equal(other, copy, sizeof(copy));
	assert_false(pcapng_time_restamp(block, 12, &b, 100));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_time_is_right_after_any_uptime),
		cmocka_unit_test(test_a_packet_before_the_base),
		cmocka_unit_test(test_restamp_writes_an_enhanced_packet_blocks_time),
	};

	return cmocka_run_group_tests_name("pcapng_time", tests, NULL, NULL);
}
