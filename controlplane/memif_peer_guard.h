/* ternd against its memif peers' memory: unmapping under a worker, regions past a file's end. */
#ifndef TERN_MEMIF_PEER_GUARD_H
#define TERN_MEMIF_PEER_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Whether len bytes from off lie within the file fd (always, for what is not a regular file). */
bool memif_peer_region_fits(int fd, size_t len, off_t off);

/* The memif PMD's munmap (after a grace period of the workers) and mmap (refusing a shared
 * region past its file's end): ternd-static's memif PMD calls them by name. */
int memif_pmd_munmap(void *addr, size_t len);
void *memif_pmd_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

#endif
