/* SPDX-License-Identifier: BSD-3-Clause */
/* Keeps EAL's hugepage file descriptors open against the memif PMD's close() (see the .c). */
#ifndef TERN_MEMSEG_FD_GUARD_H
#define TERN_MEMSEG_FD_GUARD_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>

/* One a memseg list: at least RTE_MAX_MEMSEG_LISTS (128 in DPDK 22.11's default build). */
#define MEMSEG_FD_GUARD_MAX 256

/* Guards fd from close(): 0, -EBADF for a negative one, -ENOSPC when the guard is full. */
int memseg_fd_guard_add(int fd);

/* Guards the descriptor the memif PMD takes for each memseg list now: 0, or -ENOSPC. */
int memseg_fd_guard_arm(void);

/* Whether close(fd) is to leave fd open. */
bool memseg_fd_guarded(int fd);

#endif
