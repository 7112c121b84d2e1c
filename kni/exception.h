/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exception service: a thread that moves punted packets from the workers'
 * rings into each port's TAP, and frames the kernel sends on a TAP out of the
 * port on the service's own tx queue. It sleeps when idle (1 ms epoll waits
 * after a short spin), so it costs ~0 CPU without punted traffic.
 */
#ifndef TERN_KNI_EXCEPTION_H
#define TERN_KNI_EXCEPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kni/tap.h"

struct kni_port_stats {
	uint64_t to_kernel;		/* frames written to the TAP */
	uint64_t to_kernel_errors;	/* TAP writes that failed (the kernel's queue was full) */
	uint64_t from_kernel;		/* frames the kernel sent, handed to the worker that sends them */
	uint64_t from_kernel_drops;	/* no mbuf (a full ring to that worker leaves them in the TAP) */
	uint64_t from_kernel_too_long;	/* frames longer than a packet buffer, dropped whole */
	uint64_t from_kernel_link_down;	/* frames for a port whose link is down, dropped */
};

/* Control thread, after ports are configured and before workers start. */
/* persist[i]: port i's TAP outlives ternd (and is taken over again at the next start). */
int kni_init(const char *const *tap_names, const bool *persist, char *err, size_t errlen);
/* idle_sleep_max_ms: how long, at most, the idle service sleeps between polls of the
 * workers' punt rings (the latency a punted packet may wait after a quiet spell). */
int kni_start(unsigned int idle_sleep_max_ms, char *err, size_t errlen);
void kni_stop(void);
/* Control thread, periodically: the retired TAPs go (kni_taps_flush), and the port's link
 * state becomes the TAP's carrier. (The
 * TAP's admin state and MTU reach the port through the netlink mirror.) */
void kni_sync(void);
void kni_port_stats(unsigned int port, struct kni_port_stats *st);
/* Control thread: the TAP of a sub-interface made while ternd runs (named like it, its
 * port's MAC and its MTU), and its removal. */
int kni_tap_add(unsigned int port, char *err, size_t errlen);
/* The sub-interface's TAP, made without an IPv6 link-local address (kni_tap_open), gets it
 * now: the mirror calls it at the interface's first IPv6 address. 0 when it has it already. */
int kni_link_local_start(unsigned int port);
/* A sub-interface's TAP back to waiting for an IPv6 address: the kernel makes no link-local
 * address for it again, and ll gets those it has, for the caller to delete (ll->n 0 when it
 * was waiting already). -EINVAL for a port or a bond, whose TAPs keep theirs. */
int kni_link_local_stop(unsigned int port, struct kni_link_locals *ll);
/* Takes the TAP from the service and down at once; the kernel removes it with the others
 * removed since the last kni_taps_flush (at the next tick, or before a TAP is made). */
void kni_tap_remove(unsigned int port);
/* Removes the TAPs retired by kni_tap_remove from the kernel, in one go, and closes them. */
void kni_taps_flush(void);
const char *kni_tap_name(unsigned int port);

/*
 * One round of the service over the workers' punt rings, the step its thread repeats: all
 * that waits in the routing class, then up to a burst a worker of each other class, in class
 * order. Returns the frames written. Tests call it with the thread stopped, after giving a
 * port a socket of theirs for its kernel side (kni_port_fd_set; -1 forgets it).
 */
unsigned int kni_drain_round(void);
void kni_port_fd_set(unsigned int port, int fd);

#endif
