/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libc's close, taken for EAL's hugepage descriptors (memseg_fd_guard.c says why).
 *
 * Linked only into the programs that make memif zero-copy ports, ternd and tern-bench, and
 * into the guard's unit test: a guarded descriptor's close succeeds and leaves it open, every
 * other goes straight on.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

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
	if (memseg_fd_guarded(fd))
		return 0;
	if (next_close == NULL)
		return syscall(SYS_close, fd);
	return next_close(fd);
}
