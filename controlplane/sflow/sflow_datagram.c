/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "controlplane/sflow/sflow_datagram.h"

enum {
	SFLOW_VERSION = 5,
	ADDR_IPV4 = 1,
	ADDR_IPV6 = 2,
	FLOW_SAMPLE_EXPANDED = 3,
	COUNTERS_SAMPLE_EXPANDED = 4,
	RECORD_RAW_HEADER = 1,
	RECORD_EXT_SWITCH = 1001,
	RECORD_EXT_ROUTER = 1002,
	RECORD_GENERIC_IF = 1,
	HEADER_ETHERNET = 1,
	SOURCE_IFINDEX = 0,
	DIRECTION_FULL = 1,
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24, p[1] = v >> 16, p[2] = v >> 8, p[3] = v;
}

/* A writer that stops at the first word that does not fit. */
struct xdr {
	uint8_t *p;
	size_t room;
	bool full;
};

static void u32(struct xdr *x, uint32_t v)
{
	if (x->full || x->room < 4) {
		x->full = true;
		return;
	}
	put32(x->p, v);
	x->p += 4;
	x->room -= 4;
}

static void u64(struct xdr *x, uint64_t v)
{
	u32(x, v >> 32);
	u32(x, (uint32_t)v);
}

/* Opaque bytes padded to a word, without a length (the caller wrote it). */
static void bytes(struct xdr *x, const uint8_t *b, size_t n)
{
	size_t padded = (n + 3) & ~(size_t)3;

	if (x->full || x->room < padded) {
		x->full = true;
		return;
	}
	memcpy(x->p, b, n);
	memset(x->p + n, 0, padded - n);
	x->p += padded;
	x->room -= padded;
}

static void addr(struct xdr *x, const struct sflow_addr *a)
{
	if (a->family == 6) {
		u32(x, ADDR_IPV6);
		bytes(x, a->bytes, 16);
	} else {
		u32(x, ADDR_IPV4);
		bytes(x, a->bytes, 4);
	}
}

/* Where a length word goes, filled in by length_end once what it measures is written. */
static uint8_t *length_begin(struct xdr *x)
{
	uint8_t *at = x->p;

	u32(x, 0);
	return at;
}

static void length_end(struct xdr *x, uint8_t *at)
{
	if (!x->full)
		put32(at, (uint32_t)(x->p - at - 4));
}

int sflow_datagram_begin(struct sflow_datagram *d, uint8_t *buf, size_t size,
			 const struct sflow_addr *agent, uint32_t sequence, uint32_t uptime_ms)
{
	struct xdr x = { buf, size, false };

	u32(&x, SFLOW_VERSION);
	addr(&x, agent);
	u32(&x, 0);			/* sub-agent */
	u32(&x, sequence);
	u32(&x, uptime_ms);
	if (x.full)
		return -ENOSPC;
	d->buf = buf;
	d->size = size;
	d->samples_at = (size_t)(x.p - buf);
	u32(&x, 0);			/* samples, counted as they are added */
	if (x.full)
		return -ENOSPC;
	d->len = (size_t)(x.p - buf);
	d->samples = 0;
	return 0;
}

/* Ends a sample written from d->len to x: counts it, or forgets it when it did not fit. */
static int sample_end(struct sflow_datagram *d, struct xdr *x)
{
	if (x->full)
		return -ENOSPC;
	d->len = (size_t)(x->p - d->buf);
	put32(d->buf + d->samples_at, ++d->samples);
	return 0;
}

int sflow_datagram_add_flow(struct sflow_datagram *d, const struct sflow_flow *f)
{
	struct xdr x = { d->buf + d->len, d->size - d->len, false };
	uint16_t hl = f->header_length < SFLOW_HEADER_BYTES ? f->header_length : SFLOW_HEADER_BYTES;
	bool sw = f->in_vlan || f->out_vlan;
	uint8_t *sample, *rec;

	u32(&x, FLOW_SAMPLE_EXPANDED);
	sample = length_begin(&x);
	u32(&x, f->sequence);
	u32(&x, SOURCE_IFINDEX);
	u32(&x, f->source_ifindex);
	u32(&x, f->rate);
	u32(&x, f->pool);
	u32(&x, f->drops);
	u32(&x, 0);			/* input: an ifIndex */
	u32(&x, f->in_ifindex);
	u32(&x, 0);			/* output: an ifIndex */
	u32(&x, f->out_ifindex);
	u32(&x, 1 + sw + f->routed);	/* records */
	u32(&x, RECORD_RAW_HEADER);
	rec = length_begin(&x);
	u32(&x, HEADER_ETHERNET);
	u32(&x, f->frame_length);
	u32(&x, 0);			/* stripped: DPDK leaves no FCS */
	u32(&x, hl);
	bytes(&x, f->header, hl);
	length_end(&x, rec);
	if (sw) {
		u32(&x, RECORD_EXT_SWITCH);
		rec = length_begin(&x);
		u32(&x, f->in_vlan);
		u32(&x, 0);
		u32(&x, f->out_vlan);
		u32(&x, 0);
		length_end(&x, rec);
	}
	if (f->routed) {
		u32(&x, RECORD_EXT_ROUTER);
		rec = length_begin(&x);
		addr(&x, &f->next_hop);
		u32(&x, f->src_mask);
		u32(&x, f->dst_mask);
		length_end(&x, rec);
	}
	length_end(&x, sample);
	return sample_end(d, &x);
}

int sflow_datagram_add_counters(struct sflow_datagram *d, const struct sflow_counters *c)
{
	struct xdr x = { d->buf + d->len, d->size - d->len, false };
	uint8_t *sample, *rec;

	u32(&x, COUNTERS_SAMPLE_EXPANDED);
	sample = length_begin(&x);
	u32(&x, c->sequence);
	u32(&x, SOURCE_IFINDEX);
	u32(&x, c->ifindex);
	u32(&x, 1);			/* records */
	u32(&x, RECORD_GENERIC_IF);
	rec = length_begin(&x);
	u32(&x, c->ifindex);
	u32(&x, c->type);
	u64(&x, c->speed);
	u32(&x, DIRECTION_FULL);
	u32(&x, (c->admin_up ? 1u : 0u) | (c->oper_up ? 2u : 0u));
	u64(&x, c->in_octets);
	u32(&x, c->in_ucast);
	u32(&x, c->in_mcast);
	u32(&x, c->in_bcast);
	u32(&x, c->in_discards);
	u32(&x, c->in_errors);
	u32(&x, c->in_unknown);
	u64(&x, c->out_octets);
	u32(&x, c->out_ucast);
	u32(&x, c->out_mcast);
	u32(&x, c->out_bcast);
	u32(&x, c->out_discards);
	u32(&x, c->out_errors);
	u32(&x, 0);			/* promiscuous: no */
	length_end(&x, rec);
	length_end(&x, sample);
	return sample_end(d, &x);
}
