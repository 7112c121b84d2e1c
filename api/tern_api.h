/* SPDX-License-Identifier: BSD-3-Clause */
/* The wire protocol between ternd and its clients (tern, scripts): framing and message types. */
#ifndef TERN_API_H
#define TERN_API_H

#include <stddef.h>
#include <stdint.h>

#define TERN_API_MAGIC 0x7465726eu	/* "tern" */
#define TERN_API_VERSION 1
#define TERN_API_MAX_PAYLOAD (4u << 20)	/* a full route table as text fits */
#define TERN_API_DEFAULT_SOCKET "/run/tern/ternd.sock"
#define TERN_API_SOCKET_ENV "TERN_SOCKET"

enum tern_api_type {
	TERN_API_COMMAND = 1,	/* request: one command line, run in the session's mode */
	TERN_API_COMPLETE = 2,	/* request: a partial line; reply lists candidates, one per line */
	TERN_API_REPLY = 3,	/* reply: prompt NUL output */
};

enum tern_api_flag {
	TERN_API_F_JSON = 1 << 0,	/* request: answer in JSON; reply: output is JSON */
};

/*
 * Every message is this header followed by len bytes of payload.
 * A reply's payload is the session's prompt context (e.g. "config-if"),
 * a NUL byte, then the command's output (text or JSON). status is 0 or a
 * negative errno; on error the output is one sentence saying what is wrong.
 */
struct tern_api_hdr {
	uint32_t magic;
	uint32_t len;
	uint16_t version;
	uint16_t type;
	uint16_t flags;
	uint16_t reserved;
	int32_t status;
} __attribute__((packed));

struct tern_api_msg {
	struct tern_api_hdr hdr;
	const char *payload;	/* points into the receive buffer; valid until the next read */
};

/* Accumulates bytes from a stream socket and cuts them into messages. */
struct tern_api_rx {
	uint8_t *buf;
	size_t len;
	size_t cap;
	size_t consumed;	/* bytes of the last message handed out */
};

void tern_api_hdr_init(struct tern_api_hdr *h, uint16_t type, uint16_t flags,
		       int32_t status, uint32_t len);
int tern_api_hdr_check(const struct tern_api_hdr *h);

int tern_api_rx_init(struct tern_api_rx *rx);
void tern_api_rx_free(struct tern_api_rx *rx);
/* Room for at least want more bytes at rx->buf + rx->len; 0 or -ENOMEM. */
int tern_api_rx_reserve(struct tern_api_rx *rx, size_t want);
/* 1 and *msg filled when a whole message is buffered, 0 when more is needed,
 * negative errno (-EPROTO, -EMSGSIZE) when the stream is garbage. */
int tern_api_rx_next(struct tern_api_rx *rx, struct tern_api_msg *msg);

/* Blocking helpers for clients: send one message / receive one message. */
int tern_api_send(int fd, uint16_t type, uint16_t flags, int32_t status,
		  const void *p1, size_t n1, const void *p2, size_t n2);
int tern_api_recv(int fd, struct tern_api_rx *rx, struct tern_api_msg *msg);


#endif
