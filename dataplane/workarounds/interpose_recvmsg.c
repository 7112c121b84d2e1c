/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libc's recvmsg, taken for the memif PMD's control messages (memif_channel_check.c says
 * why). Linked into ternd and ternd-static, whose C library is shared either way, and the
 * guard's unit test: a message received on a connection the guard watches is checked
 * before the caller sees it; every other call goes straight on.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dataplane/workarounds/memif_channel_guard.h"

typedef ssize_t (*recvmsg_fn)(int, struct msghdr *, int);

static recvmsg_fn next_recvmsg;

/* The next definition: libc's, or a sanitizer's interceptor. */
__attribute__((constructor)) static void interpose_recvmsg_init(void)
{
	next_recvmsg = (recvmsg_fn)dlsym(RTLD_NEXT, "recvmsg");
}

ssize_t recvmsg(int fd, struct msghdr *mh, int flags)
{
	ssize_t n = next_recvmsg != NULL ? next_recvmsg(fd, mh, flags) :
					   syscall(SYS_recvmsg, fd, mh, flags);

	if (n > 0)
		memif_channel_guard_received(fd, mh, n);
	return n;
}
