/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The timestamps of the packets dpdk-dumpcap captures from ternd.
 *
 * A capture's copy of each packet is made in ternd's workers (librte_pdump's callback calls
 * rte_pcapng_copy), which stamps it with the time since librte_pcapng was loaded: in DPDK
 * 22.11 the TSC cycles since then times 10^9, in 64 bits, over the TSC's frequency. The
 * product overflows once the process has run 2^64 / 10^9 cycles (7.4 s at 2.5 GHz), and every
 * packet captured later reads as a date centuries away (tcpdump showed 2251).
 *
 * Linked only into ternd (the link exports the name: Makefile, INTERPOSE_PCAPNG_EXPORT): the
 * copy is made by the library, then its Enhanced Packet Block gets the time computed without
 * the overflow, from a base of ternd's own (the wall clock and the TSC read together once).
 * ternd-static cannot be captured from (dpdk-dumpcap needs the shared libraries), so it
 * needs none of this.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_pcapng.h>

#include "dataplane/workarounds/dpdk_version.h"
#include "dataplane/workarounds/pcapng_time.h"

typedef struct rte_mbuf *(*copy_fn)(uint16_t, uint32_t, const struct rte_mbuf *,
				    struct rte_mempool *, uint32_t, uint64_t,
				    enum rte_pcapng_direction);

static copy_fn pcapng_copy;
static struct pcapng_time base;
static int base_state;		/* 0: not taken, 1: being taken, 2: taken */

__attribute__((constructor)) static void interpose_pcapng_init(void)
{
	pcapng_copy = (copy_fn)dlsym(RTLD_NEXT, "rte_pcapng_copy");
}

/* Taken by the first worker that copies a packet, after EAL has measured the TSC. */
static const struct pcapng_time *time_base(void)
{
	int expect = 0;

	if (__atomic_load_n(&base_state, __ATOMIC_ACQUIRE) == 2)
		return &base;
	if (__atomic_compare_exchange_n(&base_state, &expect, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		base.cycles = rte_get_tsc_cycles();
		base.ns = (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
		base.hz = rte_get_tsc_hz();
		__atomic_store_n(&base_state, 2, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&base_state, __ATOMIC_ACQUIRE) != 2)
		rte_pause();
	return &base;
}

struct rte_mbuf *rte_pcapng_copy(uint16_t port_id, uint32_t queue, const struct rte_mbuf *m,
				 struct rte_mempool *mp, uint32_t length, uint64_t cycles,
				 enum rte_pcapng_direction direction)
{
	struct rte_mbuf *mc;

	if (pcapng_copy == NULL)
		return NULL;
	mc = pcapng_copy(port_id, queue, m, mp, length, cycles, direction);
	if (mc != NULL)
		pcapng_time_restamp(rte_pktmbuf_mtod(mc, uint8_t *), rte_pktmbuf_data_len(mc),
				    time_base(), cycles);
	return mc;
}
