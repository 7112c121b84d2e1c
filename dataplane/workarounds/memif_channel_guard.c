/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A memif peer that hangs up during the handshake must not kill ternd.
 *
 * DPDK 22.11's memif PMD serves each peer's control connection from EAL's interrupt
 * thread: on a listening socket's event, memif_listener_handler() accepts the connection,
 * registers memif_intr_handler for the new descriptor (EAL copies the descriptor into its
 * list of interrupt sources and wakes the interrupt thread to rebuild its epoll set), then
 * sends HELLO. When that send fails (the peer has already gone: "sendmsg fail: Broken pipe")
 * or the HELLO cannot be queued, the handler closes the descriptor and frees the channel,
 * and never unregisters the callback. The interrupt thread's next rebuild, right after the
 * handler returns, adds the closed descriptor to its epoll set and panics ("Error adding fd
 * N epoll_ctl, Bad file descriptor"): ternd dies. When another connection reuses the number
 * first, the stale callback runs later on the freed channel instead. A local program that
 * connects and closes at once killed ternd within a few connections
 * (tests/integration/test_memif_hangup.sh).
 *
 * So ternd sees the PMD's registrations (ternd-static's PMD calls the functions below by
 * name, ternd's reaches them through interpose_intr.c) and notes which descriptors EAL
 * watches for it; a close() of a descriptor still watched (interpose_close.c) first takes
 * it out of EAL's list, and only then closes it. Were that close ever made from inside the
 * descriptor's own callback, where EAL cannot unregister, the descriptor would be closed
 * only when EAL lets go of it (rte_intr_callback_unregister_pending). The PMD's own orderly
 * closes (after its unregister, or from EAL's pending-unregister callback) go straight on.
 *
 * The same table holds what each connection's peer has announced, so that its messages are
 * checked before the PMD reads them (memif_channel_check.c says what and why).
 *
 * Locking: one mutex over the table, never held across a call into EAL, whose interrupt
 * lock is held while it calls the PMD's pending-unregister callback, which closes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>

#include "dataplane/workarounds/memif_channel_guard.h"

enum watch_state {
	WATCH_NONE,
	WATCH_ON,	/* registered with EAL for the PMD */
	WATCH_LEAVING,	/* unregister pending: EAL calls the PMD back, which closes */
	WATCH_FILE,	/* a region's file or a ring's eventfd, handed to the PMD by its peer */
};

/* What a connection's peer has announced, and the files (regions', rings' eventfds) the PMD
 * took from it. */
struct peer {
	struct memif_channel_regions announced;
	int files[MEMIF_REGIONS_MAX + 2 * MEMIF_QUEUES_MAX];
	unsigned int nfiles;
};

struct watch {
	enum watch_state state;
	bool listener;		/* a listening socket, not a peer's connection */
	bool accepted;		/* a connection a listener took: ternd's side is the server */
	bool orphan;		/* WATCH_FILE: its connection has ended */
	rte_intr_callback_fn cb;
	void *arg;
	struct peer *peer;	/* WATCH_ON: made on the first message */
	const struct peer *owner;	/* WATCH_FILE: the connection that handed it over */
};

/* Indexed by descriptor; written and read under lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct watch *watches;
static int watches_len;
static unsigned int watched;	/* connections and listeners: entries ON or LEAVING */
static unsigned int tracked;	/* entries not WATCH_NONE; read without the lock by close() */
static unsigned int orphans;	/* WATCH_FILE entries whose connection has ended */
static uint64_t events[MEMIF_CHANNEL_EVENTS];
static memif_msg_refusal_report_fn report;

static void count(enum memif_channel_event ev)
{
	__atomic_fetch_add(&events[ev], 1, __ATOMIC_RELAXED);
}

/* The entry for fd, grown into if needed; NULL without memory. Under lock. */
static struct watch *watch_at(int fd)
{
	struct watch *w;
	int len;

	if (fd < watches_len)
		return &watches[fd];
	len = watches_len ? watches_len : 64;
	while (len <= fd)
		len *= 2;
	w = realloc(watches, len * sizeof(*w));
	if (w == NULL)
		return NULL;
	memset(w + watches_len, 0, (len - watches_len) * sizeof(*w));
	watches = w;
	watches_len = len;
	return &watches[fd];
}

/* The files of a connection that ended: the PMD closes the regions it mapped and the rings it
 * holds, and leaks the rest: a region never mapped (memif_free_regions closes a region's file
 * only when it is mapped), a ring's eventfd replaced by another ADD_RING for the same queue or
 * refused by the PMD's own checks. */
static void peer_end(struct peer *p)
{
	unsigned int i;

	for (i = 0; i < p->nfiles; i++) {
		struct watch *f = p->files[i] < watches_len ? &watches[p->files[i]] : NULL;

		/* still this connection's: its number may since serve another's file */
		if (f != NULL && f->state == WATCH_FILE && f->owner == p && !f->orphan) {
			f->orphan = true;
			orphans++;
		}
	}
	free(p);
}

/* fd's entry, now in state: what it was. Under lock; counts a connection's end. */
static struct watch watch_move(struct watch *w, enum watch_state state)
{
	struct watch was = *w;
	bool conn_was = was.state == WATCH_ON || was.state == WATCH_LEAVING;
	bool conn_is = state == WATCH_ON || state == WATCH_LEAVING;

	if (was.state == WATCH_NONE && state != WATCH_NONE)
		__atomic_fetch_add(&tracked, 1, __ATOMIC_RELAXED);
	if (was.state != WATCH_NONE && state == WATCH_NONE)
		__atomic_fetch_sub(&tracked, 1, __ATOMIC_RELAXED);
	if (!conn_was && conn_is)
		__atomic_fetch_add(&watched, 1, __ATOMIC_RELAXED);
	if (conn_was && !conn_is) {
		__atomic_fetch_sub(&watched, 1, __ATOMIC_RELAXED);
		if (!was.listener)
			count(MEMIF_CHANNEL_CLOSED);
		if (w->peer != NULL)
			peer_end(w->peer);
		w->peer = NULL;
	}
	if (was.state == WATCH_FILE && was.orphan)
		orphans--;
	w->orphan = false;
	w->state = state;
	return was;
}

/* Moves fd's entry to state: what it was. With "with", the entry is (re)made from it;
 * without, only an entry that exists moves. */
static struct watch watch_set(int fd, enum watch_state state, const struct watch *with)
{
	struct watch was = { .state = WATCH_NONE }, *w = NULL;

	if (fd < 0)
		return was;
	pthread_mutex_lock(&lock);
	if (with != NULL)
		w = watch_at(fd);
	else if (fd < watches_len && watches[fd].state != WATCH_NONE)
		w = &watches[fd];
	if (w != NULL) {
		if (with != NULL) {
			if (w->peer != NULL) {	/* a number reused: the old connection ended */
				peer_end(w->peer);
				w->peer = NULL;
			}
			w->listener = with->listener;
			w->accepted = with->accepted;
			w->cb = with->cb;
			w->arg = with->arg;
		}
		was = watch_move(w, state);
	}
	pthread_mutex_unlock(&lock);
	return was;
}

static bool listening(int fd)
{
	int on = 0;
	socklen_t len = sizeof(on);

	return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) == 0 && on;
}

/* An accepted connection has the listener's address as its own; one the PMD made as a
 * client has none. */
static bool accepted(int fd)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);

	return getsockname(fd, (struct sockaddr *)&a, &len) == 0 && len > sizeof(sa_family_t);
}

int memif_pmd_intr_callback_register(const struct rte_intr_handle *h, rte_intr_callback_fn cb,
				     void *arg)
{
	int fd = rte_intr_fd_get(h);
	int rc = rte_intr_callback_register(h, cb, arg);

	if (rc == 0 && fd >= 0) {
		struct watch w = { .listener = listening(fd), .cb = cb, .arg = arg };

		w.accepted = !w.listener && accepted(fd);

		watch_set(fd, WATCH_ON, &w);
		if (!w.listener)
			count(MEMIF_CHANNEL_OPENED);
	}
	return rc;
}

int memif_pmd_intr_callback_unregister(const struct rte_intr_handle *h, rte_intr_callback_fn cb,
				       void *arg)
{
	int rc = rte_intr_callback_unregister(h, cb, arg);

	if (rc > 0)
		watch_set(rte_intr_fd_get(h), WATCH_NONE, NULL);
	return rc;
}

/* Marked leaving before EAL hears of it: EAL may call ucb, which closes, on its interrupt
 * thread before this call returns, and that close must not try to unregister again. */
int memif_pmd_intr_callback_unregister_pending(const struct rte_intr_handle *h,
					       rte_intr_callback_fn cb, void *arg,
					       rte_intr_unregister_callback_fn ucb)
{
	int fd = rte_intr_fd_get(h);
	struct watch was;
	int rc;

	was = watch_set(fd, WATCH_LEAVING, NULL);
	rc = rte_intr_callback_unregister_pending(h, cb, arg, ucb);
	if (rc <= 0 && was.state == WATCH_ON)
		watch_set(fd, WATCH_ON, NULL);
	return rc;
}

/* EAL's callback once it has let go of a descriptor closed from inside its own callback. */
static void close_when_unwatched(struct rte_intr_handle *h, void *arg)
{
	close(rte_intr_fd_get(h));
}

bool memif_channel_guard_close(int fd, int *rc)
{
	struct rte_intr_handle *h;
	struct watch was;
	int r;

	if (fd < 0 || __atomic_load_n(&tracked, __ATOMIC_RELAXED) == 0)
		return false;
	was = watch_set(fd, WATCH_NONE, NULL);
	if (was.state == WATCH_NONE || was.state == WATCH_FILE)
		return false;	/* a peer's file: the PMD lets it go */
	if (was.state == WATCH_LEAVING)
		return false;	/* EAL's pending unregister calling back: already out of its list */
	count(MEMIF_CHANNEL_ABANDONED);
	h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (h == NULL || rte_intr_fd_set(h, fd) != 0 ||
	    rte_intr_type_set(h, RTE_INTR_HANDLE_EXT) != 0) {
		/* without a handle EAL cannot be told: an open descriptor it watches in vain
		 * is a leak, a closed one kills the interrupt thread */
		rte_intr_instance_free(h);
		*rc = 0;
		return true;
	}
	r = rte_intr_callback_unregister(h, was.cb, was.arg);
	if (r == -EAGAIN) {
		/* inside the descriptor's own callback: EAL closes it once it has let go */
		r = rte_intr_callback_unregister_pending(h, was.cb, was.arg, close_when_unwatched);
		if (r > 0) {
			rte_intr_instance_free(h);
			*rc = 0;
			return true;
		}
	}
	rte_intr_instance_free(h);
	return false;
}

/* fd's entry if it is a connection (or listener) EAL watches for the PMD, else NULL. Under lock. */
static struct watch *watch_on(int fd)
{
	return fd >= 0 && fd < watches_len && watches[fd].state == WATCH_ON ? &watches[fd] : NULL;
}

/* The message's verdict on fd's connection; false when fd is no connection the PMD watches. */
static bool check(int fd, const uint8_t *msg, enum memif_msg_refusal *why)
{
	struct watch *w;

	pthread_mutex_lock(&lock);
	w = watch_on(fd);
	if (w != NULL && w->peer == NULL) {
		w->peer = calloc(1, sizeof(*w->peer));
		if (w->peer != NULL)
			w->peer->announced.server = w->accepted;
	}
	if (w != NULL)
		*why = w->peer != NULL ? memif_channel_msg_check(&w->peer->announced, msg) :
					 MEMIF_MSG_REGION_INDEX;	/* no memory to note it */
	pthread_mutex_unlock(&lock);
	return w != NULL;
}

/* Notes file as handed to the PMD on conn: closed with the PMD's close, or by
 * memif_channel_guard_sweep() once conn has ended. */
static void peer_file_note(int conn, int file)
{
	struct watch *w, *f;

	pthread_mutex_lock(&lock);
	f = watch_at(file);	/* first: it may move the table */
	w = watch_on(conn);
	if (f != NULL && w != NULL && w->peer != NULL && w->peer->nfiles < RTE_DIM(w->peer->files)) {
		watch_move(f, WATCH_FILE);
		f->owner = w->peer;
		w->peer->files[w->peer->nfiles++] = file;
	}
	pthread_mutex_unlock(&lock);
}

/* Keeps the first descriptor that came with the message when keep, closes every other: the
 * one kept, or -1. */
static int fds_keep_first(struct msghdr *mh, bool keep)
{
	struct cmsghdr *c;
	int fd, kept = -1;
	size_t i, n;

	for (c = CMSG_FIRSTHDR(mh); c != NULL; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (keep && kept < 0)
				kept = fd;
			else
				close(fd);
		}
	}
	if (kept < 0) {
		mh->msg_controllen = 0;
		return -1;
	}
	c = CMSG_FIRSTHDR(mh);	/* the first held at least one descriptor: room for it */
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &kept, sizeof(int));
	mh->msg_controllen = CMSG_SPACE(sizeof(int));
	return kept;
}

void memif_channel_guard_received(int fd, struct msghdr *mh, ssize_t n)
{
	enum memif_msg_refusal why;
	uint8_t *msg;
	int kept;

	if (n != MEMIF_MSG_LEN || __atomic_load_n(&watched, __ATOMIC_RELAXED) == 0 ||
	    mh->msg_iovlen < 1 || mh->msg_iov[0].iov_len < MEMIF_MSG_LEN)
		return;
	msg = mh->msg_iov[0].iov_base;
	if (!check(fd, msg, &why))
		return;
	if (mh->msg_controllen > 0) {
		kept = fds_keep_first(mh, why == MEMIF_MSG_OK && memif_channel_msg_takes_fd(msg));
		if (kept >= 0)
			peer_file_note(fd, kept);
	}
	if (why == MEMIF_MSG_OK)
		return;
	msg[0] = msg[1] = 0xff;	/* MEMIF_MSG_REFUSED: the PMD disconnects, "Unknown message type" */
	count(MEMIF_CHANNEL_REFUSED);
	if (report != NULL)
		report(why);
}

unsigned int memif_channel_guard_sweep(void)
{
	unsigned int closed = 0;
	int fd;

	if (__atomic_load_n(&tracked, __ATOMIC_RELAXED) == 0)
		return 0;
	for (;;) {
		pthread_mutex_lock(&lock);
		for (fd = 0; orphans > 0 && fd < watches_len; fd++)
			if (watches[fd].state == WATCH_FILE && watches[fd].orphan)
				break;
		fd = orphans > 0 && fd < watches_len ? fd : -1;
		if (fd >= 0)
			watch_move(&watches[fd], WATCH_NONE);
		pthread_mutex_unlock(&lock);
		if (fd < 0)
			return closed;
		close(fd);	/* still the peer's file: nothing closed it since */
		count(MEMIF_CHANNEL_FILES_RECLAIMED);
		closed++;
	}
}

void memif_channel_guard_on_refusal(memif_msg_refusal_report_fn fn)
{
	report = fn;
}

uint64_t memif_channel_count(enum memif_channel_event ev)
{
	return __atomic_load_n(&events[ev], __ATOMIC_RELAXED);
}

unsigned int memif_channel_watched(void)
{
	return __atomic_load_n(&watched, __ATOMIC_RELAXED);
}
