/* SPDX-License-Identifier: BSD-3-Clause */
/* Connects to ternd's socket and exchanges framed requests and replies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/client.h"

const char *tern_client_socket_path(const char *opt)
{
	const char *env = getenv(TERN_API_SOCKET_ENV);

	if (opt != NULL && *opt)
		return opt;
	if (env != NULL && *env)
		return env;
	return TERN_API_DEFAULT_SOCKET;
}

int tern_client_connect(struct tern_client *c, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int rc;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(err, errlen, "socket path %s is too long (at most %zu characters)", path,
			 sizeof(a.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	snprintf(c->path, sizeof(c->path), "%s", path);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		rc = -errno;
		if (rc == -ENOENT || rc == -ECONNREFUSED)
			snprintf(err, errlen, "ternd is not running: nothing listens on %s (%s); start ternd, or point tern at its socket with -s PATH or TERN_SOCKET",
				 path, strerror(-rc));
		else if (rc == -EACCES)
			snprintf(err, errlen, "permission denied on %s: join group 'tern' or run as root",
				 path);
		else
			snprintf(err, errlen, "cannot connect to ternd at %s: %s", path, strerror(-rc));
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		return rc;
	}
	rc = tern_api_rx_init(&c->rx);
	if (rc < 0) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	return 0;
}

int tern_client_request(struct tern_client *c, uint16_t type, const char *line, bool json,
			struct tern_reply *r)
{
	struct tern_api_msg m;
	size_t plen;
	int rc;

	rc = tern_api_send(c->fd, type, json ? TERN_API_F_JSON : 0, 0, line, strlen(line), NULL, 0);
	if (rc < 0)
		return rc;
	rc = tern_api_recv(c->fd, &c->rx, &m);
	if (rc < 0)
		return rc;
	if (m.hdr.type != TERN_API_REPLY)
		return -EPROTO;
	plen = strnlen(m.payload, m.hdr.len);
	if (plen == m.hdr.len)
		return -EPROTO;		/* no prompt terminator */
	snprintf(c->prompt, sizeof(c->prompt), "%.*s", (int)plen, m.payload);
	r->status = m.hdr.status;
	r->json = m.hdr.flags & TERN_API_F_JSON;
	r->text = m.payload + plen + 1;
	r->len = m.hdr.len - plen - 1;
	return 0;
}

void tern_client_close(struct tern_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	tern_api_rx_free(&c->rx);
}
