/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A memif peer's control messages checked before DPDK 22.11's memif PMD acts on them.
 *
 * The PMD takes a ring's place from the peer's ADD_RING (region, offset, log2 of its size)
 * and never checks it against the regions the peer announced: at CONNECT it reads the
 * ring's cookie at region + offset, and the worker then polls head, tail and slots there.
 * A ring past its region's end, in a region never announced (an index past the PMD's
 * array of 256), or of 2^15 slots or more reads outside any mapping: ternd dies of SIGSEGV.
 * So each region's announced size is noted (its file is checked against that size when
 * mapped: memif_peer_guard.c), and a ring must lie whole inside one.
 *
 * The PMD counts the rings a peer adds, not their indices: the same index added twice makes
 * two, and at CONNECT it walks past its configured queues to a NULL one (SIGSEGV). A ring's
 * index is taken once each way, and below the 255 queues a port has at most, which also
 * keeps the descriptors a connection hands the PMD few (memif_channel_guard.c closes those
 * the PMD leaves open).
 *
 * The PMD acts on any message whichever side it is: a HELLO sent to a server makes it lay
 * out its own rings in the peer's regions, which it never mapped (SIGSEGV at address 6). A
 * server takes only what a client sends (INIT, ADD_REGION, ADD_RING, CONNECT), a client
 * only what a server sends (HELLO, CONNECTED); either, ACK and DISCONNECT.
 *
 * Regions are checked as the PMD counts them (the next index, below 256), so that a
 * region it would refuse is refused here, where its file descriptor is closed: the PMD
 * leaks the descriptor of a message it refuses.
 */
#include <string.h>

#include "dataplane/workarounds/memif_channel_check.h"

static uint16_t msg_u16(const uint8_t *msg, unsigned int off)
{
	uint16_t v;

	memcpy(&v, msg + off, sizeof(v));
	return v;
}

static uint32_t msg_u32(const uint8_t *msg, unsigned int off)
{
	uint32_t v;

	memcpy(&v, msg + off, sizeof(v));
	return v;
}

static uint64_t msg_u64(const uint8_t *msg, unsigned int off)
{
	uint64_t v;

	memcpy(&v, msg + off, sizeof(v));
	return v;
}

/* memif_msg_add_region_t after the type: index (u16), size (u64), packed. */
static enum memif_msg_refusal add_region(struct memif_channel_regions *r, const uint8_t *msg)
{
	uint16_t index = msg_u16(msg, 2);

	if (index != r->n || index >= MEMIF_REGIONS_MAX)
		return MEMIF_MSG_REGION_INDEX;
	r->size[r->n++] = msg_u64(msg, 4);
	return MEMIF_MSG_OK;
}

/* memif_msg_add_ring_t after the type: flags, index, region (u16 each), offset (u32),
 * log2 of the ring's size (u8), private header size (u16), packed. */
static enum memif_msg_refusal add_ring(struct memif_channel_regions *r, const uint8_t *msg)
{
	uint16_t dir = msg_u16(msg, 2) & 1;	/* MEMIF_MSG_ADD_RING_FLAG_C2S */
	uint16_t index = msg_u16(msg, 4);
	uint16_t region = msg_u16(msg, 6);
	uint64_t offset = msg_u32(msg, 8);
	uint8_t log2 = msg[12];
	uint64_t len;

	if (index >= MEMIF_QUEUES_MAX || (r->rings[dir][index / 64] >> (index % 64)) & 1)
		return MEMIF_MSG_RING_INDEX;
	if (region >= r->n)
		return MEMIF_MSG_RING_REGION;
	if (log2 > MEMIF_LOG2_RING_MAX)
		return MEMIF_MSG_RING_SIZE;
	len = MEMIF_RING_HEADER + ((uint64_t)MEMIF_DESC_LEN << log2);
	if (r->size[region] < len || offset > r->size[region] - len)
		return MEMIF_MSG_RING_PLACE;
	r->rings[dir][index / 64] |= 1ull << (index % 64);
	return MEMIF_MSG_OK;
}

/* Whether the side that receives a message of this type may: unknown types pass, the PMD
 * disconnects on them itself. */
static bool direction_ok(bool server, uint16_t type)
{
	switch (type) {
	case MEMIF_MSG_INIT:
	case MEMIF_MSG_ADD_REGION:
	case MEMIF_MSG_ADD_RING:
	case MEMIF_MSG_CONNECT:
		return server;
	case MEMIF_MSG_HELLO:
	case MEMIF_MSG_CONNECTED:
		return !server;
	default:
		return true;
	}
}

enum memif_msg_refusal memif_channel_msg_check(struct memif_channel_regions *r, const uint8_t *msg)
{
	uint16_t type = msg_u16(msg, 0);

	if (!direction_ok(r->server, type))
		return MEMIF_MSG_DIRECTION;
	switch (type) {
	case MEMIF_MSG_ADD_REGION:
		return add_region(r, msg);
	case MEMIF_MSG_ADD_RING:
		return add_ring(r, msg);
	default:
		return MEMIF_MSG_OK;
	}
}

bool memif_channel_msg_takes_fd(const uint8_t *msg)
{
	uint16_t type = msg_u16(msg, 0);

	return type == MEMIF_MSG_ADD_REGION || type == MEMIF_MSG_ADD_RING;
}

const char *memif_channel_refusal_str(enum memif_msg_refusal why)
{
	static const char *const str[MEMIF_MSG_REFUSALS] = {
		[MEMIF_MSG_OK] = "nothing wrong",
		[MEMIF_MSG_DIRECTION] = "a message only its own side sends",
		[MEMIF_MSG_REGION_INDEX] = "a memory region out of turn or past the 256th",
		[MEMIF_MSG_RING_REGION] = "a ring in a memory region it never announced",
		[MEMIF_MSG_RING_SIZE] = "a ring of more than 2^14 slots",
		[MEMIF_MSG_RING_PLACE] = "a ring that does not lie inside its memory region",
		[MEMIF_MSG_RING_INDEX] = "a ring index twice, or past the 255th",
	};

	return why < MEMIF_MSG_REFUSALS ? str[why] : "an unknown refusal";
}
