/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The resolved neighbours' MACs (dataplane/punt/punt_known.h): a MAC is known while any
 * neighbour entry has it, and the slot of one no longer known is given back only after every
 * worker passed a quiescent state, so that a worker's lock-free lookup never reads a slot
 * that already holds another MAC.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>
#include <rte_eal.h>

#include "dataplane/punt/punt_known.h"
#include "dataplane/rcu.h"

#define TABLE 8

static struct rte_ether_addr mac(unsigned int i)
{
	return (struct rte_ether_addr){ { 2, 0, 0, 0, 0x6b, (uint8_t)i } };
}

static void known_while_referenced(void **state)
{
	struct rte_ether_addr a = mac(1);

	(void)state;
	assert_true(dp_punt_known_slot(&a) < 0);
	assert_true(dp_punt_known_ref(&a) >= 0);
	assert_true(dp_punt_known_ref(&a) >= 0);
	dp_punt_known_unref(&a);
	assert_true(dp_punt_known_slot(&a) >= 0);
	dp_punt_known_unref(&a);
	assert_true(dp_punt_known_slot(&a) < 0);
	dp_punt_known_unref(&a);	/* once more than it was known: nothing */
	assert_true(dp_punt_known_slot(&a) < 0);
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	dp_rcu_reclaim();
}

/* A full table: the slot a MAC leaves is taken by no other until the worker (reader 0 here)
 * has passed a quiescent state. */
static void a_slot_waits_for_the_workers(void **state)
{
	struct rte_ether_addr m;
	unsigned int i, n = 0;

	(void)state;
	for (i = 0; i < 64; i++) {
		m = mac(100 + i);
		if (dp_punt_known_ref(&m) < 0)
			break;
		n++;
	}
	assert_true(n >= TABLE);
	m = mac(100);
	dp_punt_known_unref(&m);
	assert_true(dp_punt_known_slot(&m) < 0);
	m = mac(200);
	assert_true(dp_punt_known_ref(&m) < 0);	/* the worker may still read the old slot */
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	dp_rcu_reclaim();
	assert_true(dp_punt_known_ref(&m) >= 0);
	assert_true(dp_punt_known_slot(&m) >= 0);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_punt_known", "--no-huge", "-m", "256", "--no-pci", "-l", "0",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_while_referenced),
		cmocka_unit_test(a_slot_waits_for_the_workers),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-punt-known-%d", getpid());
	if (rte_eal_init(11, argv) < 0 || dp_rcu_init(1) < 0 || dp_punt_known_init(TABLE) < 0) {
		fprintf(stderr, "test_punt_known: cannot set up EAL and the table\n");
		return 1;
	}
	/* one worker, online: what it may read is kept until it says it holds nothing */
	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	return cmocka_run_group_tests_name("punt_known", tests, NULL, NULL);
}
