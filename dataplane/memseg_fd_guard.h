/* Keeps EAL's hugepage file descriptors open against the memif PMD's close() (see the .c). */
#ifndef TERN_MEMSEG_FD_GUARD_H
#define TERN_MEMSEG_FD_GUARD_H

/* One a memseg list with --single-file-segments, else one a page: 8 GiB of 2 MiB pages. */
#define MEMSEG_FD_GUARD_MAX 4096

/* Guards fd from close(): 0, -EBADF for a negative one, -ENOSPC when the guard is full. */
int memseg_fd_guard_add(int fd);

/* Guards the file descriptor of every memseg EAL holds now: 0, or -ENOSPC when full. */
int memseg_fd_guard_arm(void);

#endif
