/* SPDX-License-Identifier: BSD-3-Clause */
/* Framing of tern API messages: header checks, stream reassembly, blocking send/receive. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "api/tern_api.h"

void tern_api_hdr_init(struct tern_api_hdr *h, uint16_t type, uint16_t flags,
		       int32_t status, uint32_t len)
{
	memset(h, 0, sizeof(*h));
	h->magic = TERN_API_MAGIC;
	h->version = TERN_API_VERSION;
	h->type = type;
	h->flags = flags;
	h->status = status;
	h->len = len;
}

int tern_api_hdr_check(const struct tern_api_hdr *h)
{
	if (h->magic != TERN_API_MAGIC || h->version != TERN_API_VERSION)
		return -EPROTO;
	if (h->type < TERN_API_COMMAND || h->type > TERN_API_REPLY)
		return -EPROTO;
	if (h->len > TERN_API_MAX_PAYLOAD)
		return -EMSGSIZE;
	return 0;
}

int tern_api_rx_init(struct tern_api_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
	return tern_api_rx_reserve(rx, 4096);
}

void tern_api_rx_free(struct tern_api_rx *rx)
{
	free(rx->buf);
	memset(rx, 0, sizeof(*rx));
}

int tern_api_rx_reserve(struct tern_api_rx *rx, size_t want)
{
	size_t cap = rx->cap ? rx->cap : 4096;
	uint8_t *b;

	/* Drop the message handed out last before growing. */
	if (rx->consumed) {
		memmove(rx->buf, rx->buf + rx->consumed, rx->len - rx->consumed);
		rx->len -= rx->consumed;
		rx->consumed = 0;
	}
	if (rx->cap - rx->len >= want)
		return 0;
	while (cap - rx->len < want)
		cap *= 2;
	b = realloc(rx->buf, cap);
	if (b == NULL)
		return -ENOMEM;
	rx->buf = b;
	rx->cap = cap;
	return 0;
}

int tern_api_rx_next(struct tern_api_rx *rx, struct tern_api_msg *msg)
{
	struct tern_api_hdr h;
	int rc;

	if (rx->consumed) {
		memmove(rx->buf, rx->buf + rx->consumed, rx->len - rx->consumed);
		rx->len -= rx->consumed;
		rx->consumed = 0;
	}
	if (rx->len < sizeof(h))
		return 0;
	memcpy(&h, rx->buf, sizeof(h));
	rc = tern_api_hdr_check(&h);
	if (rc < 0)
		return rc;
	if (rx->len < sizeof(h) + h.len)
		return 0;
	msg->hdr = h;
	msg->payload = (const char *)rx->buf + sizeof(h);
	rx->consumed = sizeof(h) + h.len;
	return 1;
}

static int write_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= w;
		}
	}
	return 0;
}

int tern_api_send(int fd, uint16_t type, uint16_t flags, int32_t status,
		  const void *p1, size_t n1, const void *p2, size_t n2)
{
	struct tern_api_hdr h;
	struct iovec iov[3];

	if (n1 + n2 > TERN_API_MAX_PAYLOAD)
		return -EMSGSIZE;
	tern_api_hdr_init(&h, type, flags, status, n1 + n2);
	iov[0] = (struct iovec){ &h, sizeof(h) };
	iov[1] = (struct iovec){ (void *)p1, n1 };
	iov[2] = (struct iovec){ (void *)p2, n2 };
	return write_all(fd, iov, 3);
}

int tern_api_recv(int fd, struct tern_api_rx *rx, struct tern_api_msg *msg)
{
	for (;;) {
		ssize_t r;
		int rc = tern_api_rx_next(rx, msg);

		if (rc != 0)
			return rc < 0 ? rc : 0;
		rc = tern_api_rx_reserve(rx, 65536);
		if (rc < 0)
			return rc;
		r = read(fd, rx->buf + rx->len, rx->cap - rx->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ECONNRESET;
		rx->len += r;
	}
}
