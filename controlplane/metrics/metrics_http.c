/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A minimal HTTP/1.1 server for /metrics: one request per connection, answered at once and
 * sent without blocking. A connection must be done, request read and answer taken, within
 * METRICS_DEADLINE_MS of its accept, or it is closed: a scraper that stalls, reads slowly or
 * never sends holds one of the METRICS_MAX_CLIENTS slots that long at most, and never the
 * control thread.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "controlplane/metrics/metrics.h"
#include "controlplane/ternd/event_loop.h"
#include "controlplane/ternd/log.h"

#define METRICS_MAX_CLIENTS 16
#define METRICS_DEADLINE_MS 5000

struct metrics_client {
	struct ev_handler h;
	char req[METRICS_MAX_REQUEST];
	size_t len;
	bool used;
	struct outbuf out;	/* the answer, sent from off on */
	size_t off;
	uint64_t deadline_ms;
};

static struct ev_handler listener = { .fd = -1 };
static struct metrics_client clients[METRICS_MAX_CLIENTS];

/* The page a query (from after '?' to end) asks for: 0 or more, or -1 when its page is not a
 * number of at most 6 digits. Other parameters are ignored. */
static long query_page(const char *q, const char *end)
{
	while (q < end) {
		const char *amp = memchr(q, '&', end - q), *v;
		long page = 0;

		amp = amp ? amp : end;
		if (amp - q >= 5 && memcmp(q, "page=", 5) == 0) {
			if (amp - q == 5 || amp - q > 5 + 6)	/* no digit, or more than 6 */
				return -1;
			for (v = q + 5; v < amp; v++) {
				if (*v < '0' || *v > '9')
					return -1;
				page = page * 10 + (*v - '0');
			}
			return page;
		}
		q = amp + 1;
	}
	return 0;
}

int metrics_http_status(const char *req, size_t len, int *head, unsigned int *page)
{
	const char *end = memmem(req, len, "\r\n\r\n", 4), *sp1, *sp2, *eol;
	size_t mlen, plen;
	long pg;

	*head = 0;
	*page = 0;
	if (end == NULL)
		return len >= METRICS_MAX_REQUEST ? 431 : 0;
	eol = memchr(req, '\r', end - req + 1);
	sp1 = memchr(req, ' ', eol - req);
	if (sp1 == NULL)
		return 400;
	sp2 = memchr(sp1 + 1, ' ', eol - sp1 - 1);
	if (sp2 == NULL || eol - sp2 - 1 != 8 || memcmp(sp2 + 1, "HTTP/1.", 7) != 0)
		return 400;
	mlen = sp1 - req;
	plen = sp2 - sp1 - 1;
	if (plen == 0 || sp1[1] != '/')
		return 400;
	if (!(mlen == 3 && memcmp(req, "GET", 3) == 0) && !(mlen == 4 && memcmp(req, "HEAD", 4) == 0))
		return 405;
	*head = mlen == 4;
	/* /metrics, optionally with a query string: page=N (Prometheus adds a target's params) */
	if (plen < 8 || memcmp(sp1 + 1, "/metrics", 8) != 0 || (plen > 8 && sp1[9] != '?'))
		return 404;
	pg = plen > 8 ? query_page(sp1 + 10, sp2) : 0;
	if (pg < 0)
		return 400;
	*page = (unsigned int)pg;
	return 200;
}

static void client_close(struct metrics_client *c)
{
	ev_del(&c->h);
	close(c->h.fd);
	c->h.fd = -1;
	ob_free(&c->out);
	c->used = false;
}

/* Sends what the socket takes; the rest when it says it has room. */
static void client_send(struct metrics_client *c)
{
	while (c->off < c->out.len) {
		ssize_t n = send(c->h.fd, c->out.buf + c->off, c->out.len - c->off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			ev_mod(&c->h, EPOLLOUT);
			return;
		}
		if (n <= 0)
			break;
		c->off += n;
	}
	client_close(c);
}

static void respond(struct metrics_client *c, int status, int head, unsigned int page)
{
	static const struct {
		int code;
		const char *text;
	} reasons[] = { { 200, "OK" }, { 400, "Bad Request" }, { 404, "Not Found" },
			{ 405, "Method Not Allowed" }, { 431, "Request Header Fields Too Large" } };
	struct outbuf body;
	const char *reason = "Error";
	size_t i;

	ob_init(&body);
	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (reasons[i].code == status)
			reason = reasons[i].text;
	if (status == 200)
		metrics_render(&body, page);
	else
		ob_printf(&body, "%d %s: ternd serves GET /metrics and /metrics?page=N only\n", status,
			  reason);
	ob_printf(&c->out, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
		  "Connection: close\r\n\r\n", status, reason,
		  status == 200 ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
				: "text/plain; charset=utf-8",
		  body.len, status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (!head)
		ob_write(&c->out, body.buf, body.len);
	ob_free(&body);
	if (c->out.failed) {
		client_close(c);
		return;
	}
	client_send(c);
}

static void client_cb(struct ev_handler *h, uint32_t events)
{
	struct metrics_client *c = (struct metrics_client *)h;
	ssize_t n;
	unsigned int page;
	int status, head;

	if (events & (EPOLLERR | EPOLLHUP)) {
		client_close(c);
		return;
	}
	if (c->out.len > 0) {	/* answering: only room to send is awaited */
		if (events & EPOLLOUT)
			client_send(c);
		return;
	}
	n = recv(h->fd, c->req + c->len, sizeof(c->req) - c->len, 0);
	if (n <= 0) {
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			client_close(c);
		return;
	}
	c->len += n;
	status = metrics_http_status(c->req, c->len, &head, &page);
	if (status != 0)
		respond(c, status, head, page);
}

static void accept_cb(struct ev_handler *h, uint32_t events)
{
	unsigned int i;
	int fd;

	fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	for (i = 0; i < METRICS_MAX_CLIENTS && clients[i].used; i++)
		;
	if (i == METRICS_MAX_CLIENTS) {	/* busy: the scraper retries */
		close(fd);
		return;
	}
	clients[i] = (struct metrics_client){ .h = { .fd = fd, .cb = client_cb }, .used = true,
					      .deadline_ms = tern_log_now_ms() + METRICS_DEADLINE_MS };
	ob_init(&clients[i].out);
	if (ev_add(&clients[i].h, EPOLLIN) < 0) {
		close(fd);
		clients[i].used = false;
	}
}

int metrics_server_start(const char *listen_on, char *err, size_t errlen)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char addr[64], *colon;
	unsigned long port;
	int one = 1, rc;

	snprintf(addr, sizeof(addr), "%s", listen_on);
	colon = strrchr(addr, ':');
	if (colon == NULL || (*colon = '\0', port = strtoul(colon + 1, NULL, 10)) == 0 || port > 65535 ||
	    inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		snprintf(err, errlen, "[metrics] listen = '%s': expected ADDRESS:PORT", listen_on);
		return -EINVAL;
	}
	sa.sin_port = htons(port);
	listener.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (listener.fd < 0)
		goto fail;
	setsockopt(listener.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(listener.fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(listener.fd, 16) < 0)
		goto fail;
	listener.cb = accept_cb;
	if ((rc = ev_add(&listener, EPOLLIN)) < 0) {
		errno = -rc;
		goto fail;
	}
	metrics_started();
	TERN_LOG(main, NOTICE, "metrics: OpenMetrics on http://%s/metrics", listen_on);
	return 0;
fail:
	rc = -errno;
	snprintf(err, errlen, "cannot serve metrics on %s: %s", listen_on, strerror(errno));
	if (listener.fd >= 0)
		close(listener.fd);
	listener.fd = -1;
	return rc;
}

void metrics_server_tick(void)
{
	uint64_t now = tern_log_now_ms();
	unsigned int i;

	for (i = 0; i < METRICS_MAX_CLIENTS; i++)
		if (clients[i].used && now > clients[i].deadline_ms)
			client_close(&clients[i]);
}

void metrics_server_stop(void)
{
	unsigned int i;

	for (i = 0; i < METRICS_MAX_CLIENTS; i++)
		if (clients[i].used)
			client_close(&clients[i]);
	if (listener.fd >= 0) {
		ev_del(&listener);
		close(listener.fd);
		listener.fd = -1;
	}
}
