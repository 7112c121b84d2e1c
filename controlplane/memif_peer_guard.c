/*
 * A memif peer that leaves must not take ternd down with it.
 *
 * DPDK 22.11's memif PMD handles a peer's disconnect in the EAL interrupt thread: it
 * clears the port's connected flag, then unmaps the peer's shared memory (the rings and
 * buffers). Its burst functions test that flag and then read the rings, with nothing in
 * between to hold the memory: a worker preempted between the two reads a ring that is no
 * longer mapped, and the whole router dies of SIGSEGV (in about one generator session of
 * twelve with all of ternd on one CPU; l3fwd died the same way). The PMD gives no event
 * before it unmaps, so ternd takes the one call it cannot skip: munmap, which the PMD
 * reaches through the PLT. A call made from the memif PMD first waits for a grace period of every
 * thread that polls or sends on ports (the workers, between graph walks; the exception
 * service, around its transmit). Each of them has then either left the burst function or
 * entered it after the flag was cleared, and returns at once. Every other munmap goes
 * straight on.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dataplane/rcu.h"

typedef int (*munmap_fn)(void *, size_t);

static munmap_fn next_munmap;

/* The next definition: libc's, or a sanitizer's interceptor in the asan and fuzz builds. */
__attribute__((constructor)) static void port_unmap_guard_init(void)
{
	next_munmap = (munmap_fn)dlsym(RTLD_NEXT, "munmap");
}

static bool called_from_memif_pmd(const void *caller)
{
	Dl_info info;

	return dladdr(caller, &info) != 0 && info.dli_fname != NULL &&
	       strstr(info.dli_fname, "librte_net_memif") != NULL;
}

int munmap(void *addr, size_t len)
{
	if (dp_rcu != NULL && called_from_memif_pmd(__builtin_return_address(0)))
		dp_rcu_synchronize();
	if (next_munmap == NULL)
		return syscall(SYS_munmap, addr, len);
	return next_munmap(addr, len);
}
