/* SPDX-License-Identifier: BSD-3-Clause */
/* The control thread's single epoll loop: API clients, signals, timers and netlink. */
#ifndef TERN_EVENT_LOOP_H
#define TERN_EVENT_LOOP_H

#include <stdbool.h>
#include <stdint.h>

/* Events a handler is called with when it asked for another turn (ev_pend), not the kernel. */
#define EV_PENDING (1u << 31)

struct ev_handler {
	int fd;
	void (*cb)(struct ev_handler *h, uint32_t events);
	/* the loop's own: */
	bool removed;		/* ev_del'd: its events still in the current batch are dropped */
	bool pending;		/* on the pending list */
	uint64_t added_in;	/* the batch it was (re)added in: older events are not its */
	struct ev_handler *pend_next;
	struct ev_handler *release_next;
	void (*release)(struct ev_handler *h);
};

int ev_init(void);
int ev_add(struct ev_handler *h, uint32_t events);
int ev_mod(struct ev_handler *h, uint32_t events);
void ev_del(struct ev_handler *h);
/*
 * ev_del, and release(h) once the current batch of events has been handled: the object that
 * holds h stays valid for every handler of the batch, which may still name it. Objects with
 * more than one handler ev_del the others first; their events are dropped too.
 */
void ev_release(struct ev_handler *h, void (*release)(struct ev_handler *h));
/* Calls h->cb(h, EV_PENDING) once more after this batch, before the loop sleeps: a handler
 * that has more queued work than one turn's budget yields and comes back. */
void ev_pend(struct ev_handler *h);
/* Work done a slice at a time between events: work() returns true while some remains, and the
 * loop then polls instead of sleeping. */
void ev_set_background(bool (*work)(void));
/* Runs until ev_stop(); calls tick roughly every tick_ms. */
int ev_run(void (*tick)(void), int tick_ms);
void ev_stop(void);
void ev_fini(void);

#endif
