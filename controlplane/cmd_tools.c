/*
 * ping and traceroute from the router, and capture through dpdk-dumpcap: tools
 * run as processes in ternd's namespace, watched from its event loop, never blocking it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>

#include "controlplane/command.h"
#include "dataplane/dp.h"

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

/*
 * Whether DPDK is linked into this ternd (ternd-static) rather than taken from its shared
 * libraries. dpdk-dumpcap, built on the shared libraries, cannot attach to such a ternd:
 * its EAL init fails on tail queues the static ternd never registered, and were they
 * there, its mempool drivers would stand in another order than ternd's.
 */
static bool dpdk_linked_in(void)
{
	Dl_info info;

	return dladdr((void *)rte_eal_init, &info) == 0 || info.dli_fname == NULL ||
	       strstr(info.dli_fname, "librte_eal") == NULL;
}

/*
 * capture IFNAME [count N] [file /PATH]: dpdk-dumpcap attaches to ternd as a
 * secondary process (rte_pdump) and writes the port's rx and tx to pcapng.
 */
static int cmd_capture(struct cmd_ctx *ctx)
{
	const struct dp_port *p = dp_port_by_name(ctx->argv[1]);
	char prefix[64], port[8], count[16], file[256], *slash;
	const char *rundir = rte_eal_get_runtime_dir();
	unsigned long n = 100;
	int i;

	if (p == NULL)
		return cmd_error(ctx, -ENODEV, "%% No port named %s", ctx->argv[1]);
	if (!rte_eal_has_hugepages())
		return cmd_error(ctx, -ENOTSUP, "%% Capture needs ternd on hugepages: dpdk-dumpcap attaches "
				 "as a secondary process, which --no-huge does not allow");
	if (dpdk_linked_in())
		return cmd_error(ctx, -ENOTSUP, "%% Capture needs the ternd built on DPDK's shared libraries: "
				 "dpdk-dumpcap cannot attach to ternd-static");
	snprintf(file, sizeof(file), "/var/tmp/tern-%s-%ld.pcapng", p->name, (long)time(NULL));
	for (i = 2; i + 1 < ctx->argc; i += 2) {
		if (strcmp(ctx->argv[i], "count") == 0) {
			n = strtoul(ctx->argv[i + 1], NULL, 10);
			if (n < 1 || n > 10000000)
				return cmd_error(ctx, -ERANGE, "%% A capture takes 1 to 10000000 packets");
		} else if (ctx->argv[i + 1][0] != '/' || strlen(ctx->argv[i + 1]) >= sizeof(file)) {
			return cmd_error(ctx, -EINVAL, "%% The capture file must be an absolute path");
		} else {
			snprintf(file, sizeof(file), "%s", ctx->argv[i + 1]);
		}
	}
	slash = strrchr(rundir, '/');
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s", slash ? slash + 1 : rundir);
	snprintf(port, sizeof(port), "%u", p->port_id);
	snprintf(count, sizeof(count), "%lu", n);
	{
		/* at most a minute, whatever the count */
		char *const argv[] = { "timeout", "70", "dpdk-dumpcap", prefix, "-i", port, "-c", count,
				       "-a", "duration:60", "-w", file, NULL };

		return start_job(ctx, argv);
	}
}

const struct cmd_def cmd_tools_table[] = {
	{ CMD_MODE_EXEC, "capture IFNAME", "Capture 100 packets of a port (rx and tx) to pcapng with dpdk-dumpcap", cmd_capture, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "capture IFNAME count NUMBER", "Capture N packets of a port", cmd_capture, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "capture IFNAME file WORD", "Capture 100 packets into a file (absolute path)", cmd_capture, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "capture IFNAME count NUMBER file WORD", "Capture N packets into a file", cmd_capture, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "ping A.B.C.D", "Send 5 echo requests from the router", cmd_ping, 0 },
	{ CMD_MODE_EXEC, "traceroute A.B.C.D", "Trace the path from the router", cmd_traceroute, 0 },
	{ 0 },
};
