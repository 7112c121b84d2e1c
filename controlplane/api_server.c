/* Unix stream socket server: framing, credentials, per-client sessions and buffered replies. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/wait.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "api/tern_api.h"
#include "controlplane/api_server.h"
#include "controlplane/command.h"
#include "controlplane/event_loop.h"
#include "controlplane/log.h"
#include "controlplane/netlink.h"

extern char **environ;

#define API_MAX_CLIENTS 64
#define API_MAX_PENDING_TX (64u << 20)	/* a client that reads nothing is dropped past this */

struct api_client {
	struct ev_handler h;
	struct ev_handler job_h;	/* the output pipe of a running ping/traceroute */
	struct outbuf job_out;
	int job_pid;
	bool job_json;
	struct tern_api_rx rx;
	struct outbuf tx;
	size_t tx_off;
	struct cmd_session session;
	bool close_after_flush;
	struct api_client *next;
};

static struct ev_handler listener = { .fd = -1 };
static struct api_client *clients;
static unsigned int nb_clients;
static char sock_path[108];
static struct outbuf scratch;

unsigned int api_server_clients(void)
{
	return nb_clients;
}

static void job_stop(struct api_client *c)
{
	if (c->job_pid <= 0)
		return;
	ev_del(&c->job_h);
	close(c->job_h.fd);
	kill(c->job_pid, SIGKILL);
	waitpid(c->job_pid, NULL, 0);
	c->job_pid = 0;
}

static void client_close(struct api_client *c)
{
	struct api_client **pp;

	job_stop(c);
	ob_free(&c->job_out);
	for (pp = &clients; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	ev_del(&c->h);
	close(c->h.fd);
	tern_api_rx_free(&c->rx);
	ob_free(&c->tx);
	free(c);
	nb_clients--;
}

/* Writes what it can; returns false when the client was closed. */
static bool client_flush(struct api_client *c)
{
	while (c->tx_off < c->tx.len) {
		ssize_t w = send(c->h.fd, c->tx.buf + c->tx_off, c->tx.len - c->tx_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			ev_mod(&c->h, c->job_pid ? EPOLLOUT : EPOLLIN | EPOLLOUT);
			return true;
		}
		if (w <= 0) {
			client_close(c);
			return false;
		}
		c->tx_off += w;
	}
	ob_reset(&c->tx);
	c->tx_off = 0;
	if (c->close_after_flush) {
		client_close(c);
		return false;
	}
	ev_mod(&c->h, c->job_pid ? 0 : EPOLLIN);
	return true;
}

static void client_reply(struct api_client *c, int status, uint16_t flags, const struct outbuf *out)
{
	char prompt[96];
	struct tern_api_hdr h;
	size_t plen, olen = out->len;
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
	if (c->tx.len > API_MAX_PENDING_TX) {
		TERN_LOG(api, WARNING, "client uid %u reads no replies; closing it", c->session.uid);
		c->tx.len = 0;
		c->close_after_flush = true;
	}
}

static void client_error(struct api_client *c, int status, const char *msg)
{
	ob_reset(&scratch);
	ob_printf(&scratch, "%s", msg);
	client_reply(c, status, 0, &scratch);
	c->close_after_flush = true;
}

static void client_event(struct ev_handler *h, uint32_t events);

/* The job's output so far; at its end, the reply (its exit status decides success). */
static void job_event(struct ev_handler *h, uint32_t events)
{
	struct api_client *c = (struct api_client *)((char *)h - offsetof(struct api_client, job_h));
	char buf[4096];
	ssize_t r;
	int status = 0;

	(void)events;
	while ((r = read(h->fd, buf, sizeof(buf))) > 0)
		if (c->job_out.len < (1u << 20))
			ob_write(&c->job_out, buf, r);
	if (r < 0 && errno == EAGAIN)
		return;
	ev_del(h);
	close(h->fd);
	waitpid(c->job_pid, &status, 0);
	c->job_pid = 0;
	client_reply(c, WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EHOSTUNREACH,
		     0, &c->job_out);
	ob_reset(&c->job_out);
	if (client_flush(c))
		client_event(&c->h, EPOLLIN);	/* requests that came meanwhile */
}

static void job_watch(struct api_client *c)
{
	c->job_pid = c->session.job.pid;
	c->job_h.fd = c->session.job.fd;
	c->job_h.cb = job_event;
	ob_reset(&c->job_out);
	if (ev_add(&c->job_h, EPOLLIN) < 0) {
		job_stop(c);
		return;
	}
	/* the client waits for this reply: read nothing more from it until then */
	ev_mod(&c->h, 0);
}

static void client_handle(struct api_client *c, const struct tern_api_msg *m)
{
	char line[1024];
	bool json = m->hdr.flags & TERN_API_F_JSON;
	int rc;

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

static void client_event(struct ev_handler *h, uint32_t events)
{
	struct api_client *c = (struct api_client *)h;
	struct tern_api_msg m;
	ssize_t r;
	int rc = 0;

	if (events & EPOLLOUT) {
		if (!client_flush(c))
			return;
	}
	if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)) || c->close_after_flush)
		return;
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
	while (c->job_pid == 0 && !c->close_after_flush && (rc = tern_api_rx_next(&c->rx, &m)) == 1)
		client_handle(c, &m);
	if (rc < 0) {
		TERN_LOG(api, NOTICE, "client uid %u sent a malformed message (%s); closing it",
			 c->session.uid, strerror(-rc));
		client_error(c, rc, rc == -EMSGSIZE ? "% Message too large; closing the connection"
						    : "% Malformed message; closing the connection");
	}
	client_flush(c);
}

/* root and members of group "tern" may configure; anyone else may look. */
static bool may_configure(uid_t uid, gid_t gid)
{
	struct group *g = getgrnam("tern");
	struct passwd *pw;
	gid_t groups[256];
	int n = 256, i;

	if (uid == 0)
		return true;
	if (g == NULL)
		return false;
	if (gid == g->gr_gid)
		return true;
	pw = getpwuid(uid);
	if (pw == NULL || getgrouplist(pw->pw_name, pw->pw_gid, groups, &n) < 0)
		return false;
	for (i = 0; i < n; i++)
		if (groups[i] == g->gr_gid)
			return true;
	return false;
}

static void listener_event(struct ev_handler *h, uint32_t events)
{
	struct api_client *c;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd;

	(void)events;
	fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (nb_clients >= API_MAX_CLIENTS || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		TERN_LOG(api, WARNING, "refusing a client: %u clients already connected", nb_clients);
		close(fd);
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
	ob_init(&c->tx);
	cmd_session_init(&c->session, cred.uid, may_configure(cred.uid, cred.gid));
	c->session.jobs_allowed = true;
	ob_init(&c->job_out);
	struct passwd *pw = getpwuid(cred.uid);
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

/* A socket file nobody answers on is a leftover of a crash: remove it. */
static int claim_path(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), rc;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	if (rc == 0) {
		snprintf(err, errlen, "another ternd already listens on %s; stop it first", path);
		return -EADDRINUSE;
	}
	unlink(path);
	return 0;
}

/* The group whose members may configure; made (as a system group) when missing. */
static struct group *tern_group(void)
{
	struct group *g = getgrnam("tern");
	char *const argv[] = { "groupadd", "--system", "tern", NULL };
	pid_t pid;
	int status;

	if (g != NULL)
		return g;
	if (posix_spawnp(&pid, "groupadd", NULL, NULL, argv, environ) != 0 ||
	    waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		TERN_LOG(api, WARNING, "group tern does not exist and could not be created: only root may configure");
		return NULL;
	}
	TERN_LOG(api, NOTICE, "created system group tern: its members may configure the router");
	return getgrnam("tern");
}

int api_server_start(const char *path, unsigned int mode, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char dir[sizeof(a.sun_path)];
	struct group *g;
	int rc;

	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(err, errlen, "[api] socket '%s': longer than %zu characters", path,
			 sizeof(a.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	snprintf(sock_path, sizeof(sock_path), "%s", path);
	snprintf(dir, sizeof(dir), "%s", path);
	mkdir(dirname(dir), 0755);
	rc = claim_path(path, err, errlen);
	if (rc < 0)
		return rc;
	listener.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	listener.cb = listener_event;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (listener.fd < 0 || bind(listener.fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(listener.fd, 16) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", path, strerror(errno));
		return rc;
	}
	chmod(path, mode);
	g = tern_group();
	if (g != NULL && chown(path, 0, g->gr_gid) < 0)
		TERN_LOG(api, WARNING, "cannot give %s to group tern: %s", path, strerror(errno));
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
	ob_free(&scratch);
}
