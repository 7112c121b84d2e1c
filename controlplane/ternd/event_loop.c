/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * epoll loop of the control thread: every descriptor has a handler; nothing here blocks.
 * A handler may close and free what another event of the same batch names (an API client's
 * socket and its job's pipe): ev_del marks it so that its remaining events are dropped, and
 * ev_release frees it only after the batch.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "controlplane/ternd/event_loop.h"

static int epfd = -1;
static volatile bool stopping;
static bool (*background)(void);
static uint64_t batch;			/* counts epoll_wait calls */
static struct ev_handler *pend_head, **pend_tail = &pend_head;
static struct ev_handler *released;

int ev_init(void)
{
	epfd = epoll_create1(EPOLL_CLOEXEC);
	return epfd < 0 ? -errno : 0;
}

int ev_add(struct ev_handler *h, uint32_t events)
{
	struct epoll_event e = { .events = events, .data.ptr = h };

	h->removed = false;
	h->added_in = batch;
	return epoll_ctl(epfd, EPOLL_CTL_ADD, h->fd, &e) < 0 ? -errno : 0;
}

int ev_mod(struct ev_handler *h, uint32_t events)
{
	struct epoll_event e = { .events = events, .data.ptr = h };

	return epoll_ctl(epfd, EPOLL_CTL_MOD, h->fd, &e) < 0 ? -errno : 0;
}

void ev_del(struct ev_handler *h)
{
	if (h->fd >= 0)
		epoll_ctl(epfd, EPOLL_CTL_DEL, h->fd, NULL);
	h->removed = true;
}

static void pend_unlink(struct ev_handler *h)
{
	struct ev_handler **pp;

	if (!h->pending)
		return;
	for (pp = &pend_head; *pp != NULL; pp = &(*pp)->pend_next)
		if (*pp == h) {
			*pp = h->pend_next;
			if (pend_tail == &h->pend_next)
				pend_tail = pp;
			break;
		}
	h->pending = false;
}

void ev_release(struct ev_handler *h, void (*release)(struct ev_handler *h))
{
	ev_del(h);
	pend_unlink(h);
	h->release = release;
	h->release_next = released;
	released = h;
}

void ev_pend(struct ev_handler *h)
{
	if (h->pending || h->removed)
		return;
	h->pending = true;
	h->pend_next = NULL;
	*pend_tail = h;
	pend_tail = &h->pend_next;
}

static void release_all(void)
{
	while (released != NULL) {
		struct ev_handler *h = released;

		released = h->release_next;
		h->release(h);
	}
}

/* The handlers that asked for another turn before this call; those that ask again wait for
 * the next one, so that a busy client cannot keep the others from the loop. */
static void run_pending(void)
{
	struct ev_handler *h = pend_head;

	pend_head = NULL;
	pend_tail = &pend_head;
	while (h != NULL && !stopping) {
		struct ev_handler *next = h->pend_next;

		h->pending = false;
		if (!h->removed)
			h->cb(h, EV_PENDING);
		h = next;
	}
	for (; h != NULL; h = h->pend_next)
		h->pending = false;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

void ev_set_background(bool (*work)(void))
{
	background = work;
}

int ev_run(void (*tick)(void), int tick_ms)
{
	struct epoll_event evs[64];
	uint64_t next_tick = now_ms() + tick_ms;
	bool busy = background != NULL;

	stopping = false;
	while (!stopping) {
		uint64_t now = now_ms();
		int timeout = busy || pend_head != NULL ? 0 :
			      next_tick > now ? (int)(next_tick - now) : 0;
		int n = epoll_wait(epfd, evs, 64, timeout), i;

		if (n < 0 && errno != EINTR)
			return -errno;
		batch++;
		for (i = 0; i < n && !stopping; i++) {
			struct ev_handler *h = evs[i].data.ptr;

			/* closed by an earlier handler of this batch, or since made anew */
			if (h->removed || h->added_in == batch)
				continue;
			h->cb(h, evs[i].events);
		}
		run_pending();
		release_all();
		if (now_ms() >= next_tick) {
			if (tick != NULL)
				tick();
			release_all();
			next_tick = now_ms() + tick_ms;
		}
		busy = background != NULL && background();
	}
	return 0;
}

void ev_stop(void)
{
	stopping = true;
}

void ev_fini(void)
{
	release_all();
	if (epfd >= 0)
		close(epfd);
	epfd = -1;
}
