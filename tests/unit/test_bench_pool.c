/* SPDX-License-Identifier: BSD-3-Clause */
/* The generator's pool: as before for copying ports, and large enough for zero-copy rings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bench/ports.h"

#define MEMIF "net_memif0,role=client,id=0,socket=/tmp/m.sock"

static void test_pool_keeps_the_old_sizes_for_default_rings(void **state)
{
	const char *const two[] = { MEMIF, MEMIF ",zero-copy=yes" };
	const char *const six[] = { MEMIF, MEMIF, MEMIF, MEMIF, MEMIF, MEMIF };
	const uint16_t rxq2[] = { 2, 2 }, rxq6[] = { 2, 2, 1, 1, 1, 1 };
	const char *const null[] = { "net_null0", "net_null1", "net_null2" };
	const uint16_t rxq3[] = { 1, 1, 1 };

	assert_int_equal(bench_pool_mbufs(two, 2, rxq2), 16383);
	assert_int_equal(bench_pool_mbufs(six, 6, rxq6), 49151);
	assert_int_equal(bench_pool_mbufs(null, 3, rxq3), 24575);
}

static void test_pool_holds_what_large_zero_copy_rings_post(void **state)
{
	const char *const two[] = { MEMIF ",rsize=12,zero-copy=yes", MEMIF ",zero-copy=yes,rsize=12" };
	const char *const big[] = { MEMIF ",rsize=14,zero-copy=yes", MEMIF ",rsize=14" };
	const uint16_t rxq[] = { 2, 2 };

	/* 2 ports x 3 rings x 4096 = 24576 held, and 8192 to work with */
	assert_true(bench_pool_mbufs(two, 2, rxq) >= 24576 + 8192);
	assert_int_equal(bench_pool_mbufs(two, 2, rxq), 65535);
	/* 2 x 3 x 16384 = 98304 held */
	assert_true(bench_pool_mbufs(big, 2, rxq) >= 98304 + 8192);
}

static void test_pool_ignores_rsize_it_cannot_read(void **state)
{
	const char *const odd[] = { MEMIF ",rsize=", MEMIF ",rsize=99", MEMIF ",rsize=1x",
				    "net_ring0,rsize=14" };
	const uint16_t rxq[] = { 1, 1, 1, 1 };

	/* each taken as 1024 slots: 4 x 2 x 1024 = 8192 held */
	assert_int_equal(bench_pool_mbufs(odd, 4, rxq), 32767);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_keeps_the_old_sizes_for_default_rings),
		cmocka_unit_test(test_pool_holds_what_large_zero_copy_rings_post),
		cmocka_unit_test(test_pool_ignores_rsize_it_cannot_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
