/* SPDX-License-Identifier: BSD-3-Clause */
/* A memif peer's region must lie within the file it sends, and that file must be sealed
 * against shrinking, or ternd does not map it. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "dataplane/workarounds/memif_peer_guard.h"

/* A memfd of len bytes sealed as DPDK's memif PMD seals its own regions. */
static int sealed_memfd(off_t len)
{
	int fd = memfd_create("region", MFD_ALLOW_SEALING);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, len), 0);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	return fd;
}

static void test_sealed_region_within_file_is_mapped(void **state)
{
	int fd = sealed_memfd(36864);

	assert_int_equal(memif_peer_region_check(fd, 36864, 0), 0);
	assert_int_equal(memif_peer_region_check(fd, 4096, 32768), 0);
	assert_int_equal(memif_peer_region_check(fd, 0, 36864), 0);
	close(fd);
}

static void test_region_past_file_end_is_refused(void **state)
{
	int fd = sealed_memfd(36864);

	/* DPDK 22.11's zero-copy client announced its rings' memfd as its 256 MiB of hugepages */
	assert_int_equal(memif_peer_region_check(fd, 256u << 20, 0), -ENOSPC);
	assert_int_equal(memif_peer_region_check(fd, 36865, 0), -ENOSPC);
	assert_int_equal(memif_peer_region_check(fd, 4097, 32768), -ENOSPC);
	assert_int_equal(memif_peer_region_check(fd, 1, 36864), -ENOSPC);
	assert_int_equal(memif_peer_region_check(fd, 1, -4096), -ENOSPC);
	assert_int_equal(memif_peer_region_check(fd, SIZE_MAX, 4096), -ENOSPC);
	close(fd);
}

static void test_file_that_may_shrink_is_refused(void **state)
{
	char path[] = "/tmp/tern-memif-region-XXXXXX";
	int fd = memfd_create("region", 0);	/* sealing not allowed: F_GET_SEALS gives F_SEAL_SEAL */

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 36864), 0);
	assert_int_equal(memif_peer_region_check(fd, 36864, 0), -EPERM);
	close(fd);

	fd = memfd_create("region", MFD_ALLOW_SEALING);	/* sealable, but not sealed */
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 36864), 0);
	assert_int_equal(memif_peer_region_check(fd, 36864, 0), -EPERM);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW), 0);
	assert_int_equal(memif_peer_region_check(fd, 36864, 0), -EPERM);
	close(fd);

	fd = mkstemp(path);	/* a file on a file system without seals: F_GET_SEALS fails */
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, 36864), 0);
	assert_int_equal(memif_peer_region_check(fd, 36864, 0), -EPERM);
	close(fd);
}

static void test_not_a_file_is_left_to_mmap(void **state)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(memif_peer_region_check(p[0], 1 << 20, 0), 0);
	close(p[0]);
	close(p[1]);
	/* a closed descriptor: mmap itself fails with EBADF */
	assert_int_equal(memif_peer_region_check(p[0], 4096, 0), 0);
}

static void test_refusals_are_counted(void **state)
{
	uint64_t short0 = memif_peer_regions_refused(MEMIF_REGION_SHORT);
	uint64_t unsealed0 = memif_peer_regions_refused(MEMIF_REGION_UNSEALED);
	int sealed = sealed_memfd(4096), open_fd = memfd_create("region", 0);

	assert_int_equal(ftruncate(open_fd, 4096), 0);
	assert_true(memif_pmd_mmap(NULL, 8192, PROT_READ, MAP_SHARED, sealed, 0) == MAP_FAILED);
	assert_int_equal(errno, EINVAL);
	assert_true(memif_pmd_mmap(NULL, 4096, PROT_READ, MAP_SHARED, open_fd, 0) == MAP_FAILED);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(memif_peer_regions_refused(MEMIF_REGION_SHORT), short0 + 1);
	assert_int_equal(memif_peer_regions_refused(MEMIF_REGION_UNSEALED), unsealed0 + 1);

	void *p = memif_pmd_mmap(NULL, 4096, PROT_READ, MAP_SHARED, sealed, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(munmap(p, 4096), 0);
	assert_int_equal(memif_peer_regions_refused(MEMIF_REGION_SHORT), short0 + 1);
	close(sealed);
	close(open_fd);
}

/* [memif] peer_memory = any: a trusted peer's unsealed file is mapped; one too short never is. */
static void test_trusted_peers_may_send_unsealed_files(void **state)
{
	int open_fd = memfd_create("region", 0);
	void *p;

	assert_int_equal(ftruncate(open_fd, 4096), 0);
	memif_peer_guard_accept_unsealed(true);
	p = memif_pmd_mmap(NULL, 4096, PROT_READ, MAP_SHARED, open_fd, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(munmap(p, 4096), 0);
	assert_true(memif_pmd_mmap(NULL, 8192, PROT_READ, MAP_SHARED, open_fd, 0) == MAP_FAILED);
	memif_peer_guard_accept_unsealed(false);
	assert_true(memif_pmd_mmap(NULL, 4096, PROT_READ, MAP_SHARED, open_fd, 0) == MAP_FAILED);
	close(open_fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sealed_region_within_file_is_mapped),
		cmocka_unit_test(test_region_past_file_end_is_refused),
		cmocka_unit_test(test_file_that_may_shrink_is_refused),
		cmocka_unit_test(test_not_a_file_is_left_to_mmap),
		cmocka_unit_test(test_refusals_are_counted),
		cmocka_unit_test(test_trusted_peers_may_send_unsealed_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
