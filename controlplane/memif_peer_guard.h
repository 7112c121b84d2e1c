/* ternd against its memif peers' memory: unmapping under a worker, regions past a file's end. */
#ifndef TERN_MEMIF_PEER_GUARD_H
#define TERN_MEMIF_PEER_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Whether len bytes from off lie within the file fd (always, for what is not a regular file). */
bool memif_peer_region_fits(int fd, size_t len, off_t off);

#endif
