/* SPDX-License-Identifier: BSD-3-Clause */
/* The shell's connection to ternd: one request, one reply. */
#ifndef TERN_CLI_CLIENT_H
#define TERN_CLI_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "api/tern_api.h"

struct tern_client {
	int fd;
	char path[108];
	struct tern_api_rx rx;
	char prompt[96];
};

struct tern_reply {
	int status;
	bool json;
	const char *text;	/* valid until the next request */
	size_t len;
};

/* The socket: -s PATH, else $TERN_SOCKET, else the packaged default. */
const char *tern_client_socket_path(const char *opt);
/* 0, or a negative errno with one sentence in err. */
int tern_client_connect(struct tern_client *c, const char *path, char *err, size_t errlen);
int tern_client_request(struct tern_client *c, uint16_t type, const char *line, bool json,
			struct tern_reply *r);
void tern_client_close(struct tern_client *c);

#endif
