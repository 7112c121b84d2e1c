/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_eal_cleanup() after a memif port that listened (role server, memif's
 * default) can crash the process in DPDK 22.11.
 *
 * As the memif PMD closes the last port on a socket it listens on, it frees
 * the socket's interrupt handle but never unregisters the callback: EAL's
 * interrupt source list keeps a copy of the handle, allocated in EAL's heap
 * (hugepage memory). Whenever a callback is added or removed, EAL's interrupt
 * thread wakes through a pipe and rebuilds its epoll set from that list,
 * reading every handle. rte_eal_cleanup() removes the alarm timer's callback
 * (a wake-up) and then unmaps EAL's memory; the interrupt thread, which
 * cleanup does not stop, faults on the stale handle if it gets to that
 * rebuild after the unmap (SIGSEGV in rte_intr_fd_get). tern-bench gen, the
 * memif server of tests/fixtures/memif_zc_client.sh, died so at exit in about 1 run of
 * 100; with the interrupt thread and the exit slowed down
 * (tests/shim/eal_intr_delay.c) in 12 of 12, and under gdb even without a
 * peer. A barrier with the interrupt thread before rte_eal_cleanup() does not
 * help: the last wake-up comes from inside it (rte_eal_cleanup ->
 * rte_intr_callback_unregister_sync, seen under gdb). ternd, a memif server
 * in the benchmarks, never died so in our runs, but holds the same stale
 * source and takes the same way out.
 *
 * So once such a port was made, a program leaves EAL without
 * rte_eal_cleanup(): the ports are stopped and closed as before, and the
 * process's exit releases the memory (EAL leaves its hugepage files behind
 * for secondary processes either way).
 */
#include <stdbool.h>
#include <string.h>

#include <rte_eal.h>

#include "dataplane/workarounds/eal_exit.h"

static bool memif_listener;

bool eal_exit_memif_listens(const char *dev)
{
	const char *arg;
	size_t len;

	if (strncmp(dev, "net_memif", strlen("net_memif")) != 0)
		return false;
	for (arg = strchr(dev, ','); arg != NULL; arg = strchr(arg, ',')) {
		arg++;
		len = strcspn(arg, ",");
		if (strncmp(arg, "role=", 5) == 0)
			return !(len == 11 && strncmp(arg + 5, "client", 6) == 0) &&
			       !(len == 10 && strncmp(arg + 5, "slave", 5) == 0);
	}
	return true;	/* memif's default role is server */
}

void eal_exit_note_port(const char *dev)
{
	if (dev != NULL && eal_exit_memif_listens(dev))
		memif_listener = true;
}

bool eal_exit_cleanup(void)
{
	if (memif_listener)
		return false;
	rte_eal_cleanup();
	return true;
}
