/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A preload for tests: the process's main thread sleeps EPOLL_BATCH_DELAY_US microseconds
 * (20000 when unset) before each epoll_wait(), so that events which arrive close together,
 * such as a client's hang-up and its job's output, reach the control loop in one batch.
 * A race between two handlers of one batch, rare at full speed, then shows in most runs
 * (tests/integration/test_api_client_kill.sh).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)
{
	static int (*real_epoll_wait)(int, struct epoll_event *, int, int);
	static long delay_us = -1;

	if (real_epoll_wait == NULL)
		real_epoll_wait = (int (*)(int, struct epoll_event *, int, int))dlsym(RTLD_NEXT, "epoll_wait");
	if (real_epoll_wait == NULL)
		return -1;
	if (delay_us < 0) {
		const char *s = getenv("EPOLL_BATCH_DELAY_US");

		delay_us = s != NULL ? atol(s) : 20000;
	}
	if (gettid() == getpid() && delay_us > 0) {
		struct timespec ts = { delay_us / 1000000, (delay_us % 1000000) * 1000 };

		nanosleep(&ts, NULL);
	}
	return real_epoll_wait(epfd, events, maxevents, timeout);
}
