/* The control thread's single epoll loop: API clients, signals, timers (and later netlink). */
#ifndef TERN_EVENT_LOOP_H
#define TERN_EVENT_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct ev_handler {
	int fd;
	void (*cb)(struct ev_handler *h, uint32_t events);
};

int ev_init(void);
int ev_add(struct ev_handler *h, uint32_t events);
int ev_mod(struct ev_handler *h, uint32_t events);
void ev_del(struct ev_handler *h);
/* Work done a slice at a time between events: work() returns true while some remains, and the
 * loop then polls instead of sleeping. */
void ev_set_background(bool (*work)(void));
/* Runs until ev_stop(); calls tick roughly every tick_ms. */
int ev_run(void (*tick)(void), int tick_ms);
void ev_stop(void);
void ev_fini(void);

#endif
