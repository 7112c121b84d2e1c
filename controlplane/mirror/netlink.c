/* SPDX-License-Identifier: BSD-3-Clause */
/* Netlink sockets of the mirror: subscription, dumps, batched event handling, resync. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/mirror/rib.h"
#include "controlplane/ternd/event_loop.h"
#include "controlplane/ternd/log.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"

#define NL_BUF (1u << 20)

static struct mnl_socket *ev_sock;
static struct ev_handler ev = { .fd = -1 };
static struct nl_stats stats;
static unsigned int want_rcvbuf;
static char *buf;

/*
 * Batches a stream of changes. Every batch that reaches the FIB costs a grace
 * period (the control thread waits for each worker's next loop), and a router
 * program that changes routes one request at a time would otherwise make one
 * batch a message. So after a batch, the socket is left unread until
 * batch_interval has passed since it was applied: what arrives meanwhile waits
 * in the kernel and goes in as the next batch. A change after a quiet spell
 * goes in at once. An API request applies what a wait holds back first, so the
 * wait never makes an answer older than it would have been without it.
 *
 * A batch also has a fixed cost besides its grace period: the thread wakes
 * with its caches filled by the kernel and the routing program that ran
 * meanwhile. That is about 9 us (bench/mirror_scale.sh: ternd's CPU and
 * batches with batch_interval_us at 1000 against 8000), a tenth of the cost of
 * the hundred-odd routes a 1 ms batch holds while a full table arrives. So
 * while changes keep coming (a batch that found changes waiting when its wait
 * ended, or within batch_interval after), each wait doubles, up to
 * batch_interval_max; a wait that ends with nothing new, or a change after a
 * quiet spell, brings it back to batch_interval. Whether changes keep coming
 * is told by time, not by how many a batch holds: a slow stream (a loaded
 * machine, a routing program on the same core) costs as many batches a second
 * as a fast one, and each batch's grace period costs more when the workers'
 * cores are shared, so it is there that larger batches help most.
 */
static uint64_t batch_interval_ns, batch_interval_max_ns;
static uint64_t batch_spacing_ns;	/* the wait after the last batch */
static uint64_t last_batch_ns;
static struct ev_handler batch_timer = { .fd = -1 };	/* timerfd: the end of the wait */
static bool waiting;			/* the socket is out of the event loop until then */

const struct nl_stats *netlink_stats(void)
{
	return &stats;
}

unsigned int netlink_backlog(void)
{
	int n = 0;

	if (ev.fd >= 0 && ioctl(ev.fd, FIONREAD, &n) < 0)
		n = 0;
	return n;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* The cycles the RIB and the FIB have spent: what parsing a run of messages is charged is its
 * time less theirs (a run applies what it has parsed, NL_AHEAD messages at a time). */
static uint64_t applied_cycles(void)
{
	return stats.cycles_rib + dp_fib_cycles() + dp_fib6_cycles() + rib_reclaim_cycles();
}

/* Parses one message into *m; false for one to skip (an ACK, a malformed one). */
static bool parse_one(const struct nlmsghdr *nlh, struct nl_msg *m)
{
	int rc;

	if (nlh->nlmsg_type == NLMSG_ERROR)
		return false;
	stats.messages++;
	rc = nl_parse(nlh, m);
	if (rc < 0) {
		stats.malformed++;
		TERN_LOG_RATELIMITED(rib, WARNING, "netlink: a malformed message (type %u, %u bytes) ignored",
				     nlh->nlmsg_type, nlh->nlmsg_len);
		return false;	/* one bad message never stops the rest */
	}
	return true;
}

/* Applies n parsed messages in order, the RIB's cycles counted (a full FIB batch committed from
 * inside is the FIB's share). */
static void apply_parsed(const struct nl_msg *m, unsigned int n)
{
	uint64_t t = rte_rdtsc(), fib = dp_fib_cycles() + dp_fib6_cycles() + rib_reclaim_cycles();
	unsigned int i;

	mirror_prepare(m, n);
	for (i = 0; i < n; i++)
		mirror_apply(&m[i], &stats);
	stats.cycles_rib += rte_rdtsc() - t -
			    (dp_fib_cycles() + dp_fib6_cycles() + rib_reclaim_cycles() - fib);
}

/* One message of a dump, applied as it is read. */
static int apply_one(const struct nlmsghdr *nlh, void *data)
{
	uint64_t t = rte_rdtsc();
	struct nl_msg m;
	bool ok = parse_one(nlh, &m);

	stats.cycles_parse += rte_rdtsc() - t;
	if (ok)
		apply_parsed(&m, 1);
	return MNL_CB_OK;
}

/*
 * Events are read NL_VEC datagrams a call (recvmmsg: one system call where
 * recvfrom took one a message) and parsed NL_AHEAD messages ahead of being
 * applied, so the RIB's records for a run of routes are prefetched together
 * (mirror_prepare) and their cache misses overlap.
 */
#define NL_VEC 32
#define NL_AHEAD 64
static struct mmsghdr vec[NL_VEC];
static struct iovec iov[NL_VEC];
static struct nl_msg *ahead;
static unsigned int nb_ahead;

static void apply_ahead(void)
{
	apply_parsed(ahead, nb_ahead);
	nb_ahead = 0;
}

static int parse_ahead(const struct nlmsghdr *nlh, void *data)
{
	if (parse_one(nlh, &ahead[nb_ahead]) && ++nb_ahead == NL_AHEAD)
		apply_ahead();
	return MNL_CB_OK;
}

static void on_events(struct ev_handler *h, uint32_t events);

int netlink_events_open(unsigned int rcvbuf, struct mnl_socket **s)
{
	/* RTNLGRP_NEXTHOP is group 32, the last a bind's mask reaches */
	unsigned int groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR |
			      RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE | RTMGRP_NEIGH |
			      1u << (RTNLGRP_NEXTHOP - 1);
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int fd, v = rcvbuf, rc;

	*s = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (*s == NULL || mnl_socket_bind(*s, groups, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	fd = mnl_socket_get_fd(*s);
	/* Connected to the kernel, the socket takes unicasts from the kernel alone: the kernel
	 * refuses another process's (ECONNREFUSED to it), so a message needs no sender's address
	 * checked here. Multicasts to rtnetlink's groups need CAP_NET_ADMIN, which could change
	 * the kernel's tables as well. */
	if (connect(fd, (const struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		goto fail;
	/* FORCE lifts the rmem_max cap (we are root); plain SO_RCVBUF otherwise */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return 0;
fail:
	rc = -errno;
	if (*s != NULL)
		mnl_socket_close(*s);
	*s = NULL;
	return rc;
}

/* The subscription netlink_prefetch_start made, or a new one. */
static int subscribe(char *err, size_t errlen)
{
	int v, rc = 0;
	socklen_t len = sizeof(v);

	ev_sock = netlink_prefetch_events();
	if (ev_sock == NULL)
		rc = netlink_events_open(want_rcvbuf, &ev_sock);
	if (rc < 0) {
		snprintf(err, errlen, "cannot subscribe to rtnetlink: %s", strerror(-rc));
		return rc;
	}
	getsockopt(mnl_socket_get_fd(ev_sock), SOL_SOCKET, SO_RCVBUF, &v, &len);
	stats.rcvbuf = v;
	ev.fd = mnl_socket_get_fd(ev_sock);
	ev.cb = on_events;
	return ev_add(&ev, EPOLLIN);
}

static void batch_timer_stop(void)
{
	struct itimerspec off = { 0 };

	timerfd_settime(batch_timer.fd, 0, &off, NULL);
}

static void unsubscribe(void)
{
	if (waiting) {
		waiting = false;
		batch_timer_stop();
	}
	if (ev_sock == NULL)
		return;
	ev_del(&ev);
	mnl_socket_close(ev_sock);
	ev_sock = NULL;
	ev.fd = -1;
}

static int dump_tables(unsigned int helper_lcore)
{
	int rc;

	if ((rc = netlink_dump(RTM_GETLINK, AF_UNSPEC, apply_one, NULL)) < 0 ||
	    (rc = netlink_dump(RTM_GETADDR, AF_INET, apply_one, NULL)) < 0 ||
	    (rc = netlink_dump(RTM_GETADDR, AF_INET6, apply_one, NULL)) < 0)
		return rc;
	/* nexthop objects before the routes that name them; a kernel without them says so */
	rc = netlink_dump(RTM_GETNEXTHOP, AF_UNSPEC, apply_one, NULL);
	if (rc < 0 && rc != -EOPNOTSUPP && rc != -EINVAL)
		return rc;
	/* at start, the route dump ternd asked for before EAL (netlink_prefetch.c) */
	rc = netlink_prefetch_started() ? netlink_prefetch_apply(apply_one, NULL) :
		netlink_dump_ahead(RTM_GETROUTE, AF_INET, apply_one, NULL, helper_lcore);
	if (rc == 0)
		rc = netlink_dump_ahead(RTM_GETROUTE, AF_INET6, apply_one, NULL, helper_lcore);
	if (rc < 0 || (rc = netlink_dump(RTM_GETNEIGH, AF_INET, apply_one, NULL)) < 0 ||
	    (rc = netlink_dump(RTM_GETNEIGH, AF_INET6, apply_one, NULL)) < 0)
		return rc;
	return 0;
}

static int dump_all(void)
{
	int rc = dump_tables(RTE_MAX_LCORE);	/* workers own their lcores by now */

	return rc < 0 ? rc : rib_commit();
}


int netlink_resync(void)
{
	struct timespec t0, t1;
	char err[256];
	unsigned int swept;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	stats.resyncs++;
	unsubscribe();
	rc = subscribe(err, sizeof(err));
	if (rc < 0) {
		TERN_LOG(rib, ERR, "resync: %s", err);
		return rc;
	}
	rib_mark_begin();
	nhobj_clear();	/* the dump brings back those that are still there */
	rc = dump_all();
	swept = rib_sweep();
	stats.swept += swept;
	rib_commit();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	stats.last_resync_s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	TERN_LOG(rib, NOTICE, "resynchronised with the kernel in %.3f s: %u stale entries removed%s",
		 stats.last_resync_s, swept, rc < 0 ? " (a dump failed; will retry)" : "");
	return rc;
}

/* Reads until the socket is empty, then applies the whole batch to the FIB at once; returns
 * the messages read (0 after a resync). */
static uint64_t drain_batch(void)
{
	uint64_t before = stats.messages, n, since_last = now_ns() - last_batch_ns;
	bool resync = false;
	int r, k;

	if (ev_sock == NULL)
		return 0;
	for (;;) {
		uint64_t t = rte_rdtsc(), applied;

		r = recvmmsg(ev.fd, vec, NL_VEC, MSG_DONTWAIT, NULL);
		stats.cycles_read += rte_rdtsc() - t;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == ENOBUFS)
				stats.overflows++;
			TERN_LOG(rib, WARNING, "netlink socket: %s; resynchronising", strerror(errno));
			resync = true;
			break;
		}
		t = rte_rdtsc();
		applied = applied_cycles();
		for (k = 0; k < r && !resync; k++) {
			if (vec[k].msg_hdr.msg_flags & MSG_TRUNC) {
				TERN_LOG(rib, WARNING, "netlink: a message longer than %u bytes was cut; resynchronising",
					 NL_BUF / NL_VEC);
				resync = true;
				break;
			}
			if (nl_for_each(iov[k].iov_base, vec[k].msg_len, parse_ahead, NULL) < 0)
				stats.malformed++;
		}
		stats.cycles_parse += rte_rdtsc() - t - (applied_cycles() - applied);
		if (resync || r < NL_VEC)	/* fewer: the socket was empty */
			break;
	}
	if (resync) {
		nb_ahead = 0;	/* the dump brings it all again */
		netlink_resync();
		return 0;
	}
	apply_ahead();
	n = stats.messages - before;
	if (n) {
		stats.batches++;
		if (n > stats.max_batch)
			stats.max_batch = n;
		rib_commit();
		last_batch_ns = now_ns();
	}
	batch_spacing_ns = n && since_last <= batch_spacing_ns + batch_interval_ns ?
		RTE_MIN(2 * batch_spacing_ns, batch_interval_max_ns) : batch_interval_ns;
	stats.batch_spacing_us = batch_spacing_ns / 1000;
	return n;
}

void netlink_drain(void)
{
	drain_batch();
}

void netlink_catch_up(void)
{
	if (waiting)
		drain_batch();
}

/* Leaves the socket out of the event loop until the spacing after the last batch is over;
 * false when that time has passed already. */
static bool batch_wait(void)
{
	uint64_t until = last_batch_ns + batch_spacing_ns;
	struct itimerspec t = { .it_value = { .tv_sec = until / 1000000000u,
					      .tv_nsec = until % 1000000000u } };

	if (batch_timer.fd < 0 || now_ns() >= until ||
	    timerfd_settime(batch_timer.fd, TFD_TIMER_ABSTIME, &t, NULL) < 0)
		return false;
	if (!waiting && ev_mod(&ev, 0) < 0) {
		batch_timer_stop();
		return false;
	}
	waiting = true;
	stats.batch_waits++;
	return true;
}

/* A wait leaves the socket with no events asked, but epoll still reports an error (the kernel
 * overran the buffer: ENOBUFS), which the read that starts the resync clears. */
static void on_events(struct ev_handler *h, uint32_t events)
{
	if (!(events & EPOLLERR) && batch_wait())
		return;
	if (drain_batch() > 0)
		batch_wait();
}

/* The wait is over: what came meanwhile is the next batch. While changes keep coming the
 * socket stays out of the loop and the timer wakes this thread once a batch; when none came,
 * the socket is watched again, and the next change goes in as soon as it arrives. */
static void on_batch_due(struct ev_handler *h, uint32_t events)
{
	uint64_t expirations;

	if (read(h->fd, &expirations, sizeof(expirations)) < 0 || !waiting)
		return;
	if (drain_batch() > 0 && batch_wait())
		return;
	waiting = false;
	ev_mod(&ev, EPOLLIN);
}

int netlink_start(unsigned int rcvbuf, unsigned int batch_interval_us,
		  unsigned int batch_interval_max_us, unsigned int helper_lcore, unsigned int max_routes,
		  char *err, size_t errlen)
{
	uint64_t t0, dumped;	/* monotonic ms */
	int rc, published, k;

	buf = malloc(NL_BUF);
	ahead = calloc(NL_AHEAD, sizeof(*ahead));
	if (buf == NULL || ahead == NULL || nhobj_init(max_routes) < 0)
		return -ENOMEM;
	for (k = 0; k < NL_VEC; k++) {
		iov[k] = (struct iovec){ .iov_base = buf + k * (NL_BUF / NL_VEC), .iov_len = NL_BUF / NL_VEC };
		vec[k].msg_hdr = (struct msghdr){ .msg_iov = &iov[k], .msg_iovlen = 1 };
	}
	want_rcvbuf = rcvbuf;
	batch_interval_ns = (uint64_t)batch_interval_us * 1000;
	/* 0 applies each read as it comes: no wait, however long the burst */
	batch_interval_max_ns = batch_interval_us ?
		(uint64_t)RTE_MAX(batch_interval_us, batch_interval_max_us) * 1000 : 0;
	batch_spacing_ns = batch_interval_ns;
	stats.batch_interval_us = batch_interval_us;
	stats.batch_interval_max_us = batch_interval_max_ns / 1000;
	stats.batch_spacing_us = batch_interval_us;
	if (batch_interval_us > 0) {
		batch_timer.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		batch_timer.cb = on_batch_due;
		if (batch_timer.fd < 0 || (rc = ev_add(&batch_timer, EPOLLIN)) < 0) {
			rc = batch_timer.fd < 0 ? -errno : rc;
			snprintf(err, errlen, "cannot set up the netlink batch timer: %s", strerror(-rc));
			return rc;
		}
	}
	rc = subscribe(err, errlen);
	if (rc < 0)
		return rc;
	t0 = tern_log_now_ms();
	rib_stage_begin();
	rc = dump_tables(helper_lcore);
	dumped = tern_log_now_ms();
	published = rib_publish();
	if (rc == 0)
		rc = published;
	if (rc < 0) {
		snprintf(err, errlen, "cannot dump the kernel's tables: %s", strerror(-rc));
		return rc;
	}
	TERN_LOG(rib, NOTICE, "kernel tables read (and staged in the FIB) in %.3f s, %u routes, forwarded from %.3f s later; the FIB's second copy follows in the background",
		 (dumped - t0) / 1e3, rib_route_total(), (tern_log_now_ms() - dumped) / 1e3);
	return 0;
}

void netlink_stop(void)
{
	unsubscribe();
	if (batch_timer.fd >= 0) {
		ev_del(&batch_timer);
		close(batch_timer.fd);
		batch_timer.fd = -1;
	}
	free(buf);
	buf = NULL;
	free(ahead);
	ahead = NULL;
	nhobj_fini();
}
