/* SPDX-License-Identifier: BSD-3-Clause */
/* Access lists compiled into rte_acl contexts, bound to interfaces, replaced under QSBR. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "dataplane/acl/acl.h"
#include "dataplane/acl/acl_cache.h"
#include "dataplane/acl/acl_priv.h"
#include "dataplane/rcu.h"

struct dp_acl *volatile *dp_acl_bound[DP_ACL_FAMILIES][DP_ACL_DIRS];
volatile uint32_t dp_acl_nb_bound[DP_ACL_FAMILIES][DP_ACL_DIRS];
unsigned int dp_acl_nb_workers = 1;
static size_t mem_max = (size_t)DP_ACL_MEM_DEFAULT_MB << 20;

/*
 * The fields rte_acl matches, in the keys' layout (acl.h): the protocol first (rte_acl
 * takes one byte before its groups of four), then each address in words of 4 bytes, and the
 * two ports (or ICMP's type and code, as one 16-bit value in the first) in one group.
 */
enum { F4_PROTO, F4_SRC, F4_DST, F4_SPORT, F4_DPORT, F4_NB };
enum { F6_PROTO, F6_SRC, F6_DST = F6_SRC + 4, F6_SPORT = F6_DST + 4, F6_DPORT, F6_NB };

#define PROTO_ICMP 1
#define PROTO_TCP 6
#define PROTO_UDP 17
#define PROTO_ICMP6 58
#define PROTO_SCTP 132

RTE_ACL_RULE_DEF(acl4_rule, F4_NB);
RTE_ACL_RULE_DEF(acl6_rule, F6_NB);

static void field(struct rte_acl_field_def *d, uint8_t type, uint8_t size, uint8_t index,
		  uint8_t input, uint32_t offset)
{
	*d = (struct rte_acl_field_def){ .type = type, .size = size, .field_index = index,
					 .input_index = input, .offset = offset };
}

static unsigned int field_defs(uint8_t family, struct rte_acl_field_def *d)
{
	unsigned int i;

	if (family == DP_ACL_IPV4) {
		field(&d[F4_PROTO], RTE_ACL_FIELD_TYPE_BITMASK, 1, F4_PROTO, 0,
		      offsetof(struct dp_acl4_key, proto));
		field(&d[F4_SRC], RTE_ACL_FIELD_TYPE_MASK, 4, F4_SRC, 1, offsetof(struct dp_acl4_key, src));
		field(&d[F4_DST], RTE_ACL_FIELD_TYPE_MASK, 4, F4_DST, 2, offsetof(struct dp_acl4_key, dst));
		field(&d[F4_SPORT], RTE_ACL_FIELD_TYPE_RANGE, 2, F4_SPORT, 3,
		      offsetof(struct dp_acl4_key, sport));
		field(&d[F4_DPORT], RTE_ACL_FIELD_TYPE_RANGE, 2, F4_DPORT, 3,
		      offsetof(struct dp_acl4_key, dport));
		return F4_NB;
	}
	field(&d[F6_PROTO], RTE_ACL_FIELD_TYPE_BITMASK, 1, F6_PROTO, 0, offsetof(struct dp_acl6_key, proto));
	for (i = 0; i < 4; i++) {
		field(&d[F6_SRC + i], RTE_ACL_FIELD_TYPE_MASK, 4, F6_SRC + i, 1 + i,
		      offsetof(struct dp_acl6_key, src) + 4 * i);
		field(&d[F6_DST + i], RTE_ACL_FIELD_TYPE_MASK, 4, F6_DST + i, 5 + i,
		      offsetof(struct dp_acl6_key, dst) + 4 * i);
	}
	field(&d[F6_SPORT], RTE_ACL_FIELD_TYPE_RANGE, 2, F6_SPORT, 9, offsetof(struct dp_acl6_key, sport));
	field(&d[F6_DPORT], RTE_ACL_FIELD_TYPE_RANGE, 2, F6_DPORT, 9, offsetof(struct dp_acl6_key, dport));
	return F6_NB;
}

/* An address of words words (4 bytes each, network order) and a prefix length, as MASK fields:
 * each word's value in host order and how many of its bits count. */
static void addr_fields(struct rte_acl_field *f, const uint8_t *a, unsigned int len,
			unsigned int words)
{
	unsigned int w;

	for (w = 0; w < words; w++) {
		uint32_t v;
		unsigned int bits = len > 32 * w ? RTE_MIN(32u, len - 32 * w) : 0;

		memcpy(&v, a + 4 * w, 4);
		v = rte_be_to_cpu_32(v);
		f[w].value.u32 = bits ? v & ~(bits == 32 ? 0 : UINT32_MAX >> bits) : 0;
		f[w].mask_range.u32 = bits;
	}
}

static bool is_icmp(uint8_t family, uint8_t proto)
{
	return proto == (family == DP_ACL_IPV4 ? PROTO_ICMP : PROTO_ICMP6);
}

/* Whether rule_fields can say what the entry says; why not in err. An entry names ports for
 * TCP, UDP or SCTP only, a type and code for ICMP only, and a range of types only with every
 * code (they are one 16-bit range). */
static bool entry_ok(uint8_t family, const struct dp_acl_entry *e, const char *name, char *err,
		     size_t errlen)
{
	if (!e->l4)
		return true;
	if (!e->any_proto && (e->proto == PROTO_TCP || e->proto == PROTO_UDP ||
			      e->proto == PROTO_SCTP))
		return true;
	if (!e->any_proto && is_icmp(family, e->proto) && e->sport_hi <= 255 &&
	    e->dport_hi <= 255 && (e->sport_lo == e->sport_hi ||
				   (e->dport_lo == 0 && e->dport_hi == 255)))
		return true;
	snprintf(err, errlen, "access list %s entry %u: ports are for TCP, UDP and SCTP, a type "
		 "and code (one type, or every code) for ICMP", name, e->seq);
	return false;
}

static void rule_fields(uint8_t family, const struct dp_acl_entry *e, struct rte_acl_field *f)
{
	unsigned int words = family == DP_ACL_IPV4 ? 1 : 4;
	unsigned int sport = family == DP_ACL_IPV4 ? F4_SPORT : F6_SPORT;

	f[0].value.u8 = e->any_proto ? 0 : e->proto;
	f[0].mask_range.u8 = e->any_proto ? 0 : 0xff;
	addr_fields(&f[1], e->src, e->src_len, words);
	addr_fields(&f[1 + words], e->dst, e->dst_len, words);
	f[sport].value.u16 = 0;
	f[sport].mask_range.u16 = UINT16_MAX;
	f[sport + 1].value.u16 = 0;
	f[sport + 1].mask_range.u16 = UINT16_MAX;
	if (!e->l4)
		return;
	if (is_icmp(family, e->proto)) {	/* type << 8 | code, where the source port is */
		f[sport].value.u16 = (uint16_t)(e->sport_lo << 8 | e->dport_lo);
		f[sport].mask_range.u16 = (uint16_t)(e->sport_hi << 8 | e->dport_hi);
		return;
	}
	f[sport].value.u16 = e->sport_lo;
	f[sport].mask_range.u16 = e->sport_hi;
	f[sport + 1].value.u16 = e->dport_lo;
	f[sport + 1].mask_range.u16 = e->dport_hi;
}

int dp_acl_init(unsigned int nb_workers, unsigned int memory_mb)
{
	dp_acl_nb_workers = nb_workers ? nb_workers : 1;
	mem_max = (size_t)(memory_mb ? RTE_MIN(memory_mb, (unsigned int)DP_ACL_MEM_MAX_MB) :
			   DP_ACL_MEM_DEFAULT_MB) << 20;
	return acl_cache_init(dp_acl_nb_workers);
}

void dp_acl_free(struct dp_acl *a)
{
	if (a == NULL)
		return;
	if (a->ctx_noport != a->ctx)
		rte_acl_free(a->ctx_noport);
	rte_acl_free(a->ctx);
	rte_free(a->hits);
	rte_free(a->verdict);
	rte_free(a->seq);
	rte_free(a->base);
	rte_free(a);
}

/* The entries as rte_acl rules (those that name no ports alone, for the noport context): the
 * first entry the highest priority, userdata its index + 1 (rte_acl's 0 is "no match": the
 * implicit deny). */
static int add_rules(struct rte_acl_ctx *ctx, uint8_t family, const struct dp_acl_entry *e,
		     unsigned int n, bool noport)
{
	size_t sz = family == DP_ACL_IPV4 ? sizeof(struct acl4_rule) : sizeof(struct acl6_rule);
	uint8_t *rules = rte_zmalloc("tern_acl_rules", sz * (n ? n : 1), 0);
	unsigned int i, k = 0;
	int rc;

	if (rules == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct rte_acl_rule *r = (struct rte_acl_rule *)(rules + k * sz);

		if (noport && e[i].l4)
			continue;
		r->data.category_mask = 1;
		r->data.priority = RTE_ACL_MAX_PRIORITY - (int32_t)i;
		r->data.userdata = i + 1;
		rule_fields(family, &e[i], r->field);
		k++;
	}
	rc = k ? rte_acl_add_rules(ctx, (struct rte_acl_rule *)rules, k) : 0;
	rte_free(rules);
	return rc;
}

/* A context of the entries (those without ports, for noport) compiled, in *ctx; rte_acl's
 * error, or -ENOMEM / -ERANGE for its memory limit. */
static int compile(uint8_t family, const struct dp_acl_entry *e, unsigned int n, bool noport,
		   struct rte_acl_ctx **ctx)
{
	static unsigned int generation;
	struct rte_acl_config cfg = { .num_categories = 1, .max_size = mem_max };
	struct rte_acl_param prm = { .socket_id = SOCKET_ID_ANY };
	char name[RTE_ACL_NAMESIZE];
	int rc;

	/* rte_acl_create hands back an existing context of the same name: each its own */
	snprintf(name, sizeof(name), "tern_acl%u", generation++);
	prm.name = name;
	prm.rule_size = family == DP_ACL_IPV4 ? RTE_ACL_RULE_SZ(F4_NB) : RTE_ACL_RULE_SZ(F6_NB);
	prm.max_rule_num = n ? n : 1;
	*ctx = rte_acl_create(&prm);
	if (*ctx == NULL)
		return -ENOMEM;
	rc = add_rules(*ctx, family, e, n, noport);
	if (rc == 0) {
		cfg.num_fields = field_defs(family, cfg.defs);
		rc = rte_acl_build(*ctx, &cfg);
	}
	return rc;
}

int dp_acl_build(uint8_t family, const char *name, const struct dp_acl_entry *e, unsigned int n,
		 struct dp_acl **out, char *err, size_t errlen)
{
	static uint32_t next_id;
	struct dp_acl_entry *all = NULL;
	struct dp_acl *a = NULL;
	unsigned int i, with_ports = 0;
	int rc;

	if (n > DP_ACL_ENTRIES_MAX) {
		snprintf(err, errlen, "access list %s has %u entries: at most %u", name, n,
			 DP_ACL_ENTRIES_MAX);
		return -E2BIG;
	}
	for (i = 0; i < n; i++)
		if (!entry_ok(family, &e[i], name, err, errlen))
			return -EINVAL;
	if (family == DP_ACL_IPV6) {	/* the implicit permits of NS and NA */
		all = rte_malloc("tern_acl_entries", sizeof(*all) * (n + DP_ACL6_IMPLICIT), 0);
		if (all == NULL)
			goto nomem;
		memcpy(all, e, sizeof(*all) * n);
		for (i = 0; i < DP_ACL6_IMPLICIT; i++)
			all[n + i] = (struct dp_acl_entry){
				.seq = DP_ACL_SEQ_MAX + 1 + i, .permit = true, .proto = PROTO_ICMP6,
				.l4 = true, .sport_lo = 135 + i, .sport_hi = 135 + i, .dport_hi = 255 };
		e = all;
		n += DP_ACL6_IMPLICIT;
	}
	a = rte_zmalloc("tern_acl", sizeof(*a), RTE_CACHE_LINE_SIZE);
	if (a == NULL)
		goto nomem;
	a->family = family;
	if (++next_id == 0)	/* 0 marks an empty cache slot */
		next_id = 1;
	a->id = next_id;
	a->nb = n;
	a->nb_user = family == DP_ACL_IPV6 ? n - DP_ACL6_IMPLICIT : n;
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->stride = RTE_ALIGN_CEIL(n + 1, RTE_CACHE_LINE_SIZE / sizeof(uint64_t));
	a->hits = rte_zmalloc("tern_acl_hits", sizeof(uint64_t) * a->stride * dp_acl_nb_workers,
			      RTE_CACHE_LINE_SIZE);
	a->verdict = rte_zmalloc("tern_acl_verdict", n + 1, 0);
	a->seq = rte_zmalloc("tern_acl_seq", sizeof(uint32_t) * (n + 1), 0);
	a->base = rte_zmalloc("tern_acl_base", sizeof(uint64_t) * (n + 1), 0);
	if (a->hits == NULL || a->verdict == NULL || a->seq == NULL || a->base == NULL)
		goto nomem;
	for (i = 0; i < n; i++) {
		a->verdict[i] = (e[i].permit ? DP_ACL_V_PERMIT : 0) | (e[i].log ? DP_ACL_V_LOG : 0);
		a->seq[i] = e[i].seq;
		with_ports += e[i].l4;
	}
	rc = compile(family, e, n, false, &a->ctx);
	if (rc == 0 && with_ports == 0)
		a->ctx_noport = a->ctx;
	else if (rc == 0 && with_ports < n)
		rc = compile(family, e, n, true, &a->ctx_noport);
	if (rc != 0) {
		if (rc == -ENOMEM || rc == -ERANGE)
			snprintf(err, errlen, "access list %s does not fit the classifier's %zu MiB "
				 "([acl] memory_mb): %u entries", name, mem_max >> 20, n);
		else
			snprintf(err, errlen, "access list %s could not be compiled: %s", name,
				 strerror(-rc));
		rte_free(all);
		dp_acl_free(a);
		return rc < 0 ? rc : -EINVAL;
	}
	rte_free(all);
	*out = a;
	return 0;
nomem:
	snprintf(err, errlen, "no memory to compile access list %s", name);
	rte_free(all);
	dp_acl_free(a);
	return -ENOMEM;
}

void dp_acl_bind(uint16_t port, uint8_t family, uint8_t dir, struct dp_acl *a)
{
	struct dp_acl *was = dp_acl_bound[family][dir][port];

	if (was == a)
		return;
	__atomic_store_n(&dp_acl_bound[family][dir][port], a, __ATOMIC_RELEASE);
	if (was == NULL)
		__atomic_fetch_add(&dp_acl_nb_bound[family][dir], 1, __ATOMIC_RELEASE);
	else if (a == NULL)
		__atomic_fetch_sub(&dp_acl_nb_bound[family][dir], 1, __ATOMIC_RELEASE);
}

uint64_t dp_acl_hits(const struct dp_acl *a, unsigned int i)
{
	uint64_t sum = a->base[i];
	unsigned int w;

	for (w = 0; w < dp_acl_nb_workers; w++)
		sum += __atomic_load_n(&a->hits[w * a->stride + i], __ATOMIC_RELAXED);
	return sum;
}

void dp_acl_clear(struct dp_acl *a)
{
	unsigned int i;

	/* a baseline below what the workers counted, never a write to their rows */
	for (i = 0; i <= a->nb; i++)
		a->base[i] -= dp_acl_hits(a, i);
}

/* After the grace period: old's counts go to its successor's entries of the same number. */
static void retire(void *p)
{
	struct dp_acl *old = p, *next = old->successor;
	unsigned int i, j;

	if (next != NULL) {
		for (i = 0, j = 0; i < old->nb; i++) {
			while (j < next->nb && next->seq[j] < old->seq[i])
				j++;
			if (j < next->nb && next->seq[j] == old->seq[i])
				next->base[j] += dp_acl_hits(old, i);
		}
		next->base[next->nb] += dp_acl_hits(old, old->nb);
	}
	dp_acl_free(old);
}

void dp_acl_replace(struct dp_acl *old, struct dp_acl *next)
{
	unsigned int f, d, p;

	if (old == NULL || old == next)
		return;
	for (f = 0; f < DP_ACL_FAMILIES; f++)
		for (d = 0; d < DP_ACL_DIRS; d++)
			for (p = 0; p < dp.nb_ports; p++)
				if (dp_acl_bound[f][d][p] == old)
					dp_acl_bind(p, f, d, next);
	old->successor = next;
	dp_rcu_defer_free(old, retire);
}
