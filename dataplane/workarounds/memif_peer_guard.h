/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd against its memif peers' memory: unmapping under a worker, regions past a file's end. */
#ifndef TERN_MEMIF_PEER_GUARD_H
#define TERN_MEMIF_PEER_GUARD_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum memif_region_refusal {
	MEMIF_REGION_SHORT,	/* the file ends before the region does */
	MEMIF_REGION_UNSEALED,	/* the file may still shrink: no F_SEAL_SHRINK */
	MEMIF_REGION_REFUSALS,
};

/* 0 if len bytes from off may be mapped from fd for as long as the mapping lasts: within
 * the file, and the file sealed against shrinking (or not a regular file at all, which
 * mmap judges itself); -ENOSPC if the file is shorter, -EPERM if it is not sealed. */
int memif_peer_region_check(int fd, size_t len, off_t off);

/* Whether regions in files not sealed against shrinking are mapped ([memif] peer_memory). */
void memif_peer_guard_accept_unsealed(bool yes);

/* Called on the mapping thread for each refused region, to say so (ternd logs it). */
typedef void (*memif_refusal_report_fn)(enum memif_region_refusal why, size_t len);
void memif_peer_guard_on_refusal(memif_refusal_report_fn fn);

/* Regions refused so far, for each reason. */
uint64_t memif_peer_regions_refused(enum memif_region_refusal why);

/* The memif PMD's munmap (after a grace period of the workers) and mmap (refusing a shared
 * region past its file's end): ternd-static's memif PMD calls them by name. */
int memif_pmd_munmap(void *addr, size_t len);
void *memif_pmd_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

/* libc's mmap and munmap (or a sanitizer's), past any interposer. */
void *memif_peer_guard_libc_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int memif_peer_guard_libc_munmap(void *addr, size_t len);

#endif
