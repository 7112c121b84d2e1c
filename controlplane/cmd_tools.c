/* ping and traceroute from the router: the kernel's tools, run in ternd's namespace, never blocking it. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "controlplane/command.h"

extern char **environ;

/* Starts argv with its output on a pipe that the API server watches. */
static int start_job(struct cmd_ctx *ctx, char *const argv[])
{
	posix_spawn_file_actions_t fa;
	int pfd[2], rc;
	pid_t pid;

	if (!ctx->s->jobs_allowed)
		return cmd_error(ctx, -ENOTSUP, "%% %s needs an interactive session", argv[2]);
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return cmd_error(ctx, -errno, "%% Cannot run %s: %s", argv[2], strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc != 0) {
		close(pfd[0]);
		return cmd_error(ctx, -rc, "%% Cannot run %s: %s", argv[2], strerror(rc));
	}
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	ctx->s->job.fd = pfd[0];
	ctx->s->job.pid = pid;
	return CMD_ASYNC;
}

static int cmd_ping(struct cmd_ctx *ctx)
{
	/* bounded: 5 probes, 2 s each at most, and timeout(1) as a backstop */
	char *const argv[] = { "timeout", "20", "ping", "-n", "-c", "5", "-i", "0.2", "-W", "2",
			       (char *)ctx->argv[1], NULL };

	return start_job(ctx, argv);
}

static int cmd_traceroute(struct cmd_ctx *ctx)
{
	char *const argv[] = { "timeout", "40", "traceroute", "-n", "-w", "1", "-q", "1", "-m", "16",
			       (char *)ctx->argv[1], NULL };

	return start_job(ctx, argv);
}

const struct cmd_def cmd_tools_table[] = {
	{ CMD_MODE_EXEC, "ping A.B.C.D", "Send 5 echo requests from the router", cmd_ping, 0 },
	{ CMD_MODE_EXEC, "traceroute A.B.C.D", "Trace the path from the router", cmd_traceroute, 0 },
	{ 0 },
};
