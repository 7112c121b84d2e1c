/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: ternd's API server itself. Each input is one client's byte stream, sent on
 * a connection to a running api_server whose event loop turns until the session ends:
 * with a first byte that is odd, the rest is lines, each sent as a well-framed command
 * (so that sessions reach the commands: modes, configuration, pipelines, jobs such as
 * ping), else the bytes go as they are (framing, garbage). The client closes its sending
 * side after the input; ternd must answer with whole replies only, end the session, and
 * hold no session and run no job afterwards. The framing is also cut by tern_api_rx in
 * uneven pieces, as a socket would deliver it.
 *
 * Sessions are root's and may configure: the target runs in a network namespace of its
 * own (unshare), so that nothing they ask of the kernel reaches the machine's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <rte_eal.h>

#include "api/tern_api.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "controlplane/ternd/api_server.h"
#include "controlplane/ternd/event_loop.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

#define SLICES_MAX 400		/* 1 ms turns of the loop a session may take */

static char dir[64], sock[96];
static unsigned int ticks, ticks_limit;

static void cleanup(void)
{
	api_server_stop();
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const struct api_limits limits = {
		.idle_timeout_s = 0, .request_timeout_s = 1, .reply_timeout_s = 1,
		.reply_queue_max = 8u << 20, .reply_queue_total = 16u << 20,
	};
	char prefix[64], err[256];
	char *eal[] = { "fuzz_api", "--no-huge", "-m", "256", "--no-pci", "-l", "0",
			"--file-prefix", prefix, "--log-level", "error", NULL };

	if (unshare(CLONE_NEWNET) < 0) {
		fprintf(stderr, "fuzz_api: needs root, to run its sessions in a network namespace of their own: %s\n",
			strerror(errno));
		__builtin_trap();
	}
	snprintf(prefix, sizeof(prefix), "tern-fuzz-api-%d", getpid());
	snprintf(dir, sizeof(dir), "/tmp/tern-fuzz-api-%d", getpid());
	snprintf(sock, sizeof(sock), "%s/ternd.sock", dir);
	mkdir(dir, 0700);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(4096, SOCKET_ID_ANY) < 0 || rib_init(4096, 1024) < 0 || cmd_init() < 0 ||
	    ev_init() < 0 || api_server_start(sock, 0600, &limits, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_api: cannot start: %s\n", err);
		__builtin_trap();
	}
	snprintf(dp.ports[0].name, sizeof(dp.ports[0].name), "dp0");
	snprintf(dp.ports[1].name, sizeof(dp.ports[1].name), "dp1");
	dp.ports[0].port_id = dp.ports[1].port_id = RTE_MAX_ETHPORTS - 1;	/* no such ethdev */
	dp.nb_ports = 2;
	atexit(cleanup);
	return 0;
}

static void tick(void)
{
	api_server_tick();
	if (++ticks >= ticks_limit)
		ev_stop();
}

/* Runs the control loop for about ms milliseconds. */
static void turn(unsigned int ms)
{
	ticks = 0;
	ticks_limit = ms;
	ev_run(tick, 1);
}

/* What the client must send for the input: the bytes, or each line framed as a command. */
static size_t client_stream(const uint8_t *data, size_t size, uint8_t **out)
{
	struct tern_api_hdr h;
	const uint8_t *p = data + 1, *end = data + size;
	size_t n = 0, cap = size * 2 + 64;
	uint8_t *s = malloc(cap);

	if (s == NULL)
		return 0;
	if (size == 0 || !(data[0] & 1)) {
		memcpy(s, data, size);
		*out = s;
		return size;
	}
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', end - p);
		size_t len = (nl ? nl : end) - p;

		tern_api_hdr_init(&h, (data[0] & 2) ? TERN_API_COMPLETE : TERN_API_COMMAND,
				  (data[0] & 4) ? TERN_API_F_JSON : 0, 0, len);
		if (n + sizeof(h) + len > cap && (s = realloc(s, cap = 2 * (n + sizeof(h) + len))) == NULL)
			return 0;
		memcpy(s + n, &h, sizeof(h));
		memcpy(s + n + sizeof(h), p, len);
		n += sizeof(h) + len;
		p += len + 1;
	}
	*out = s;
	return n;
}

/* Reads what ternd sent; each reply must be whole and well framed. 1 at the end. */
static int take_replies(int fd, struct tern_api_rx *rx)
{
	struct tern_api_msg m;
	ssize_t r;
	int rc;

	for (;;) {
		if (tern_api_rx_reserve(rx, 65536) < 0)
			__builtin_trap();
		r = recv(fd, rx->buf + rx->len, 65536, MSG_DONTWAIT);
		if (r == 0)
			break;
		if (r < 0)
			return errno == EAGAIN ? 0 : 1;
		rx->len += r;
		while ((rc = tern_api_rx_next(rx, &m)) == 1)
			if (m.hdr.type != TERN_API_REPLY || m.hdr.len > TERN_API_MAX_PAYLOAD ||
			    memchr(m.payload, '\0', m.hdr.len) == NULL)
				__builtin_trap();	/* a reply is prompt NUL output */
		if (rc < 0)
			__builtin_trap();	/* ternd sent a malformed message */
	}
	/* the end: nothing may be left half sent */
	if (tern_api_rx_next(rx, &m) != 0 || rx->len != 0)
		__builtin_trap();
	return 1;
}

/* The framing alone, cut in uneven pieces. */
static void framing(const uint8_t *data, size_t size)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	size_t off = 0;
	int rc = 0;

	if (tern_api_rx_init(&rx) < 0)
		return;
	while (off < size && rc >= 0) {
		size_t piece = 1 + (data[off] % 61);

		if (piece > size - off)
			piece = size - off;
		if (tern_api_rx_reserve(&rx, piece) < 0)
			break;
		memcpy(rx.buf + rx.len, data + off, piece);
		rx.len += piece;
		off += piece;
		while ((rc = tern_api_rx_next(&rx, &m)) == 1)
			if (m.hdr.len > TERN_API_MAX_PAYLOAD)
				__builtin_trap();
	}
	tern_api_rx_free(&rx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct tern_api_rx rx;
	uint8_t *stream = NULL;
	size_t n, off = 0;
	unsigned int slice;
	bool said_all = false;
	int fd, done = 0;

	framing(data, size);
	n = client_stream(data, size, &stream);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", sock);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || tern_api_rx_init(&rx) < 0)
		__builtin_trap();
	for (slice = 0; slice < SLICES_MAX && !done; slice++) {
		while (off < n) {
			ssize_t w = send(fd, stream + off, n - off, MSG_DONTWAIT | MSG_NOSIGNAL);

			if (w <= 0)
				break;
			off += w;
		}
		if (off == n && !said_all) {
			shutdown(fd, SHUT_WR);	/* the client has said all it will */
			said_all = true;
		}
		turn(1);
		done = take_replies(fd, &rx);
	}
	if (!done)
		__builtin_trap();	/* the session outlived SLICES_MAX turns of the loop */
	close(fd);
	turn(1);
	if (api_server_clients() != 0)
		__builtin_trap();	/* a session stayed after its client left */
	tern_api_rx_free(&rx);
	free(stream);
	return 0;
}
