/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench's option values: what each parser takes, and every near miss it refuses; and the
 * frames the generator builds of them. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include "bench/args.h"
#include "bench/gen.h"

static void test_args_ipv4_returns_host_order(void **state)
{
	uint32_t ip = 0;

	assert_int_equal(arg_ipv4("198.18.1.2", &ip), 0);
	assert_int_equal(ip, 0xc6120102u);
	assert_int_equal(arg_ipv4("0.0.0.0", &ip), 0);
	assert_int_equal(ip, 0);
}

static void test_args_ipv4_refuses_what_is_not_a_dotted_quad(void **state)
{
	static const char *const bad[] = { "", "198.18.1", "198.18.1.256", "198.18.1.2 ",
					   " 198.18.1.2", "198.18.1.2/24", "fe80::1", "1.2.3.4.5", "x" };
	uint32_t ip = 7;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(arg_ipv4(bad[i], &ip), -EINVAL);
	assert_int_equal(ip, 7);
}

static void test_args_prefix_takes_base_and_length(void **state)
{
	uint32_t base = 0;
	uint8_t len = 0;

	assert_int_equal(arg_prefix("100.64.0.0/10", &base, &len), 0);
	assert_int_equal(base, 0x64400000u);
	assert_int_equal(len, 10);
	assert_int_equal(arg_prefix("0.0.0.0/0", &base, &len), 0);
	assert_int_equal(base, 0);
	assert_int_equal(len, 0);
	assert_int_equal(arg_prefix("198.18.1.2/32", &base, &len), 0);
	assert_int_equal(base, 0xc6120102u);
	assert_int_equal(len, 32);
}

static void test_args_prefix_refuses_host_bits_and_bad_lengths(void **state)
{
	static const char *const bad[] = { "100.64.0.1/10", "100.64.0.0", "100.64.0.0/", "100.64.0.0/33",
					   "100.64.0.0/-1", "100.64.0.0/10x", "100.64.0.0/ 10",
					   "100.64.0/10", "/10", "1234567890123456789/8" };
	uint32_t base = 7;
	uint8_t len = 7;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(arg_prefix(bad[i], &base, &len), -EINVAL);
	assert_int_equal(base, 7);
	assert_int_equal(len, 7);
}

static void test_args_count_takes_digits_within_range(void **state)
{
	unsigned long v = 0;

	assert_int_equal(arg_count("1518", 64, 1518, &v), 0);
	assert_int_equal(v, 1518);
	assert_int_equal(arg_count("64", 64, 1518, &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(arg_count("0", 0, 99, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(arg_count("18446744073709551615", 0, ULONG_MAX, &v), 0);
	assert_int_equal(v, ULONG_MAX);
}

static void test_args_count_refuses_signs_suffixes_and_overflow(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", " 1", "1 ", "1k", "0x10", "1.0", "65600",
					   "63", "18446744073709551616" };
	unsigned long v = 7;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(arg_count(bad[i], 64, i == 10 ? ULONG_MAX : 1518, &v), -EINVAL);
	assert_int_equal(v, 7);
}

static void test_args_number_takes_decimals_within_range(void **state)
{
	double v = 0;

	assert_int_equal(arg_number("2.5", 0, 10, &v), 0);
	assert_float_equal(v, 2.5, 0);
	assert_int_equal(arg_number("1e4", 1, 1e7, &v), 0);
	assert_float_equal(v, 10000, 0);
	assert_int_equal(arg_number("0", 0, 100, &v), 0);
	assert_float_equal(v, 0, 0);
	assert_int_equal(arg_number("100", 0, 100, &v), 0);
	assert_float_equal(v, 100, 0);
}

static void test_args_number_refuses_nan_infinity_and_trailing_text(void **state)
{
	static const char *const bad[] = { "", "nan", "NAN", "inf", "-inf", "1e999", " 1", "1 ",
					   "1s", "-0.5", "100.01", "x" };
	double v = 7;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(arg_number(bad[i], 0, 100, &v), -EINVAL);
	assert_float_equal(v, 7, 0);
}

static void test_args_ipv6_takes_its_text_forms(void **state)
{
	static const uint8_t want[16] = { 0x20, 0x01, 0, 2, [15] = 2 };
	static const char *const bad[] = { "", "198.18.1.2", "2001::2::3", "2001:2::2/64", " ::1", "x" };
	uint8_t ip6[16];
	unsigned int i;

	assert_int_equal(arg_ipv6("2001:2::2", ip6), 0);
	assert_memory_equal(ip6, want, 16);
	assert_int_equal(arg_ipv6("2001:0002:0000:0000:0000:0000:0000:0002", ip6), 0);
	assert_memory_equal(ip6, want, 16);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(arg_ipv6(bad[i], ip6), -EINVAL);
}

/* An IPv6 frame of the smallest size: its headers, its flow in the destination's last bits, the
 * stamp after UDP; tagged, the same after the tag. */
static void test_an_ipv6_frame_carries_its_flow_and_stamp(void **state)
{
	struct gen_params p = { .flows = 8, .frame_size = GEN_IPV6_MIN_FRAME, .ipv6 = true };
	struct rte_ether_addr src = { { 2, 0, 0, 0, 0xb0, 0 } };
	uint8_t buf[256];
	unsigned int len, l2;

	assert_int_equal(GEN_IPV6_MIN_FRAME, 82);
	assert_int_equal(arg_ipv6("2001:2::2", p.src_ip6), 0);
	assert_int_equal(arg_ipv6("2001:2:0:1::ffff:fffe", p.dst_ip6), 0);
	for (p.vlan = 0; p.vlan <= 100; p.vlan += 100) {
		const struct rte_ipv6_hdr *ip;
		const struct rte_udp_hdr *udp;
		const struct gen_stamp *st;

		len = gen_build_frame(&p, &src, 5, 77, 0, buf);
		l2 = p.vlan ? 18 : 14;
		ip = (const struct rte_ipv6_hdr *)(buf + l2);
		udp = (const struct rte_udp_hdr *)(ip + 1);
		st = (const struct gen_stamp *)(udp + 1);
		assert_int_equal(len, 78 + (l2 - 14));
		assert_int_equal(buf[l2 - 2] << 8 | buf[l2 - 1], 0x86dd);
		assert_int_equal(rte_be_to_cpu_32(ip->vtc_flow) >> 28, 6);
		assert_int_equal(rte_be_to_cpu_16(ip->payload_len), len - l2 - 40);
		assert_int_equal(ip->proto, IPPROTO_UDP);
		assert_int_equal(ip->hop_limits, 64);
		/* flow 5 from ...:ffff:fffe: the last 32 bits wrap, to ...:0:3 */
		assert_int_equal(ip->dst_addr[12] << 24 | ip->dst_addr[13] << 16 | ip->dst_addr[14] << 8 |
				 ip->dst_addr[15], 0x00000003);
		assert_int_equal(rte_be_to_cpu_16(udp->dgram_len), len - l2 - 40);
		assert_int_equal(st->magic, GEN_MAGIC);
		assert_int_equal(st->seq, 77);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_ipv4_returns_host_order),
		cmocka_unit_test(test_args_ipv4_refuses_what_is_not_a_dotted_quad),
		cmocka_unit_test(test_args_ipv6_takes_its_text_forms),
		cmocka_unit_test(test_an_ipv6_frame_carries_its_flow_and_stamp),
		cmocka_unit_test(test_args_prefix_takes_base_and_length),
		cmocka_unit_test(test_args_prefix_refuses_host_bits_and_bad_lengths),
		cmocka_unit_test(test_args_count_takes_digits_within_range),
		cmocka_unit_test(test_args_count_refuses_signs_suffixes_and_overflow),
		cmocka_unit_test(test_args_number_takes_decimals_within_range),
		cmocka_unit_test(test_args_number_refuses_nan_infinity_and_trailing_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
