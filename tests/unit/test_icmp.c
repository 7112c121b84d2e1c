/* SPDX-License-Identifier: BSD-3-Clause */
/* ICMP errors byte for byte (RFC 792 layout, RFC 1191 MTU, RFC 1812 §4.3.2.7 suppression). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dataplane/icmp/icmp.h"

/* The Internet checksum, written out here so the test does not trust DPDK's. */
static uint16_t inet_cksum(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/* A UDP datagram 198.18.0.2:1024 -> 198.19.0.5:7 with ttl and 32 bytes of payload, at buf + off. */
static struct rte_ipv4_hdr *datagram(uint8_t *buf, size_t off, uint8_t ttl, uint8_t ihl_words)
{
	uint8_t *d = buf + off;
	unsigned int hl = ihl_words * 4, tl = hl + 8 + 32, i;
	uint16_t ck;

	memset(d, 0, tl);
	d[0] = 0x40 | ihl_words;
	d[2] = tl >> 8, d[3] = tl & 0xff;
	d[4] = 0x12, d[5] = 0x34;		/* id */
	d[6] = 0x40;				/* DF */
	d[8] = ttl;
	d[9] = 17;
	d[12] = 198, d[13] = 18, d[14] = 0, d[15] = 2;
	d[16] = 198, d[17] = 19, d[18] = 0, d[19] = 5;
	for (i = 20; i < hl; i++)
		d[i] = 1;			/* NOP options */
	ck = inet_cksum(d, hl);
	d[10] = ck >> 8, d[11] = ck & 0xff;
	d[hl] = 0x04, d[hl + 1] = 0x00;		/* source port 1024 */
	d[hl + 2] = 0x00, d[hl + 3] = 0x07;	/* destination port 7 */
	d[hl + 4] = 0, d[hl + 5] = 40;		/* UDP length */
	for (i = 0; i < 32; i++)
		d[hl + 8 + i] = 0xa0 + i;
	return (struct rte_ipv4_hdr *)d;
}

static void test_time_exceeded_is_byte_exact(void **state)
{
	uint8_t buf[256], orig[60], expect[56];
	struct rte_ipv4_hdr *ip = datagram(buf, 28, 1, 5);
	uint32_t quote = icmp_quote_len(ip);
	uint16_t len, ck;

	memcpy(orig, buf + 28, sizeof(orig));
	assert_int_equal(quote, 28);	/* the header and 8 bytes: RFC 792 */
	len = icmp_error_build(buf, ip, quote, rte_cpu_to_be_32(0xc6120001), 11, 0, 0);
	assert_int_equal(len, 56);

	memset(expect, 0, sizeof(expect));
	expect[0] = 0x45;
	expect[3] = 56;				/* total length */
	expect[8] = 64;				/* TTL */
	expect[9] = 1;				/* ICMP */
	expect[12] = 198, expect[13] = 18, expect[14] = 0, expect[15] = 1;	/* from the router */
	expect[16] = 198, expect[17] = 18, expect[18] = 0, expect[19] = 2;	/* to the sender */
	ck = inet_cksum(expect, 20);
	expect[10] = ck >> 8, expect[11] = ck & 0xff;
	expect[20] = 11;			/* time exceeded */
	expect[21] = 0;				/* in transit */
	memcpy(expect + 28, orig, 28);		/* the original header, TTL 1 as received, and 8 bytes */
	ck = inet_cksum(expect + 20, 36);
	expect[22] = ck >> 8, expect[23] = ck & 0xff;
	assert_memory_equal(buf, expect, sizeof(expect));
	/* and both checksums verify */
	assert_int_equal(inet_cksum(buf, 20), 0);
	assert_int_equal(inet_cksum(buf + 20, 36), 0);
}

static void test_frag_needed_carries_the_mtu(void **state)
{
	uint8_t buf[256];
	struct rte_ipv4_hdr *ip = datagram(buf, 28, 64, 5);
	uint16_t len = icmp_error_build(buf, ip, icmp_quote_len(ip), rte_cpu_to_be_32(0xc6120001),
					3, 4, 1400);

	assert_int_equal(len, 56);
	assert_int_equal(buf[20], 3);
	assert_int_equal(buf[21], 4);
	assert_int_equal(buf[24], 0);		/* unused */
	assert_int_equal(buf[25], 0);
	assert_int_equal(buf[26], 1400 >> 8);	/* next-hop MTU, RFC 1191 */
	assert_int_equal(buf[27], 1400 & 0xff);
	assert_int_equal(inet_cksum(buf + 20, 36), 0);
	/* the other unreachables leave the second word zero */
	ip = datagram(buf, 28, 64, 5);
	icmp_error_build(buf, ip, icmp_quote_len(ip), rte_cpu_to_be_32(0xc6120001), 3, 13, 1400);
	assert_int_equal(buf[21], 13);
	assert_int_equal(buf[26], 0);
	assert_int_equal(buf[27], 0);
}

static void test_quote_covers_options_and_short_datagrams(void **state)
{
	uint8_t buf[256];
	struct rte_ipv4_hdr *ip = datagram(buf, 32, 64, 6);	/* 4 bytes of options */
	uint16_t len;

	assert_int_equal(icmp_quote_len(ip), 24 + 8);
	len = icmp_error_build(buf + 4, ip, icmp_quote_len(ip), rte_cpu_to_be_32(0xc6120001), 11, 0, 0);
	assert_int_equal(len, 28 + 32);
	assert_int_equal(buf[4 + 28], 0x46);	/* the quoted header keeps its IHL */
	assert_int_equal(inet_cksum(buf + 4 + 20, len - 20), 0);
	/* a datagram shorter than header + 8 is quoted whole */
	ip = datagram(buf, 28, 64, 5);
	ip->total_length = rte_cpu_to_be_16(24);
	assert_int_equal(icmp_quote_len(ip), 24);
}

static void test_no_error_about_errors_or_later_fragments(void **state)
{
	uint8_t buf[256];
	struct rte_ipv4_hdr *ip = datagram(buf, 0, 1, 5);
	uint8_t *l4 = buf + 20;

	assert_true(icmp_error_allowed(ip));		/* UDP */
	ip->next_proto_id = IPPROTO_ICMP;
	l4[0] = 8;					/* echo request: a query */
	assert_true(icmp_error_allowed(ip));
	l4[0] = 0;					/* echo reply */
	assert_true(icmp_error_allowed(ip));
	l4[0] = 3;					/* an error about an error: never */
	assert_false(icmp_error_allowed(ip));
	l4[0] = 11;
	assert_false(icmp_error_allowed(ip));
	/* an ICMP datagram with no room for its type: whatever follows it is not read */
	l4[0] = 8;
	ip->total_length = rte_cpu_to_be_16(20);
	assert_false(icmp_error_allowed(ip));
	ip->total_length = rte_cpu_to_be_16(21);
	assert_true(icmp_error_allowed(ip));
	ip->total_length = rte_cpu_to_be_16(60);
	ip->next_proto_id = 17;
	ip->fragment_offset = rte_cpu_to_be_16(185);	/* a later fragment */
	assert_false(icmp_error_allowed(ip));
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG);	/* the first one may */
	assert_true(icmp_error_allowed(ip));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_exceeded_is_byte_exact),
		cmocka_unit_test(test_frag_needed_carries_the_mtu),
		cmocka_unit_test(test_quote_covers_options_and_short_datagrams),
		cmocka_unit_test(test_no_error_about_errors_or_later_fragments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
