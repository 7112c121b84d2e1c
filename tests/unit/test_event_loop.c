/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control loop's batches (controlplane/ternd/event_loop.c): an object closed by one handler of a
 * batch is not handed to another handler of the same batch, it is freed only once the batch
 * is done, and a handler that asks for another turn gets it before the loop sleeps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cmocka.h>

#include "controlplane/ternd/event_loop.h"

/* An object with two handlers, like an API client with its socket and its job's pipe. */
struct two {
	struct ev_handler a, b;
	int pa[2], pb[2];
	unsigned int calls;
	bool released;
	bool handler_ran_after_release;
};

static unsigned int releases;

static void two_release(struct ev_handler *h)
{
	struct two *t = (struct two *)h;

	t->released = true;
	releases++;
}

static void two_close(struct two *t)
{
	ev_del(&t->b);
	ev_release(&t->a, two_release);
}

static void on_a(struct ev_handler *h, uint32_t events)
{
	struct two *t = (struct two *)h;

	t->handler_ran_after_release |= t->released;
	t->calls++;
	two_close(t);
}

static void on_b(struct ev_handler *h, uint32_t events)
{
	struct two *t = (struct two *)((char *)h - offsetof(struct two, b));

	t->handler_ran_after_release |= t->released;
	t->calls++;
	two_close(t);
}

static unsigned int ticks;

static void stop_at_first_tick(void)
{
	ticks++;
	ev_stop();
}

static void two_open(struct two *t)
{
	assert_int_equal(pipe(t->pa), 0);
	assert_int_equal(pipe(t->pb), 0);
	t->a = (struct ev_handler){ .fd = t->pa[0], .cb = on_a };
	t->b = (struct ev_handler){ .fd = t->pb[0], .cb = on_b };
	assert_int_equal(ev_add(&t->a, EPOLLIN), 0);
	assert_int_equal(ev_add(&t->b, EPOLLIN), 0);
}

static void two_shut(struct two *t)
{
	close(t->pa[0]);
	close(t->pa[1]);
	close(t->pb[0]);
	close(t->pb[1]);
}

static void test_event_loop_closed_object_gets_no_more_events_of_its_batch(void **state)
{
	struct two t = { 0 };

	assert_int_equal(ev_init(), 0);
	two_open(&t);
	/* both ready before the loop waits: one batch carries both events */
	assert_int_equal(write(t.pa[1], "x", 1), 1);
	assert_int_equal(write(t.pb[1], "x", 1), 1);
	releases = 0;
	ticks = 0;
	assert_int_equal(ev_run(stop_at_first_tick, 20), 0);
	assert_int_equal(t.calls, 1);
	assert_false(t.handler_ran_after_release);
	assert_true(t.released);
	assert_int_equal(releases, 1);
	two_shut(&t);
	ev_fini();
}

static unsigned int pend_turns, other_calls;
static struct ev_handler pender, other;
static int pp[2], po[2];

static void on_pender(struct ev_handler *h, uint32_t events)
{
	char c;

	if (events == EV_PENDING) {
		pend_turns++;
		if (pend_turns < 3)
			ev_pend(h);
		return;
	}
	assert_int_equal(read(h->fd, &c, 1), 1);
	ev_pend(h);
}

static void on_other(struct ev_handler *h, uint32_t events)
{
	char c;

	assert_int_equal(read(h->fd, &c, 1), 1);
	other_calls++;
}

static void test_event_loop_pending_handler_gets_its_turns(void **state)
{
	assert_int_equal(ev_init(), 0);
	assert_int_equal(pipe(pp), 0);
	assert_int_equal(pipe(po), 0);
	pender = (struct ev_handler){ .fd = pp[0], .cb = on_pender };
	other = (struct ev_handler){ .fd = po[0], .cb = on_other };
	assert_int_equal(ev_add(&pender, EPOLLIN), 0);
	assert_int_equal(ev_add(&other, EPOLLIN), 0);
	assert_int_equal(write(pp[1], "x", 1), 1);
	assert_int_equal(write(po[1], "x", 1), 1);
	pend_turns = other_calls = 0;
	assert_int_equal(ev_run(stop_at_first_tick, 50), 0);
	/* three turns asked for, one at a time, each given although nothing else woke the loop */
	assert_int_equal(pend_turns, 3);
	assert_int_equal(other_calls, 1);
	close(pp[0]);
	close(pp[1]);
	close(po[0]);
	close(po[1]);
	ev_fini();
}

static void on_pend_then_closed(struct ev_handler *h, uint32_t events)
{
	struct two *t = (struct two *)h;

	if (events == EV_PENDING) {
		t->handler_ran_after_release = true;	/* must not come: it was released */
		return;
	}
	t->calls++;
	ev_pend(h);
	ev_release(h, two_release);
}

static void test_event_loop_released_handler_loses_its_pending_turn(void **state)
{
	struct two t = { 0 };

	assert_int_equal(ev_init(), 0);
	assert_int_equal(pipe(t.pa), 0);
	t.a = (struct ev_handler){ .fd = t.pa[0], .cb = on_pend_then_closed };
	assert_int_equal(ev_add(&t.a, EPOLLIN), 0);
	assert_int_equal(write(t.pa[1], "x", 1), 1);
	releases = 0;
	assert_int_equal(ev_run(stop_at_first_tick, 20), 0);
	assert_int_equal(t.calls, 1);
	assert_false(t.handler_ran_after_release);
	assert_int_equal(releases, 1);
	close(t.pa[0]);
	close(t.pa[1]);
	ev_fini();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_loop_closed_object_gets_no_more_events_of_its_batch),
		cmocka_unit_test(test_event_loop_pending_handler_gets_its_turns),
		cmocka_unit_test(test_event_loop_released_handler_loses_its_pending_turn),
	};

	return cmocka_run_group_tests_name("event_loop", tests, NULL, NULL);
}
