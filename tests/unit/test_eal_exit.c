/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which ports keep a program from rte_eal_cleanup() (dataplane/workarounds/eal_exit.c):
 * memif ports that listen, whatever else their arguments say, and no other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <cmocka.h>

#include "dataplane/workarounds/eal_exit.h"

static void test_memif_servers_listen(void **state)
{
	assert_true(eal_exit_memif_listens("net_memif0"));
	assert_true(eal_exit_memif_listens("net_memif0,role=server,id=0,socket=/run/m0.sock"));
	assert_true(eal_exit_memif_listens("net_memif1,id=0,socket=/run/m1.sock,role=master"));
	/* a socket path that happens to hold the words is not the role */
	assert_true(eal_exit_memif_listens("net_memif2,socket=/tmp/role=client,id=1"));
}

static void test_memif_clients_and_other_ports_do_not(void **state)
{
	assert_false(eal_exit_memif_listens("net_memif0,role=client,id=0,socket=/run/m0.sock"));
	assert_false(eal_exit_memif_listens("net_memif0,id=0,role=slave"));
	assert_false(eal_exit_memif_listens("net_memif0,role=client,zero-copy=yes"));
	assert_false(eal_exit_memif_listens("net_tap0,iface=dp0"));
	assert_false(eal_exit_memif_listens("net_ring0"));
	assert_false(eal_exit_memif_listens(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memif_servers_listen),
		cmocka_unit_test(test_memif_clients_and_other_ports_do_not),
	};

	return cmocka_run_group_tests_name("eal_exit", tests, NULL, NULL);
}
