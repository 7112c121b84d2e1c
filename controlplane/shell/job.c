/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Jobs: programs run for a shell session. Each leads a process group of its own, so that
 * stopping it reaches the program under timeout(1) too (ping, when the client is gone), and
 * each starts with the signal mask and dispositions a program expects, not ternd's (which
 * blocks SIGINT, SIGTERM and SIGHUP for its signalfd and ignores SIGPIPE).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "controlplane/shell/job.h"
#include "controlplane/ternd/log.h"

extern char **environ;

#define JOB_KILLED_MAX 256

static pid_t killed[JOB_KILLED_MAX];
static unsigned int nb_killed;

int job_spawn(char *const argv[], int pass_fd, int *fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, def;
	int pfd[2], rc;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGCHLD);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (pass_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, pass_fd, JOB_PASSED_FD);
	/* ternd's own descriptors are close-on-exec; DPDK's (hugepage files, interrupt and
	 * memif sockets) need not be: a tool gets none of them */
	posix_spawn_file_actions_addclosefrom_np(&fa, pass_fd >= 0 ? JOB_PASSED_FD + 1
								   : STDERR_FILENO + 1);
	rc = posix_spawnp(pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(pfd[1]);
	if (rc != 0) {
		close(pfd[0]);
		return -rc;
	}
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	*fd = pfd[0];
	return 0;
}

int job_reap(pid_t pid, int *status)
{
	pid_t r;

	do
		r = waitpid(pid, status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return r == pid;
}

void job_kill(pid_t pid)
{
	int status;

	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	if (job_reap(pid, &status) != 0)
		return;
	if (nb_killed == JOB_KILLED_MAX) {
		/* a group killed with SIGKILL ends at once unless the kernel holds it; so many
		 * held at once are not expected, and the list stays bounded */
		TERN_LOG(api, WARNING, "%u stopped jobs not yet ended; waiting for pid %d", nb_killed,
			 (int)pid);
		waitpid(pid, &status, 0);
		return;
	}
	killed[nb_killed++] = pid;
}

void job_reap_killed(void)
{
	unsigned int i = 0;
	int status;

	while (i < nb_killed) {
		if (job_reap(killed[i], &status) != 0)
			killed[i] = killed[--nb_killed];
		else
			i++;
	}
}

unsigned int job_killed_pending(void)
{
	return nb_killed;
}
