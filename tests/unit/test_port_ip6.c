/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An interface's ICMPv6 error source (dp_port_ip6) is written by the control thread while
 * workers read it: a reader must get the old address or the new one, never half of each.
 * A writer switches one port's address between two that differ in every byte, as fast as it
 * can, while a reader on another thread reads it the way the error nodes do. The port is one
 * whose address straddles a cache line, where a 16-byte copy is not one access: without the
 * sequence count, the reader gets mixtures.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "dataplane/icmp/icmp6.h"

static const uint8_t A[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x11, 0x11, 0x11, 0x11,
			       0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11 };
static const uint8_t B[16] = { 0x3f, 0xfe, 0x0e, 0xc9, 0x22, 0x22, 0x22, 0x22,
			       0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22 };
static volatile bool stop;
static unsigned int port;

static void *writer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		dp_port_ip6_set(port, A);
		dp_port_ip6_set(port, B);
	}
	return NULL;
}

/* The first port whose address crosses a 64-byte line. */
static unsigned int straddling_port(void)
{
	unsigned int p;

	for (p = 0; p < dp.max_ports; p++) {
		uintptr_t at = (uintptr_t)dp_port_ip6[p].addr;

		if (at / 64 != (at + 15) / 64)
			return p;
	}
	return 0;
}

static void test_a_reader_never_gets_half_of_each(void **state)
{
	struct timespec t0, t;
	uint64_t reads = 0, torn = 0;
	pthread_t w;
	uint8_t got[16];

	port = straddling_port();
	dp_port_ip6_set(port, A);
	stop = false;
	assert_int_equal(pthread_create(&w, NULL, writer, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		unsigned int i;

		for (i = 0; i < 4096; i++, reads++) {
			assert_true(dp_port_ip6_get(port, got));
			if (memcmp(got, A, 16) != 0 && memcmp(got, B, 16) != 0)
				torn++;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1000000000L);
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	pthread_join(w, NULL);
	printf("# port %u: %lu reads, %lu mixtures\n", port, reads, torn);
	assert_true(reads > 0);
	assert_int_equal(torn, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_reader_never_gets_half_of_each),
	};

	return cmocka_run_group_tests_name("port_ip6", tests, NULL, NULL);
}
