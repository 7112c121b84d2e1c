/* SPDX-License-Identifier: BSD-3-Clause */
/* The generator's polls of a router's other rx queues: idle ones back off, busy ones never do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bench/rxq_backoff.h"

/* Runs loops of polling on a queue that brings frames[loop] frames; marks the loops it polled. */
static void run(struct rxq_backoff *b, const uint16_t *frames, unsigned int loops, uint8_t *polled)
{
	unsigned int i;

	for (i = 0; i < loops; i++) {
		polled[i] = rxq_backoff_due(b);
		if (polled[i])
			rxq_backoff_polled(b, frames[i]);
	}
}

static void test_rxq_backoff_idle_queue_waits_longer_up_to_the_cap(void **state)
{
	static const uint16_t none[64];
	struct rxq_backoff b = { 0 };
	uint8_t polled[64];
	unsigned int i, at[8], n = 0;

	run(&b, none, 64, polled);
	for (i = 0; i < 64 && n < 8; i++)
		if (polled[i])
			at[n++] = i;
	/* waits of 1, 3, 7, then 15 loops between polls */
	assert_int_equal(n, 7);
	assert_int_equal(at[0], 0);
	assert_int_equal(at[1], 2);
	assert_int_equal(at[2], 6);
	assert_int_equal(at[3], 14);
	assert_int_equal(at[4], 30);
	assert_int_equal(at[5], 46);
	assert_int_equal(at[6], 62);
	assert_int_equal(b.backoff, RXQ_BACKOFF_MAX);
}

static void test_rxq_backoff_frames_bring_polling_back_to_every_loop(void **state)
{
	uint16_t frames[48] = { 0 };
	struct rxq_backoff b = { 0 };
	uint8_t polled[48];
	unsigned int i;

	for (i = 30; i < 48; i++)
		frames[i] = 32;	/* the queue gets busy at loop 30, a loop it is polled in */
	run(&b, frames, 48, polled);
	assert_true(polled[30]);
	for (i = 30; i < 48; i++)
		assert_true(polled[i]);
	assert_int_equal(b.backoff, 0);
	assert_int_equal(b.wait, 0);
}

static void test_rxq_backoff_busy_queue_is_polled_every_loop(void **state)
{
	uint16_t frames[32];
	struct rxq_backoff b = { 0 };
	uint8_t polled[32];
	unsigned int i;

	for (i = 0; i < 32; i++)
		frames[i] = 1;
	run(&b, frames, 32, polled);
	for (i = 0; i < 32; i++)
		assert_true(polled[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rxq_backoff_idle_queue_waits_longer_up_to_the_cap),
		cmocka_unit_test(test_rxq_backoff_frames_bring_polling_back_to_every_loop),
		cmocka_unit_test(test_rxq_backoff_busy_queue_is_polled_every_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
