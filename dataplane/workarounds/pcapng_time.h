/* SPDX-License-Identifier: BSD-3-Clause */
/* A captured packet's time, without DPDK 22.11 pcapng's overflow (interpose_pcapng.c says why). */
#ifndef TERN_PCAPNG_TIME_H
#define TERN_PCAPNG_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The wall clock (ns since the epoch) and the TSC read together, and the TSC's frequency. */
struct pcapng_time {
	uint64_t ns;
	uint64_t cycles;
	uint64_t hz;
};

static inline uint64_t pcapng_cycles_ns(uint64_t d, uint64_t hz)
{
	return d / hz * 1000000000u + d % hz * 1000000000u / hz;
}

/* Nanoseconds since the epoch at TSC cycles, computed without overflowing for any uptime;
 * cycles may come before the base (a packet stamped before the base was taken). */
static inline uint64_t pcapng_time_ns(const struct pcapng_time *b, uint64_t cycles)
{
	if (cycles >= b->cycles)
		return b->ns + pcapng_cycles_ns(cycles - b->cycles, b->hz);
	return b->ns - pcapng_cycles_ns(b->cycles - cycles, b->hz);
}

/* Writes the time of cycles into the Enhanced Packet Block at the start of block (len bytes
 * of it); false, nothing written, when it is not one. */
static inline bool pcapng_time_restamp(uint8_t *block, size_t len, const struct pcapng_time *b,
				       uint64_t cycles)
{
	uint32_t type, hi, lo;
	uint64_t ns;

	if (len < 20)
		return false;
	__builtin_memcpy(&type, block, sizeof(type));
	if (type != 6)	/* an Enhanced Packet Block */
		return false;
	ns = pcapng_time_ns(b, cycles);
	hi = ns >> 32;
	lo = (uint32_t)ns;
	/* after the block's type, length and interface id: the time's high, then low word */
	__builtin_memcpy(block + 12, &hi, sizeof(hi));
	__builtin_memcpy(block + 16, &lo, sizeof(lo));
	return true;
}

#endif
