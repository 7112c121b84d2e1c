/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping and traceroute from the router, and capture through dpdk-dumpcap: tools
 * run as processes in ternd's namespace, watched from its event loop, never blocking it.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>

#include "controlplane/shell/command.h"
#include "controlplane/shell/job.h"
#include "dataplane/dp.h"

static char capture_dir[200] = "/var/lib/tern/captures";

void cmd_tools_set_capture_dir(const char *dir)
{
	snprintf(capture_dir, sizeof(capture_dir), "%s", dir);
}

/* Starts argv with its output on a pipe that the API server watches; pass_fd, unless -1, is
 * the tool's descriptor 3. */
static int start_job(struct cmd_ctx *ctx, char *const argv[], int pass_fd)
{
	pid_t pid;
	int fd, rc;

	rc = job_spawn(argv, pass_fd, &fd, &pid);
	if (rc < 0)
		return cmd_error(ctx, rc, "%% Cannot run %s: %s", argv[2], strerror(-rc));
	ctx->s->job.fd = fd;
	ctx->s->job.pid = pid;
	return CMD_ASYNC;
}

static int needs_session(struct cmd_ctx *ctx, const char *tool)
{
	ctx->s->job.note[0] = '\0';
	ctx->s->job.finish = NULL;
	if (!ctx->s->jobs_allowed)
		return cmd_error(ctx, -ENOTSUP, "%% %s needs an interactive session", tool);
	return 0;
}

/* Echo requests a ping sends at most: 0.2 s apart, a minute of them at the most */
#define PING_COUNT_MAX 300

static int cmd_ping(struct cmd_ctx *ctx)
{
	const char *count_arg = cmd_arg(ctx, "count");
	unsigned long n = 5;
	char count[8], limit[8];
	char *end;

	if (count_arg != NULL) {
		errno = 0;
		n = strtoul(count_arg, &end, 10);
		if (errno != 0 || *end != '\0' || n < 1 || n > PING_COUNT_MAX)
			return cmd_error(ctx, -ERANGE, "%% A ping sends 1 to %u echo requests",
					 PING_COUNT_MAX);
	}
	snprintf(count, sizeof(count), "%lu", n);
	/* bounded: n probes 0.2 s apart, the last waited for 2 s, and timeout(1) as a backstop */
	snprintf(limit, sizeof(limit), "%lu", n / 5 + 15);
	{
		char *const argv[] = { "timeout", limit, "ping", "-n", "-c", count, "-i", "0.2",
				       "-W", "2", (char *)ctx->argv[1], NULL };

		return needs_session(ctx, "ping") ?: start_job(ctx, argv, -1);
	}
}

static int cmd_traceroute(struct cmd_ctx *ctx)
{
	char *const argv[] = { "timeout", "40", "traceroute", "-n", "-w", "1", "-q", "1", "-m", "16",
			       (char *)ctx->argv[1], NULL };

	return needs_session(ctx, "traceroute") ?: start_job(ctx, argv, -1);
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

/* A capture file's name: letters, digits, '.', '_' and '-', not starting with '.'. */
static bool capture_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
			return false;
	return true;
}

/* The capture directory, made if missing; it must be root's directory and nobody else's to
 * write, so that a name in it cannot be swapped for a link elsewhere. */
static int capture_dir_open(struct cmd_ctx *ctx)
{
	struct stat st;
	int fd;

	if (mkdir(capture_dir, 0750) < 0 && errno != EEXIST)
		return cmd_error(ctx, -errno, "%% Cannot make the capture directory %s ([capture] dir): %s",
				 capture_dir, strerror(errno));
	fd = open(capture_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return cmd_error(ctx, -errno, "%% Cannot open the capture directory %s ([capture] dir): %s",
				 capture_dir, strerror(errno));
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return cmd_error(ctx, -EPERM, "%% The capture directory %s ([capture] dir) must belong to "
				 "ternd's user and be writable by it alone", capture_dir);
	}
	return fd;
}

/* A name the operator gave: a bare name, or a path into the capture directory. */
static int capture_name(struct cmd_ctx *ctx, const char *arg, char *name, size_t len)
{
	const char *slash = strrchr(arg, '/');

	if (slash != NULL && ((size_t)(slash - arg) != strlen(capture_dir) ||
			      strncmp(arg, capture_dir, slash - arg) != 0))
		return cmd_error(ctx, -EPERM, "%% Captures are written into %s only ([capture] dir): "
				 "give a file name such as dp1.pcapng", capture_dir);
	arg = slash ? slash + 1 : arg;
	if (!capture_name_ok(arg))
		return cmd_error(ctx, -EINVAL, "%% Capture file name '%s': expected 1 to 64 letters, digits, "
				 "'.', '_' or '-', not starting with '.'", arg);
	snprintf(name, len, "%s", arg);
	return 0;
}

/* The default name: the port, the time and a random part nobody can guess ahead. */
static void capture_default_name(const char *port, char *name, size_t len)
{
	char stamp[32];
	uint32_t r = 0;
	time_t now = time(NULL);

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint32_t)rte_rdtsc();
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	snprintf(name, len, "%s-%s-%08x.pcapng", port, stamp, r);
}

/* What dpdk-dumpcap says that is not about the capture: its EAL scanning the PCI bus (it
 * takes no --no-pci), the descriptor it writes to, a TAP port that has no promiscuous mode. */
static bool dumpcap_chatter(const char *line, size_t len)
{
	static const char *const noise[] = { "is not driven by the primary process",
		"EAL: Requested device", "File: /dev/fd/", "set promiscuous enable failed" };
	unsigned int i;

	if (len == 0)
		return true;
	for (i = 0; i < RTE_DIM(noise); i++)
		if (memmem(line, len, noise[i], strlen(noise[i])) != NULL)
			return true;
	return false;
}

/* The capture's answer: its file, and what dumpcap counted, without its chatter. */
static void capture_finish(struct outbuf *out)
{
	struct outbuf kept;
	const char *p = out->buf, *end = out->buf + out->len;

	ob_init(&kept);
	while (p != NULL && p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!dumpcap_chatter(p, len))
			ob_printf(&kept, "%.*s\n", (int)len, p);
		p = nl ? nl + 1 : NULL;
	}
	ob_free(out);
	*out = kept;
}

/*
 * capture IFNAME [count N] [file NAME]: dpdk-dumpcap attaches to ternd as a secondary
 * process (rte_pdump) and writes the port's rx and tx to pcapng, into a file that ternd has
 * made itself (O_EXCL, O_NOFOLLOW) in [capture] dir and hands it as descriptor 3.
 */
static int cmd_capture(struct cmd_ctx *ctx)
{
	const struct dp_port *p = dp_port_by_name(cmd_arg(ctx, "port"));
	const char *count_arg = cmd_arg(ctx, "count"), *file = cmd_arg(ctx, "file");
	char prefix[64], port[8], count[16], name[80] = "", *slash;
	const char *rundir = rte_eal_get_runtime_dir();
	unsigned long n = 100;
	int dfd, fd, rc;

	if ((rc = needs_session(ctx, "capture")) < 0)
		return rc;
	if (p == NULL)
		return cmd_error(ctx, -ENODEV, "%% No port named %s", cmd_arg(ctx, "port"));
	if (!rte_eal_has_hugepages())
		return cmd_error(ctx, -ENOTSUP, "%% Capture needs ternd on hugepages: dpdk-dumpcap attaches "
				 "as a secondary process, which --no-huge does not allow");
	if (dpdk_linked_in())
		return cmd_error(ctx, -ENOTSUP, "%% Capture needs the ternd built on DPDK's shared libraries: "
				 "dpdk-dumpcap cannot attach to ternd-static");
	if (count_arg != NULL) {
		n = strtoul(count_arg, NULL, 10);
		if (n < 1 || n > 10000000)
			return cmd_error(ctx, -ERANGE, "%% A capture takes 1 to 10000000 packets");
	}
	if (file != NULL && (rc = capture_name(ctx, file, name, sizeof(name))) < 0)
		return rc;
	if (name[0] == '\0')
		capture_default_name(p->name, name, sizeof(name));
	if ((dfd = capture_dir_open(ctx)) < 0)
		return dfd;
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640);
	rc = -errno;
	close(dfd);
	if (fd < 0)
		return cmd_error(ctx, rc, rc == -EEXIST ? "%% %s/%s exists already; give another name"
							: "%% Cannot create %s/%s: %s", capture_dir, name,
				 strerror(-rc));
	slash = strrchr(rundir, '/');
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s", slash ? slash + 1 : rundir);
	snprintf(port, sizeof(port), "%u", p->port_id);
	snprintf(count, sizeof(count), "%lu", n);
	snprintf(ctx->s->job.note, sizeof(ctx->s->job.note), "Capture file: %s/%s", capture_dir, name);
	ctx->s->job.finish = capture_finish;
	{
		/* at most a minute, whatever the count; dumpcap writes into the file ternd made */
		char *const argv[] = { "timeout", "70", "dpdk-dumpcap", prefix, "-i", port, "-c", count,
				       "-a", "duration:60", "-q", "-w",
				       "/dev/fd/" RTE_STR(JOB_PASSED_FD), /* NOLINT(bugprone-suspicious-missing-comma) */
				       NULL };

		rc = start_job(ctx, argv, fd);
		close(fd);
		return rc;
	}
}

const struct cmd_def cmd_tools_table[] = {
	{ CMD_MODE_EXEC, "capture port:IFNAME [count NUMBER] [file WORD]",
	  "Capture a port's packets, rx and tx (100 unless count says), to pcapng with dpdk-dumpcap, into a file of [capture] dir",
	  cmd_capture, CMD_F_CONFIG },
	{ CMD_MODE_EXEC, "ping A.B.C.D [count NUMBER]",
	  "Send echo requests from the router, 0.2 s apart (5 unless count says, at most 300)",
	  cmd_ping, 0 },
	{ CMD_MODE_EXEC, "traceroute A.B.C.D", "Trace the path from the router", cmd_traceroute, 0 },
	{ 0 },
};
