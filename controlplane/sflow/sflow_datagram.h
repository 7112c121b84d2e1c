/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sFlow version 5 datagrams (sflow.org, sflow_version_5.txt), XDR: big-endian 32-bit words,
 * opaque data padded to a word. ternd's samples use the expanded forms (flow sample 0:3,
 * counter sample 0:4), whose interface indexes are whole 32-bit words: a bond member's
 * ifIndex (1000000000 plus its slot) is past the compact forms' 24 bits.
 */
#ifndef TERN_SFLOW_DATAGRAM_H
#define TERN_SFLOW_DATAGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SFLOW_HEADER_BYTES 128		/* a sampled frame's first bytes, the most sent */
#define SFLOW_DATAGRAM_MAX 1400		/* within a 1500-byte path with IPv6 and UDP */

/* An address of either family: family 4 or 6, the bytes in network order. */
struct sflow_addr {
	uint8_t family;
	uint8_t bytes[16];
};

struct sflow_flow {
	uint32_t sequence;		/* of this data source's flow samples */
	uint32_t source_ifindex;	/* the data source: the interface sampled */
	uint32_t rate;			/* 1 in rate */
	uint32_t pool;			/* frames the data source saw while sampling */
	uint32_t drops;			/* samples lost for want of room */
	uint32_t in_ifindex, out_ifindex;	/* 0: unknown */
	uint32_t frame_length;		/* the whole frame's, as received */
	uint16_t header_length;		/* of header, at most SFLOW_HEADER_BYTES */
	const uint8_t *header;
	bool routed;			/* extended router data follows */
	struct sflow_addr next_hop;
	uint8_t src_mask, dst_mask;
	uint16_t in_vlan, out_vlan;	/* extended switch data when either is set */
};

struct sflow_counters {
	uint32_t sequence;
	uint32_t ifindex, type;
	uint64_t speed;			/* bits a second */
	bool admin_up, oper_up;
	uint64_t in_octets, out_octets;
	uint32_t in_ucast, in_mcast, in_bcast, in_discards, in_errors, in_unknown;
	uint32_t out_ucast, out_mcast, out_bcast, out_discards, out_errors;
};

/* A datagram being built in a caller's buffer. */
struct sflow_datagram {
	uint8_t *buf;
	size_t size, len;
	uint32_t samples;
	size_t samples_at;		/* where the sample count is written */
};

/* Starts a datagram of agent agent, its sequence and the agent's uptime in ms; 0, or -ENOSPC
 * when size cannot hold the header. */
int sflow_datagram_begin(struct sflow_datagram *d, uint8_t *buf, size_t size,
			 const struct sflow_addr *agent, uint32_t sequence, uint32_t uptime_ms);
/* Adds a sample; -ENOSPC (and the datagram as it was) when it does not fit: send the datagram
 * and add it to the next. */
int sflow_datagram_add_flow(struct sflow_datagram *d, const struct sflow_flow *f);
int sflow_datagram_add_counters(struct sflow_datagram *d, const struct sflow_counters *c);

#endif
