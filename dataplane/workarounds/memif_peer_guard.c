/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A memif peer must not take ternd down with it: neither by leaving, nor by announcing
 * more memory than it shares.
 *
 * Leaving.
 * DPDK 22.11's memif PMD handles a peer's disconnect in the EAL interrupt thread: it
 * clears the port's connected flag, then unmaps the peer's shared memory (the rings and
 * buffers). Its burst functions test that flag and then read the rings, with nothing in
 * between to hold the memory: a worker preempted between the two reads a ring that is no
 * longer mapped, and the whole router dies of SIGSEGV (in about one generator session of
 * twelve with all of ternd on one CPU; l3fwd died the same way). The PMD gives no event
 * before it unmaps, so ternd takes the one call it cannot skip: munmap (interposed in
 * ternd, on the shared DPDK; in ternd-static, DPDK linked in, the build renames the PMD's
 * call to memif_pmd_munmap). A call made from the memif PMD first waits for a grace period
 * of every thread that polls or sends on ports: the workers, which report between graph
 * walks (what the kernel sends goes out through a worker too). Each of them has then either
 * left the burst function or entered it after the flag was cleared, and returns at once. Every other munmap goes
 * straight on.
 *
 * Announcing. A peer sends each region as a file descriptor and a size, and the PMD maps
 * that size without looking at the file: a region larger than its file maps, and the
 * first packet the worker reads past the file's end kills ternd with SIGBUS. DPDK 22.11's
 * own zero-copy client did exactly that (dataplane/workarounds/memseg_fd_guard.c tells how). So an
 * mmap from the memif PMD of a shared file is refused (EINVAL) when the file is shorter
 * than the mapping: the PMD logs "mmap failed", drops that connection, and the port waits
 * for the peer's next one.
 *
 * Shrinking. A file long enough now can be cut later by the peer that holds it, with the
 * same SIGBUS. Only a seal makes the length a promise: a region's file must carry
 * F_SEAL_SHRINK (fcntl F_GET_SEALS), as the memfds of DPDK's memif PMD and of libmemif
 * do. Any other file (a hugepage file, a memfd made without sealing, a file on disk) is
 * refused the same way. DPDK 22.11's zero-copy clients offer their hugepage files, which
 * cannot be sealed, so ternd takes no zero-copy client as a memif server; ternd as a
 * zero-copy client is unaffected (its peer maps ternd's memory, not the other way).
 * Refusals are counted (memif_peer_regions_refused, tern_memif_regions_refused_total).
 * `[memif] peer_memory = any` maps unsealed files too (still no region past its file's end):
 * for peers trusted not to cut them, such as a traffic generator whose zero-copy ports
 * offer its hugepages (make bench).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dataplane/rcu.h"
#include "dataplane/workarounds/memif_peer_guard.h"

typedef int (*munmap_fn)(void *, size_t);
typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);

static uint64_t refused[MEMIF_REGION_REFUSALS];
static bool accept_unsealed;	/* [memif] peer_memory = any */
static memif_refusal_report_fn report;

static munmap_fn next_munmap;
static mmap_fn next_mmap;

/* The next definition: libc's, or a sanitizer's interceptor in the asan and fuzz builds. */
__attribute__((constructor)) static void memif_peer_guard_init(void)
{
	next_munmap = (munmap_fn)dlsym(RTLD_NEXT, "munmap");
	next_mmap = (mmap_fn)dlsym(RTLD_NEXT, "mmap");
}

int memif_peer_guard_libc_munmap(void *addr, size_t len)
{
	if (next_munmap == NULL)
		return syscall(SYS_munmap, addr, len);
	return next_munmap(addr, len);
}

void *memif_peer_guard_libc_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (next_mmap == NULL)
		return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	return next_mmap(addr, len, prot, flags, fd, off);
}

static void refuse(enum memif_region_refusal why, size_t len)
{
	__atomic_fetch_add(&refused[why], 1, __ATOMIC_RELAXED);
	if (report != NULL)
		report(why, len);
}

/*
 * The memif PMD's own calls. ternd-static, linked with DPDK's static archives, holds the
 * PMD in its own text, where dladdr names ternd: its build renames the PMD's mmap64 and
 * munmap references to these (Makefile, MEMIF_GUARDED). With a shared PMD, the mmap and munmap
 * of interpose_mmap.c come here when dladdr names it.
 */
int memif_pmd_munmap(void *addr, size_t len)
{
	if (dp_rcu != NULL)
		dp_rcu_synchronize();
	return memif_peer_guard_libc_munmap(addr, len);
}

void *memif_pmd_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	int rc = 0;

	if (fd >= 0 && (flags & MAP_SHARED))
		rc = memif_peer_region_check(fd, len, off);
	if (rc == -ENOSPC) {
		refuse(MEMIF_REGION_SHORT, len);
	} else if (rc == -EPERM && accept_unsealed) {
		rc = 0;
	} else if (rc == -EPERM) {
		refuse(MEMIF_REGION_UNSEALED, len);
	}
	if (rc < 0) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return memif_peer_guard_libc_mmap(addr, len, prot, flags, fd, off);
}

int memif_peer_region_check(int fd, size_t len, off_t off)
{
	struct stat st;
	int seals;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;	/* not a file whose end can be passed; mmap itself judges */
	if (off < 0 || (uint64_t)st.st_size < (uint64_t)off || (uint64_t)st.st_size - off < len)
		return -ENOSPC;
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK))
		return -EPERM;
	return 0;
}

void memif_peer_guard_accept_unsealed(bool yes)
{
	accept_unsealed = yes;
}

uint64_t memif_peer_regions_refused(enum memif_region_refusal why)
{
	return __atomic_load_n(&refused[why], __ATOMIC_RELAXED);
}

void memif_peer_guard_on_refusal(memif_refusal_report_fn fn)
{
	report = fn;
}
