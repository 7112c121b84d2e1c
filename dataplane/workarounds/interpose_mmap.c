/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libc's mmap and munmap, taken for the memif PMD (memif_peer_guard.c says why).
 *
 * Linked only into the programs whose memif PMD is a shared library, where symbol
 * interposition is the one way to reach its calls: ternd, and the unit test of the guard.
 * A call from the memif PMD (dladdr names its library) goes to the guard; every other goes
 * straight on. ternd-static reaches the guard by renamed symbols instead (Makefile,
 * MEMIF_GUARDED).
 */
#include <stdbool.h>
#include <sys/types.h>

#include "dataplane/rcu.h"
#include "dataplane/workarounds/memif_pmd_caller.h"
#include "dataplane/workarounds/memif_peer_guard.h"

int munmap(void *addr, size_t len)
{
	if (dp_rcu != NULL && memif_pmd_is_caller(__builtin_return_address(0)))
		return memif_pmd_munmap(addr, len);
	return memif_peer_guard_libc_munmap(addr, len);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (memif_pmd_is_caller(__builtin_return_address(0)))
		return memif_pmd_mmap(addr, len, prot, flags, fd, off);
	return memif_peer_guard_libc_mmap(addr, len, prot, flags, fd, off);
}

/* The name the PMD imports (with 64-bit offsets, glibc's mmap64 is mmap). */
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));
