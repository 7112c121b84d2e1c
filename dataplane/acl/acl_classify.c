/* SPDX-License-Identifier: BSD-3-Clause */
/* The workers' side of access lists: a packet's key, a vector's verdicts, log samples. */
#include <stddef.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_graph.h>
#include <rte_mbuf.h>

#include "dataplane/acl/acl.h"
#include "dataplane/acl/acl_cache.h"
#include "dataplane/acl/acl_priv.h"
#include "dataplane/ip6/ip6.h"

#define PROTO_ICMP 1
#define PROTO_TCP 6
#define PROTO_UDP 17
#define PROTO_SCTP 132

/* Each worker's log samples: a ring it alone writes (head) and the control thread alone
 * reads (tail), and its rate (GCRA on the TSC). */
#define SAMPLES 16
static struct {
	uint32_t head, tail;
	uint64_t tat;
	struct dp_acl_sample s[SAMPLES];
} __rte_cache_aligned samples[DP_MAX_WORKERS];

static bool has_ports(uint8_t proto)
{
	return proto == PROTO_TCP || proto == PROTO_UDP || proto == PROTO_SCTP;
}

/* The ports after the header at l4 (ICMP's type and code into sport), when len bytes of the
 * packet are readable. Returns whether the protocol has them and they cannot be read. */
static bool l4_fields(uint8_t proto, uint8_t icmp, const uint8_t *ip, uint32_t l4, uint32_t len,
		      uint8_t *sport, uint8_t *dport)
{
	if (has_ports(proto)) {
		if (l4 + 4 > len)
			return true;
		memcpy(sport, ip + l4, 2);
		memcpy(dport, ip + l4 + 2, 2);
	} else if (proto == icmp) {
		if (l4 + 2 > len)
			return true;
		memcpy(sport, ip + l4, 2);
	}
	return false;
}

/* Whether the IPv4 header is a fragment's later piece. */
static inline bool later_piece4(const uint8_t *ip)
{
	return ((ip[6] & 0x1f) | ip[7]) != 0;
}

bool dp_acl4_key(const uint8_t *ip, uint32_t len, struct dp_acl4_key *k)
{
	uint8_t proto = ip[9];

	memset(k, 0, sizeof(*k));
	k->proto = proto;
	memcpy(k->src, ip + 12, 4);
	memcpy(k->dst, ip + 16, 4);
	if (later_piece4(ip))
		return has_ports(proto) || proto == PROTO_ICMP;
	return l4_fields(proto, PROTO_ICMP, ip, (ip[0] & 0xf) * 4u, len, k->sport,
			 k->dport);
}

bool dp_acl6_key(const uint8_t *ip, uint32_t len, struct dp_acl6_key *k)
{
	uint32_t at = IP6_HDR_LEN;
	uint8_t next = ip[6];
	bool later = false;
	int n;

	memset(k, 0, sizeof(*k));
	memcpy(k->src, ip + 8, 16);
	memcpy(k->dst, ip + 24, 16);
	for (n = 0; ip6_is_ext(next) && n < IP6_EXT_HEADERS_MAX && at + 8 <= len; n++) {
		uint8_t after = ip[at];

		if (next == IP6_NEXT_FRAGMENT) {
			later = (ip[at + 2] << 8 | (ip[at + 3] & 0xf8)) != 0;
			at += 8;
		} else {
			at += (ip[at + 1] + 1) * 8u;
		}
		next = after;
		if (later)
			break;
	}
	k->proto = next;
	if (later || ip6_is_ext(next))
		return has_ports(next) || next == IP6_NEXT_ICMP || ip6_is_ext(next);
	return l4_fields(next, IP6_NEXT_ICMP, ip, at, len, k->sport, k->dport);
}

/*
 * Inlined in dp_acl_filter: the key of the packet whose header lies at ip, len bytes readable.
 * In the usual shape (no IPv4 options, no IPv6 extension headers, not a later piece, the 4
 * bytes after the header there) it is the header itself from the protocol byte on; any
 * other packet's is copied into k.
 */
static inline const uint8_t *acl4_data(const uint8_t *ip, uint32_t len, struct dp_acl4_key *k,
				       bool *noport)
{
	if (likely(ip[0] == 0x45 && len >= DP_ACL4_IN_PLACE_LEN && !later_piece4(ip))) {
		*noport = false;
		return ip + DP_ACL4_KEY_AT;
	}
	*noport = dp_acl4_key(ip, len, k);
	return &k->proto;
}

static inline const uint8_t *acl6_data(const uint8_t *ip, uint32_t len, struct dp_acl6_key *k,
				       bool *noport)
{
	if (likely(!ip6_is_ext(ip[6]) && len >= DP_ACL6_IN_PLACE_LEN)) {
		*noport = false;
		return ip + DP_ACL6_KEY_AT;
	}
	*noport = dp_acl6_key(ip, len, k);
	return &k->proto;
}

const uint8_t *dp_acl4_data(const uint8_t *ip, uint32_t len, struct dp_acl4_key *k, bool *noport)
{
	return acl4_data(ip, len, k, noport);
}

const uint8_t *dp_acl6_data(const uint8_t *ip, uint32_t len, struct dp_acl6_key *k, bool *noport)
{
	return acl6_data(ip, len, k, noport);
}

static void take_sample(unsigned int worker, const struct dp_acl *a, uint32_t e, uint16_t port,
			uint8_t dir, const uint8_t *key, bool noport)
{
	typeof(samples[0]) *r = &samples[worker];
	uint64_t now = rte_rdtsc(), interval = rte_get_tsc_hz() / DP_ACL_LOG_RATE;
	uint64_t tat = r->tat > now ? r->tat : now;
	struct dp_acl_sample *s;

	if (tat - now > interval * DP_ACL_LOG_RATE ||
	    r->head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) >= SAMPLES)
		return;
	r->tat = tat + interval;
	s = &r->s[r->head % SAMPLES];
	memcpy(s->acl, a->name, sizeof(s->acl));
	s->seq = e < a->nb ? a->seq[e] : 0;
	s->port = port;
	s->family = a->family;
	s->dir = dir;
	s->permit = a->verdict[e] & DP_ACL_V_PERMIT;
	s->l4 = !noport;
	/* what rte_acl read of the packet, not past it */
	if (a->family == DP_ACL_IPV4)
		memcpy(&s->k4, key, offsetof(struct dp_acl4_key, pad));
	else
		memcpy(&s->k6, key, offsetof(struct dp_acl6_key, pad));
	__atomic_store_n(&r->head, r->head + 1, __ATOMIC_RELEASE);
}

unsigned int dp_acl_samples(struct dp_acl_sample *out, unsigned int max)
{
	unsigned int w, n = 0;

	for (w = 0; w < DP_MAX_WORKERS && n < max; w++) {
		typeof(samples[0]) *r = &samples[w];
		uint32_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE), tail = r->tail;

		while (tail != head && n < max)
			out[n++] = r->s[tail++ % SAMPLES];
		__atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
	}
	return n;
}

/*
 * The entries cnt keys data[] meet in the worker's cache (acl_cache.h) of one family (its
 * table, slot size and the key's bytes past the protocol), for the list of id list: e[k] for
 * each found; the others gathered in miss[] and at[] (their k), and their count returned.
 * sl[k] is each key's slot. Inlined for each family, so the compare's length is a constant.
 */
static __rte_always_inline uint32_t
cache_lookup(uint8_t *table, size_t slot_size, unsigned int rest_at, unsigned int rest_len,
	     uint32_t list, const uint8_t **data, uint32_t cnt, bool noport, uint32_t *e,
	     const uint8_t **miss, uint32_t *at, struct acl_slot **sl)
{
	uint32_t k, nm = 0;

	for (k = 0; k < cnt; k++) {
		uint32_t h = acl_cache_hash(list, data[k], noport, rest_at, rest_len);

		sl[k] = (struct acl_slot *)(table + (h & (DP_ACL_CACHE_SLOTS - 1)) * slot_size);
		rte_prefetch0(sl[k]);
	}
	for (k = 0; k < cnt; k++) {
		const struct acl_slot *x = sl[k];

		if (x->list == list && x->proto == data[k][0] && x->noport == noport &&
		    memcmp(x->rest, data[k] + rest_at, rest_len) == 0) {
			e[k] = x->entry;
		} else {
			miss[nm] = data[k];
			at[nm++] = k;
		}
	}
	return nm;
}

/* The slots of the nm keys the cache missed take their answers. */
static __rte_always_inline void
cache_fill(struct acl_slot *const *sl, unsigned int rest_at, unsigned int rest_len, uint32_t list,
	   const uint8_t **miss, uint32_t *at, uint32_t nm, bool noport, const uint32_t *e)
{
	uint32_t m;

	for (m = 0; m < nm; m++) {
		struct acl_slot *x = sl[at[m]];

		x->list = list;
		x->entry = (uint16_t)e[at[m]];
		x->noport = noport;
		x->proto = miss[m][0];
		memcpy(x->rest, miss[m] + rest_at, rest_len);
	}
}

/* rte_acl's answers for the n keys miss[], into e[at[i]]. (at is not const: GCC's -O1 with
 * AddressSanitizer takes a const array it cannot see filled for one that may be read
 * uninitialized.) */
static void walk(const struct dp_acl *a, const struct rte_acl_ctx *ctx, const uint8_t **miss,
		 uint32_t *at, uint32_t n, uint32_t *e)
{
	uint32_t res[RTE_GRAPH_BURST_SIZE], i;

	if (n == 0)
		return;
	if (likely(ctx != NULL))
		rte_acl_classify(ctx, miss, res, n, 1);
	else
		memset(res, 0, sizeof(res[0]) * n);
	for (i = 0; i < n; i++)
		e[at[i]] = res[i] ? res[i] - 1 : a->nb;
}

/* The entries cnt keys data[] of list a meet, into e[]: from the worker's cache where it has
 * them, the others by one rte_acl walk in ctx, whose answers then fill their slots. */
static void entries_of(unsigned int worker, const struct dp_acl *a, const struct rte_acl_ctx *ctx,
		       const uint8_t **data, uint32_t cnt, bool noport, uint32_t *e)
{
	struct acl_cache *c = acl_caches ? &acl_caches[worker] : NULL;
	const uint32_t list = a->id;	/* a list's verdicts are its own */
	const uint8_t *miss[RTE_GRAPH_BURST_SIZE];
	struct acl_slot *sl[RTE_GRAPH_BURST_SIZE];
	uint32_t at[RTE_GRAPH_BURST_SIZE], k, nm;

	if (unlikely(c == NULL)) {
		for (k = 0; k < cnt; k++)
			at[k] = k;
		walk(a, ctx, data, at, cnt, e);
		return;
	}
	if (a->family == DP_ACL_IPV4) {
		nm = cache_lookup(c->v4, ACL4_SLOT_SIZE, ACL4_REST_AT, ACL4_REST_LEN, list, data,
				  cnt, noport, e, miss, at, sl);
		walk(a, ctx, miss, at, nm, e);
		cache_fill(sl, ACL4_REST_AT, ACL4_REST_LEN, list, miss, at, nm, noport, e);
	} else {
		nm = cache_lookup(c->v6, ACL6_SLOT_SIZE, ACL6_REST_AT, ACL6_REST_LEN, list, data,
				  cnt, noport, e, miss, at, sl);
		walk(a, ctx, miss, at, nm, e);
		cache_fill(sl, ACL6_REST_AT, ACL6_REST_LEN, list, miss, at, nm, noport, e);
	}
}

/* The verdicts of cnt keys data[] of list a in its context ctx (NULL: none, the implicit deny
 * for all), for the frames idx[] of the vector (NULL: 0 .. cnt - 1). */
static void classify_list(unsigned int worker, uint8_t dir, struct dp_acl *a,
			  const struct rte_acl_ctx *ctx, const uint16_t *port, const uint8_t **data,
			  const uint16_t *idx, uint32_t cnt, bool noport, bool *deny)
{
	uint32_t ent[RTE_GRAPH_BURST_SIZE];
	uint64_t *hits = &a->hits[worker * a->stride];	/* a row each worker dp_acl_init named */
	uint32_t k;

	entries_of(worker, a, ctx, data, cnt, noport, ent);
	for (k = 0; k < cnt; k++) {
		uint32_t e = ent[k];
		uint8_t v = a->verdict[e];
		uint16_t j = idx ? idx[k] : k;

		hits[e]++;
		deny[j] = !(v & DP_ACL_V_PERMIT);
		if (unlikely(v & DP_ACL_V_LOG))
			take_sample(worker, a, e, port[j], dir, data[k], noport);
	}
}

uint16_t dp_acl_classify(unsigned int worker, uint8_t dir, struct dp_acl *const *acl,
			 const uint16_t *port, const uint8_t *const *keys, const bool *noport,
			 uint16_t n, bool *deny)
{
	const uint8_t *data[RTE_GRAPH_BURST_SIZE];
	uint16_t idx[RTE_GRAPH_BURST_SIZE];
	bool done[RTE_GRAPH_BURST_SIZE];
	uint16_t i, j, cnt, denied = 0;
	unsigned int pass;

	/* the common vector: every frame from one interface, so one list, and every key whole */
	for (i = 1; i < n && acl[i] == acl[0]; i++)
		;
	if (i == n && acl[0] != NULL && noport == NULL) {
		classify_list(worker, dir, acl[0], acl[0]->ctx, port,
			      (const uint8_t **)(uintptr_t)keys, NULL, n, false, deny);
	} else {
		for (i = 0; i < n; i++) {
			deny[i] = false;
			done[i] = acl[i] == NULL;
		}
		/* one classify call for each list in the vector and each of its contexts, its
		 * packets together: those with their ports, then those without */
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < n; i++) {
				bool np = noport && noport[i];

				if (done[i] || np != (pass == 1))
					continue;
				for (j = i, cnt = 0; j < n; j++)
					if (!done[j] && acl[j] == acl[i] && (noport && noport[j]) == np) {
						data[cnt] = keys[j];
						idx[cnt++] = j;
						done[j] = true;
					}
				classify_list(worker, dir, acl[i], np ? acl[i]->ctx_noport : acl[i]->ctx,
					      port, data, idx, cnt, np, deny);
			}
	}
	for (i = 0; i < n; i++)
		denied += deny[i];
	return denied;
}

uint16_t dp_acl_filter(unsigned int worker, uint8_t family, uint8_t dir, void **objs,
		       const uint16_t *sel, struct dp_acl *const *acl, const uint16_t *port,
		       uint16_t n, rte_edge_t *nexts, rte_edge_t drop)
{
	const uint8_t *data[RTE_GRAPH_BURST_SIZE];
	bool deny[RTE_GRAPH_BURST_SIZE], noport[RTE_GRAPH_BURST_SIZE];
	bool any_noport = false;
	uint16_t i;

	if (family == DP_ACL_IPV4) {
		struct dp_acl4_key keys[RTE_GRAPH_BURST_SIZE];

		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = objs[sel[i]];
			uint32_t l3 = m->l2_len;

			data[i] = acl4_data(rte_pktmbuf_mtod_offset(m, const uint8_t *, l3),
					    m->data_len - l3, &keys[i], &noport[i]);
			any_noport |= noport[i];
		}
		if (dp_acl_classify(worker, dir, acl, port, data, any_noport ? noport : NULL, n,
				    deny) == 0)
			return 0;
	} else {
		struct dp_acl6_key keys[RTE_GRAPH_BURST_SIZE];

		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = objs[sel[i]];
			uint32_t l3 = m->l2_len;

			data[i] = acl6_data(rte_pktmbuf_mtod_offset(m, const uint8_t *, l3),
					    m->data_len - l3, &keys[i], &noport[i]);
			any_noport |= noport[i];
		}
		if (dp_acl_classify(worker, dir, acl, port, data, any_noport ? noport : NULL, n,
				    deny) == 0)
			return 0;
	}
	for (i = 0; i < n; i++)
		if (deny[i])
			nexts[sel[i]] = drop;
	return 1;
}
