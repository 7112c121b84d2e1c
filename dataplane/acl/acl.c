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
#include "dataplane/acl/acl_priv.h"
#include "dataplane/rcu.h"

struct dp_acl *volatile dp_acl_bound[DP_ACL_FAMILIES][DP_ACL_DIRS][DP_MAX_PORTS];
volatile uint32_t dp_acl_nb_bound[DP_ACL_FAMILIES][DP_ACL_DIRS];
unsigned int dp_acl_nb_workers = 1;
static size_t mem_max = (size_t)DP_ACL_MEM_DEFAULT_MB << 20;

/*
 * The fields rte_acl matches, in the keys' layout (acl.h): the protocol first (rte_acl
 * takes one byte before its groups of four), then each address in words of 4 bytes, the
 * two ports (or ICMP's type and code) in one group, and whether they are the packet's.
 */
enum { F4_PROTO, F4_SRC, F4_DST, F4_SPORT, F4_DPORT, F4_L4, F4_NB };
enum { F6_PROTO, F6_SRC, F6_DST = F6_SRC + 4, F6_SPORT = F6_DST + 4, F6_DPORT, F6_L4, F6_NB };

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
		field(&d[F4_L4], RTE_ACL_FIELD_TYPE_BITMASK, 4, F4_L4, 4, offsetof(struct dp_acl4_key, l4));
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
	field(&d[F6_L4], RTE_ACL_FIELD_TYPE_BITMASK, 4, F6_L4, 10, offsetof(struct dp_acl6_key, l4));
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

static void rule_fields(uint8_t family, const struct dp_acl_entry *e, struct rte_acl_field *f)
{
	unsigned int words = family == DP_ACL_IPV4 ? 1 : 4;
	unsigned int sport = family == DP_ACL_IPV4 ? F4_SPORT : F6_SPORT;

	f[0].value.u8 = e->any_proto ? 0 : e->proto;
	f[0].mask_range.u8 = e->any_proto ? 0 : 0xff;
	addr_fields(&f[1], e->src, e->src_len, words);
	addr_fields(&f[1 + words], e->dst, e->dst_len, words);
	f[sport].value.u16 = e->l4 ? e->sport_lo : 0;
	f[sport].mask_range.u16 = e->l4 ? e->sport_hi : UINT16_MAX;
	f[sport + 1].value.u16 = e->l4 ? e->dport_lo : 0;
	f[sport + 1].mask_range.u16 = e->l4 ? e->dport_hi : UINT16_MAX;
	f[sport + 2].value.u32 = e->l4 ? 1 : 0;
	f[sport + 2].mask_range.u32 = e->l4 ? 1 : 0;
}

void dp_acl_init(unsigned int nb_workers, unsigned int memory_mb)
{
	dp_acl_nb_workers = nb_workers ? nb_workers : 1;
	mem_max = (size_t)(memory_mb ? RTE_MIN(memory_mb, (unsigned int)DP_ACL_MEM_MAX_MB) :
			   DP_ACL_MEM_DEFAULT_MB) << 20;
}

void dp_acl_free(struct dp_acl *a)
{
	if (a == NULL)
		return;
	rte_acl_free(a->ctx);
	rte_free(a->hits);
	rte_free(a->verdict);
	rte_free(a->seq);
	rte_free(a->base);
	rte_free(a);
}

/* The entries as rte_acl rules: the first entry the highest priority, userdata its index
 * + 1 (rte_acl's 0 is "no match": the implicit deny). */
static int add_rules(struct dp_acl *a, const struct dp_acl_entry *e, unsigned int n)
{
	size_t sz = a->family == DP_ACL_IPV4 ? sizeof(struct acl4_rule) : sizeof(struct acl6_rule);
	uint8_t *rules = rte_zmalloc("tern_acl_rules", sz * (n ? n : 1), 0);
	unsigned int i;
	int rc;

	if (rules == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct rte_acl_rule *r = (struct rte_acl_rule *)(rules + i * sz);

		r->data.category_mask = 1;
		r->data.priority = RTE_ACL_MAX_PRIORITY - (int32_t)i;
		r->data.userdata = i + 1;
		rule_fields(a->family, &e[i], r->field);
	}
	rc = n ? rte_acl_add_rules(a->ctx, (struct rte_acl_rule *)rules, n) : 0;
	rte_free(rules);
	return rc;
}

int dp_acl_build(uint8_t family, const char *name, const struct dp_acl_entry *e, unsigned int n,
		 struct dp_acl **out, char *err, size_t errlen)
{
	static unsigned int generation;
	static const uint8_t IP6_ICMP = 58;
	struct rte_acl_config cfg = { .num_categories = 1, .max_size = mem_max };
	struct rte_acl_param prm = { .socket_id = SOCKET_ID_ANY };
	char ctx_name[RTE_ACL_NAMESIZE];
	struct dp_acl *a = NULL;
	unsigned int i;
	int rc;

	struct dp_acl_entry *all = NULL;

	if (n > DP_ACL_ENTRIES_MAX) {
		snprintf(err, errlen, "access list %s has %u entries: at most %u", name, n,
			 DP_ACL_ENTRIES_MAX);
		return -E2BIG;
	}
	if (family == DP_ACL_IPV6) {	/* the implicit permits of NS and NA */
		all = rte_malloc("tern_acl_entries", sizeof(*all) * (n + DP_ACL6_IMPLICIT), 0);
		if (all == NULL)
			goto nomem;
		memcpy(all, e, sizeof(*all) * n);
		for (i = 0; i < DP_ACL6_IMPLICIT; i++)
			all[n + i] = (struct dp_acl_entry){
				.seq = DP_ACL_SEQ_MAX + 1 + i, .permit = true, .proto = IP6_ICMP,
				.l4 = true, .sport_lo = 135 + i, .sport_hi = 135 + i, .dport_hi = 255 };
		e = all;
		n += DP_ACL6_IMPLICIT;
	}
	a = rte_zmalloc("tern_acl", sizeof(*a), RTE_CACHE_LINE_SIZE);
	if (a == NULL)
		goto nomem;
	a->family = family;
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
	}
	/* rte_acl_create hands back an existing context of the same name: each its own */
	snprintf(ctx_name, sizeof(ctx_name), "tern_acl%u", generation++);
	prm.name = ctx_name;
	prm.rule_size = family == DP_ACL_IPV4 ? RTE_ACL_RULE_SZ(F4_NB) : RTE_ACL_RULE_SZ(F6_NB);
	prm.max_rule_num = n ? n : 1;
	a->ctx = rte_acl_create(&prm);
	if (a->ctx == NULL)
		goto nomem;
	rc = add_rules(a, e, n);
	if (rc == 0) {
		cfg.num_fields = field_defs(family, cfg.defs);
		rc = rte_acl_build(a->ctx, &cfg);
	}
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
			for (p = 0; p < DP_MAX_PORTS; p++)
				if (dp_acl_bound[f][d][p] == old)
					dp_acl_bind(p, f, d, next);
	old->successor = next;
	dp_rcu_defer_free(old, retire);
}
