/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tern-bench flood: what an attacker or a looping neighbour sends a router's control plane,
 * at the port's full rate or a set one: ARP requests (IPv6: neighbour solicitations) for the
 * router's address and echo requests to it, alone or interleaved. The frames are built once
 * and copied into each burst; whatever the port receives meanwhile is dropped.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "bench/args.h"
#include "bench/cmd_flood.h"
#include "bench/ports.h"
#include "dataplane/workarounds/eal_exit.h"

#define FLOOD_BURST 32
#define FLOOD_FRAME 60		/* the smallest Ethernet frame, without its CRC */
#define FLOOD_ECHO_ID 0x7466	/* "tf" */

enum flood_kind { FLOOD_RESOLVE, FLOOD_PING, FLOOD_KINDS };

struct flood_frame {
	uint8_t data[128];	/* the largest, an NS with its option, is 86 bytes */
	uint16_t len;
};

struct flood_params {
	const char *port;
	char eal[1024];
	bool ipv6;
	uint32_t target, src;		/* IPv4, host order */
	uint8_t target6[16], src6[16];
	struct rte_ether_addr dst_mac;	/* the router's, for the echo requests */
	struct rte_ether_addr src_mac;	/* the frames' source and the requests' sender */
	bool have_src_mac;		/* else the port's own MAC */
	bool kinds[FLOOD_KINDS];
	double rate_pps;		/* 0: as fast as the port takes them */
	double duration_s;
	bool json;
};

static const char *const kind_names[FLOOD_KINDS] = { "resolve", "ping" };

/* ARP request for the target from src, broadcast (RFC 826). */
static void build_arp(const struct flood_params *p, const struct rte_ether_addr *mac, struct flood_frame *f)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f->data;
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eth + 1);

	memset(eth->dst_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
	eth->src_addr = *mac;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = RTE_ETHER_ADDR_LEN;
	arp->arp_plen = 4;
	arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REQUEST);
	arp->arp_data.arp_sha = *mac;
	arp->arp_data.arp_sip = rte_cpu_to_be_32(p->src);
	arp->arp_data.arp_tip = rte_cpu_to_be_32(p->target);
}

/* ICMP echo request from src to the target, through the router's MAC. */
static void build_echo4(const struct flood_params *p, const struct rte_ether_addr *mac, struct flood_frame *f)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f->data;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_icmp_hdr *icmp = (struct rte_icmp_hdr *)(ip + 1);
	uint16_t l4_len = FLOOD_FRAME - sizeof(*eth) - sizeof(*ip);

	eth->dst_addr = p->dst_mac;
	eth->src_addr = *mac;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + l4_len);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = rte_cpu_to_be_32(p->src);
	ip->dst_addr = rte_cpu_to_be_32(p->target);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	icmp->icmp_type = RTE_IP_ICMP_ECHO_REQUEST;
	icmp->icmp_ident = rte_cpu_to_be_16(FLOOD_ECHO_ID);
	icmp->icmp_seq_nb = rte_cpu_to_be_16(1);
	icmp->icmp_cksum = ~rte_raw_cksum(icmp, l4_len);
}

/* The IPv6 header of an ICMPv6 message of l4_len bytes from src to dst. */
static struct rte_ipv6_hdr *ip6_header(struct flood_frame *f, const uint8_t src[16], const uint8_t dst[16],
				       uint16_t l4_len)
{
	struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)(f->data + sizeof(struct rte_ether_hdr));

	ip6->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip6->payload_len = rte_cpu_to_be_16(l4_len);
	ip6->proto = IPPROTO_ICMPV6;
	ip6->hop_limits = 255;
	memcpy(ip6->src_addr, src, 16);
	memcpy(ip6->dst_addr, dst, 16);
	return ip6;
}

/* Neighbour solicitation for the target from src, to its solicited-node group (RFC 4861 4.3). */
static void build_ns(const struct flood_params *p, const struct rte_ether_addr *mac, struct flood_frame *f)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f->data;
	uint8_t group[16] = { 0xff, 0x02, [11] = 0x01, [12] = 0xff };
	uint16_t l4_len = 4 + 4 + 16 + 8;	/* header, reserved, target, source link-layer option */
	struct rte_ipv6_hdr *ip6;
	uint8_t *ns;

	memcpy(group + 13, p->target6 + 13, 3);
	eth->dst_addr = (struct rte_ether_addr){ { 0x33, 0x33, 0xff, group[13], group[14], group[15] } };
	eth->src_addr = *mac;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	ip6 = ip6_header(f, p->src6, group, l4_len);
	ns = (uint8_t *)(ip6 + 1);
	ns[0] = 135;
	memcpy(ns + 8, p->target6, 16);
	ns[24] = 1;	/* source link-layer address, 8 bytes */
	ns[25] = 1;
	memcpy(ns + 26, mac->addr_bytes, RTE_ETHER_ADDR_LEN);
	*(uint16_t *)(ns + 2) = rte_ipv6_udptcp_cksum(ip6, ns);
	f->len = sizeof(*eth) + sizeof(*ip6) + l4_len;
}

/* ICMPv6 echo request from src to the target, through the router's MAC. */
static void build_echo6(const struct flood_params *p, const struct rte_ether_addr *mac, struct flood_frame *f)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f->data;
	uint16_t l4_len = 8 + 16;
	struct rte_ipv6_hdr *ip6;
	uint8_t *echo;

	eth->dst_addr = p->dst_mac;
	eth->src_addr = *mac;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	ip6 = ip6_header(f, p->src6, p->target6, l4_len);
	ip6->hop_limits = 64;
	echo = (uint8_t *)(ip6 + 1);
	echo[0] = 128;
	*(uint16_t *)(echo + 4) = rte_cpu_to_be_16(FLOOD_ECHO_ID);
	*(uint16_t *)(echo + 6) = rte_cpu_to_be_16(1);
	*(uint16_t *)(echo + 2) = rte_ipv6_udptcp_cksum(ip6, echo);
	f->len = sizeof(*eth) + sizeof(*ip6) + l4_len;
}

static void build_frames(const struct flood_params *p, const struct rte_ether_addr *mac,
			 struct flood_frame f[FLOOD_KINDS])
{
	memset(f, 0, sizeof(struct flood_frame) * FLOOD_KINDS);
	f[FLOOD_RESOLVE].len = f[FLOOD_PING].len = FLOOD_FRAME;
	if (p->ipv6) {
		build_ns(p, mac, &f[FLOOD_RESOLVE]);
		build_echo6(p, mac, &f[FLOOD_PING]);
	} else {
		build_arp(p, mac, &f[FLOOD_RESOLVE]);
		build_echo4(p, mac, &f[FLOOD_PING]);
	}
}

/* Sends until the duration is over; sent[k] counts the frames of kind k the port took. */
static int flood_run(const struct flood_params *p, struct rte_mempool *mp, uint64_t sent[FLOOD_KINDS],
		     double *elapsed_s)
{
	struct rte_mbuf *tx[FLOOD_BURST], *rx[FLOOD_BURST];
	enum flood_kind order[FLOOD_KINDS], kind[FLOOD_BURST];
	uint64_t hz = rte_get_tsc_hz(), start, end, now, allowed;
	unsigned int nb_order = 0, next = 0, i, n;
	struct flood_frame f[FLOOD_KINDS];
	struct rte_ether_addr mac;
	uint64_t total = 0;
	uint16_t done;

	if (p->have_src_mac)
		mac = p->src_mac;
	else if (rte_eth_macaddr_get(0, &mac) < 0)
		return -EIO;
	build_frames(p, &mac, f);
	for (i = 0; i < FLOOD_KINDS; i++)
		if (p->kinds[i])
			order[nb_order++] = i;
	start = rte_rdtsc();
	end = start + (uint64_t)(p->duration_s * hz);
	while ((now = rte_rdtsc()) < end) {
		n = FLOOD_BURST;
		if (p->rate_pps > 0) {
			allowed = (uint64_t)((double)(now - start) / hz * p->rate_pps);
			n = allowed > total ? RTE_MIN(allowed - total, (uint64_t)FLOOD_BURST) : 0;
		}
		if (n && rte_pktmbuf_alloc_bulk(mp, tx, n) == 0) {
			for (i = 0; i < n; i++) {
				kind[i] = order[next];
				next = (next + 1) % nb_order;
				memcpy(rte_pktmbuf_mtod(tx[i], void *), f[kind[i]].data, f[kind[i]].len);
				tx[i]->data_len = tx[i]->pkt_len = f[kind[i]].len;
			}
			done = rte_eth_tx_burst(0, 0, tx, n);
			for (i = 0; i < done; i++)
				sent[kind[i]]++;
			total += done;
			if (done < n)
				rte_pktmbuf_free_bulk(tx + done, n - done);
		}
		done = rte_eth_rx_burst(0, 0, rx, FLOOD_BURST);
		if (done)
			rte_pktmbuf_free_bulk(rx, done);
	}
	*elapsed_s = (double)(rte_rdtsc() - start) / hz;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tern-bench flood --port DEV --target ADDRESS --dst-mac MAC [options]\n"
		"  --port DEV        the DPDK vdev the frames leave by (an af_packet port on a host's link)\n"
		"  --target ADDRESS  the router's address, IPv4 or IPv6: the requests are for it\n"
		"  --dst-mac MAC     the router's MAC on that link (the echo requests' destination)\n"
		"  --src ADDRESS     the requests' source, of the same family (198.18.1.100, 2001:2:0:2::100)\n"
		"  --src-mac MAC     the frames' source MAC (the port's own): another host's on the link\n"
		"  --kind K          resolve (ARP requests, IPv6 neighbour solicitations), ping (echo\n"
		"                    requests) or both, interleaved (both)\n"
		"  --rate PPS|max    frames a second, all kinds together (max)\n"
		"  --duration S      seconds (10)\n"
		"  --eal ARGS        extra EAL arguments (default: -l 0 --no-pci --file-prefix tern-bench)\n"
		"  --json            one JSON object instead of text\n");
}

static int parse_address(const char *s, struct flood_params *p, bool target)
{
	uint8_t *a6 = target ? p->target6 : p->src6;
	uint32_t *a4 = target ? &p->target : &p->src;

	if (strchr(s, ':'))
		return arg_ipv6(s, a6) < 0 ? -EINVAL : 1;
	return arg_ipv4(s, a4) < 0 ? -EINVAL : 0;
}

static int parse_flood_args(int argc, char **argv, struct flood_params *p)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' }, { "target", required_argument, NULL, 't' },
		{ "dst-mac", required_argument, NULL, 'm' }, { "src", required_argument, NULL, 's' },
		{ "kind", required_argument, NULL, 'k' }, { "rate", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' }, { "eal", required_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
		{ "src-mac", required_argument, NULL, 'M' }, { 0 },
	};
	const char *src = NULL, *target = NULL;
	bool have_mac = false;
	int c, family;

	memset(p, 0, sizeof(*p));
	p->duration_s = 10;
	p->kinds[FLOOD_RESOLVE] = p->kinds[FLOOD_PING] = true;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': p->port = optarg; break;
		case 't': target = optarg; break;
		case 's': src = optarg; break;
		case 'e': snprintf(p->eal, sizeof(p->eal), "%s", optarg); break;
		case 'j': p->json = true; break;
		case 'm':
			if (rte_ether_unformat_addr(optarg, &p->dst_mac) < 0)
				return fprintf(stderr, "tern-bench flood: --dst-mac '%s': expected aa:bb:cc:dd:ee:ff\n", optarg), -EINVAL;
			have_mac = true;
			break;
		case 'M':
			if (rte_ether_unformat_addr(optarg, &p->src_mac) < 0 || !rte_is_unicast_ether_addr(&p->src_mac))
				return fprintf(stderr, "tern-bench flood: --src-mac '%s': expected a unicast aa:bb:cc:dd:ee:ff\n", optarg), -EINVAL;
			p->have_src_mac = true;
			break;
		case 'k':
			p->kinds[FLOOD_RESOLVE] = !strcmp(optarg, "resolve") || !strcmp(optarg, "both");
			p->kinds[FLOOD_PING] = !strcmp(optarg, "ping") || !strcmp(optarg, "both");
			if (!p->kinds[FLOOD_RESOLVE] && !p->kinds[FLOOD_PING])
				return fprintf(stderr, "tern-bench flood: --kind '%s': expected resolve, ping or both\n", optarg), -EINVAL;
			break;
		case 'r':
			if (strcmp(optarg, "max") == 0)
				p->rate_pps = 0;
			else if (arg_number(optarg, 1, 1e10, &p->rate_pps) < 0)
				return fprintf(stderr, "tern-bench flood: --rate '%s': expected frames per second (1 or more) or max\n", optarg), -EINVAL;
			break;
		case 'd':
			if (arg_number(optarg, 0.001, 86400, &p->duration_s) < 0)
				return fprintf(stderr, "tern-bench flood: --duration '%s': expected seconds, above 0 to 86400\n", optarg), -EINVAL;
			break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return -EINVAL;
		}
	}
	if (optind < argc)
		return fprintf(stderr, "tern-bench flood: unexpected '%s'\n", argv[optind]), -EINVAL;
	if (!p->port || !target || !have_mac)
		return fprintf(stderr, "tern-bench flood: --port, --target and --dst-mac are needed\n"), -EINVAL;
	family = parse_address(target, p, true);
	if (family < 0)
		return fprintf(stderr, "tern-bench flood: --target '%s' is neither an IPv4 nor an IPv6 address\n", target), -EINVAL;
	p->ipv6 = family == 1;
	if (!src)
		src = p->ipv6 ? "2001:2:0:2::100" : "198.18.1.100";
	if (parse_address(src, p, false) != family)
		return fprintf(stderr, "tern-bench flood: --src '%s' is not an %s address, as the target is\n", src,
			       p->ipv6 ? "IPv6" : "IPv4"), -EINVAL;
	return 0;
}

int flood_cmd(int argc, char **argv)
{
	uint64_t sent[FLOOD_KINDS] = { 0 }, total;
	const char *ports[1];
	struct flood_params p;
	struct rte_mempool *mp;
	double elapsed = 0;
	unsigned int k;
	int rc;

	rc = parse_flood_args(argc, argv, &p);
	if (rc)
		return rc < 0 ? 2 : 0;
	ports[0] = p.port;
	if (bench_eal_start(p.eal, ports, 1) < 0)
		return 1;
	rc = bench_ports_start(ports, 1, 1, 0, 0, 10, &mp);
	if (rc == 0)
		rc = flood_run(&p, mp, sent, &elapsed);
	bench_ports_stop();
	eal_exit_cleanup();
	if (rc < 0) {
		fprintf(stderr, "tern-bench flood: the port failed: %s\n", strerror(-rc));
		return 1;
	}
	total = sent[FLOOD_RESOLVE] + sent[FLOOD_PING];
	if (p.json) {
		printf("{\"duration_s\": %.3f, \"sent\": %lu, \"pps\": %.0f", elapsed, total, total / elapsed);
		for (k = 0; k < FLOOD_KINDS; k++)
			printf(", \"%s\": %lu", kind_names[k], sent[k]);
		printf("}\n");
	} else {
		printf("flood: %lu frames in %.3f s, %.0f a second (%lu %s, %lu echo requests)\n", total, elapsed,
		       total / elapsed, sent[FLOOD_RESOLVE], p.ipv6 ? "neighbour solicitations" : "ARP requests",
		       sent[FLOOD_PING]);
	}
	return 0;
}
