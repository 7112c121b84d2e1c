/* A memif peer's region must lie within the file it sends, or ternd does not map it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "controlplane/memif_peer_guard.h"

static void test_region_within_file_fits(void **state)
{
	int fd = memfd_create("region", 0);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 36864), 0);
	assert_true(memif_peer_region_fits(fd, 36864, 0));
	assert_true(memif_peer_region_fits(fd, 4096, 32768));
	assert_true(memif_peer_region_fits(fd, 0, 36864));
	close(fd);
}

static void test_region_past_file_end_does_not_fit(void **state)
{
	int fd = memfd_create("region", 0);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 36864), 0);
	/* DPDK 22.11's zero-copy client announced its rings' memfd as its 256 MiB of hugepages */
	assert_false(memif_peer_region_fits(fd, 256u << 20, 0));
	assert_false(memif_peer_region_fits(fd, 36865, 0));
	assert_false(memif_peer_region_fits(fd, 4097, 32768));
	assert_false(memif_peer_region_fits(fd, 1, 36864));
	assert_false(memif_peer_region_fits(fd, 1, -4096));
	assert_false(memif_peer_region_fits(fd, SIZE_MAX, 4096));
	close(fd);
}

static void test_not_a_file_is_left_to_mmap(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_true(memif_peer_region_fits(p[0], 1 << 20, 0));
	close(p[0]);
	close(p[1]);
	/* a closed descriptor: mmap itself fails with EBADF */
	assert_true(memif_peer_region_fits(p[0], 4096, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_region_within_file_fits),
		cmocka_unit_test(test_region_past_file_end_does_not_fit),
		cmocka_unit_test(test_not_a_file_is_left_to_mmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
