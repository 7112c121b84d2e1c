/* SPDX-License-Identifier: BSD-3-Clause */
/* EAL's hugepage file descriptors survive the memif PMD's close(); every other one closes. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "dataplane/workarounds/memseg_fd_guard.h"

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

static void test_guarded_fd_stays_open_others_close(void **state)
{
	int guarded[2], other[2];
	char c = 'x';

	assert_int_equal(pipe(guarded), 0);
	assert_int_equal(pipe(other), 0);
	assert_int_equal(memseg_fd_guard_add(guarded[1]), 0);
	/* the PMD's close "succeeds" and the file stays EAL's */
	assert_int_equal(close(guarded[1]), 0);
	assert_true(is_open(guarded[1]));
	assert_int_equal(write(guarded[1], &c, 1), 1);
	assert_int_equal(read(guarded[0], &c, 1), 1);
	/* every other descriptor closes as before */
	assert_int_equal(close(other[1]), 0);
	assert_false(is_open(other[1]));
	assert_int_equal(close(other[1]), -1);
	assert_int_equal(errno, EBADF);
	close(other[0]);
	close(guarded[0]);
	assert_false(is_open(guarded[0]));
}

static void test_guard_refuses_bad_fd_and_overflow(void **state)
{
	int fd, rc = 0;

	assert_int_equal(memseg_fd_guard_add(-1), -EBADF);
	/* numbers far above any open file; adding one twice takes one place */
	assert_int_equal(memseg_fd_guard_add(1 << 20), 0);
	assert_int_equal(memseg_fd_guard_add(1 << 20), 0);
	for (fd = (1 << 20) + 1; rc == 0; fd++)
		rc = memseg_fd_guard_add(fd);
	assert_int_equal(rc, -ENOSPC);
	/* the first test's descriptor and the one above: 2 places taken before the loop */
	assert_int_equal(fd - ((1 << 20) + 1), MEMSEG_FD_GUARD_MAX - 2 + 1);
	/* a full guard still closes what it does not hold */
	fd = dup(0);
	assert_true(fd >= 0);
	assert_int_equal(close(fd), 0);
	assert_false(is_open(fd));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guarded_fd_stays_open_others_close),
		cmocka_unit_test(test_guard_refuses_bad_fd_and_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
