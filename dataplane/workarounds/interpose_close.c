/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libc's close, taken for two defects of DPDK 22.11's memif PMD: EAL's hugepage descriptors
 * it closes (memseg_fd_guard.c says why), and control connections it closes while EAL's
 * interrupt thread still watches them (memif_channel_guard.c).
 *
 * Linked only into the programs that make memif ports, ternd and tern-bench, and into the
 * guards' unit tests: a hugepage descriptor's close succeeds and leaves it open, a watched
 * connection is unwatched first, every other goes straight on.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dataplane/workarounds/memif_channel_guard.h"
#include "dataplane/workarounds/memseg_fd_guard.h"

typedef int (*close_fn)(int);

static close_fn next_close;

/* The next definition: libc's, or a sanitizer's interceptor; none in a static binary. */
__attribute__((constructor)) static void interpose_close_init(void)
{
	next_close = (close_fn)dlsym(RTLD_NEXT, "close");
}

int close(int fd)
{
	int rc;

	if (memseg_fd_guarded(fd))
		return 0;
	if (memif_channel_guard_close(fd, &rc))
		return rc;
	if (next_close == NULL)
		return syscall(SYS_close, fd);
	return next_close(fd);
}
