/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A descriptor the memif PMD registered with EAL's interrupt thread is out of EAL's list
 * before it closes, however the PMD closes it; EAL's interrupt thread keeps serving.
 * Each test registers a socket's end as the PMD does (memif_pmd_intr_callback_register),
 * closes it one way, and asks EAL whether it still watches it. Without the guard's
 * unregister in close(), EAL keeps the closed descriptor and its interrupt thread panics at
 * its next rebuild ("Error adding fd N epoll_ctl, Bad file descriptor").
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_interrupts.h>

#include "dataplane/workarounds/memif_channel_guard.h"

struct channel {
	int fd, peer;			/* our end (watched), the peer's */
	struct rte_intr_handle *h;
	int calls;			/* callbacks run, on EAL's interrupt thread */
	int closed_by_eal;		/* the pending-unregister callback ran */
	enum { ON_EVENT_READ, ON_EVENT_UNREGISTER_PENDING, ON_EVENT_CLOSE, ON_EVENT_NOTHING } on_event;
};

/* A connection as the PMD's listener accepts one: fd is ternd's (server) end. */
static void channel_open(struct channel *c)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t len;
	int l = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	assert_true(l >= 0);
	/* the family alone: the kernel binds an abstract address of its own */
	assert_int_equal(bind(l, (struct sockaddr *)&un, sizeof(sa_family_t)), 0);
	assert_int_equal(listen(l, 1), 0);
	len = sizeof(un);
	assert_int_equal(getsockname(l, (struct sockaddr *)&un, &len), 0);
	c->peer = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_int_equal(connect(c->peer, (struct sockaddr *)&un, len), 0);
	c->fd = accept(l, NULL, NULL);
	assert_true(c->fd >= 0);
	close(l);
	c->h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	assert_non_null(c->h);
	assert_int_equal(rte_intr_fd_set(c->h, c->fd), 0);
	assert_int_equal(rte_intr_type_set(c->h, RTE_INTR_HANDLE_EXT), 0);
}

static void channel_free(struct channel *c)
{
	close(c->peer);
	rte_intr_instance_free(c->h);
}

static void eal_closes(struct rte_intr_handle *h, void *arg)
{
	struct channel *c = arg;

	close(rte_intr_fd_get(h));
	__atomic_store_n(&c->closed_by_eal, 1, __ATOMIC_RELEASE);
}

/* As the PMD's memif_intr_handler: reads what came, and may leave from inside. */
static void on_event(void *arg)
{
	struct channel *c = arg;
	char buf[64];

	if (c->on_event == ON_EVENT_NOTHING)
		return;	/* the test reads, as the PMD's handler would */
	(void)!read(c->fd, buf, sizeof(buf));
	if (c->on_event == ON_EVENT_UNREGISTER_PENDING)
		memif_pmd_intr_callback_unregister_pending(c->h, on_event, c, eal_closes);
	else if (c->on_event == ON_EVENT_CLOSE)
		close(c->fd);
	__atomic_fetch_add(&c->calls, 1, __ATOMIC_RELEASE);
}

static int wait_for(const int *flag, int value)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) >= value)
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

/* Whether EAL still has a source for the channel's descriptor number. */
static bool eal_watches(struct channel *c)
{
	struct rte_intr_handle *h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	int rc;

	rte_intr_fd_set(h, c->fd);
	rc = rte_intr_callback_unregister_pending(h, on_event, c, NULL);
	rte_intr_instance_free(h);
	return rc != -ENOENT;
}

/* The peer sees its connection closed. */
static bool peer_sees_close(struct channel *c)
{
	struct pollfd p = { .fd = c->peer, .events = POLLIN };

	return poll(&p, 1, 5000) == 1 && (p.revents & POLLHUP);
}

/* EAL's interrupt thread still rebuilds its set and serves a new source. */
static void interrupt_thread_serves(void)
{
	struct channel c = { .on_event = ON_EVENT_READ };

	channel_open(&c);
	assert_int_equal(rte_intr_callback_register(c.h, on_event, &c), 0);
	usleep(20000);	/* the thread's rebuild, with any stale source, comes now */
	assert_int_equal(write(c.peer, "x", 1), 1);
	assert_int_equal(wait_for(&c.calls, 1), 0);
	assert_int_equal(rte_intr_callback_unregister_sync(c.h, on_event, &c), 1);
	close(c.fd);
	channel_free(&c);
}

static void test_memif_channel_guard_close_while_watched_unwatches_first(void **state)
{
	uint64_t opened = memif_channel_count(MEMIF_CHANNEL_OPENED);
	uint64_t closed = memif_channel_count(MEMIF_CHANNEL_CLOSED);
	uint64_t abandoned = memif_channel_count(MEMIF_CHANNEL_ABANDONED);
	struct channel c = { .on_event = ON_EVENT_READ };

	/* the PMD's accept handler: register, the HELLO fails, close and free */
	channel_open(&c);
	assert_int_equal(memif_pmd_intr_callback_register(c.h, on_event, &c), 0);
	assert_int_equal(memif_channel_watched(), 1);
	assert_int_equal(close(c.fd), 0);
	assert_false(eal_watches(&c));
	assert_true(peer_sees_close(&c));
	assert_int_equal(memif_channel_watched(), 0);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_OPENED), opened + 1);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_CLOSED), closed + 1);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_ABANDONED), abandoned + 1);
	channel_free(&c);
	interrupt_thread_serves();
}

static void test_memif_channel_guard_orderly_unregister_then_close(void **state)
{
	uint64_t closed = memif_channel_count(MEMIF_CHANNEL_CLOSED);
	uint64_t abandoned = memif_channel_count(MEMIF_CHANNEL_ABANDONED);
	struct channel c = { .on_event = ON_EVENT_READ };

	/* memif_disconnect from the control thread: unregister, then close */
	channel_open(&c);
	assert_int_equal(memif_pmd_intr_callback_register(c.h, on_event, &c), 0);
	assert_int_equal(memif_pmd_intr_callback_unregister(c.h, on_event, &c), 1);
	assert_int_equal(memif_channel_watched(), 0);
	assert_int_equal(close(c.fd), 0);
	assert_true(peer_sees_close(&c));
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_CLOSED), closed + 1);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_ABANDONED), abandoned);
	channel_free(&c);
	interrupt_thread_serves();
}

static void test_memif_channel_guard_pending_unregister_closes_once(void **state)
{
	uint64_t closed = memif_channel_count(MEMIF_CHANNEL_CLOSED);
	uint64_t abandoned = memif_channel_count(MEMIF_CHANNEL_ABANDONED);
	struct channel c = { .on_event = ON_EVENT_UNREGISTER_PENDING };

	/* memif_intr_handler leaving from inside: EAL calls back, under its lock, to close */
	channel_open(&c);
	assert_int_equal(memif_pmd_intr_callback_register(c.h, on_event, &c), 0);
	assert_int_equal(write(c.peer, "x", 1), 1);
	assert_int_equal(wait_for(&c.closed_by_eal, 1), 0);
	assert_true(peer_sees_close(&c));
	assert_false(eal_watches(&c));
	assert_int_equal(c.calls, 1);
	assert_int_equal(memif_channel_watched(), 0);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_CLOSED), closed + 1);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_ABANDONED), abandoned);
	channel_free(&c);
	interrupt_thread_serves();
}

static void test_memif_channel_guard_close_inside_own_callback_waits_for_eal(void **state)
{
	uint64_t abandoned = memif_channel_count(MEMIF_CHANNEL_ABANDONED);
	struct channel c = { .on_event = ON_EVENT_CLOSE };

	/* a close from inside the descriptor's own callback, where EAL cannot unregister:
	 * the descriptor closes once EAL has let go of it */
	channel_open(&c);
	assert_int_equal(memif_pmd_intr_callback_register(c.h, on_event, &c), 0);
	assert_int_equal(write(c.peer, "x", 1), 1);
	assert_int_equal(wait_for(&c.calls, 1), 0);
	assert_true(peer_sees_close(&c));
	assert_false(eal_watches(&c));
	assert_int_equal(memif_channel_watched(), 0);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_ABANDONED), abandoned + 1);
	channel_free(&c);
	interrupt_thread_serves();
}

static void test_memif_channel_guard_listener_is_not_a_peer(void **state)
{
	uint64_t opened = memif_channel_count(MEMIF_CHANNEL_OPENED);
	uint64_t closed = memif_channel_count(MEMIF_CHANNEL_CLOSED);
	struct channel c = { .on_event = ON_EVENT_READ };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	assert_true(fd >= 0);
	/* the family alone: the kernel binds an abstract address of its own */
	assert_int_equal(bind(fd, (struct sockaddr *)&un, sizeof(sa_family_t)), 0);
	assert_int_equal(listen(fd, 1), 0);
	channel_open(&c);
	close(c.fd);
	c.fd = fd;
	assert_int_equal(rte_intr_fd_set(c.h, fd), 0);
	assert_int_equal(memif_pmd_intr_callback_register(c.h, on_event, &c), 0);
	assert_int_equal(memif_pmd_intr_callback_unregister(c.h, on_event, &c), 1);
	assert_int_equal(close(fd), 0);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_OPENED), opened);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_CLOSED), closed);
	channel_free(&c);
}

static void msg_add_region(uint8_t *msg, uint16_t index, uint64_t size)
{
	uint16_t type = MEMIF_MSG_ADD_REGION;

	memset(msg, 0, MEMIF_MSG_LEN);
	memcpy(msg, &type, 2);
	memcpy(msg + 2, &index, 2);
	memcpy(msg + 4, &size, 8);
}

static void msg_add_ring_at(uint8_t *msg, uint16_t flags, uint16_t index, uint16_t region,
			    uint32_t offset, uint8_t log2)
{
	uint16_t type = MEMIF_MSG_ADD_RING;

	memset(msg, 0, MEMIF_MSG_LEN);
	memcpy(msg, &type, 2);
	memcpy(msg + 2, &flags, 2);
	memcpy(msg + 4, &index, 2);
	memcpy(msg + 6, &region, 2);
	memcpy(msg + 8, &offset, 4);
	msg[12] = log2;
}

/* A C2S ring, its index counted up from 0 so that each is a new one. */
static void msg_add_ring(uint8_t *msg, uint16_t region, uint32_t offset, uint8_t log2)
{
	static uint16_t next;

	msg_add_ring_at(msg, 1, next++ % MEMIF_QUEUES_MAX, region, offset, log2);
}

static void test_memif_channel_check_rings_lie_inside_announced_regions(void **state)
{
	struct memif_channel_regions r = { .server = true };
	const uint32_t ring10 = MEMIF_RING_HEADER + (MEMIF_DESC_LEN << 10);
	uint8_t msg[MEMIF_MSG_LEN];

	msg_add_ring(msg, 0, 0, 10);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_REGION);
	msg_add_region(msg, 1, 1 << 20);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_REGION_INDEX);
	msg_add_region(msg, 0, 2 * ring10);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.size[0], 2 * ring10);
	/* the second ring ends on the region's last byte; one byte further is outside */
	msg_add_ring(msg, 0, ring10, 10);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_OK);
	msg_add_ring(msg, 0, ring10 + 1, 10);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_PLACE);
	msg_add_ring(msg, 0, UINT32_MAX, 10);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_PLACE);
	msg_add_ring(msg, 0, 0, 12);	/* 64 KiB of slots in a 33 KiB region */
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_PLACE);
	msg_add_ring(msg, 0, 0, MEMIF_LOG2_RING_MAX + 1);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_SIZE);
	msg_add_ring(msg, 1, 0, 10);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_REGION);
	msg_add_ring(msg, 300, 0, 10);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_REGION);
}

static void test_memif_channel_check_ring_index_taken_once_each_way(void **state)
{
	struct memif_channel_regions r = { .server = true };
	uint8_t msg[MEMIF_MSG_LEN];

	msg_add_region(msg, 0, 1 << 20);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_OK);
	msg_add_ring_at(msg, 1, 0, 0, 0, 4);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_OK);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_INDEX);
	msg_add_ring_at(msg, 0, 0, 0, 4096, 4);	/* the same index the other way */
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_OK);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_INDEX);
	msg_add_ring_at(msg, 0, MEMIF_QUEUES_MAX - 1, 0, 8192, 4);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_OK);
	msg_add_ring_at(msg, 0, MEMIF_QUEUES_MAX, 0, 8192, 4);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_RING_INDEX);
}

static void test_memif_channel_check_each_side_takes_the_others_messages(void **state)
{
	struct memif_channel_regions server = { .server = true }, client = { .server = false };
	const uint16_t to_server[] = { MEMIF_MSG_INIT, MEMIF_MSG_CONNECT };
	const uint16_t to_client[] = { MEMIF_MSG_HELLO, MEMIF_MSG_CONNECTED };
	const uint16_t either[] = { MEMIF_MSG_ACK, MEMIF_MSG_DISCONNECT, 0x7f7f };
	uint8_t msg[MEMIF_MSG_LEN] = { 0 };
	unsigned int i;

	for (i = 0; i < RTE_DIM(to_server); i++) {
		memcpy(msg, &to_server[i], 2);
		assert_int_equal(memif_channel_msg_check(&server, msg), MEMIF_MSG_OK);
		assert_int_equal(memif_channel_msg_check(&client, msg), MEMIF_MSG_DIRECTION);
	}
	for (i = 0; i < RTE_DIM(to_client); i++) {
		memcpy(msg, &to_client[i], 2);
		assert_int_equal(memif_channel_msg_check(&server, msg), MEMIF_MSG_DIRECTION);
		assert_int_equal(memif_channel_msg_check(&client, msg), MEMIF_MSG_OK);
	}
	for (i = 0; i < RTE_DIM(either); i++) {
		memcpy(msg, &either[i], 2);
		assert_int_equal(memif_channel_msg_check(&server, msg), MEMIF_MSG_OK);
		assert_int_equal(memif_channel_msg_check(&client, msg), MEMIF_MSG_OK);
	}
	msg_add_region(msg, 0, 4096);	/* a server's regions are its own: none from its peer */
	assert_int_equal(memif_channel_msg_check(&client, msg), MEMIF_MSG_DIRECTION);
	assert_int_equal(client.n, 0);
}

static void test_memif_channel_check_regions_stop_at_256(void **state)
{
	struct memif_channel_regions r = { .server = true };
	uint8_t msg[MEMIF_MSG_LEN];
	unsigned int i;

	for (i = 0; i < MEMIF_REGIONS_MAX; i++) {
		msg_add_region(msg, i, 4096);
		assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_OK);
	}
	msg_add_region(msg, MEMIF_REGIONS_MAX, 4096);
	assert_int_equal(memif_channel_msg_check(&r, msg), MEMIF_MSG_REGION_INDEX);
	assert_int_equal(r.n, MEMIF_REGIONS_MAX);
}

/* Sends msg with a pipe's write end attached; returns the read end, whose EOF says that every
 * copy of the write end is closed. */
static int send_with_fd(int sock, const uint8_t *msg)
{
	char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = MEMIF_MSG_LEN };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	int p[2];

	assert_int_equal(pipe(p), 0);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &p[1], sizeof(int));
	assert_int_equal(sendmsg(sock, &mh, 0), MEMIF_MSG_LEN);
	close(p[1]);
	return p[0];
}

/* As the PMD's memif_msg_receive: the message, and the descriptor that came with it (or -1). */
static int receive_as_pmd(int sock, uint8_t *msg)
{
	char ctl[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))] = { 0 };
	struct iovec iov = { .iov_base = msg, .iov_len = MEMIF_MSG_LEN };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	int fd = -1;

	assert_int_equal(recvmsg(sock, &mh, 0), MEMIF_MSG_LEN);
	for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

static bool write_end_closed(int rd)
{
	struct pollfd p = { .fd = rd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP);
}

static void test_memif_channel_guard_refused_message_and_its_fd_go(void **state)
{
	uint64_t refused = memif_channel_count(MEMIF_CHANNEL_REFUSED);
	struct channel c = { .on_event = ON_EVENT_NOTHING };
	uint8_t msg[MEMIF_MSG_LEN], got[MEMIF_MSG_LEN];
	uint16_t type;
	int rd, fd;

	channel_open(&c);
	assert_int_equal(memif_pmd_intr_callback_register(c.h, on_event, &c), 0);
	/* a region, kept with its descriptor */
	msg_add_region(msg, 0, 4096);
	rd = send_with_fd(c.peer, msg);
	fd = receive_as_pmd(c.fd, got);
	assert_true(fd >= 0);
	assert_memory_equal(got, msg, MEMIF_MSG_LEN);
	assert_false(write_end_closed(rd));
	close(fd);
	assert_true(write_end_closed(rd));
	close(rd);
	/* a ring past the region's end: refused, its descriptor closed */
	msg_add_ring(msg, 0, 4096, 10);
	rd = send_with_fd(c.peer, msg);
	assert_int_equal(receive_as_pmd(c.fd, got), -1);
	memcpy(&type, got, 2);
	assert_int_equal(type, MEMIF_MSG_REFUSED);
	assert_true(write_end_closed(rd));
	close(rd);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_REFUSED), refused + 1);
	/* a message that takes no descriptor: passed on, the descriptor closed */
	memset(msg, 0, sizeof(msg));
	msg[0] = 6;	/* CONNECT */
	rd = send_with_fd(c.peer, msg);
	assert_int_equal(receive_as_pmd(c.fd, got), -1);
	assert_memory_equal(got, msg, MEMIF_MSG_LEN);
	assert_true(write_end_closed(rd));
	close(rd);
	assert_int_equal(memif_channel_count(MEMIF_CHANNEL_REFUSED), refused + 1);
	assert_int_equal(close(c.fd), 0);
	channel_free(&c);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_memif_channel_guard", "--no-huge", "-m", "64", "--no-pci", "-l", "0",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memif_channel_guard_close_while_watched_unwatches_first),
		cmocka_unit_test(test_memif_channel_guard_orderly_unregister_then_close),
		cmocka_unit_test(test_memif_channel_guard_pending_unregister_closes_once),
		cmocka_unit_test(test_memif_channel_guard_close_inside_own_callback_waits_for_eal),
		cmocka_unit_test(test_memif_channel_guard_listener_is_not_a_peer),
		cmocka_unit_test(test_memif_channel_check_rings_lie_inside_announced_regions),
		cmocka_unit_test(test_memif_channel_check_ring_index_taken_once_each_way),
		cmocka_unit_test(test_memif_channel_check_each_side_takes_the_others_messages),
		cmocka_unit_test(test_memif_channel_check_regions_stop_at_256),
		cmocka_unit_test(test_memif_channel_guard_refused_message_and_its_fd_go),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-memif-channel-%d", getpid());
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0) {
		fprintf(stderr, "test_memif_channel_guard: EAL init failed\n");
		return 1;
	}
	return cmocka_run_group_tests_name("memif_channel_guard", tests, NULL, NULL);
}
