/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ternd's Unix socket as a file: claiming its path, binding it owner-only before opening it to
 * group tern, and telling who may configure from the peer's credentials.
 */
#include <errno.h>
#include <grp.h>
#include <libgen.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/tern_api.h"
#include "controlplane/ternd/api_socket.h"
#include "controlplane/ternd/log.h"

extern char **environ;

/* A socket file nobody answers on is a leftover of a crash: remove it. Anything else at the
 * path is not ternd's to remove. */
static int claim_path(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "[api] socket %s: the path exists and is not a socket; "
			 "remove it or choose another path", path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
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

int api_socket_listen(const char *path, unsigned int mode, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char dir[sizeof(a.sun_path)];
	struct group *g;
	mode_t old_umask;
	int fd, rc;

	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(err, errlen, "[api] socket '%s': longer than %zu characters", path,
			 sizeof(a.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	mkdir(dirname(dir), 0755);
	rc = claim_path(path, err, errlen);
	if (rc < 0) {
		if (rc != -EEXIST && rc != -EADDRINUSE)
			snprintf(err, errlen, "[api] socket %s: %s", path, strerror(-rc));
		return rc;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	/* the socket is born owner-only; chmod then opens it to the group, never wider first */
	old_umask = umask(0177);
	rc = fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ? -errno : 0;
	umask(old_umask);
	if (rc < 0 || listen(fd, 16) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	g = tern_group();
	if (g != NULL && chown(path, 0, g->gr_gid) < 0)
		TERN_LOG(api, WARNING, "cannot give %s to group tern: %s", path, strerror(errno));
	chmod(path, mode);
	return fd;
}

/* root and members of group "tern" (by the peer's own groups, as the kernel gives them) may
 * configure; anyone else may look. */
bool api_peer_may_configure(int fd, const struct ucred *cred)
{
	struct group *g;
	gid_t groups[1024];
	socklen_t len = sizeof(groups);
	unsigned int i;

	if (cred->uid == 0)
		return true;
	g = getgrnam("tern");
	if (g == NULL)
		return false;
	if (cred->gid == g->gr_gid)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0)
		return false;
	for (i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == g->gr_gid)
			return true;
	return false;
}

/* A refusal the shell can print, written on the fresh socket (whose buffer is empty). */
void api_socket_refuse(int fd, const char *why)
{
	struct tern_api_hdr h;
	char msg[160];
	size_t len;

	len = snprintf(msg, sizeof(msg), "%c%s", '\0', why);
	tern_api_hdr_init(&h, TERN_API_REPLY, 0, -EUSERS, len);
	send(fd, &h, sizeof(h), MSG_NOSIGNAL | MSG_DONTWAIT | MSG_MORE);
	send(fd, msg, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}
