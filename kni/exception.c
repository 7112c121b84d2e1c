/* SPDX-License-Identifier: BSD-3-Clause */
/* The exception service thread: punt rings -> TAPs, TAPs -> the ring to kernel_out (dataplane/). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/uio.h>
#include <unistd.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "dataplane/dp.h"
#include "dataplane/node.h"
#include "dataplane/punt/punt.h"
#include "kni/exception.h"
#include "kni/tap.h"

#define KNI_BURST 32
#define KNI_IDLE_SPINS 64	/* empty polls before sleeping */
#define KNI_EVENTS 256		/* TAPs one epoll_wait reports; the others, the next */
#define KNI_RETIRED_MAX 1024	/* retired TAPs that make a flush at once */
#define KNI_SEGS_MAX 16		/* buffers a frame from a TAP takes at most (9216 bytes in 2 KiB) */
#define KNI_BLOCKED_SLEEP_US 20	/* the ring to the first worker full, the TAPs readable */

struct kni_port {
	int fd;
	char name[16];
	bool carrier;
	bool link_local_off;	/* its TAP waits for an IPv6 address to get its link-local one */
	struct kni_port_stats st;	/* written by the service thread only */
};

static struct kni_port kports[DP_MAX_IFACES];
static int epfd = -1;
static volatile uint64_t rounds;	/* the service's loops, for kni_tap_remove */
/* The fds of the TAPs retired since the last flush (kni_tap_remove), and the service's round
 * when the last was taken from it. */
static int retired[KNI_RETIRED_MAX];
static unsigned int nb_retired;
static uint64_t retired_round;
static pthread_t thread;
static bool running;
static volatile bool quit;
static int idle_sleep_max_ms = 1;

const char *kni_tap_name(unsigned int port)
{
	return port < dp.nb_ports ? kports[port].name : "";
}

/* Opens port's TAP, named name, gives it the port's link as its carrier and has the service
 * watch it; the descriptor is published last, for a service that may be running. */
static int tap_attach(unsigned int port, const char *name, bool persist, bool link_local,
		      char *err, size_t errlen)
{
	struct dp_port *p = &dp.ports[port];
	struct kni_port *k = &kports[port];
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = port };
	int fd, rc;

	memset(&k->st, 0, sizeof(k->st));
	snprintf(k->name, sizeof(k->name), "%s", name);
	fd = kni_tap_open(k->name, &p->mac, p->mtu, persist, link_local, err, errlen);
	if (fd < 0) {
		k->name[0] = '\0';
		return fd;
	}
	k->link_local_off = !link_local;
	k->carrier = dp_port_link_up(p, NULL);
	kni_tap_set_carrier(fd, k->carrier);
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot watch the kernel interface %s: %s", k->name,
			 strerror(errno));
		close(fd);
		k->name[0] = '\0';
		return rc;
	}
	__atomic_store_n(&k->fd, fd, __ATOMIC_RELEASE);
	return 0;
}

void kni_port_fd_set(unsigned int port, int fd)
{
	if (port < DP_MAX_IFACES)
		__atomic_store_n(&kports[port].fd, fd, __ATOMIC_RELEASE);
}

int kni_init(const char *const *tap_names, const bool *persist, char *err, size_t errlen)
{
	unsigned int i;
	int rc;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		return -errno;
	for (i = 0; i < dp.max_ports; i++) {
		memset(&kports[i], 0, sizeof(kports[i]));
		kports[i].fd = -1;
	}
	for (i = 0; i < dp.nb_ports; i++)
		if (*tap_names[i] != '\0' &&	/* a bond's member has none: the bond has the TAP */
		    (rc = tap_attach(i, tap_names[i], persist[i], true, err, errlen)) < 0)
			return rc;
	return 0;
}

static void to_kernel(struct rte_mbuf *m)
{
	struct kni_port *k = &kports[dp_port_map.index[m->port]];
	int fd = __atomic_load_n(&k->fd, __ATOMIC_ACQUIRE);
	struct iovec iov[8];
	struct rte_mbuf *s;
	int n = 0;

	for (s = m; s != NULL && n < 8; s = s->next, n++)
		iov[n] = (struct iovec){ rte_pktmbuf_mtod(s, void *), s->data_len };
	if (fd < 0 || writev(fd, iov, n) < 0)
		k->st.to_kernel_errors++;
	else
		k->st.to_kernel++;
}

/* Writes up to budget packets of worker w's ring of class c to their TAPs. */
static unsigned int drain_ring(unsigned int w, unsigned int c, unsigned int budget)
{
	struct rte_mbuf *m[KNI_BURST];
	unsigned int i, n, total = 0;

	while (total < budget) {
		n = rte_ring_sc_dequeue_burst(dp_punt[w].ring[c], (void **)m,
					      RTE_MIN(budget - total, (unsigned int)KNI_BURST), NULL);
		for (i = 0; i < n; i++)
			to_kernel(m[i]);
		if (n)
			rte_pktmbuf_free_bulk(m, n);
		total += n;
		if (n < KNI_BURST)
			break;
	}
	return total;
}

/*
 * One round over the workers' punt rings, the classes in order: all that waits in the
 * routing class (BGP, OSPF, BFD, VRRP), then up to KNI_BURST a worker from each other
 * class, so that a flood in a lower class delays routing's packets by one round at most.
 */
unsigned int kni_drain_round(void)
{
	unsigned int w, c, total = 0;

	for (c = 0; c < DP_PUNT_CLASS_MAX; c++)
		for (w = 0; w < dp.nb_workers; w++)
			total += drain_ring(w, c, c == DP_PUNT_CLASS_routing ? DP_PUNT_RING_SIZE : KNI_BURST);
	return total;
}

/* What a frame from a TAP holds past the buffers given to it lands here, and tells it was too
 * long (the service thread's alone). */
static uint8_t overflow[UINT16_MAX + 1];

/*
 * One frame from a TAP into a chain of buffers: where the port's MTU makes a frame longer than
 * one buffer (a port that chains: dp_port.chains). Returns its length, 0 when the TAP has
 * nothing, or -EMSGSIZE for a frame longer than the port's largest (counted by the caller).
 */
static ssize_t read_chain(int fd, struct rte_mempool *pool, size_t max, struct rte_mbuf **out)
{
	struct rte_mbuf *seg[KNI_SEGS_MAX], *last;
	struct iovec iov[KNI_SEGS_MAX + 1];
	unsigned int n, i;
	size_t room = 0;
	ssize_t r, left;

	for (n = 0; n < KNI_SEGS_MAX && room < max; n++) {
		seg[n] = rte_pktmbuf_alloc(pool);
		if (seg[n] == NULL)
			break;
		if (n > 0)
			seg[n]->data_off = 0;	/* the headroom is the first buffer's */
		iov[n] = (struct iovec){ rte_pktmbuf_mtod(seg[n], void *), rte_pktmbuf_tailroom(seg[n]) };
		room += iov[n].iov_len;
	}
	if (room < max) {
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(seg[i]);
		return -ENOBUFS;
	}
	iov[n] = (struct iovec){ overflow, sizeof(overflow) };
	r = readv(fd, iov, n + 1);
	if (r <= 0 || (size_t)r > max) {
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(seg[i]);
		return r <= 0 ? 0 : -EMSGSIZE;
	}
	*out = last = seg[0];
	(*out)->pkt_len = r;
	(*out)->nb_segs = 0;
	for (i = 0, left = r; i < n; i++) {
		if (left == 0) {
			rte_pktmbuf_free(seg[i]);
			continue;
		}
		seg[i]->data_len = RTE_MIN((size_t)left, iov[i].iov_len);
		left -= seg[i]->data_len;
		if (i > 0)
			last->next = seg[i];
		last = seg[i];
		(*out)->nb_segs++;
	}
	return r;
}

/* Whether frame b of port's TAP goes on: not while the port's link is down. */
static bool frame_take(struct kni_port *k, unsigned int port, struct rte_mbuf *b, uint16_t ifid)
{
	if (dp_port_map.link_down[port]) {	/* nothing leaves by a pulled cable */
		k->st.from_kernel_link_down++;
		rte_pktmbuf_free(b);
		return false;
	}
	b->port = ifid;	/* a sub-interface's frames leave tagged */
	return true;
}

/*
 * Reads what the kernel sent through a port's TAP into the ring to the first
 * worker, no more than the ring has room for (this thread is its only
 * producer, so the room cannot shrink before the enqueue). With the ring full
 * the frames wait in the TAP's queue in the kernel, which pushes back on
 * their senders or drops and counts them there. A frame longer than the
 * buffer it is read into is counted and dropped (the kernel interface's MTU
 * is never set above the port's, but offloads or a race can still give one):
 * one buffer, or, where the port's MTU is above one buffer on a port that
 * chains them, a chain for the longest frame its MTU allows. *blocked says
 * the ring was full with the TAP still readable.
 */

static unsigned int from_kernel(unsigned int port, bool *blocked)
{
	struct kni_port *k = &kports[port];
	struct dp_port *p = &dp.ports[port];
	struct rte_mbuf *m[KNI_BURST];
	struct iovec iov[2] = { [1] = { .iov_base = overflow, .iov_len = sizeof(overflow) } };
	unsigned int n = 0, want, tries;
	int fd = __atomic_load_n(&k->fd, __ATOMIC_ACQUIRE);

	if (fd < 0)
		return 0;
	want = RTE_MIN(rte_ring_free_count(dp_kernel_out), (unsigned int)KNI_BURST);
	if (want == 0) {
		*blocked = true;
		return 0;
	}
	for (tries = 0; n < want && tries < KNI_BURST; tries++) {
		/* the kernel's frames carry no CRC; a tag, the kernel may add */
		size_t max = p->mtu + RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN;
		struct rte_mbuf *b;
		ssize_t r;

		if (p->chains && max > (size_t)(rte_pktmbuf_data_room_size(p->pool) - RTE_PKTMBUF_HEADROOM)) {
			r = read_chain(fd, p->pool, max, &b);
			if (r == 0)
				break;
			if (r < 0) {
				if (r == -ENOBUFS) {
					k->st.from_kernel_drops++;
					break;
				}
				k->st.from_kernel_too_long++;
				continue;
			}
			if (!frame_take(k, port, b, p->ifid))
				continue;
			m[n++] = b;
			continue;
		}
		b = rte_pktmbuf_alloc(p->pool);
		if (b == NULL) {
			k->st.from_kernel_drops++;
			break;
		}
		iov[0].iov_base = rte_pktmbuf_mtod(b, void *);
		iov[0].iov_len = rte_pktmbuf_tailroom(b);
		r = readv(fd, iov, 2);
		if (r <= 0) {
			rte_pktmbuf_free(b);
			break;
		}
		if ((size_t)r > iov[0].iov_len) {
			/* a frame is sent whole or not at all, never cut to a buffer's size */
			k->st.from_kernel_too_long++;
			rte_pktmbuf_free(b);
			continue;
		}
		b->data_len = b->pkt_len = r;
		if (!frame_take(k, port, b, p->ifid))
			continue;
		m[n++] = b;
	}
	/* the first worker sends them, on its own tx queue (node kernel_out) */
	if (n && rte_ring_sp_enqueue_bulk(dp_kernel_out, (void **)m, n, NULL) != n) {
		k->st.from_kernel_drops += n;	/* cannot happen: see above */
		rte_pktmbuf_free_bulk(m, n);
		return n;
	}
	k->st.from_kernel += n;
	return n;
}

/*
 * Workers make no system call to say they punted something, so an idle
 * service polls their rings between sleeps in epoll_wait on the TAPs: after
 * KNI_IDLE_SPINS empty polls 1 ms, then twice as long after each empty round
 * up to idle_sleep_max_ms ([exception] idle_sleep_max_ms, default 1). Anything
 * from a TAP wakes it at once, and any work brings back the spinning. At 1 ms
 * it wakes about 900 times a second and takes 3 % of a CPU; at 8 ms, 125 times
 * and under 1 %, and a punted packet after a quiet spell waits up to 8 ms.
 */
static void *kni_main(void *arg)
{
	struct epoll_event evs[KNI_EVENTS];
	unsigned int idle = 0;
	int sleep_ms = 1;

	while (!quit) {
		unsigned int work = kni_drain_round();
		bool blocked = false;
		int n, i;

		__atomic_store_n(&rounds, rounds + 1, __ATOMIC_RELEASE);
		n = epoll_wait(epfd, evs, KNI_EVENTS, work || idle < KNI_IDLE_SPINS ? 0 : sleep_ms);
		for (i = 0; i < n; i++)
			work += from_kernel(evs[i].data.u32, &blocked);
		if (blocked && !work) {
			/* the first worker is behind (or shares this CPU): let it send */
			usleep(KNI_BLOCKED_SLEEP_US);
			continue;
		}
		if (work) {
			idle = 0;
			sleep_ms = 1;
		} else if (++idle > KNI_IDLE_SPINS) {
			sleep_ms = RTE_MIN(2 * sleep_ms, idle_sleep_max_ms);
		}
	}
	return NULL;
}

int kni_start(unsigned int sleep_max_ms, char *err, size_t errlen)
{
	int rc;

	quit = false;
	idle_sleep_max_ms = sleep_max_ms ? (int)sleep_max_ms : 1;
	rc = rte_ctrl_thread_create(&thread, "tern-exception", NULL, kni_main, NULL);
	if (rc != 0) {
		snprintf(err, errlen, "cannot start the exception service thread: %s", strerror(rc));
		return -rc;
	}
	running = true;
	return 0;
}

void kni_stop(void)
{
	unsigned int i;

	if (running) {
		quit = true;
		pthread_join(thread, NULL);
		running = false;
	}
	/* drop what the workers and the kernel left in the rings */
	for (i = 0; i < dp.nb_workers; i++) {
		void *m;

		while (dp_punt_dequeue(i, &m) == 0)
			rte_pktmbuf_free(m);
	}
	if (dp_kernel_out) {
		void *m;

		while (rte_ring_sc_dequeue(dp_kernel_out, &m) == 0)
			rte_pktmbuf_free(m);
	}
	/* the sub-interfaces' TAPs in one go (never persistent); the ports' one by one */
	for (i = 0; i < dp.nb_ports; i++)
		if (kports[i].fd >= 0 && dp.ports[i].kind == DP_PORT_VLAN)
			kni_tap_remove(i);
	kni_taps_flush();
	for (i = 0; i < dp.max_ports; i++)
		if (kports[i].fd >= 0) {
			close(kports[i].fd);
			kports[i].fd = -1;
		}
	if (epfd >= 0)
		close(epfd);
	epfd = -1;
}

void kni_sync(void)
{
	unsigned int i;

	kni_taps_flush();
	for (i = 0; i < dp.nb_ports; i++) {
		struct kni_port *k = &kports[i];
		/* as dp_port_links_refresh found it this tick: no driver asked again, none for
		 * each of thousands of sub-interfaces */
		bool link = dp.ports[i].started ? !dp_port_map.link_down[i] :
						  dp_port_link_up(&dp.ports[i], NULL);

		if (k->fd >= 0 && link != k->carrier && kni_tap_set_carrier(k->fd, link) == 0) {
			k->carrier = link;
			/* rte_log, not RTE_LOG: no "USER1: " before ternd's own lines */
			rte_log(RTE_LOG_NOTICE, RTE_LOGTYPE_USER1, "ternd: %s: link %s\n", dp.ports[i].name,
				link ? "up" : "down");
		}
	}
}

int kni_tap_add(unsigned int port, char *err, size_t errlen)
{
	kni_taps_flush();	/* its name may be a retired TAP's */
	return tap_attach(port, dp.ports[port].name, false, false, err, errlen);
}

int kni_link_local_start(unsigned int port)
{
	struct kni_port *k;
	int rc;

	if (port >= dp.max_ports)
		return 0;
	k = &kports[port];
	if (!k->link_local_off || k->name[0] == '\0')
		return 0;
	rc = kni_tap_link_local_start(k->name);
	if (rc == 0)
		k->link_local_off = false;
	return rc;
}

int kni_link_local_stop(unsigned int port, struct kni_link_locals *ll)
{
	struct kni_port *k;
	int rc;

	ll->n = 0;
	if (port >= dp.max_ports || dp.ports[port].kind != DP_PORT_VLAN)
		return -EINVAL;
	k = &kports[port];
	if (k->link_local_off || k->name[0] == '\0')
		return 0;
	rc = kni_tap_link_local_stop(k->name, ll);
	if (rc == 0)
		k->link_local_off = true;
	return rc;
}

/* Closes fd once the service has gone round its loop twice since round seen. */
static void close_after_rounds(int fd, uint64_t seen)
{
	unsigned int waited;

	for (waited = 0; running && waited < 2000 &&
	     __atomic_load_n(&rounds, __ATOMIC_ACQUIRE) < seen + 2; waited++)
		usleep(500);
	close(fd);
}

void kni_taps_flush(void)
{
	unsigned int i;

	if (nb_retired == 0)
		return;
	if (kni_tap_delete_retired() < 0)
		rte_log(RTE_LOG_WARNING, RTE_LOGTYPE_USER1,
			"ternd: the kernel did not remove %u retired TAPs at once; closing them removes them one by one\n",
			nb_retired);
	for (i = 0; i < nb_retired; i++)
		close_after_rounds(retired[i], retired_round);
	nb_retired = 0;
}

/*
 * The service thread may be reading or writing the TAP's fd: it is taken from
 * it first, and closed once the service has gone round its loop twice (so it
 * cannot write a frame to a file that reuses the number). The kernel removes
 * the interface with the last reference to it.
 */
void kni_tap_remove(unsigned int port)
{
	struct kni_port *k = &kports[port];
	int fd = __atomic_exchange_n(&k->fd, -1, __ATOMIC_ACQ_REL);
	uint64_t seen = __atomic_load_n(&rounds, __ATOMIC_ACQUIRE);

	if (fd < 0) {
		k->name[0] = '\0';
		return;
	}
	epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
	/* down and retired now, removed from the kernel with the others at the next flush */
	if (kni_tap_retire(k->name) < 0) {
		close_after_rounds(fd, seen);
	} else {
		retired[nb_retired++] = fd;
		retired_round = seen;
		if (nb_retired == RTE_DIM(retired))
			kni_taps_flush();
	}
	k->name[0] = '\0';
}

void kni_port_stats(unsigned int port, struct kni_port_stats *st)
{
	*st = kports[port].st;
}
