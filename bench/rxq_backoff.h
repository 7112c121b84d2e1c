/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's polls of a router's rx queues beyond the first: one that
 * came back empty waits twice as many loops before its next poll (1, 3, 7,
 * then RXQ_BACKOFF_MAX), and one that brought frames is polled every loop.
 */
#ifndef TERN_BENCH_RXQ_BACKOFF_H
#define TERN_BENCH_RXQ_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>

#define RXQ_BACKOFF_MAX 15

struct rxq_backoff {
	uint8_t wait;		/* loops to skip before the next poll */
	uint8_t backoff;	/* the wait after an empty poll */
};

/* Whether the queue is to be polled in this loop; if not, one loop of its wait has passed. */
static inline bool rxq_backoff_due(struct rxq_backoff *b)
{
	if (b->wait == 0)
		return true;
	b->wait--;
	return false;
}

/* After a poll that brought n frames. */
static inline void rxq_backoff_polled(struct rxq_backoff *b, uint16_t n)
{
	if (n)
		b->backoff = 0;
	else if (b->backoff < RXQ_BACKOFF_MAX)
		b->backoff = 2 * b->backoff + 1;
	b->wait = b->backoff;
}

#endif
