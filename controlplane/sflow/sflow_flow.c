/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker's sample made into an sFlow flow sample: the frame's tags and addresses read from its
 * header, and what the RIB forwards it by (the route the FIB holds): the egress interface, the
 * next hop, and the prefix lengths of the destination's and the source's routes. An ECMP
 * route's egress is the member the workers sent the frame by: the same flow hash of its
 * header (fib/ecmp.h), the same choice among the members whose ports can send.
 */
#include <arpa/inet.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/sflow/sflow_flow.h"
#include "controlplane/snmp/if_mib.h"
#include "dataplane/dp.h"
#include "dataplane/fib/ecmp.h"

#define VID_MASK 0x0fff
/* sFlow's reason codes of a discarded frame (the ICMP unreachable codes) */
#define DISCARD_NET_UNREACHABLE 0
#define DISCARD_PROHIBITED 13

struct frame_addrs {
	uint8_t family;		/* 4, 6, or 0: not IP, or its header cut short */
	uint8_t src[16], dst[16];
	uint16_t vlan;		/* the innermost tag's VID; 0: untagged */
	const uint8_t *ip;	/* the IP header in the sample, and the bytes of it there */
	uint16_t ip_len;
};

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void frame_parse(const uint8_t *h, uint16_t len, struct frame_addrs *a)
{
	unsigned int off = 2 * RTE_ETHER_ADDR_LEN, tags;
	uint16_t type;

	memset(a, 0, sizeof(*a));
	for (tags = 0; tags <= 2 && off + 2 <= len; tags++) {
		type = be16_at(h + off);
		if (type != RTE_ETHER_TYPE_VLAN && type != RTE_ETHER_TYPE_QINQ)
			break;
		if (off + 4 > len)
			return;
		a->vlan = be16_at(h + off + 2) & VID_MASK;
		off += RTE_VLAN_HLEN;
	}
	if (off + 2 > len)
		return;
	type = be16_at(h + off);
	off += 2;
	a->ip = h + off;
	a->ip_len = len - off;
	if (type == RTE_ETHER_TYPE_IPV4 && off + 20 <= len && (h[off] >> 4) == 4) {
		a->family = 4;
		memcpy(a->src, h + off + 12, 4);
		memcpy(a->dst, h + off + 16, 4);
	} else if (type == RTE_ETHER_TYPE_IPV6 && off + 40 <= len && (h[off] >> 4) == 6) {
		a->family = 6;
		memcpy(a->src, h + off + 8, 16);
		memcpy(a->dst, h + off + 24, 16);
	}
}

static int route_of(uint8_t family, const uint8_t *ip, struct rib_route_info *ri)
{
	uint32_t v4;

	if (family == 6)
		return rib_route6_lookup(ip, ri);
	memcpy(&v4, ip, 4);
	return rib_route_lookup(ntohl(v4), ri);
}

static void hop_addr(const struct rib_hop *h, const struct frame_addrs *a, struct sflow_addr *nh)
{
	uint32_t gw;

	if (rib_hop_is_v6(h)) {
		nh->family = 6;
		memcpy(nh->bytes, h->gw6, 16);
	} else if (h->gw != 0) {
		nh->family = 4;
		gw = htonl(h->gw);
		memcpy(nh->bytes, &gw, 4);
	} else {	/* connected: the destination is the next hop */
		nh->family = a->family;
		memcpy(nh->bytes, a->dst, a->family == 6 ? 16 : 4);
	}
}

/* The flow hash the workers' ECMP choice took for the frame (fib/ecmp.h), or false when the
 * sample ends before the ports it takes. */
static bool frame_flow_hash(const struct frame_addrs *a, uint32_t *hash)
{
	if (a->family == 4) {
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)a->ip;
		uint32_t hl = rte_ipv4_hdr_len(ip);

		if (ecmp_has_ports(ip) && (hl < sizeof(*ip) || hl + 4 > a->ip_len))
			return false;
		*hash = ecmp_flow_hash(ip);
		return true;
	} else {
		const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)a->ip;

		if (!ecmp_has_ports6(ip)) {
			*hash = ecmp_hash6(ip, NULL);
			return true;
		}
		if (sizeof(*ip) + 4 > a->ip_len)
			return false;
		*hash = ecmp_hash6(ip, a->ip + sizeof(*ip));
		return true;
	}
}

/* The member of ECMP route ri that the workers sent the frame by, or its first when the sample
 * cannot say (cut before the ports): the FIB's group is the route's nexthop object, its
 * members in the order of ri's. */
static const struct rib_hop *group_member(const struct rib_route_info *ri,
					  const struct frame_addrs *a)
{
	const struct dp_nexthop *g = dp_nh_get(ri->nh_id), *m;
	uint32_t hash;
	unsigned int i;

	if (g == NULL || g->kind != DP_NH_GROUP || g->nb_members != ri->nh.nb_members ||
	    !frame_flow_hash(a, &hash))
		return &ri->nh.members[0];
	m = ecmp_member_live(g, hash);
	for (i = 0; i < g->nb_members; i++)
		if (dp_nh_get(g->members[i]) == m)
			return &ri->nh.members[i];
	return &ri->nh.members[0];
}

static uint16_t iface_vlan(unsigned int slot)
{
	const struct dp_port *p = &dp.ports[slot];

	if (!dp_port_in_use(slot) || p->kind != DP_PORT_VLAN)
		return 0;
	return p->inner_vid ? p->inner_vid : p->outer_vid;
}

/* Where the FIB sends a frame to a (its egress, next hop and destination prefix length). */
static void egress_of(const struct frame_addrs *a, struct sflow_flow *f)
{
	struct rib_route_info ri;
	const struct rib_hop *h;

	if (route_of(a->family, a->dst, &ri) < 0) {
		f->out_ifindex = SFLOW_IFINDEX_DISCARD | DISCARD_NET_UNREACHABLE;
		return;
	}
	f->dst_mask = ri.len;
	switch (ri.nh.type) {
	case RIB_NH_LOCAL:
		f->out_ifindex = SFLOW_IFINDEX_INTERNAL;
		return;
	case RIB_NH_BLACKHOLE:
	case RIB_NH_UNREACHABLE:
		f->out_ifindex = SFLOW_IFINDEX_DISCARD | DISCARD_NET_UNREACHABLE;
		return;
	case RIB_NH_PROHIBIT:
		f->out_ifindex = SFLOW_IFINDEX_DISCARD | DISCARD_PROHIBITED;
		return;
	case RIB_NH_GROUP:
		if (ri.nh.nb_members == 0)
			return;
		h = group_member(&ri, a);
		break;
	default:
		h = &ri.nh.hop;
		break;
	}
	f->out_ifindex = if_mib_ifindex(h->port);
	f->out_vlan = iface_vlan(h->port);
	f->routed = true;
	hop_addr(h, a, &f->next_hop);
}

void sflow_flow_of(const struct dp_sflow_sample *s, uint32_t rate,
		   const struct dp_sflow_count *counts, uint32_t sequence, struct sflow_flow *f)
{
	struct frame_addrs a;
	struct rib_route_info ri;
	uint32_t ifindex = if_mib_ifindex(s->index);

	memset(f, 0, sizeof(*f));
	f->sequence = sequence;
	f->source_ifindex = ifindex;
	f->in_ifindex = ifindex;
	f->rate = rate;
	f->pool = (uint32_t)counts->pool;	/* sFlow's counts wrap at 32 bits */
	f->drops = (uint32_t)counts->drops;
	f->frame_length = s->frame_len;
	f->header_length = s->header_len;
	f->header = s->header;
	frame_parse(s->header, s->header_len, &a);
	f->in_vlan = a.vlan;
	if (a.family == 0)
		return;
	egress_of(&a, f);
	if (route_of(a.family, a.src, &ri) == 0)
		f->src_mask = ri.len;
}
