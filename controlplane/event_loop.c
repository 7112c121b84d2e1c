/* epoll loop of the control thread: every descriptor has a handler; nothing here blocks. */
#include <errno.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "controlplane/event_loop.h"

static int epfd = -1;
static volatile bool stopping;
static bool (*background)(void);

int ev_init(void)
{
	epfd = epoll_create1(EPOLL_CLOEXEC);
	return epfd < 0 ? -errno : 0;
}

int ev_add(struct ev_handler *h, uint32_t events)
{
	struct epoll_event e = { .events = events, .data.ptr = h };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, h->fd, &e) < 0 ? -errno : 0;
}

int ev_mod(struct ev_handler *h, uint32_t events)
{
	struct epoll_event e = { .events = events, .data.ptr = h };

	return epoll_ctl(epfd, EPOLL_CTL_MOD, h->fd, &e) < 0 ? -errno : 0;
}

void ev_del(struct ev_handler *h)
{
	epoll_ctl(epfd, EPOLL_CTL_DEL, h->fd, NULL);
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
		int timeout = busy ? 0 : next_tick > now ? (int)(next_tick - now) : 0;
		int n = epoll_wait(epfd, evs, 64, timeout), i;

		if (n < 0 && errno != EINTR)
			return -errno;
		for (i = 0; i < n && !stopping; i++) {
			struct ev_handler *h = evs[i].data.ptr;

			h->cb(h, evs[i].events);
		}
		if (now_ms() >= next_tick) {
			if (tick != NULL)
				tick();
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
	if (epfd >= 0)
		close(epfd);
	epfd = -1;
}
