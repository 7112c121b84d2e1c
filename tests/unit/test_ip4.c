/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 header checks (RFC 1812 §5.2.2) and the incremental checksum update (RFC 1624). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dataplane/fib/ecmp.h"
#include "dataplane/ip4/ip4.h"

static void make_hdr(struct rte_ipv4_hdr *ip, uint32_t src, uint32_t dst, uint8_t ttl)
{
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(84);
	ip->packet_id = rte_cpu_to_be_16(0x1234);
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = ttl;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

static void test_ip4_check_accepts_valid_header(void **state)
{
	struct rte_ipv4_hdr ip;

	make_hdr(&ip, 0xc6120002, 0xc6130002, 64);
	assert_true(ip4_cksum_ok(&ip));
	assert_int_equal(ip4_check(&ip, sizeof(ip), 84, false), IP4_OK);
}

static void test_ip4_check_rejects_each_bad_field(void **state)
{
	struct rte_ipv4_hdr ip;

	make_hdr(&ip, 0xc6120002, 0xc6130002, 64);
	assert_int_equal(ip4_check(&ip, 19, 84, false), IP4_TRUNCATED);

	ip.version_ihl = 0x65;
	assert_int_equal(ip4_check(&ip, sizeof(ip), 84, true), IP4_BAD_VERSION);
	ip.version_ihl = 0x44;
	assert_int_equal(ip4_check(&ip, sizeof(ip), 84, true), IP4_BAD_IHL);
	ip.version_ihl = 0x46;	/* 24 bytes of header but only 20 present */
	assert_int_equal(ip4_check(&ip, sizeof(ip), 84, true), IP4_BAD_IHL);

	make_hdr(&ip, 0xc6120002, 0xc6130002, 64);
	assert_int_equal(ip4_check(&ip, sizeof(ip), 83, false), IP4_BAD_LENGTH);
	ip.total_length = rte_cpu_to_be_16(19);
	ip.hdr_checksum = 0;
	ip.hdr_checksum = rte_ipv4_cksum(&ip);
	assert_int_equal(ip4_check(&ip, sizeof(ip), 84, false), IP4_BAD_LENGTH);

	make_hdr(&ip, 0xc6120002, 0xc6130002, 64);
	ip.hdr_checksum ^= 1;
	assert_int_equal(ip4_check(&ip, sizeof(ip), 84, false), IP4_BAD_CHECKSUM);
	/* a port that verified the checksum already is believed */
	assert_int_equal(ip4_check(&ip, sizeof(ip), 84, true), IP4_OK);
}

static void test_ip4_check_rejects_martians(void **state)
{
	static const uint32_t bad_src[] = { 0x00000001, 0x7f000001, 0xe0000005, 0xf0000001,
					    0xffffffff };
	static const uint32_t bad_dst[] = { 0x00000001, 0x7f000001 };
	struct rte_ipv4_hdr ip;
	unsigned int i;

	for (i = 0; i < sizeof(bad_src) / sizeof(bad_src[0]); i++) {
		make_hdr(&ip, bad_src[i], 0xc6130002, 64);
		assert_int_equal(ip4_check(&ip, sizeof(ip), 84, false), IP4_MARTIAN_SRC);
	}
	for (i = 0; i < sizeof(bad_dst) / sizeof(bad_dst[0]); i++) {
		make_hdr(&ip, 0xc6120002, bad_dst[i], 64);
		assert_int_equal(ip4_check(&ip, sizeof(ip), 84, false), IP4_MARTIAN_DST);
	}
}

static void test_ip4_ttl_decrement_matches_full_checksum(void **state)
{
	struct rte_ipv4_hdr ip, ref;
	unsigned int ttl;

	for (ttl = 1; ttl <= 255; ttl++) {
		make_hdr(&ip, 0xc6120002 + ttl * 7919, 0xc6130002 ^ (ttl << 8), ttl);
		ref = ip;
		ip4_ttl_decrement(&ip);
		ref.time_to_live--;
		ref.hdr_checksum = 0;
		ref.hdr_checksum = rte_ipv4_cksum(&ref);
		assert_int_equal(ip.time_to_live, ttl - 1);
		assert_true(ip4_cksum_ok(&ip));
		assert_int_equal(ip.hdr_checksum, ref.hdr_checksum);
		assert_memory_equal(&ip, &ref, sizeof(ip));	/* nothing else changed */
	}
}

/* The 20-byte sum agrees with rte_raw_cksum's on good, damaged and random headers. */
static void test_ip4_cksum20_matches_raw(void **state)
{
	struct rte_ipv4_hdr ip;
	uint32_t x = 2463534242u, good = 0, i, k;

	for (i = 0; i < 200000; i++) {
		make_hdr(&ip, 0xc6120002 + i, 0xc6130002 ^ (i * 40503u), 1 + i % 255);
		if (i % 3 != 0) {	/* two in three: flip bytes, or fill the header at random */
			for (k = 0; k < (i % 3 == 1 ? 1 : sizeof(ip)); k++) {
				x ^= x << 13, x ^= x >> 17, x ^= x << 5;
				((uint8_t *)&ip)[x % sizeof(ip)] ^= (uint8_t)(x >> 8) | 1;
			}
			ip.version_ihl = RTE_IPV4_VHL_DEF;
		}
		good += ip4_cksum_ok(&ip);
		assert_int_equal(ip4_cksum20_ok(&ip), ip4_cksum_ok(&ip));
	}
	assert_true(good > 66000 && good < 140000);	/* both outcomes were tried */
}

/* Every checksum value a header can carry, including 0xfeff, whose sum lands on 0xffff. */
static void test_ip4_ttl_decrement_every_checksum(void **state)
{
	struct rte_ipv4_hdr ip, ref;
	uint32_t seen = 0, id;

	for (id = 0; id <= 0xffff; id++) {
		make_hdr(&ip, 0xc6120002, 0xc6130002, 64);
		ip.packet_id = rte_cpu_to_be_16(id);
		ip.hdr_checksum = 0;
		ip.hdr_checksum = rte_ipv4_cksum(&ip);
		seen += rte_be_to_cpu_16(ip.hdr_checksum) == 0xfeff;
		ref = ip;
		ip4_ttl_decrement(&ip);
		ref.time_to_live--;
		ref.hdr_checksum = 0;
		ref.hdr_checksum = rte_ipv4_cksum(&ref);
		assert_int_equal(ip.hdr_checksum, ref.hdr_checksum);
		assert_true(ip4_cksum_ok(&ip));
	}
	assert_int_equal(seen, 1);
}

static void test_ip4_mcast_or_bcast(void **state)
{
	assert_true(ip4_is_mcast_or_bcast(rte_cpu_to_be_32(0xe0000005)));
	assert_true(ip4_is_mcast_or_bcast(rte_cpu_to_be_32(0xffffffff)));
	assert_false(ip4_is_mcast_or_bcast(rte_cpu_to_be_32(0xc6120001)));
}

static void test_ecmp_pick_spreads_flows_evenly(void **state)
{
	unsigned int counts[4] = { 0 }, i;
	struct {
		struct rte_ipv4_hdr ip;
		uint16_t ports[2];
	} pkt;

	for (i = 0; i < 40000; i++) {
		make_hdr(&pkt.ip, 0xc6120000 + (i & 0xff), 0xc6130000 + (i >> 8), 64);
		pkt.ip.next_proto_id = IPPROTO_UDP;
		pkt.ports[0] = rte_cpu_to_be_16(1024 + i);
		pkt.ports[1] = rte_cpu_to_be_16(53);
		counts[ecmp_pick(ecmp_flow_hash(&pkt.ip), 4)]++;
	}
	for (i = 0; i < 4; i++) {
		assert_true(counts[i] > 9000);
		assert_true(counts[i] < 11000);
	}
}

/* A flow's member depends on its 5-tuple alone: what a router rewrites on the way (TTL,
 * checksum) or a sender varies per packet (the IP id) never moves it; a port does. */
static void test_ecmp_hash_is_the_flows_alone(void **state)
{
	struct {
		struct rte_ipv4_hdr ip;
		uint16_t ports[2];
	} pkt, copy;
	unsigned int i, moved = 0;

	for (i = 0; i < 1000; i++) {
		make_hdr(&pkt.ip, 0xc6120000 + i, 0xc6130000 + i * 7, 64);
		pkt.ip.next_proto_id = IPPROTO_TCP;
		pkt.ports[0] = rte_cpu_to_be_16(1024 + i);
		pkt.ports[1] = rte_cpu_to_be_16(443);
		copy = pkt;
		copy.ip.time_to_live = 3;
		copy.ip.packet_id = rte_cpu_to_be_16(i * 31);
		copy.ip.hdr_checksum ^= 0x5a5a;
		assert_int_equal(ecmp_flow_hash(&copy.ip), ecmp_flow_hash(&pkt.ip));
		copy.ports[0] = rte_cpu_to_be_16(1024 + i + 1);
		moved += ecmp_flow_hash(&copy.ip) != ecmp_flow_hash(&pkt.ip);
	}
	assert_true(moved > 990);	/* another source port is another flow */
}

/* A TCP/UDP datagram too short for its ports is hashed without them: what follows it in the
 * buffer does not move its flow. */
static void test_ecmp_hash_reads_no_ports_past_the_datagram(void **state)
{
	struct {
		struct rte_ipv4_hdr ip;
		uint16_t ports[2];
	} pkt;
	uint32_t h;

	make_hdr(&pkt.ip, 0xc6120002, 0xc6130005, 64);
	pkt.ip.next_proto_id = IPPROTO_UDP;
	pkt.ip.total_length = rte_cpu_to_be_16(23);
	pkt.ports[0] = rte_cpu_to_be_16(1024);
	pkt.ports[1] = rte_cpu_to_be_16(53);
	h = ecmp_flow_hash(&pkt.ip);
	pkt.ports[0] = rte_cpu_to_be_16(2048);
	assert_int_equal(ecmp_flow_hash(&pkt.ip), h);
	/* with room for them, the ports count */
	pkt.ip.total_length = rte_cpu_to_be_16(24);
	h = ecmp_flow_hash(&pkt.ip);
	pkt.ports[0] = rte_cpu_to_be_16(1024);
	assert_int_not_equal(ecmp_flow_hash(&pkt.ip), h);
}

/*
 * A member whose port cannot send (its link down, or shut) takes no flow: its flows spread
 * over the members that can, and theirs stay where they were; with none up, the first
 * choice stands (ip4_forward then answers ICMP host unreachable).
 */
static void test_ecmp_members_down_give_their_flows_to_the_others(void **state)
{
	static struct dp_nexthop m[4], *table[8];
	static _Alignas(8) uint8_t buf[sizeof(struct dp_nexthop) + 4 * sizeof(uint32_t)];
	struct dp_nexthop *g = (struct dp_nexthop *)buf, **saved = dp_nh_table;
	unsigned int i, moved[4] = { 0 }, before;
	uint32_t h;

	for (i = 0; i < 4; i++) {
		m[i] = (struct dp_nexthop){ .kind = DP_NH_FORWARD, .port = i };
		table[1 + i] = &m[i];
		g->members[i] = 1 + i;
		dp_port_map.up[i] = 1;
		dp_port_map.link_down[i] = 0;
	}
	g->kind = DP_NH_GROUP;
	g->nb_members = 4;
	dp_nh_table = table;
	for (i = 0; i < 40000; i++) {
		h = rte_hash_crc_4byte(i, 7);
		before = ecmp_member_live(g, h)->port;
		dp_port_map.link_down[2] = 1;
		if (before != 2)
			assert_int_equal(ecmp_member_live(g, h)->port, before);
		else
			moved[ecmp_member_live(g, h)->port]++;
		dp_port_map.up[1] = 0;	/* shut as well */
		assert_true(ecmp_member_live(g, h)->port == 0 || ecmp_member_live(g, h)->port == 3);
		dp_port_map.link_down[0] = dp_port_map.link_down[3] = 1;
		assert_int_equal(ecmp_member_live(g, h)->port, before);	/* none can: the first */
		dp_port_map.up[1] = 1;
		dp_port_map.link_down[0] = dp_port_map.link_down[2] = dp_port_map.link_down[3] = 0;
	}
	assert_int_equal(moved[2], 0);
	for (i = 0; i < 4; i++)	/* a quarter of 40000 moved, a third of it to each other */
		assert_true(i == 2 || (moved[i] > 2800 && moved[i] < 3900));
	dp_nh_table = saved;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ip4_check_accepts_valid_header),
		cmocka_unit_test(test_ip4_check_rejects_each_bad_field),
		cmocka_unit_test(test_ip4_check_rejects_martians),
		cmocka_unit_test(test_ip4_ttl_decrement_matches_full_checksum),
		cmocka_unit_test(test_ip4_ttl_decrement_every_checksum),
		cmocka_unit_test(test_ip4_cksum20_matches_raw),
		cmocka_unit_test(test_ip4_mcast_or_bcast),
		cmocka_unit_test(test_ecmp_pick_spreads_flows_evenly),
		cmocka_unit_test(test_ecmp_hash_is_the_flows_alone),
		cmocka_unit_test(test_ecmp_hash_reads_no_ports_past_the_datagram),
		cmocka_unit_test(test_ecmp_members_down_give_their_flows_to_the_others),
	};
	return cmocka_run_group_tests_name("ip4", tests, NULL, NULL);
}
