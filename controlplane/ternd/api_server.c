/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The shell's sessions on ternd's Unix socket: framing, per-client sessions and buffered replies.
 *
 * A client owns two handlers in one allocation, its socket and the pipe of the job it runs
 * (ping, traceroute, capture); one epoll batch can carry events for both. A client is closed
 * once (closed set, both handlers taken out of the loop) and freed by the loop after the
 * batch (ev_release), so a later handler of the same batch never runs on freed memory.
 *
 * Nobody can stall the control thread through the socket: requests are handled a budget at
 * a time, a message begun must be whole within [api] request_timeout, replies must be taken
 * within reply_timeout, sessions idle for idle_timeout end, a client that does not read stops being
 * read, and the last API_ROOT_SLOTS slots are root's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/wait.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api/tern_api.h"
#include "controlplane/mirror/netlink.h"
#include "controlplane/shell/command.h"
#include "controlplane/shell/job.h"
#include "controlplane/ternd/api_server.h"
#include "controlplane/ternd/api_socket.h"
#include "controlplane/ternd/event_loop.h"
#include "controlplane/ternd/log.h"

#define API_TX_BACKLOG (1u << 20)	/* past this a client's requests wait for it to read */
#define API_JOB_EXIT_GRACE_MS 2000	/* a job that closed its output must end within this */
#define API_JOB_OUTPUT_MAX (1u << 20)

struct api_client {
	struct ev_handler h;
	struct ev_handler job_h;	/* the output pipe of a running job */
	struct outbuf job_out;
	pid_t job_pid;
	bool job_eof;			/* its output ended; its exit is awaited */
	uint64_t job_eof_ms;
	struct tern_api_rx rx;
	struct outbuf tx;
	size_t tx_off;
	struct cmd_session session;
	bool close_after_flush;
	bool closed;
	uint64_t connected_ms;
	uint64_t last_request_ms;
	uint64_t partial_since_ms;	/* a message is begun but not whole; 0: none */
	uint64_t tx_stalled_since_ms;	/* replies wait and the client took none; 0: none */
	uint64_t requests;
	struct api_client *next;
};

static struct ev_handler listener = { .fd = -1 };
static struct api_client *clients;
static unsigned int nb_clients;
static size_t tx_all;
static char sock_path[108];
static struct outbuf scratch;
static struct api_limits limits;

unsigned int api_server_clients(void)
{
	return nb_clients;
}

size_t api_server_tx_queued(void)
{
	return tx_all;
}

static size_t tx_queued(const struct api_client *c)
{
	return c->tx.len - c->tx_off;
}

static void client_free(struct ev_handler *h)
{
	struct api_client *c = (struct api_client *)h;

	ob_free(&c->job_out);
	tern_api_rx_free(&c->rx);
	ob_free(&c->tx);
	free(c);
}

static void job_end_watch(struct api_client *c)
{
	if (c->job_h.fd < 0)
		return;
	ev_del(&c->job_h);
	close(c->job_h.fd);
	c->job_h.fd = -1;
}

/* Takes the client out of the loop at once; its memory goes after the current batch. */
static void client_close(struct api_client *c)
{
	struct api_client **pp;

	if (c->closed)
		return;
	c->closed = true;
	job_end_watch(c);
	if (c->job_pid > 0)
		job_kill(c->job_pid);
	c->job_pid = 0;
	for (pp = &clients; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	tx_all -= tx_queued(c);
	ev_release(&c->h, client_free);
	close(c->h.fd);
	c->h.fd = -1;
	nb_clients--;
}

/* A whole message (or one that fails its checks) waits in the receive buffer. */
static bool rx_has_request(const struct api_client *c)
{
	size_t left = c->rx.len - c->rx.consumed;
	struct tern_api_hdr h;

	if (left < sizeof(h))
		return false;
	memcpy(&h, c->rx.buf + c->rx.consumed, sizeof(h));
	return tern_api_hdr_check(&h) < 0 || left >= sizeof(h) + h.len;
}

/* What the socket waits for: replies to send, else requests unless a job or a backlog holds
 * them back. */
static void client_arm(struct api_client *c)
{
	uint32_t ev = 0;

	if (tx_queued(c) > 0)
		ev |= EPOLLOUT;
	if (c->job_pid == 0 && tx_queued(c) <= API_TX_BACKLOG && !c->close_after_flush) {
		ev |= EPOLLIN;
		if (rx_has_request(c))
			ev_pend(&c->h);	/* held back by a job or a backlog until now */
	}
	ev_mod(&c->h, ev);
}

/* Writes what it can; returns false when the client was closed. */
static bool client_flush(struct api_client *c)
{
	while (tx_queued(c) > 0) {
		ssize_t w = send(c->h.fd, c->tx.buf + c->tx_off, tx_queued(c),
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (c->tx_stalled_since_ms == 0)
				c->tx_stalled_since_ms = tern_log_now_ms();
			client_arm(c);
			return true;
		}
		if (w <= 0) {
			client_close(c);
			return false;
		}
		c->tx_off += w;
		tx_all -= w;
		c->tx_stalled_since_ms = 0;
	}
	ob_reset(&c->tx);
	c->tx_off = 0;
	c->tx_stalled_since_ms = 0;
	if (c->close_after_flush) {
		client_close(c);
		return false;
	}
	client_arm(c);
	return true;
}

static void client_reply(struct api_client *c, int status, uint16_t flags, const struct outbuf *out)
{
	char prompt[96];
	struct tern_api_hdr h;
	size_t plen, olen = out->len, before = c->tx.len;
	const char *text = out->buf ? out->buf : "";

	if (out->failed) {
		status = -ENOMEM;
		text = "% Out of memory while building the reply";
		olen = strlen(text);
	}
	if (olen > TERN_API_MAX_PAYLOAD - sizeof(prompt)) {
		status = -EMSGSIZE;
		text = "% Reply too large; narrow the command";
		olen = strlen(text);
	}
	cmd_prompt(&c->session, prompt, sizeof(prompt));
	plen = strlen(prompt) + 1;
	tern_api_hdr_init(&h, TERN_API_REPLY, flags, status, plen + olen);
	ob_write(&c->tx, &h, sizeof(h));
	ob_write(&c->tx, prompt, plen);
	ob_write(&c->tx, text, olen);
	tx_all += c->tx.len - before;
	/* [api] reply_queue_max for one client, reply_queue_total for all of them */
	if (tx_queued(c) > limits.reply_queue_max || tx_all > limits.reply_queue_total) {
		TERN_LOG(api, WARNING, "client uid %u reads no replies (%zu bytes queued, %zu for all "
			 "clients); closing it", c->session.uid, tx_queued(c), tx_all);
		client_close(c);
	}
}

static void client_error(struct api_client *c, int status, const char *msg)
{
	ob_reset(&scratch);
	ob_printf(&scratch, "%s", msg);
	client_reply(c, status, 0, &scratch);
	c->close_after_flush = true;
}

/* The job has closed its output and ended: its output is the reply, its status the result. */
static void job_done(struct api_client *c, int status, const char *why)
{
	c->job_pid = 0;
	c->job_eof = false;
	if (c->session.job.finish != NULL)
		c->session.job.finish(&c->job_out);
	if (why != NULL)
		ob_printf(&c->job_out, "%s\n", why);
	client_reply(c, WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EHOSTUNREACH,
		     0, &c->job_out);
	ob_reset(&c->job_out);
	if (!c->closed)
		client_flush(c);	/* and re-arms for requests that came meanwhile */
}

static void job_try_finish(struct api_client *c)
{
	int status = 0, rc = job_reap(c->job_pid, &status);

	if (rc == 0)
		return;		/* the tick looks again */
	if (rc < 0)
		status = 1 << 8;
	job_done(c, status, NULL);
}

/* The job's output so far; at its end (a read of zero bytes), the reply once it has exited. */
static void job_event(struct ev_handler *h, uint32_t events)
{
	struct api_client *c = (struct api_client *)((char *)h - offsetof(struct api_client, job_h));
	char buf[4096];
	ssize_t r;

	for (;;) {
		r = read(h->fd, buf, sizeof(buf));
		if (r > 0) {
			if (c->job_out.len < API_JOB_OUTPUT_MAX)
				ob_write(&c->job_out, buf, r);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		break;
	}
	if (r < 0)
		TERN_LOG(api, WARNING, "reading a job's output: %s; ending it", strerror(errno));
	job_end_watch(c);
	c->job_eof = true;
	c->job_eof_ms = tern_log_now_ms();
	job_try_finish(c);
}

static void job_watch(struct api_client *c)
{
	c->job_pid = c->session.job.pid;
	c->job_h.fd = c->session.job.fd;
	c->job_h.cb = job_event;
	c->job_eof = false;
	ob_reset(&c->job_out);
	if (c->session.job.note[0] != '\0')
		ob_printf(&c->job_out, "%s\n", c->session.job.note);
	if (ev_add(&c->job_h, EPOLLIN) < 0) {
		job_end_watch(c);
		job_kill(c->job_pid);
		c->job_pid = 0;
		client_error(c, -EIO, "% Cannot watch the job's output; closing the connection");
		return;
	}
	/* the client waits for this reply: read nothing more from it until then */
	client_arm(c);
}

static void client_handle(struct api_client *c, const struct tern_api_msg *m)
{
	char line[1024];
	bool json = m->hdr.flags & TERN_API_F_JSON;
	int rc;

	c->requests++;
	c->last_request_ms = tern_log_now_ms();
	if (m->hdr.type == TERN_API_REPLY) {
		client_error(c, -EPROTO, "% Protocol error: a client may not send replies");
		return;
	}
	if (m->hdr.len >= sizeof(line) || memchr(m->payload, '\0', m->hdr.len) != NULL) {
		ob_reset(&scratch);
		ob_printf(&scratch, "%% Command line of %u bytes refused: at most %zu bytes, no NUL",
			  m->hdr.len, sizeof(line) - 1);
		client_reply(c, -EINVAL, 0, &scratch);
		return;
	}
	memcpy(line, m->payload, m->hdr.len);
	line[m->hdr.len] = '\0';
	if (m->hdr.type == TERN_API_COMPLETE) {
		rc = cmd_complete(&c->session, line, &scratch);
	} else {
		netlink_catch_up();	/* no answer waits on the batch interval */
		rc = cmd_execute(&c->session, line, json, &scratch);
	}
	if (rc == CMD_ASYNC) {
		job_watch(c);
		return;
	}
	client_reply(c, rc, json ? TERN_API_F_JSON : 0, &scratch);
}

/* Handles up to a turn's budget of the requests buffered; asks for another turn if more wait. */
static void client_serve(struct api_client *c)
{
	struct tern_api_msg m;
	unsigned int n = 0;
	int rc = 0;

	while (!c->closed && c->job_pid == 0 && !c->close_after_flush &&
	       tx_queued(c) <= API_TX_BACKLOG) {
		if (n == API_REQUESTS_PER_TURN) {
			ev_pend(&c->h);
			break;
		}
		rc = tern_api_rx_next(&c->rx, &m);
		if (rc != 1)
			break;
		client_handle(c, &m);
		n++;
	}
	if (c->closed)
		return;
	if (rc < 0) {
		TERN_LOG(api, NOTICE, "client uid %u sent a malformed message (%s); closing it",
			 c->session.uid, strerror(-rc));
		client_error(c, rc, rc == -EMSGSIZE ? "% Message too large; closing the connection"
						    : "% Malformed message; closing the connection");
	}
	if (c->rx.len == c->rx.consumed || rx_has_request(c))
		c->partial_since_ms = 0;
	else if (c->partial_since_ms == 0)
		c->partial_since_ms = tern_log_now_ms();
	client_flush(c);
}

static void client_event(struct ev_handler *h, uint32_t events)
{
	struct api_client *c = (struct api_client *)h;
	ssize_t r;

	if (c->closed)
		return;
	if (events & EPOLLOUT) {
		if (!client_flush(c))
			return;
	}
	if (events == EV_PENDING) {
		client_serve(c);
		return;
	}
	if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)) || c->close_after_flush)
		return;
	if (c->job_pid != 0 && !(events & EPOLLIN)) {
		client_close(c);	/* gone while its job ran */
		return;
	}
	if (tern_api_rx_reserve(&c->rx, 65536) < 0) {
		client_close(c);
		return;
	}
	r = recv(c->h.fd, c->rx.buf + c->rx.len, c->rx.cap - c->rx.len, MSG_DONTWAIT);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0) {
		client_close(c);
		return;
	}
	c->rx.len += r;
	client_serve(c);
}

/* Deadlines: a message begun and not finished, replies not taken, a session left idle, a job
 * whose output ended but whose process lingers. */
void api_server_tick(void)
{
	uint64_t now = tern_log_now_ms();
	struct api_client *c, *next;

	job_reap_killed();
	for (c = clients; c != NULL; c = next) {
		next = c->next;
		if (c->job_pid > 0 && c->job_eof) {
			job_try_finish(c);
			if (!c->closed && c->job_pid > 0 && now - c->job_eof_ms > API_JOB_EXIT_GRACE_MS) {
				job_kill(c->job_pid);
				job_done(c, 1 << 8, "% The job closed its output but did not end; stopped it");
			}
			continue;
		}
		if (c->partial_since_ms &&
		    now - c->partial_since_ms > limits.request_timeout_s * 1000ull) {
			TERN_LOG(api, NOTICE, "client uid %u left a request unfinished for %u s; closing it",
				 c->session.uid, limits.request_timeout_s);
			ob_reset(&scratch);
			ob_printf(&scratch, "%% Request unfinished after %u s; closing the connection",
				  limits.request_timeout_s);
			client_reply(c, -ETIMEDOUT, 0, &scratch);
			c->close_after_flush = true;
			if (!c->closed)
				client_flush(c);
		} else if (c->tx_stalled_since_ms &&
			   now - c->tx_stalled_since_ms > limits.reply_timeout_s * 1000ull) {
			TERN_LOG(api, NOTICE, "client uid %u took no reply for %u s; closing it",
				 c->session.uid, limits.reply_timeout_s);
			client_close(c);
		} else if (limits.idle_timeout_s && c->job_pid == 0 && tx_queued(c) == 0 &&
			   now - c->last_request_ms > limits.idle_timeout_s * 1000ull) {
			TERN_LOG(api, INFO, "session of %s (uid %u) idle for %u s; closing it",
				 c->session.user, c->session.uid, limits.idle_timeout_s);
			client_close(c);
		}
	}
}

unsigned int api_server_users(struct api_user *u, unsigned int max, const struct cmd_session *self)
{
	uint64_t now = tern_log_now_ms();
	const struct api_client *c;
	unsigned int n = 0, i;

	for (c = clients; c != NULL && n < max; c = c->next, n++) {
		u[n] = (struct api_user){
			.uid = c->session.uid, .privileged = c->session.privileged,
			.self = &c->session == self, .mode = c->session.mode,
			.connected_s = (now - c->connected_ms) / 1000,
			.idle_s = (now - c->last_request_ms) / 1000, .job = c->job_pid > 0,
			.requests = c->requests, .tx_queued = tx_queued(c),
		};
		snprintf(u[n].user, sizeof(u[n].user), "%s", c->session.user);
	}
	for (i = 0; i < n / 2; i++) {	/* the list is newest first */
		struct api_user t = u[i];

		u[i] = u[n - 1 - i];
		u[n - 1 - i] = t;
	}
	return n;
}

static void listener_event(struct ev_handler *h, uint32_t events)
{
	struct api_client *c;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct passwd *pw;
	int fd;

	fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		close(fd);
		return;
	}
	if (nb_clients >= API_MAX_CLIENTS ||
	    (cred.uid != 0 && nb_clients >= API_MAX_CLIENTS - API_ROOT_SLOTS)) {
		TERN_LOG(api, WARNING, "refusing a client of uid %u: %u sessions already", cred.uid,
			 nb_clients);
		api_socket_refuse(fd, cred.uid == 0 ? "% ternd already serves its most sessions; try again later"
					 : "% ternd serves no more sessions but root's; try again later");
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL || tern_api_rx_init(&c->rx) < 0) {
		free(c);
		close(fd);
		return;
	}
	c->h.fd = fd;
	c->h.cb = client_event;
	c->job_h.fd = -1;
	c->connected_ms = c->last_request_ms = tern_log_now_ms();
	ob_init(&c->tx);
	cmd_session_init(&c->session, cred.uid, api_peer_may_configure(fd, &cred));
	c->session.jobs_allowed = true;
	ob_init(&c->job_out);
	pw = getpwuid(cred.uid);
	snprintf(c->session.user, sizeof(c->session.user), "%s", pw ? pw->pw_name : "unknown");
	if (ev_add(&c->h, EPOLLIN) < 0) {
		tern_api_rx_free(&c->rx);
		free(c);
		close(fd);
		return;
	}
	c->next = clients;
	clients = c;
	nb_clients++;
}

int api_server_start(const char *path, unsigned int mode, const struct api_limits *lim,
		     char *err, size_t errlen)
{
	int fd = api_socket_listen(path, mode, err, errlen);

	if (fd < 0)
		return fd;
	limits = *lim;
	snprintf(sock_path, sizeof(sock_path), "%s", path);
	listener.fd = fd;
	listener.cb = listener_event;
	ob_init(&scratch);
	return ev_add(&listener, EPOLLIN);
}

void api_server_stop(void)
{
	while (clients)
		client_close(clients);
	if (listener.fd >= 0) {
		ev_del(&listener);
		close(listener.fd);
		unlink(sock_path);
		listener.fd = -1;
	}
	job_reap_killed();
	ob_free(&scratch);
}
