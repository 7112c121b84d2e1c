/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A preload for tests: it slows EAL's interrupt thread and the process's exit,
 * so that a race between the two, which shows once in about a hundred runs,
 * shows in every run (tests/integration/test_memif_server_exit.sh).
 *
 * After each epoll_wait() of the thread named "eal-intr-thread" that returns
 * events, it sleeps EAL_INTR_DELAY_US microseconds (20000 when unset) before
 * the thread handles them; as the library is unloaded at exit, it sleeps
 * EXIT_DELAY_MS milliseconds (none when unset), after main() has returned and
 * rte_eal_cleanup() has run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)
{
	static int (*real_epoll_wait)(int, struct epoll_event *, int, int);
	char name[16] = "";
	const char *delay;
	int n;

	if (real_epoll_wait == NULL)
		real_epoll_wait = (int (*)(int, struct epoll_event *, int, int))dlsym(RTLD_NEXT, "epoll_wait");
	if (real_epoll_wait == NULL)
		return -1;
	n = real_epoll_wait(epfd, events, maxevents, timeout);
	if (n > 0 && pthread_getname_np(pthread_self(), name, sizeof(name)) == 0 &&
	    strcmp(name, "eal-intr-thread") == 0) {
		delay = getenv("EAL_INTR_DELAY_US");
		sleep_us(delay ? atol(delay) : 20000);
	}
	return n;
}

__attribute__((destructor)) static void exit_delay(void)
{
	const char *delay = getenv("EXIT_DELAY_MS");

	if (delay != NULL)
		sleep_us(atol(delay) * 1000);
}
