/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exception service's order: a round writes to the kernel all that waits in the
 * routing class first, then up to a burst of each other class, so that however full the
 * other classes' rings are, routing's packets wait one round at most; and a full ring of one
 * class takes nothing from another's. The port's kernel side is a datagram socket here, read
 * in the order the service wrote.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "dataplane/harness/pipeline.h"
#include "dataplane/punt/punt.h"
#include "kni/exception.h"

#define BURST 32	/* what a round takes of a class other than routing, a worker */

static struct pipeline p;
static int kernel[2];	/* [0] the port's kernel side, [1] what the test reads */

/* n frames of class c on worker 0's ring of that class, each saying its class. */
static void punt(enum dp_punt_class c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(p.pool);
		uint8_t *b;

		assert_non_null(m);
		b = (uint8_t *)rte_pktmbuf_append(m, 60);
		if (b == NULL)
			fail_msg("no room for a frame");
		else
			b[0] = (uint8_t)c;
		m->port = dp.ports[0].port_id;
		assert_int_equal(rte_ring_sp_enqueue(dp_punt[0].ring[c], m), 0);
	}
}

/* The classes of what the kernel received, in order, as letters 'a' + class. */
static void received(char *out, size_t len)
{
	uint8_t b[128];
	size_t n = 0;

	while (n + 1 < len && recv(kernel[1], b, sizeof(b), MSG_DONTWAIT) > 0)
		out[n++] = (char)('a' + b[0]);
	out[n] = '\0';
}

static void expect(const char *got, char cls, unsigned int count, unsigned int *at)
{
	unsigned int i;

	for (i = 0; i < count; i++, (*at)++)
		if (got[*at] != cls)
			fail_msg("frame %u to the kernel was of class %c, expected %c (all: %s)", *at,
				 got[*at], cls, got);
}

static const char R = 'a' + DP_PUNT_CLASS_routing, N = 'a' + DP_PUNT_CLASS_neighbour,
		  I = 'a' + DP_PUNT_CLASS_icmp, O = 'a' + DP_PUNT_CLASS_other;

static void routing_goes_first_and_whole(void **state)
{
	char got[1024];
	unsigned int at = 0;

	(void)state;
	/* a flood queued before the routing class's frames, in three classes */
	punt(DP_PUNT_CLASS_other, 100);
	punt(DP_PUNT_CLASS_icmp, 100);
	punt(DP_PUNT_CLASS_neighbour, 100);
	punt(DP_PUNT_CLASS_routing, 50);
	assert_int_equal(kni_drain_round(), 50 + 3 * BURST);
	received(got, sizeof(got));
	expect(got, R, 50, &at);
	expect(got, N, BURST, &at);
	expect(got, I, BURST, &at);
	expect(got, O, BURST, &at);
	assert_int_equal(strlen(got), at);

	/* routing's next frames wait one round at most, whatever is still queued */
	punt(DP_PUNT_CLASS_routing, 5);
	assert_int_equal(kni_drain_round(), 5 + 3 * BURST);
	received(got, sizeof(got));
	at = 0;
	expect(got, R, 5, &at);
	expect(got, N, BURST, &at);
	while (kni_drain_round() > 0)
		received(got, sizeof(got));
}

static void a_full_ring_takes_nothing_from_another(void **state)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(p.pool);
	char got[16];

	(void)state;
	punt(DP_PUNT_CLASS_icmp, rte_ring_free_count(dp_punt[0].ring[DP_PUNT_CLASS_icmp]));
	assert_non_null(m);
	assert_int_not_equal(rte_ring_sp_enqueue(dp_punt[0].ring[DP_PUNT_CLASS_icmp], m), 0);
	rte_pktmbuf_free(m);
	punt(DP_PUNT_CLASS_routing, 1);
	kni_drain_round();
	received(got, sizeof(got));
	assert_int_equal(got[0], R);
	while (kni_drain_round() > 0)
		received(got, sizeof(got));
}

int main(void)
{
	char prefix[64];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(routing_goes_first_and_whole),
		cmocka_unit_test(a_full_ring_takes_nothing_from_another),
	};
	int bufsize = 4 << 20;

	snprintf(prefix, sizeof(prefix), "tern-unit-exception-drain-%d", getpid());
	if (pipeline_init(&p, 4096, prefix, 1, NULL) < 0 ||
	    socketpair(AF_UNIX, SOCK_DGRAM, 0, kernel) < 0) {
		fprintf(stderr, "test_exception_drain: cannot set up the pipeline\n");
		return 1;
	}
	setsockopt(kernel[1], SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof(bufsize));
	setsockopt(kernel[0], SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof(bufsize));
	kni_port_fd_set(0, kernel[0]);
	return cmocka_run_group_tests_name("exception_drain", tests, NULL, NULL);
}
