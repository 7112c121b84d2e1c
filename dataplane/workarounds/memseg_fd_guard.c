/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL's hugepage file descriptors stay EAL's.
 *
 * DPDK 22.11's memif PMD, as a zero-copy client, offers the peer its packet memory: each
 * memseg list becomes a region whose file descriptor is rte_memseg_get_fd()'s, which is
 * EAL's own and must not be closed. Once the port is connected, memif_connect() closes it
 * all the same (and memif_free_regions() does on a disconnect). The next zero-copy port,
 * or the same one reconnecting, then sends the peer whatever file now holds that number:
 * a closed one (the handshake fails with "sendmsg: Bad file descriptor") or, most often,
 * the memfd the PMD has just made for that port's rings. The peer maps that small file as
 * the whole 256 MiB region and dies of SIGBUS at its first packet. This happened in one
 * bench start in three, with four zero-copy ports, and killed ternd (test_memif_zero_copy_client).
 *
 * So close() is taken (interpose_close.c), as dataplane/workarounds/memif_peer_guard.c takes munmap(): once
 * armed, a close of a descriptor the PMD takes from EAL (one a memseg list) is refused
 * quietly (it returns 0 and the file stays open) and every other close goes straight on.
 * EAL itself would close one only when its list or page is freed, or at cleanup; the file
 * then stays open until exit, holding at most one page a list. One thread arms (ternd's
 * main thread, before each port start); any may close.
 */
#include <errno.h>
#include <stdbool.h>

#include <rte_common.h>
#include <rte_memory.h>

#include "dataplane/workarounds/memseg_fd_guard.h"

static int guarded_fd[MEMSEG_FD_GUARD_MAX];
static unsigned int nb_guarded;

bool memseg_fd_guarded(int fd)
{
	unsigned int i, n = __atomic_load_n(&nb_guarded, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (guarded_fd[i] == fd)
			return true;
	return false;
}

int memseg_fd_guard_add(int fd)
{
	unsigned int n = __atomic_load_n(&nb_guarded, __ATOMIC_RELAXED);

	if (fd < 0)
		return -EBADF;
	if (memseg_fd_guarded(fd))
		return 0;
	if (n == MEMSEG_FD_GUARD_MAX)
		return -ENOSPC;
	guarded_fd[n] = fd;
	__atomic_store_n(&nb_guarded, n + 1, __ATOMIC_RELEASE);
	return 0;
}

struct arm_walk {
	const struct rte_memseg_list *msl;	/* the list whose first memseg was seen last */
	int rc;
};

/*
 * The PMD makes a region of each memseg list, with the descriptor of the first memseg the
 * walk meets in it: that is the one it closes, and the one guarded. With one file a list
 * (--single-file-segments, which zero-copy needs) it is the list's; with a file a page, the
 * other pages' files are EAL's alone to close, and give their page back when it does.
 */
static int add_first_memseg(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
			    void *arg)
{
	struct arm_walk *w = arg;
	int fd;

	if (msl == w->msl || w->rc < 0)
		return 0;
	w->msl = msl;
	fd = rte_memseg_get_fd_thread_unsafe(ms);
	if (fd >= 0)	/* memory with no file of its own (--no-huge) has none to guard */
		w->rc = memseg_fd_guard_add(fd);
	return 0;
}

int memseg_fd_guard_arm(void)
{
	struct arm_walk w = { .msl = NULL, .rc = 0 };

	RTE_BUILD_BUG_ON(MEMSEG_FD_GUARD_MAX < RTE_MAX_MEMSEG_LISTS);
	rte_memseg_walk(add_first_memseg, &w);
	return w.rc;
}
