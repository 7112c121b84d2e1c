/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench's option values: what each parser takes, and every near miss it refuses. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bench/args.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_ipv4_returns_host_order),
		cmocka_unit_test(test_args_ipv4_refuses_what_is_not_a_dotted_quad),
		cmocka_unit_test(test_args_prefix_takes_base_and_length),
		cmocka_unit_test(test_args_prefix_refuses_host_bits_and_bad_lengths),
		cmocka_unit_test(test_args_count_takes_digits_within_range),
		cmocka_unit_test(test_args_count_refuses_signs_suffixes_and_overflow),
		cmocka_unit_test(test_args_number_takes_decimals_within_range),
		cmocka_unit_test(test_args_number_refuses_nan_infinity_and_trailing_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
