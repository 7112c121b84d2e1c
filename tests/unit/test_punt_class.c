/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-plane policing classes (dataplane/punt/punt_class.h): routing and liveness by
 * protocol and port in both families, behind extension headers too; neighbour resolution and
 * the kernel's next-hop resolution by punt reason, and ND or MLD to the router's own address
 * by their ICMPv6 type; which ARP and ND frames speak for a neighbour (dp_punt_is_resolution);
 * management by the configured ports; and
 * every frame that cannot be read far enough (truncated, a bad IHL, a later fragment, a broken
 * IPv6 chain) in the last class, never a read past the frame.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dataplane/punt/punt_class.h"

struct frame {
	uint8_t b[128];
	uint32_t len;
};

/* An IPv4 frame: protocol proto, source and destination ports (when TCP or UDP). */
static struct frame ip4(uint8_t proto, uint16_t sport, uint16_t dport)
{
	struct frame f = { .len = 14 + 20 + 8 };
	uint8_t *ip = f.b + 14, *l4 = ip + 20;

	f.b[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = 0;
	ip[3] = 28;
	ip[8] = 64;
	ip[9] = proto;
	l4[0] = sport >> 8;
	l4[1] = sport & 0xff;
	l4[2] = dport >> 8;
	l4[3] = dport & 0xff;
	return f;
}

/* An IPv6 frame: next header next (the upper layer, or hbh for a Hop-by-Hop header first
 * whose own next header is proto), then the ports. */
static struct frame ip6(uint8_t proto, bool hbh, uint16_t sport, uint16_t dport)
{
	struct frame f = { .len = 14 + 40 + (hbh ? 8 : 0) + 8 };
	uint8_t *ip = f.b + 14, *l4 = ip + 40;

	f.b[12] = 0x86;
	f.b[13] = 0xdd;
	ip[0] = 0x60;
	ip[5] = (uint8_t)(f.len - 14 - 40);
	ip[6] = hbh ? IP6_NEXT_HOP_BY_HOP : proto;
	ip[7] = 64;
	if (hbh) {
		l4[0] = proto;	/* Hop-by-Hop: next header, length 0 (8 bytes), PadN */
		l4[2] = 1;
		l4[3] = 4;
		l4 += 8;
	}
	l4[0] = sport >> 8;
	l4[1] = sport & 0xff;
	l4[2] = dport >> 8;
	l4[3] = dport & 0xff;
	return f;
}

static enum dp_punt_class class_of(unsigned int reason, const struct frame *f)
{
	return dp_punt_classify(reason, f->b, f->len);
}

static void routing_protocols_both_families(void **state)
{
	struct frame f;

	(void)state;
	f = ip4(IPPROTO_TCP, 40000, DP_PUNT_PORT_BGP);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_routing);
	f = ip4(IPPROTO_TCP, DP_PUNT_PORT_BGP, 40000);	/* the peer's side of our connection */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_routing);
	f = ip4(IPPROTO_UDP, 49152, DP_PUNT_PORT_BFD);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_routing);
	f = ip4(IPPROTO_UDP, 49152, DP_PUNT_PORT_BFD_ECHO);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_routing);
	f = ip4(IPPROTO_UDP, 49152, DP_PUNT_PORT_BFD_MULTIHOP);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_routing);
	f = ip4(DP_PUNT_PROTO_OSPF, 0, 0);	/* a hello to 224.0.0.5 */
	assert_int_equal(class_of(DP_punt_mcast, &f), DP_PUNT_CLASS_routing);
	f = ip4(DP_PUNT_PROTO_VRRP, 0, 0);
	assert_int_equal(class_of(DP_punt_mcast, &f), DP_PUNT_CLASS_routing);
	f = ip4(IPPROTO_TCP, 40000, DP_PUNT_PORT_BGP);
	f.b[14] = 0x46;	/* with 4 bytes of options: the ports move with the header */
	memmove(f.b + 14 + 24, f.b + 14 + 20, 8);
	f.len += 4;
	assert_int_equal(class_of(DP_punt_ip_options, &f), DP_PUNT_CLASS_routing);

	f = ip6(IPPROTO_TCP, false, 40000, DP_PUNT_PORT_BGP);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_routing);
	f = ip6(IPPROTO_UDP, true, 49152, DP_PUNT_PORT_BFD);	/* behind a Hop-by-Hop header */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_routing);
	f = ip6(DP_PUNT_PROTO_OSPF, false, 0, 0);	/* OSPFv3 to ff02::5 */
	assert_int_equal(class_of(DP_punt_mcast, &f), DP_PUNT_CLASS_routing);
}

static void not_routing_by_look_alone(void **state)
{
	struct frame f;

	(void)state;
	/* BFD's port as a source, BGP's port over UDP: neither is the protocol */
	f = ip4(IPPROTO_UDP, DP_PUNT_PORT_BFD, 40000);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
	f = ip4(IPPROTO_UDP, 40000, DP_PUNT_PORT_BGP);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
	/* transit is classed by why it was punted, whatever it carries */
	f = ip4(IPPROTO_TCP, 40000, DP_PUNT_PORT_BGP);
	assert_int_equal(class_of(DP_punt_unresolved, &f), DP_PUNT_CLASS_resolve);
	assert_int_equal(class_of(DP_punt_fragment, &f), DP_PUNT_CLASS_other);
	assert_int_equal(class_of(DP_punt_non_ip, &f), DP_PUNT_CLASS_other);
}

static void neighbour_icmp_and_management(void **state)
{
	struct frame f = { .len = 42 };

	(void)state;
	assert_int_equal(class_of(DP_punt_arp, &f), DP_PUNT_CLASS_neighbour);
	assert_int_equal(class_of(DP_punt_nd, &f), DP_PUNT_CLASS_neighbour);
	assert_int_equal(class_of(DP_punt_mld, &f), DP_PUNT_CLASS_neighbour);
	f = ip4(IPPROTO_ICMP, 0x0800, 0);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_icmp);
	f = ip6(IPPROTO_ICMPV6, false, 0x8000, 0);	/* echo request */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_icmp);

	f = ip4(IPPROTO_TCP, 40000, 22);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
	dp_punt_mgmt_ports[22 >> 6] |= 1ull << (22 & 63);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_management);
	f = ip6(IPPROTO_TCP, false, 40000, 22);
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_management);
	f = ip4(IPPROTO_TCP, 22, 40000);	/* a port of ours as the source is not */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
	dp_punt_mgmt_ports[22 >> 6] = 0;
}

/* An ARP request over Ethernet from mac, whose sender MAC is sha. */
static struct frame arp(const uint8_t mac[6], const uint8_t sha[6])
{
	struct frame f = { .len = 42 };
	static const uint8_t head[8] = { 0, 1, 8, 0, 6, 4, 0, 1 };

	memcpy(f.b + 6, mac, 6);
	f.b[12] = 0x08;
	f.b[13] = 0x06;
	memcpy(f.b + 14, head, sizeof(head));
	memcpy(f.b + 22, sha, 6);
	f.b[28] = 198;
	f.b[29] = 18;
	f.b[30] = 1;
	f.b[31] = 2;
	return f;
}

static void resolution_from_neighbours(void **state)
{
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 2 }, other[6] = { 2, 0, 0, 0, 0, 0x66 };
	struct frame f = arp(mac, mac);

	(void)state;
	assert_true(dp_punt_is_resolution(DP_punt_arp, f.b, f.len));
	assert_false(dp_punt_is_resolution(DP_punt_arp, f.b, f.len - 1));	/* no whole sender */
	f = arp(mac, other);	/* the frame's source does not speak for that sender */
	assert_false(dp_punt_is_resolution(DP_punt_arp, f.b, f.len));
	f = arp(mac, mac);
	f.b[18] = 8;	/* not Ethernet's 6-byte addresses */
	assert_false(dp_punt_is_resolution(DP_punt_arp, f.b, f.len));

	/* a unicast probe to the router's own address (punted as local) is neighbour discovery,
	 * from a link-local address as the kernel sends it */
	f = ip6(IPPROTO_ICMPV6, false, 135 << 8, 0);
	f.b[14 + 8] = 0xfe;
	f.b[14 + 9] = 0x80;
	f.b[14 + 23] = 2;
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_neighbour);
	assert_true(dp_punt_is_resolution(DP_punt_local, f.b, f.len));
	assert_true(dp_punt_is_resolution(DP_punt_nd, f.b, f.len));
	f.b[14 + 40] = 136;	/* an advertisement */
	assert_true(dp_punt_is_resolution(DP_punt_local, f.b, f.len));
	f.b[14 + 40] = 143;	/* MLD: the neighbour class, but no one's resolution */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_neighbour);
	assert_false(dp_punt_is_resolution(DP_punt_local, f.b, f.len));
	f.b[14 + 40] = 128;	/* an echo request stays icmp's */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_icmp);
	assert_false(dp_punt_is_resolution(DP_punt_local, f.b, f.len));
	f = ip6(IPPROTO_ICMPV6, false, 135 << 8, 0);	/* from ::, a duplicate address probe */
	assert_false(dp_punt_is_resolution(DP_punt_nd, f.b, f.len));
	f = ip6(IPPROTO_UDP, false, 135 << 8, 0);
	f.b[14 + 8] = 0xfe;
	assert_false(dp_punt_is_resolution(DP_punt_local, f.b, f.len));
	assert_false(dp_punt_is_resolution(DP_punt_nd, f.b, 14 + 39));
}

static void unreadable_is_other(void **state)
{
	struct frame f;
	uint32_t len;

	(void)state;
	/* every cut of a BGP frame short of its ports, in both families */
	f = ip4(IPPROTO_TCP, 40000, DP_PUNT_PORT_BGP);
	for (len = 0; len < 14 + 20 + 4; len++)
		assert_int_equal(dp_punt_classify(DP_punt_local, f.b, len), DP_PUNT_CLASS_other);
	f = ip6(IPPROTO_TCP, true, 40000, DP_PUNT_PORT_BGP);
	for (len = 0; len < 14 + 40 + 8 + 4; len++)
		assert_int_equal(dp_punt_classify(DP_punt_local, f.b, len), DP_PUNT_CLASS_other);

	f = ip4(IPPROTO_TCP, 40000, DP_PUNT_PORT_BGP);
	f.b[14] = 0x44;	/* IHL 4 */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
	f.b[14] = 0x4f;	/* IHL 15: past the frame */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
	f = ip4(IPPROTO_TCP, 40000, DP_PUNT_PORT_BGP);
	f.b[14 + 7] = 1;	/* a later fragment: what looks like ports is payload */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);

	f = ip6(IPPROTO_TCP, true, 40000, DP_PUNT_PORT_BGP);
	f.b[14 + 40 + 1] = 200;	/* the Hop-by-Hop header runs past the frame */
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
	/* neither IPv4 nor IPv6 */
	f = ip4(IPPROTO_TCP, 40000, DP_PUNT_PORT_BGP);
	f.b[12] = 0x88;
	f.b[13] = 0xcc;
	assert_int_equal(class_of(DP_punt_local, &f), DP_PUNT_CLASS_other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(routing_protocols_both_families),
		cmocka_unit_test(not_routing_by_look_alone),
		cmocka_unit_test(neighbour_icmp_and_management),
		cmocka_unit_test(resolution_from_neighbours),
		cmocka_unit_test(unreadable_is_other),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
