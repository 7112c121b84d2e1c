/* SPDX-License-Identifier: BSD-3-Clause */
/* A memif peer's control messages checked against what it announced, before the PMD acts. */
#ifndef TERN_MEMIF_CHANNEL_CHECK_H
#define TERN_MEMIF_CHANNEL_CHECK_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>
#include <stdint.h>

/* The memif control protocol as DPDK 22.11 speaks it (drivers/net/memif/memif.h). */
#define MEMIF_MSG_LEN		128
#define MEMIF_MSG_ACK		1
#define MEMIF_MSG_HELLO		2
#define MEMIF_MSG_INIT		3
#define MEMIF_MSG_ADD_REGION	4
#define MEMIF_MSG_ADD_RING	5
#define MEMIF_MSG_CONNECT	6
#define MEMIF_MSG_CONNECTED	7
#define MEMIF_MSG_DISCONNECT	8
#define MEMIF_MSG_REFUSED	0xffff	/* a type the PMD answers with a disconnect */
#define MEMIF_REGIONS_MAX	256	/* ETH_MEMIF_MAX_REGION_NUM */
#define MEMIF_LOG2_RING_MAX	14	/* ETH_MEMIF_MAX_LOG2_RING_SIZE */
#define MEMIF_QUEUES_MAX	255	/* ETH_MEMIF_MAX_NUM_Q_PAIRS: rings each way */
#define MEMIF_RING_HEADER	128	/* memif_ring_t: cookie, flags, head; tail; then the slots */
#define MEMIF_DESC_LEN		16	/* memif_desc_t */

/* What one connection's peer has announced so far. */
struct memif_channel_regions {
	bool server;		/* ternd's side of it is the server (the peer a client) */
	uint16_t n;
	uint64_t size[MEMIF_REGIONS_MAX];
	uint64_t rings[2][(MEMIF_QUEUES_MAX + 63) / 64];	/* indices taken, S2C and C2S */
};

enum memif_msg_refusal {
	MEMIF_MSG_OK,
	MEMIF_MSG_DIRECTION,	/* a message only the other side sends (a HELLO to a server) */
	MEMIF_MSG_REGION_INDEX,	/* a region out of turn, or past the most the PMD holds */
	MEMIF_MSG_RING_REGION,	/* a ring in a region the peer never announced */
	MEMIF_MSG_RING_SIZE,	/* a ring larger than the PMD's largest */
	MEMIF_MSG_RING_PLACE,	/* a ring that does not lie inside its region */
	MEMIF_MSG_RING_INDEX,	/* a ring's index given twice, or past the most a port has */
	MEMIF_MSG_REFUSALS,
};

/* Checks a whole message (MEMIF_MSG_LEN bytes) from the peer, and notes a region it adds:
 * MEMIF_MSG_OK, or why it is refused. */
enum memif_msg_refusal memif_channel_msg_check(struct memif_channel_regions *r, const uint8_t *msg);

/* Whether a message of this type comes with a file descriptor (a region's or a ring's). */
bool memif_channel_msg_takes_fd(const uint8_t *msg);

/* One sentence for the log: what the peer announced that was refused. */
const char *memif_channel_refusal_str(enum memif_msg_refusal why);

#endif
