/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Access lists: a list of entries compiled into an rte_acl context by the control thread,
 * bound to interfaces per family and direction, and read by the workers without a lock. A
 * change compiles a new list and publishes it in one pointer store; the old one is freed,
 * and its counters carried over to the new one, after every worker has passed a quiescent
 * state (dp_rcu).
 */
#ifndef TERN_ACL_H
#define TERN_ACL_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_acl.h>
#include <rte_common.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>

#include "dataplane/dp.h"

/* Entries of one list, at most; the most memory rte_acl may take for one list's tries, by
 * default (ternd.conf's [acl] memory_mb) and at most. */
#define DP_ACL_ENTRIES_MAX 8192u
#define DP_ACL_NAME_MAX 32u
#define DP_ACL_MEM_DEFAULT_MB 64
#define DP_ACL_MEM_MAX_MB 1024
/* An entry's number: 1 .. DP_ACL_SEQ_MAX. */
#define DP_ACL_SEQ_MAX 2147483647u
/*
 * An IPv6 list ends, before its implicit deny, with two implicit entries that permit
 * Neighbour Solicitations and Advertisements (ICMPv6 135 and 136), as Cisco's do: a list
 * that filters a link never breaks its neighbours' reachability. They are the list's last
 * entries but the deny (their numbers above DP_ACL_SEQ_MAX).
 */
#define DP_ACL6_IMPLICIT 2

enum dp_acl_family { DP_ACL_IPV4, DP_ACL_IPV6, DP_ACL_FAMILIES };
enum dp_acl_dir { DP_ACL_IN, DP_ACL_OUT, DP_ACL_DIRS };

/* One entry as the control thread gives it: either family. Ports, or ICMP's type and code,
 * as ranges; an entry that names any of them matches only packets whose L4 header is there
 * (not a fragment's later pieces). */
struct dp_acl_entry {
	uint32_t seq;
	bool permit;
	bool log;
	bool any_proto;		/* "ip" / "ipv6": every protocol */
	uint8_t proto;
	uint8_t src[16], dst[16];	/* IPv4 in the first 4 bytes, network order */
	uint8_t src_len, dst_len;
	bool l4;		/* the ranges below say something */
	uint16_t sport_lo, sport_hi;	/* ICMP: the type */
	uint16_t dport_lo, dport_hi;	/* ICMP: the code */
};

/*
 * What rte_acl reads of a packet (the field layout in acl.c): its own header from the
 * protocol byte on, as DPDK's l3fwd classifies, so that a packet of the usual shape (IPv4
 * without options, IPv6 without extension headers, the 4 bytes after the header there) is
 * classified in place and nothing is copied. Any other packet's fields are copied into a key
 * of the same layout. ICMP's type and code are the first two bytes after the header, where
 * the ports are: one 16-bit field, type << 8 | code.
 */
struct dp_acl4_key {
	uint8_t proto;
	uint8_t ttl_csum[2];	/* the header's checksum in place; not matched */
	uint8_t src[4];
	uint8_t dst[4];
	uint8_t sport[2], dport[2];
	uint8_t pad;
} __rte_packed;

struct dp_acl6_key {
	uint8_t proto;
	uint8_t hop_limit;	/* not matched */
	uint8_t src[16];
	uint8_t dst[16];
	uint8_t sport[2], dport[2];
	uint8_t pad[2];
} __rte_packed;

/* Where the key starts in a header of the usual shape, and what must be readable past it. */
#define DP_ACL4_KEY_AT 9
#define DP_ACL4_IN_PLACE_LEN 24
#define DP_ACL6_KEY_AT 6
#define DP_ACL6_IN_PLACE_LEN 44

/* A sample of a packet that matched a log entry, for the control thread to write down. */
struct dp_acl_sample {
	char acl[DP_ACL_NAME_MAX];
	uint32_t seq;		/* 0: the implicit deny */
	uint16_t port;
	uint8_t family, dir;
	bool permit;
	bool l4;		/* the ports (ICMP's type and code) are the packet's */
	union {
		struct dp_acl4_key k4;
		struct dp_acl6_key k6;
	};
};

/* A compiled list, immutable once published but for its counters. */
struct dp_acl {
	struct rte_acl_ctx *ctx;
	/* for packets whose ports (or type) cannot be read, a fragment's later pieces or one cut
	 * short: the entries that name none (ctx itself when every entry names none; NULL when
	 * every entry names some: such a packet meets the implicit deny) */
	struct rte_acl_ctx *ctx_noport;
	uint32_t id;			/* never reused: the verdict caches' key (acl_cache.h) */
	uint8_t family;
	uint32_t nb;			/* entries; entry nb is the implicit deny */
	uint32_t nb_user;		/* of them the operator's: the first */
	uint32_t stride;		/* counters a worker: nb + 1, rounded to a cache line */
	uint8_t *verdict;		/* nb + 1: DP_ACL_V_* */
	uint32_t *seq;			/* nb: each entry's number */
	uint64_t *hits;			/* [worker * stride + entry] */
	uint64_t *base;			/* nb + 1: carried over from the lists it replaced */
	struct dp_acl *successor;	/* the list that replaced it: its counters go there */
	char name[DP_ACL_NAME_MAX];
	size_t mem;			/* what rte_acl took */
};

#define DP_ACL_V_PERMIT 1u
#define DP_ACL_V_LOG 2u

/* The list bound to each interface, per family and direction; NULL: none. */
extern struct dp_acl *volatile *dp_acl_bound[DP_ACL_FAMILIES][DP_ACL_DIRS];	/* by interface */
/* Interfaces with a list bound, per family and direction: 0 lets a node skip it all. */
extern volatile uint32_t dp_acl_nb_bound[DP_ACL_FAMILIES][DP_ACL_DIRS];

/* Control thread: the workers that count (each with a cache of verdicts), and the memory one
 * list's tries may take (MiB, 1 .. DP_ACL_MEM_MAX_MB; 0: DP_ACL_MEM_DEFAULT_MB); before
 * dp_acl_build and before the workers start. -ENOMEM when the caches cannot be made. */
int dp_acl_init(unsigned int nb_workers, unsigned int memory_mb);
/* Compiles n entries (in order: the first that matches decides) of family into *out, or
 * returns a negative errno with why in err: rte_acl's refusal, or its memory limit. */
int dp_acl_build(uint8_t family, const char *name, const struct dp_acl_entry *e, unsigned int n,
		 struct dp_acl **out, char *err, size_t errlen);
/* Frees a list no interface was ever bound to. */
void dp_acl_free(struct dp_acl *a);
/* Binds a (NULL: nothing) to port's family and direction. */
void dp_acl_bind(uint16_t port, uint8_t family, uint8_t dir, struct dp_acl *a);
/* Puts next (NULL: none) wherever old is bound, and frees old after a grace period, its
 * counters added to next's by entry number. */
void dp_acl_replace(struct dp_acl *old, struct dp_acl *next);
/* Packets entry i (nb: the implicit deny) matched. */
uint64_t dp_acl_hits(const struct dp_acl *a, unsigned int i);
void dp_acl_clear(struct dp_acl *a);
/* Control thread: takes the workers' log samples, at most max, and returns how many. */
unsigned int dp_acl_samples(struct dp_acl_sample *out, unsigned int max);
/* Log samples each worker may take a second. */
#define DP_ACL_LOG_RATE 10

/*
 * Workers: the key of a packet whose IPv4 header lies at ip with len bytes readable (the
 * header's own length checked), copied into k; the same for IPv6 (its extension headers
 * walked). Returns true when the packet's protocol has ports (TCP, UDP, SCTP) or a type
 * (ICMP) that cannot be read: a fragment's later piece, or a packet cut short.
 */
bool dp_acl4_key(const uint8_t *ip, uint32_t len, struct dp_acl4_key *k);
bool dp_acl6_key(const uint8_t *ip, uint32_t len, struct dp_acl6_key *k);
/* What a worker gives rte_acl for the packet: the header itself from the protocol byte on when
 * the packet has the usual shape (acl.h's layout), else k made by the functions above;
 * *noport what they return. */
const uint8_t *dp_acl4_data(const uint8_t *ip, uint32_t len, struct dp_acl4_key *k, bool *noport);
const uint8_t *dp_acl6_data(const uint8_t *ip, uint32_t len, struct dp_acl6_key *k, bool *noport);

/*
 * Workers: the verdict for each of n packets, in deny (true: to be dropped), by the list
 * each has in acl[] and its key in keys[] (a header in place or a struct dp_acl4_key or
 * dp_acl6_key, of the list's family), noport[] what the key functions returned for it (NULL:
 * false for all); packets with acl[i] NULL pass. Counts each entry's matches on worker's row,
 * and takes a log sample where an entry says log. Returns how many are denied.
 */
uint16_t dp_acl_classify(unsigned int worker, uint8_t dir, struct dp_acl *const *acl,
			 const uint16_t *port, const uint8_t *const *keys, const bool *noport,
			 uint16_t n, bool *deny);

/*
 * Workers, from a node: of the frames objs[sel[i]] (i < n), each with its list acl[i] (NULL:
 * none) and its interface port[i], those the lists deny get drop as their next. Their IP
 * header lies m->l2_len bytes in: eth_input sets it on the long path, and the fast paths on
 * the frames they filter (after the tags they wrote, dp_fast_l2_len). Returns 1 when it
 * denied any (nexts changed), else 0.
 */
uint16_t dp_acl_filter(unsigned int worker, uint8_t family, uint8_t dir, void **objs,
		       const uint16_t *sel, struct dp_acl *const *acl, const uint16_t *port,
		       uint16_t n, rte_edge_t *nexts, rte_edge_t drop);

/* A node's frames that meet a list, gathered for dp_acl_filter. */
struct dp_acl_pick {
	uint16_t n;
	uint16_t sel[RTE_GRAPH_BURST_SIZE];
	uint16_t port[RTE_GRAPH_BURST_SIZE];
	struct dp_acl *acl[RTE_GRAPH_BURST_SIZE];
};

/* Whether any interface has a list of family in dir: a node skips all else when not. */
static inline bool dp_acl_any(uint8_t family, uint8_t dir)
{
	return __atomic_load_n(&dp_acl_nb_bound[family][dir], __ATOMIC_ACQUIRE) != 0;
}

/* Adds frame i, on interface port (its ingress or egress), when port has a list. */
static inline void dp_acl_pick(struct dp_acl_pick *p, uint8_t family, uint8_t dir, uint16_t i,
			       uint16_t port)
{
	struct dp_acl *a = __atomic_load_n(&dp_acl_bound[family][dir][port], __ATOMIC_ACQUIRE);

	if (a == NULL)
		return;
	p->sel[p->n] = i;
	p->port[p->n] = port;
	p->acl[p->n++] = a;
}

/* dp_acl_filter on what p gathered: 1 when it denied any, else 0. */
static inline uint16_t dp_acl_pick_filter(struct rte_graph *graph, const struct dp_acl_pick *p,
					  uint8_t family, uint8_t dir, void **objs,
					  rte_edge_t *nexts, rte_edge_t drop)
{
	if (p->n == 0)
		return 0;
	return dp_acl_filter(graph->id, family, dir, objs, p->sel, p->acl, p->port, p->n, nexts,
			     drop);
}

#endif
