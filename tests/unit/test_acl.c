/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Access lists (dataplane/acl/acl.h): the keys the workers make of packets of both families,
 * the first matching entry deciding, ports and ICMP types only in packets that carry them,
 * IPv6's implicit permits of neighbour discovery, a replaced list's counters carried to its
 * successor only once the workers passed a quiescent state, and log samples bounded in rate.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <rte_eal.h>

#include "dataplane/acl/acl.h"
#include "dataplane/rcu.h"

/* An IPv4 header of proto from src to dst (dotted), its L4 header's first 4 bytes l4, IHL
 * ihl words, fragment offset frag (8-byte units); returns the bytes written. */
static uint32_t ip4(uint8_t *b, uint8_t proto, const char *src, const char *dst, uint16_t sport,
		    uint16_t dport, uint8_t ihl, uint16_t frag)
{
	uint32_t hl = ihl * 4u;

	memset(b, 0, 64);
	b[0] = 0x40 | ihl;
	b[6] = frag >> 8;
	b[7] = frag & 0xff;
	b[8] = 64;
	b[9] = proto;
	inet_pton(AF_INET, src, b + 12);
	inet_pton(AF_INET, dst, b + 16);
	b[hl] = sport >> 8;
	b[hl + 1] = sport & 0xff;
	b[hl + 2] = dport >> 8;
	b[hl + 3] = dport & 0xff;
	return hl + 8;
}

static struct dp_acl_entry entry(uint32_t seq, bool permit, int proto, const char *src,
				 uint8_t src_len, const char *dst, uint8_t dst_len)
{
	struct dp_acl_entry e = { .seq = seq, .permit = permit, .any_proto = proto < 0 };
	int af = src && strchr(src, ':') ? AF_INET6 : AF_INET;

	e.proto = proto < 0 ? 0 : proto;
	if (src)
		inet_pton(af, src, e.src);
	if (dst)
		inet_pton(af, dst, e.dst);
	e.src_len = src_len;
	e.dst_len = dst_len;
	e.sport_hi = e.dport_hi = UINT16_MAX;
	return e;
}

static struct dp_acl *build(uint8_t family, const struct dp_acl_entry *e, unsigned int n)
{
	struct dp_acl *a = NULL;
	char err[160] = "";

	if (dp_acl_build(family, "t", e, n, &a, err, sizeof(err)) < 0)
		fail_msg("build: %s", err);
	return a;
}

/* The entry (index, nb for the implicit deny) a packet's key meets, by the counters' change. */
static int verdict4(struct dp_acl *a, const uint8_t *ip, uint32_t len, bool *deny)
{
	struct dp_acl4_key k;
	const uint8_t *kp;
	uint16_t port = 0;
	uint64_t before[64];
	unsigned int i;
	bool noport;

	assert_true(a->nb < RTE_DIM(before));
	for (i = 0; i <= a->nb; i++)
		before[i] = dp_acl_hits(a, i);
	kp = dp_acl4_data(ip, len, &k, &noport);
	dp_acl_classify(0, DP_ACL_IN, &a, &port, &kp, &noport, 1, deny);
	for (i = 0; i <= a->nb; i++)
		if (dp_acl_hits(a, i) != before[i])
			return (int)i;
	return -1;
}

static void ipv4_keys_hold_what_the_packet_carries(void **state)
{
	uint8_t b[64];
	struct dp_acl4_key k;

	(void)state;
	ip4(b, 6, "198.18.0.2", "198.19.0.9", 40000, 80, 5, 0);
	assert_false(dp_acl4_key(b, 28, &k));
	assert_int_equal(k.proto, 6);
	assert_memory_equal(k.src, b + 12, 4);
	assert_memory_equal(k.dst, b + 16, 4);
	assert_int_equal(k.sport[0] << 8 | k.sport[1], 40000);
	assert_int_equal(k.dport[0] << 8 | k.dport[1], 80);
	/* the usual shape is classified in place: the header from its protocol on is the key */
	assert_memory_equal(b + DP_ACL4_KEY_AT + 3, &k.src, 12);
	/* options: the ports after them */
	ip4(b, 17, "198.18.0.2", "198.19.0.9", 53, 5353, 7, 0);
	dp_acl4_key(b, 36, &k);
	assert_int_equal(k.dport[0] << 8 | k.dport[1], 5353);
	/* a later fragment carries no ports; nor does a header cut short */
	ip4(b, 17, "198.18.0.2", "198.19.0.9", 53, 53, 5, 100);
	assert_true(dp_acl4_key(b, 28, &k));
	assert_int_equal(k.dport[1], 0);
	ip4(b, 17, "198.18.0.2", "198.19.0.9", 53, 53, 5, 0);
	assert_true(dp_acl4_key(b, 22, &k));
	/* a protocol without ports has nothing to miss */
	ip4(b, 47, "198.18.0.2", "198.19.0.9", 53, 53, 5, 100);
	assert_false(dp_acl4_key(b, 20, &k));
	/* ICMP: type and code where the source port would be */
	ip4(b, 1, "198.18.0.2", "198.19.0.9", 0x0800, 0, 5, 0);
	assert_false(dp_acl4_key(b, 22, &k));
	assert_int_equal(k.sport[0], 8);
	assert_int_equal(k.sport[1], 0);
	assert_true(dp_acl4_key(b, 21, &k));
}

static void ipv6_keys_walk_the_extension_headers(void **state)
{
	uint8_t b[128] = { 0x60 };
	struct dp_acl6_key k;

	(void)state;
	b[6] = 0;		/* Hop-by-Hop, 8 bytes */
	inet_pton(AF_INET6, "2001:2::2", b + 8);
	inet_pton(AF_INET6, "2001:2:0:10::5", b + 24);
	b[40] = 60;		/* then Destination Options, 16 bytes */
	b[48] = 6;		/* then TCP */
	b[49] = 1;
	b[64] = 0x9c, b[65] = 0x40, b[66] = 0, b[67] = 22;	/* 40000 -> 22 */
	assert_false(dp_acl6_key(b, 72, &k));
	assert_int_equal(k.proto, 6);
	assert_memory_equal(k.src, b + 8, 16);
	assert_int_equal(k.sport[0] << 8 | k.sport[1], 40000);
	assert_int_equal(k.dport[1], 22);
	/* a fragment: the first piece has the ports, a later one the protocol alone */
	memset(b + 40, 0, 40);
	b[6] = 44;
	b[40] = 17;
	b[48] = 0x00, b[49] = 53, b[50] = 0x14, b[51] = 0xe9;
	assert_false(dp_acl6_key(b, 56, &k));
	assert_int_equal(k.proto, 17);
	assert_int_equal(k.dport[0] << 8 | k.dport[1], 5353);
	b[43] = 0x08;		/* offset 1 */
	assert_true(dp_acl6_key(b, 56, &k));
	assert_int_equal(k.proto, 17);
	/* ICMPv6: its type and code */
	memset(b + 40, 0, 40);
	b[6] = 58;
	b[40] = 135;
	assert_false(dp_acl6_key(b, 64, &k));
	assert_int_equal(k.sport[0], 135);
	/* without extension headers, the header from its next header on is the key */
	assert_memory_equal(b + DP_ACL6_KEY_AT + 2, &k.src, 36);
}

static void the_first_matching_entry_decides(void **state)
{
	struct dp_acl_entry e[5];
	struct dp_acl *a;
	uint8_t b[64];
	bool deny;

	(void)state;
	e[0] = entry(10, false, 6, "198.18.0.66", 32, NULL, 0);	/* deny tcp host .66 any */
	e[1] = entry(20, true, 6, "198.18.0.0", 15, NULL, 0);	/* permit tcp 198.18/15 any range 1 1024 */
	e[1].l4 = true;
	e[1].dport_lo = 1;
	e[1].dport_hi = 1024;
	e[2] = entry(30, true, 1, NULL, 0, "198.19.0.0", 16);	/* permit icmp any 198.19/16 type 8 code 0 */
	e[2].l4 = true;
	e[2].sport_lo = e[2].sport_hi = 8;
	e[2].dport_hi = 0;
	e[3] = entry(40, true, 17, NULL, 0, NULL, 0);	/* permit udp any any eq 53 */
	e[3].l4 = true;
	e[3].dport_lo = e[3].dport_hi = 53;
	e[4] = entry(50, true, 47, NULL, 0, NULL, 0);	/* permit 47 any any */
	a = build(DP_ACL_IPV4, e, 5);

	ip4(b, 6, "198.18.0.66", "198.19.0.9", 40000, 80, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 0);
	assert_true(deny);
	ip4(b, 6, "198.18.0.65", "198.19.0.9", 40000, 80, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 1);
	assert_false(deny);
	ip4(b, 6, "198.18.0.65", "198.19.0.9", 40000, 1025, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 5);	/* past the range: the implicit deny */
	assert_true(deny);
	ip4(b, 6, "198.20.0.1", "198.19.0.9", 40000, 80, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 5);	/* outside 198.18/15 */
	ip4(b, 1, "203.0.113.1", "198.19.0.9", 0x0800, 0, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 2);
	assert_false(deny);
	ip4(b, 1, "203.0.113.1", "198.19.0.9", 0x0801, 0, 5, 0);	/* code 1 */
	assert_int_equal(verdict4(a, b, 28, &deny), 5);
	ip4(b, 1, "203.0.113.1", "198.20.0.9", 0x0800, 0, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 5);
	ip4(b, 17, "203.0.113.1", "198.20.0.9", 5353, 53, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 3);
	ip4(b, 47, "203.0.113.1", "198.20.0.9", 0, 0, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 4);
	assert_false(deny);
	assert_int_equal(dp_acl_hits(a, 5), 4);
	dp_acl_clear(a);
	assert_int_equal(dp_acl_hits(a, 5), 0);
	assert_int_equal(dp_acl_hits(a, 0), 0);
	dp_acl_free(a);
}

/* An entry that names ports meets only packets that carry them; one that does not meets a
 * fragment's later pieces too. */
static void ports_are_matched_only_where_the_packet_has_them(void **state)
{
	struct dp_acl_entry e[2];
	struct dp_acl *a;
	uint8_t b[64];
	bool deny;

	(void)state;
	e[0] = entry(10, true, 17, NULL, 0, NULL, 0);
	e[0].l4 = true;
	e[0].dport_lo = e[0].dport_hi = 0;	/* eq 0: what a later fragment's key holds */
	e[1] = entry(20, true, 6, NULL, 0, NULL, 0);
	a = build(DP_ACL_IPV4, e, 2);
	ip4(b, 17, "198.18.0.2", "198.19.0.9", 0, 0, 5, 0);
	assert_int_equal(verdict4(a, b, 28, &deny), 0);
	ip4(b, 17, "198.18.0.2", "198.19.0.9", 0, 0, 5, 185);
	assert_int_equal(verdict4(a, b, 28, &deny), 2);
	assert_true(deny);
	ip4(b, 6, "198.18.0.2", "198.19.0.9", 1, 2, 5, 185);
	assert_int_equal(verdict4(a, b, 28, &deny), 1);
	assert_false(deny);
	dp_acl_free(a);
}

static void ipv6_lists_permit_neighbour_discovery(void **state)
{
	struct dp_acl_entry e = entry(10, true, 6, NULL, 0, NULL, 0);
	uint8_t b[64] = { 0x60 };
	struct dp_acl6_key k;
	const uint8_t *kp;
	struct dp_acl *a;
	uint16_t port = 0;
	bool deny, noport;

	(void)state;
	e.l4 = true;
	e.dport_lo = e.dport_hi = 22;
	a = build(DP_ACL_IPV6, &e, 1);
	assert_int_equal(a->nb_user, 1);
	assert_int_equal(a->nb, 1 + DP_ACL6_IMPLICIT);
	b[6] = 58;
	inet_pton(AF_INET6, "fe80::2", b + 8);
	inet_pton(AF_INET6, "2001:2::1", b + 24);
	b[40] = 135;		/* a neighbour solicitation */
	kp = dp_acl6_data(b, 64, &k, &noport);
	dp_acl_classify(0, DP_ACL_IN, &a, &port, &kp, &noport, 1, &deny);
	assert_false(deny);
	b[40] = 136;
	kp = dp_acl6_data(b, 64, &k, &noport);
	dp_acl_classify(0, DP_ACL_IN, &a, &port, &kp, &noport, 1, &deny);
	assert_false(deny);
	b[40] = 128;		/* an echo request: the implicit deny */
	kp = dp_acl6_data(b, 64, &k, &noport);
	dp_acl_classify(0, DP_ACL_IN, &a, &port, &kp, &noport, 1, &deny);
	assert_true(deny);
	assert_int_equal(dp_acl_hits(a, 1), 1);
	assert_int_equal(dp_acl_hits(a, 2), 1);
	assert_int_equal(dp_acl_hits(a, 3), 1);
	dp_acl_free(a);
}

/* A list replaced while bound: the new one is where the old one was at once, and the old one's
 * counts join the new one's (by entry number) only when worker 0 has passed a quiescent state,
 * for until then it may still count on the old one. */
static void a_replaced_list_waits_for_the_workers(void **state)
{
	struct dp_acl_entry e[2] = { entry(10, true, 6, NULL, 0, NULL, 0),
				     entry(20, false, -1, NULL, 0, NULL, 0) };
	struct dp_acl_entry f[2] = { entry(5, true, 17, NULL, 0, NULL, 0), e[1] };
	struct dp_acl *old, *next;
	uint8_t b[64];
	bool deny;

	(void)state;
	dp.nb_ports = 4;	/* interfaces 0 to 3 (replacing a list visits the interfaces in use) */
	old = build(DP_ACL_IPV4, e, 2);
	dp_acl_bind(3, DP_ACL_IPV4, DP_ACL_IN, old);
	assert_true(dp_acl_any(DP_ACL_IPV4, DP_ACL_IN));
	ip4(b, 47, "198.18.0.2", "198.19.0.9", 0, 0, 5, 0);
	assert_int_equal(verdict4(old, b, 28, &deny), 1);	/* seq 20 */
	assert_int_equal(verdict4(old, b, 28, &deny), 1);
	next = build(DP_ACL_IPV4, f, 2);
	dp_acl_replace(old, next);
	assert_ptr_equal(dp_acl_bound[DP_ACL_IPV4][DP_ACL_IN][3], next);
	dp_rcu_reclaim();
	assert_int_equal(dp_acl_hits(next, 1), 0);	/* the worker may still count on old */
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	dp_rcu_reclaim();
	assert_int_equal(dp_acl_hits(next, 1), 2);	/* seq 20's two, where seq 20 is now */
	assert_int_equal(dp_acl_hits(next, 0), 0);
	dp_acl_replace(next, NULL);
	assert_null(dp_acl_bound[DP_ACL_IPV4][DP_ACL_IN][3]);
	assert_false(dp_acl_any(DP_ACL_IPV4, DP_ACL_IN));
	rte_rcu_qsbr_quiescent(dp_rcu, 0);
	dp_rcu_reclaim();
	dp.nb_ports = 0;
}

static void log_samples_are_bounded(void **state)
{
	struct dp_acl_entry e = entry(7, false, 17, NULL, 0, NULL, 0);
	struct dp_acl_sample s[64];
	struct dp_acl4_key k[32];
	const uint8_t *kp[32];
	struct dp_acl *acl[32];
	uint16_t port[32];
	bool deny[32];
	struct dp_acl *a;
	unsigned int i, n;
	uint8_t b[64];

	(void)state;
	e.log = true;
	a = build(DP_ACL_IPV4, &e, 1);
	ip4(b, 17, "198.18.0.2", "198.19.0.9", 1000, 2000, 5, 0);
	for (i = 0; i < 32; i++) {
		dp_acl4_key(b, 28, &k[i]);
		kp[i] = i % 2 ? b + DP_ACL4_KEY_AT : &k[i].proto;	/* in place or copied */
		acl[i] = a;
		port[i] = 1;
	}
	dp_acl_classify(0, DP_ACL_OUT, acl, port, kp, NULL, 32, deny);
	n = dp_acl_samples(s, RTE_DIM(s));
	assert_true(n >= 2 && n <= DP_ACL_LOG_RATE + 1);
	assert_string_equal(s[0].acl, "t");
	assert_int_equal(s[0].seq, 7);
	assert_false(s[0].permit);
	assert_int_equal(s[0].dir, DP_ACL_OUT);
	assert_int_equal(s[0].port, 1);
	assert_memory_equal(s[0].k4.src, b + 12, 4);
	assert_true(s[0].l4);
	assert_int_equal(s[0].k4.sport[0] << 8 | s[0].k4.sport[1], 1000);
	assert_int_equal(s[1].k4.dport[0] << 8 | s[1].k4.dport[1], 2000);
	assert_int_equal(dp_acl_samples(s, RTE_DIM(s)), 0);
	assert_int_equal(dp_acl_hits(a, 0), 32);
	dp_acl_free(a);
}

/* A packet with options is classified from a copy of its fields, one without in place: the
 * same fields decide alike, ICMP's type and code included, and a packet cut short before its
 * ports meets only the entries that name none. */
static void keys_in_place_and_copied_decide_alike(void **state)
{
	struct dp_acl_entry e[5];
	struct dp_acl *a;
	uint8_t b[64];
	unsigned int ihl;
	bool deny;

	(void)state;
	e[0] = entry(10, false, 17, NULL, 0, "198.19.0.0", 16);	/* deny udp any 198.19/16 eq 53 */
	e[0].l4 = true;
	e[0].dport_lo = e[0].dport_hi = 53;
	e[1] = entry(20, true, 1, NULL, 0, NULL, 0);	/* permit icmp any any type 3 (every code) */
	e[1].l4 = true;
	e[1].sport_lo = e[1].sport_hi = 3;
	e[1].dport_hi = 255;
	e[2] = entry(30, false, 1, NULL, 0, NULL, 0);	/* deny icmp any any type 8 code 1 .. 3 */
	e[2].l4 = true;
	e[2].sport_lo = e[2].sport_hi = 8;
	e[2].dport_lo = 1;
	e[2].dport_hi = 3;
	e[3] = entry(40, true, 1, NULL, 0, NULL, 0);	/* permit icmp any any */
	e[4] = entry(50, true, 17, "198.18.0.0", 24, NULL, 0);	/* permit udp 198.18.0/24 any */
	a = build(DP_ACL_IPV4, e, 5);
	for (ihl = 5; ihl <= 6; ihl++) {
		uint32_t len = ihl * 4u + 8;

		ip4(b, 17, "198.18.0.2", "198.19.0.9", 40000, 53, ihl, 0);
		assert_int_equal(verdict4(a, b, len, &deny), 0);
		ip4(b, 17, "198.18.0.2", "198.19.0.9", 40000, 54, ihl, 0);
		assert_int_equal(verdict4(a, b, len, &deny), 4);
		ip4(b, 1, "198.18.0.2", "198.19.0.9", 0x0305, 0, ihl, 0);	/* type 3 code 5 */
		assert_int_equal(verdict4(a, b, len, &deny), 1);
		ip4(b, 1, "198.18.0.2", "198.19.0.9", 0x0802, 0, ihl, 0);	/* type 8 code 2 */
		assert_int_equal(verdict4(a, b, len, &deny), 2);
		assert_true(deny);
		ip4(b, 1, "198.18.0.2", "198.19.0.9", 0x0800, 0, ihl, 0);	/* type 8 code 0 */
		assert_int_equal(verdict4(a, b, len, &deny), 3);
		ip4(b, 1, "198.18.0.2", "198.19.0.9", 0x0804, 0, ihl, 0);	/* type 8 code 4 */
		assert_int_equal(verdict4(a, b, len, &deny), 3);
		/* cut short: no ports, no type */
		ip4(b, 17, "198.18.0.2", "198.19.0.9", 40000, 53, ihl, 0);
		assert_int_equal(verdict4(a, b, ihl * 4u + 2, &deny), 4);
		ip4(b, 1, "198.18.0.2", "198.19.0.9", 0x0802, 0, ihl, 0);
		assert_int_equal(verdict4(a, b, ihl * 4u + 1, &deny), 3);
	}
	dp_acl_free(a);
}

/* What one 16-bit range of type and code cannot say, and ports on a protocol without them,
 * are refused with a sentence. */
static void entries_the_classifier_cannot_say_are_refused(void **state)
{
	struct dp_acl_entry e = entry(10, true, 1, NULL, 0, NULL, 0);
	struct dp_acl *a = NULL;
	char err[200] = "";

	(void)state;
	e.l4 = true;
	e.sport_lo = 3, e.sport_hi = 5;		/* types 3 to 5 */
	e.dport_lo = 0, e.dport_hi = 1;		/* codes 0 and 1 only */
	assert_int_equal(dp_acl_build(DP_ACL_IPV4, "t", &e, 1, &a, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "entry 10"));
	e = entry(10, true, 47, NULL, 0, NULL, 0);
	e.l4 = true;
	e.dport_lo = e.dport_hi = 80;
	assert_int_equal(dp_acl_build(DP_ACL_IPV4, "t", &e, 1, &a, err, sizeof(err)), -EINVAL);
	assert_null(a);
}

/* A list whose tries need more than the memory allowed is refused with a sentence. */
static void a_list_past_the_memory_limit_is_refused(void **state)
{
	enum { N = 2400 };
	struct dp_acl_entry *e = calloc(N, sizeof(*e));
	struct dp_acl *a = NULL;
	uint64_t seed = 7;
	char err[200] = "";
	unsigned int i;
	int rc;

	(void)state;
	assert_non_null(e);
	for (i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		e[i] = entry(i + 1, true, 6, NULL, 0, NULL, 0);
		memcpy(e[i].src, &seed, 2);
		memcpy(e[i].dst, (uint8_t *)&seed + 2, 3);
		e[i].src_len = 16;
		e[i].dst_len = 24;
		e[i].l4 = true;
		e[i].sport_lo = (seed >> 40) % 1000;
		e[i].sport_hi = e[i].sport_lo + (seed >> 50) % 5000;
		e[i].dport_lo = e[i].sport_lo;
		e[i].dport_hi = e[i].dport_lo + (seed >> 20) % 3000;
	}
	dp_acl_init(1, 1);
	rc = dp_acl_build(DP_ACL_IPV4, "big", e, N, &a, err, sizeof(err));
	dp_acl_init(1, 0);
	free(e);
	assert_true(rc == -ERANGE || rc == -ENOMEM);
	assert_null(a);
	assert_non_null(strstr(err, "does not fit the classifier's 1 MiB"));
}

/* The verdict cache answers a flow's later packets as the walk did its first, and a list that
 * replaces another never gets the other's answers: the same packet, the same entry index, a
 * different verdict. */
static void a_new_list_never_meets_the_old_ones_verdicts(void **state)
{
	struct dp_acl_entry deny_udp = entry(10, false, 17, NULL, 0, NULL, 0);
	struct dp_acl_entry then[2] = { entry(10, true, 6, NULL, 0, NULL, 0),
					entry(20, false, 17, NULL, 0, NULL, 0) };
	struct dp_acl *a = build(DP_ACL_IPV4, &deny_udp, 1), *b;
	uint8_t p[64];
	unsigned int i;
	bool deny;

	(void)state;
	ip4(p, 17, "198.18.0.2", "198.19.0.9", 1000, 2000, 5, 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(verdict4(a, p, 28, &deny), 0);
		assert_true(deny);
	}
	/* the same packet against a list whose entry 0 permits TCP: entry 1 denies it */
	b = build(DP_ACL_IPV4, then, 2);
	assert_int_equal(verdict4(b, p, 28, &deny), 1);
	assert_true(deny);
	dp_acl_free(a);
	/* and a list made where the freed one was gets no answer of it either */
	a = build(DP_ACL_IPV4, then, 2);
	assert_int_equal(verdict4(a, p, 28, &deny), 1);
	dp_acl_free(a);
	dp_acl_free(b);
}

/* A vector whose frames meet different lists (and none): each frame gets its own list's
 * verdict, and the count of denied frames is what the verdicts say. */
static void a_vector_of_several_lists_is_decided_frame_by_frame(void **state)
{
	struct dp_acl_entry deny_udp = entry(10, false, 17, NULL, 0, NULL, 0);
	struct dp_acl_entry permit_all = entry(10, true, -1, NULL, 0, NULL, 0);
	struct dp_acl *lists[3], *acl[30];
	struct dp_acl4_key k[30];
	const uint8_t *kp[30];
	uint16_t port[30];
	bool deny[30];
	unsigned int i, want = 0;
	uint8_t b[64];

	(void)state;
	lists[0] = build(DP_ACL_IPV4, &deny_udp, 1);
	lists[1] = build(DP_ACL_IPV4, &permit_all, 1);
	lists[2] = NULL;
	ip4(b, 17, "198.18.0.2", "198.19.0.9", 1000, 2000, 5, 0);
	for (i = 0; i < 30; i++) {
		dp_acl4_key(b, 28, &k[i]);
		kp[i] = &k[i].proto;
		acl[i] = lists[i % 3];
		port[i] = i % 3;
		deny[i] = i % 2;	/* whatever a node left there */
		want += i % 3 == 0;
	}
	assert_int_equal(dp_acl_classify(0, DP_ACL_IN, acl, port, kp, NULL, 30, deny), want);
	for (i = 0; i < 30; i++)
		assert_int_equal(deny[i], i % 3 == 0);
	assert_int_equal(dp_acl_hits(lists[0], 0), 10);
	assert_int_equal(dp_acl_hits(lists[1], 0), 10);
	/* and a vector of one list alone */
	for (i = 0; i < 30; i++)
		acl[i] = lists[0];
	assert_int_equal(dp_acl_classify(0, DP_ACL_IN, acl, port, kp, NULL, 30, deny), 30);
	assert_int_equal(dp_acl_hits(lists[0], 0), 40);
	dp_acl_free(lists[0]);
	dp_acl_free(lists[1]);
}

int main(void)
{
	char prefix[64];
	char *argv[] = { "test_acl", "--no-huge", "-m", "512", "--no-pci", "-l", "0",
			 "--file-prefix", prefix, "--log-level", "error", NULL };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ipv4_keys_hold_what_the_packet_carries),
		cmocka_unit_test(ipv6_keys_walk_the_extension_headers),
		cmocka_unit_test(the_first_matching_entry_decides),
		cmocka_unit_test(ports_are_matched_only_where_the_packet_has_them),
		cmocka_unit_test(ipv6_lists_permit_neighbour_discovery),
		cmocka_unit_test(a_replaced_list_waits_for_the_workers),
		cmocka_unit_test(log_samples_are_bounded),
		cmocka_unit_test(a_vector_of_several_lists_is_decided_frame_by_frame),
		cmocka_unit_test(keys_in_place_and_copied_decide_alike),
		cmocka_unit_test(entries_the_classifier_cannot_say_are_refused),
		cmocka_unit_test(a_list_past_the_memory_limit_is_refused),
		cmocka_unit_test(a_new_list_never_meets_the_old_ones_verdicts),
	};

	snprintf(prefix, sizeof(prefix), "tern-unit-acl-%d", getpid());
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0 || dp_rcu_init(1) < 0) {
		fprintf(stderr, "test_acl: cannot set up EAL\n");
		return 1;
	}
	if (dp_acl_init(1, 0) < 0) {
		fprintf(stderr, "test_acl: cannot make the verdict caches\n");
		return 1;
	}
	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	return cmocka_run_group_tests_name("acl", tests, NULL, NULL);
}
