/* SPDX-License-Identifier: BSD-3-Clause */
/* The log rate limiter: a burst per interval, then a count of what was held back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "controlplane/ternd/log.h"

static void test_ratelimit_passes_a_burst_then_counts(void **state)
{
	struct tern_ratelimit rl = { 0 };
	unsigned int held, i, passed = 0;

	for (i = 0; i < 100; i++) {
		passed += tern_ratelimit_ok(&rl, 5, 10000, 1000 + i, &held);
		assert_int_equal(held, 0);
	}
	assert_int_equal(passed, 5);
	/* the next window: the first message says how many were held back */
	assert_true(tern_ratelimit_ok(&rl, 5, 10000, 11000, &held));
	assert_int_equal(held, 95);
	assert_true(tern_ratelimit_ok(&rl, 5, 10000, 11001, &held));
	assert_int_equal(held, 0);
}

static void test_ratelimit_quiet_source_is_never_limited(void **state)
{
	struct tern_ratelimit rl = { 0 };
	unsigned int held, i;

	for (i = 0; i < 50; i++) {
		assert_true(tern_ratelimit_ok(&rl, 1, 1000, 5000 + i * 1000, &held));
		assert_int_equal(held, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratelimit_passes_a_burst_then_counts),
		cmocka_unit_test(test_ratelimit_quiet_source_is_never_limited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
