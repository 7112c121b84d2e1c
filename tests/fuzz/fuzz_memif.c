/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: a memif peer's control messages, against DPDK's memif PMD as ternd runs it
 * (a started server port, with ternd's guards: dataplane/workarounds/memif_*_guard.c and
 * memif_channel_check.c). Each input is one connection: the peer reads the server's HELLO,
 * sends the input as 128-byte messages (a shorter tail as a message of its own), then
 * hangs up and waits for the server to close its end. An ADD_REGION carries a sealed memfd
 * of the size it announces (up to 1 MiB; past that, a 1 MiB file: a region past its file's
 * end), filled with the ring cookie so that rings placed anywhere can connect; an ADD_RING
 * carries an eventfd. No crash, and once the server has closed the connection and the guard
 * has swept (as ternd's control loop does): the port is down, the guard watches the
 * listening socket alone, EAL's interrupt thread has a source for the same descriptors as
 * before the first input, and the process holds no more file descriptors than before.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <dirent.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "dataplane/workarounds/memif_channel_guard.h"

#define MEMIF_COOKIE	0x3E31F20
#define REGION_MAX	(1u << 20)

static char dir[64], sock_path[108];
static uint16_t port;

static void cleanup(void)
{
	unlink(sock_path);
	rmdir(dir);
}

/* File descriptors open, but for epoll's: EAL's interrupt thread makes its epoll set anew
 * each time a source comes or goes, and may hold two for a moment. */
static int open_fds(void)
{
	char path[300], target[64];
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	ssize_t len;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;	/* closed since the directory was read: an epoll set let go */
		target[len] = '\0';
		n += strcmp(target, "anon_inode:[eventpoll]") != 0;
	}
	closedir(d);
	return n - 1;	/* the directory's own */
}

/*
 * The descriptors EAL's interrupt thread has a source for, as a bit set over the first 1024:
 * a source whose descriptor the PMD closed is what panicked EAL's interrupt thread, and one
 * left behind on a number a new connection then reuses keeps that connection out of its epoll
 * set. An unregister_pending that matches no callback answers -ENOENT without a source and
 * -EAGAIN with one that is not running, and changes nothing.
 */
#define SOURCES_MAX 1024
static uint64_t eal_sources[SOURCES_MAX / 64];

static void eal_sources_read(uint64_t *set)
{
	struct rte_intr_handle *h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	int fd;

	memset(set, 0, SOURCES_MAX / 8);
	for (fd = 0; h != NULL && fd < SOURCES_MAX; fd++) {
		rte_intr_fd_set(h, fd);
		if (rte_intr_callback_unregister_pending(h, (rte_intr_callback_fn)1, (void *)1, NULL) != -ENOENT)
			set[fd / 64] |= 1ull << (fd % 64);
	}
	rte_intr_instance_free(h);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *mp;
	char prefix[64], vdev[256];
	char *eal[] = { "fuzz_memif", "--no-huge", "-m", "256", "--no-pci", "-l", "0",
			"--file-prefix", prefix, "--vdev", vdev, "--log-level", "*:emerg", NULL };

	snprintf(prefix, sizeof(prefix), "tern-fuzz-memif-%d", getpid());
	snprintf(dir, sizeof(dir), "/tmp/tern-fuzz-memif-%d", getpid());
	snprintf(sock_path, sizeof(sock_path), "%s/memif.sock", dir);
	snprintf(vdev, sizeof(vdev), "net_memif0,role=server,id=0,socket=%s,socket-abstract=no",
		 sock_path);
	mkdir(dir, 0700);
	atexit(cleanup);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0 || rte_eth_dev_get_port_by_name("net_memif0", &port) < 0) {
		fprintf(stderr, "fuzz_memif: cannot start EAL with a memif port\n");
		__builtin_trap();
	}
	mp = rte_pktmbuf_pool_create("fuzz_memif", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL || rte_eth_dev_configure(port, 1, 1, &conf) < 0 ||
	    rte_eth_rx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL, mp) < 0 ||
	    rte_eth_tx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL) < 0 || rte_eth_dev_start(port) < 0) {
		fprintf(stderr, "fuzz_memif: cannot start the memif port\n");
		__builtin_trap();
	}
	eal_sources_read(eal_sources);
	return 0;
}

/* A sealed region of len bytes (at most REGION_MAX), every word the ring cookie. */
static int region_fd(uint64_t len)
{
	static uint32_t cookies[REGION_MAX / sizeof(uint32_t)];
	int fd = memfd_create("fuzz_memif_region", MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (cookies[0] != MEMIF_COOKIE)
		for (size_t i = 0; i < RTE_DIM(cookies); i++)
			cookies[i] = MEMIF_COOKIE;
	len = len < REGION_MAX ? len : REGION_MAX;
	if (ftruncate(fd, len) < 0 || pwrite(fd, cookies, len, 0) != (ssize_t)len ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Sends one message, with the descriptor its type carries; drains what the server said. */
static void send_message(int s, const uint8_t *msg, size_t len)
{
	char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	uint8_t reply[MEMIF_MSG_LEN];
	uint64_t size = 0;
	int fd = -1;

	if (len == MEMIF_MSG_LEN && msg[0] == MEMIF_MSG_ADD_REGION && msg[1] == 0) {
		memcpy(&size, msg + 4, sizeof(size));
		fd = region_fd(size);
	} else if (len == MEMIF_MSG_LEN && msg[0] == MEMIF_MSG_ADD_RING && msg[1] == 0) {
		fd = eventfd(0, 0);
	}
	if (fd >= 0) {
		mh.msg_control = ctl;
		mh.msg_controllen = sizeof(ctl);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	(void)!sendmsg(s, &mh, MSG_NOSIGNAL);
	if (fd >= 0)
		close(fd);
	while (recv(s, reply, sizeof(reply), MSG_DONTWAIT) > 0)
		;
}

/* Waits for the server to close its end: its handler has run to the end. */
static void wait_server_close(int s)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	uint8_t reply[MEMIF_MSG_LEN];

	while (poll(&p, 1, 5000) == 1) {
		ssize_t n = recv(s, reply, sizeof(reply), MSG_DONTWAIT);

		if (n == 0 || (n < 0 && errno != EAGAIN))
			return;
	}
	fprintf(stderr, "fuzz_memif: the server did not close the connection in 5 s\n");
	__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct rte_eth_link link;
	uint8_t hello[MEMIF_MSG_LEN];
	int s, fds = open_fds();
	size_t off;

	s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	memcpy(un.sun_path, sock_path, strlen(sock_path) + 1);
	if (s < 0 || connect(s, (struct sockaddr *)&un, sizeof(un)) < 0) {
		fprintf(stderr, "fuzz_memif: cannot connect to %s: %s\n", sock_path, strerror(errno));
		__builtin_trap();
	}
	(void)!recv(s, hello, sizeof(hello), 0);
	for (off = 0; off < size; off += MEMIF_MSG_LEN)
		send_message(s, data + off, RTE_MIN((size_t)MEMIF_MSG_LEN, size - off));
	shutdown(s, SHUT_WR);
	wait_server_close(s);
	close(s);
	memif_channel_guard_sweep();	/* as ternd's control loop does */
	rte_eth_link_get_nowait(port, &link);
	if (link.link_status != RTE_ETH_LINK_DOWN || memif_channel_watched() != 1) {
		fprintf(stderr, "fuzz_memif: after the peer left, link %s and %u descriptors watched (1 expected)\n",
			link.link_status ? "up" : "down", memif_channel_watched());
		__builtin_trap();
	}
	uint64_t sources[SOURCES_MAX / 64];

	eal_sources_read(sources);
	for (unsigned int i = 0; i < SOURCES_MAX / 64; i++)
		if (sources[i] != eal_sources[i]) {
			fprintf(stderr, "fuzz_memif: EAL watches other descriptors after the input (word %u: %#lx, %#lx before)\n",
				i, sources[i], eal_sources[i]);
			__builtin_trap();
		}
	if (open_fds() > fds) {
		fprintf(stderr, "fuzz_memif: %d file descriptors open after the input, %d before\n",
			open_fds(), fds);
		__builtin_trap();
	}
	return 0;
}
