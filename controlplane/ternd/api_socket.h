/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd's Unix socket as a file, and who may configure through it (see the .c). */
#ifndef TERN_API_SOCKET_H
#define TERN_API_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* Claims path (a leftover socket nobody answers on is removed; anything else is refused), binds
 * and listens there, owned by root and group tern with mode; the listening descriptor, or a
 * negative errno with the reason in err. */
int api_socket_listen(const char *path, unsigned int mode, char *err, size_t errlen);

/* root and members of group tern (by the peer's own groups, as the kernel gives them) may
 * configure; anyone else may look. */
bool api_peer_may_configure(int fd, const struct ucred *cred);

/* Writes a refusal the shell can print on a fresh socket (whose buffer is empty) and closes it. */
void api_socket_refuse(int fd, const char *why);

#endif
