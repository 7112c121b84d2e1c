/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench: a DPDK traffic generator (gen) for tern or any router under test. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "api/tern_version.h"
#include "bench/args.h"
#include "bench/churn.h"
#include "bench/cmd_compare.h"
#include "bench/cmd_fib6.h"
#include "bench/cmd_flood.h"
#include "bench/cmd_pipeline.h"
#include "bench/cmd_rfc2544.h"
#include "bench/gen.h"
#include "bench/ports.h"
#include "bench/routes.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/workarounds/eal_exit.h"

#define MAX_PORTS 8

struct options {
	const char *ports[MAX_PORTS];
	unsigned int nb_ports;
	char eal[1024];
	bool json;
	unsigned int link_wait_s;
	struct gen_params gen;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tern-bench gen --port DEV --port DEV --dst-mac MAC [options]\n"
		"  --port DEV        a DPDK vdev or PCI address (repeat; the first sends, the second receives)\n"
		"  --eal ARGS        extra EAL arguments (default: -l 0 --no-pci --file-prefix tern-bench)\n"
		"  --dst-mac MAC     the router's MAC on the sending port\n"
		"  --src-ip A.B.C.D  source address (198.18.0.2)\n"
		"  --dst-ip A.B.C.D  first destination (198.19.0.1); --flows N destinations from there (1)\n"
		"  --ipv6            IPv6/UDP frames instead; --src-ip and --dst-ip then take IPv6\n"
		"                    addresses (2001:2::2 and 2001:2:0:1::1, RFC 5180's range), and\n"
		"                    --size starts at 82 bytes, the smallest that carries the stamp\n"
		"  --size BYTES      frame size with CRC, 64..1518 (64; 82 with --ipv6)\n"
		"  --vlan ID         802.1Q-tag the frames with VLAN ID, 1..4094 (4 bytes more on the wire)\n"
		"  --vlans N         with --vlan: the frames go round N VLANs from ID, one each in turn\n"
		"  --rate PPS|max    offered load (max)\n"
		"  --duration S      trial length in seconds (5); --warmup S learning time (1)\n"
		"  --tx N, --rx N    port indexes that send and receive (0, 1)\n"
		"  --queues N        rx queues per port, all polled (1; a router may send on several)\n"
		"  --flood-ip A.B.C.D --flood-share PCT  send that share of the frames there instead\n"
		"                    (the router's own address: a flood beside the measured traffic)\n"
		"  --reconnect       stop and start a port whose link is down, every 20 ms (a memif client\n"
		"                    finds a router that restarted); the longest time without a frame\n"
		"                    received is reported either way\n"
		"  --json            one JSON object instead of text\n");
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' }, { "eal", required_argument, NULL, 'e' },
		{ "dst-mac", required_argument, NULL, 'm' }, { "src-ip", required_argument, NULL, 's' },
		{ "dst-ip", required_argument, NULL, 'd' }, { "flows", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 'z' }, { "rate", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 't' }, { "warmup", required_argument, NULL, 'w' },
		{ "tx", required_argument, NULL, 'T' }, { "rx", required_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' }, { "link-wait", required_argument, NULL, 'L' },
		{ "queues", required_argument, NULL, 'Q' }, { "flood-ip", required_argument, NULL, 'F' },
		{ "flood-share", required_argument, NULL, 'S' }, { "vlan", required_argument, NULL, 'V' },
		{ "vlans", required_argument, NULL, 'W' },
		{ "reconnect", no_argument, NULL, 'C' }, { "help", no_argument, NULL, 'h' },
		{ "ipv6", no_argument, NULL, '6' }, { 0 },
	};
	const char *src_text = NULL, *dst_text = NULL;
	bool have_mac = false, have_size = false;
	unsigned long n;
	int c;

	memset(o, 0, sizeof(*o));
	o->gen.flows = 1;
	o->gen.frame_size = 64;
	o->gen.duration_s = 5;
	o->gen.warmup_s = 1;
	o->gen.rx_port = 1;
	o->link_wait_s = 10;
	o->gen.nb_rxq = 1;
	o->gen.src_ip = 0xc6120002;	/* 198.18.0.2 */
	o->gen.dst_ip = 0xc6130001;	/* 198.19.0.1 */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (o->nb_ports == MAX_PORTS)
				return fprintf(stderr, "tern-bench: at most %d ports\n", MAX_PORTS), -EINVAL;
			o->ports[o->nb_ports++] = optarg;
			break;
		case 'e': snprintf(o->eal, sizeof(o->eal), "%s", optarg); break;
		case 'm':
			if (rte_ether_unformat_addr(optarg, &o->gen.dst_mac) < 0)
				return fprintf(stderr, "tern-bench: --dst-mac '%s': expected aa:bb:cc:dd:ee:ff\n", optarg), -EINVAL;
			have_mac = true;
			break;
		case 's':
		case 'd':
			*(c == 's' ? &src_text : &dst_text) = optarg;	/* read once the family is known */
			break;
		case 'F':
			if (arg_ipv4(optarg, &o->gen.flood_ip) < 0)
				return fprintf(stderr, "tern-bench: '%s' is not an IPv4 address\n", optarg), -EINVAL;
			break;
		case '6': o->gen.ipv6 = true; break;
		case 'f':
			if (arg_count(optarg, 1, GEN_MAX_FLOWS, &n) < 0)
				return fprintf(stderr, "tern-bench: --flows '%s': expected 1 to %d\n", optarg, GEN_MAX_FLOWS), -EINVAL;
			o->gen.flows = n;
			break;
		case 'z':
			if (arg_count(optarg, 64, 1518, &n) < 0)
				return fprintf(stderr, "tern-bench: --size '%s': expected 64 to 1518 bytes\n", optarg), -EINVAL;
			o->gen.frame_size = n;
			have_size = true;
			break;
		case 'r':
			if (strcmp(optarg, "max") == 0)
				o->gen.rate_pps = 0;
			else if (arg_number(optarg, 1, 1e10, &o->gen.rate_pps) < 0)
				return fprintf(stderr, "tern-bench: --rate '%s': expected packets per second (1 or more) or max\n", optarg), -EINVAL;
			break;
		case 't':
		case 'w':
			if (arg_number(optarg, c == 't' ? 0.001 : 0, 86400,
				       c == 't' ? &o->gen.duration_s : &o->gen.warmup_s) < 0)
				return fprintf(stderr, "tern-bench: --%s '%s': expected seconds, %s to 86400\n",
					       c == 't' ? "duration" : "warmup", optarg, c == 't' ? "above 0" : "0"), -EINVAL;
			break;
		case 'T':
		case 'R':
			if (arg_count(optarg, 0, MAX_PORTS - 1, &n) < 0)
				return fprintf(stderr, "tern-bench: --%s '%s': expected a port index from 0 to %d\n",
					       c == 'T' ? "tx" : "rx", optarg, MAX_PORTS - 1), -EINVAL;
			*(c == 'T' ? &o->gen.tx_port : &o->gen.rx_port) = n;
			break;
		case 'L':
			if (arg_count(optarg, 0, 3600, &n) < 0)
				return fprintf(stderr, "tern-bench: --link-wait '%s': expected seconds, 0 to 3600\n", optarg), -EINVAL;
			o->link_wait_s = n;
			break;
		case 'Q':
			if (arg_count(optarg, 1, GEN_MAX_RXQ, &n) < 0)
				return fprintf(stderr, "tern-bench: --queues '%s': expected 1 to %d\n", optarg, GEN_MAX_RXQ), -EINVAL;
			o->gen.nb_rxq = n;
			break;
		case 'V':
			if (arg_count(optarg, 1, 4094, &n) < 0)
				return fprintf(stderr, "tern-bench: --vlan '%s': expected a VLAN id, 1 to 4094\n", optarg), -EINVAL;
			o->gen.vlan = n;
			break;
		case 'W':
			if (arg_count(optarg, 1, 4094, &n) < 0)
				return fprintf(stderr, "tern-bench: --vlans '%s': expected 1 to 4094 VLANs\n", optarg), -EINVAL;
			o->gen.vlans = n;
			break;
		case 'S':
			if (arg_count(optarg, 0, 99, &n) < 0)
				return fprintf(stderr, "tern-bench: --flood-share '%s': expected 0 to 99 %%\n", optarg), -EINVAL;
			o->gen.flood_share = n;
			break;
		case 'j': o->json = true; break;
		case 'C': o->gen.reconnect = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -EINVAL;
		}
	}
	if (o->gen.ipv6) {
		arg_ipv6("2001:2::2", o->gen.src_ip6);
		arg_ipv6("2001:2:0:1::1", o->gen.dst_ip6);
		if (!have_size)
			o->gen.frame_size = GEN_IPV6_MIN_FRAME;
		if (o->gen.frame_size < GEN_IPV6_MIN_FRAME)
			return fprintf(stderr, "tern-bench: --size %u: an IPv6 frame that carries the stamp takes %d bytes at least\n",
				       o->gen.frame_size, GEN_IPV6_MIN_FRAME), -EINVAL;
		if (o->gen.flood_share)
			return fprintf(stderr, "tern-bench: --flood-ip is IPv4's; not with --ipv6\n"), -EINVAL;
	}
	if (src_text && (o->gen.ipv6 ? arg_ipv6(src_text, o->gen.src_ip6) :
				       arg_ipv4(src_text, &o->gen.src_ip)) < 0)
		return fprintf(stderr, "tern-bench: --src-ip '%s' is not an %s address\n", src_text,
			       o->gen.ipv6 ? "IPv6" : "IPv4"), -EINVAL;
	if (dst_text && (o->gen.ipv6 ? arg_ipv6(dst_text, o->gen.dst_ip6) :
				       arg_ipv4(dst_text, &o->gen.dst_ip)) < 0)
		return fprintf(stderr, "tern-bench: --dst-ip '%s' is not an %s address\n", dst_text,
			       o->gen.ipv6 ? "IPv6" : "IPv4"), -EINVAL;
	if (o->nb_ports == 0 || !have_mac) {
		fprintf(stderr, "tern-bench: --port and --dst-mac are required\n");
		usage(stderr);
		return -EINVAL;
	}
	if (o->gen.flood_share && !o->gen.flood_ip) {
		fprintf(stderr, "tern-bench: --flood-share needs --flood-ip\n");
		return -EINVAL;
	}
	if (o->gen.tx_port >= o->nb_ports || o->gen.rx_port >= o->nb_ports) {
		fprintf(stderr, "tern-bench: --tx/--rx name port %u/%u; only %u given\n",
			o->gen.tx_port, o->gen.rx_port, o->nb_ports);
		return -EINVAL;
	}
	return 0;
}

static void report(const struct options *o, const struct gen_result *r)
{
	const struct histogram *h = &r->latency_ns;
	double loss = r->tx ? 100.0 * (double)(r->tx - (r->rx < r->tx ? r->rx : r->tx)) / r->tx : 0;
	double avg = h->count ? (double)h->sum / h->count : 0;
	char rate[32];

	if (o->gen.rate_pps > 0)
		snprintf(rate, sizeof(rate), "%.0f pps", o->gen.rate_pps);
	else
		snprintf(rate, sizeof(rate), "max");
	if (o->json) {
		printf("{\"family\": \"%s\", \"frame_size\": %u, \"flows\": %u, \"rate\": \"%s\", \"duration_s\": %.3f, "
		       "\"tx_packets\": %lu, \"rx_packets\": %lu, \"tx_pps\": %.0f, \"rx_pps\": %.0f, "
		       "\"loss_percent\": %.6f, \"reordered\": %lu, \"foreign\": %lu, "
		       "\"flood_packets\": %lu, \"flood_pps\": %.0f, "
		       "\"latency_ns\": {\"min\": %lu, \"avg\": %.0f, \"p50\": %lu, \"p99\": %lu, \"max\": %lu}, "
		       "\"gap\": {\"start_unix\": %.6f, \"longest_s\": %.6f, \"from_s\": %.6f, \"to_s\": %.6f, "
		       "\"link_down_s\": %.6f, \"link_up_s\": %.6f, \"port_restarts\": %u}}\n",
		       o->gen.ipv6 ? "ipv6" : "ipv4", o->gen.frame_size, o->gen.flows, rate, r->elapsed_s,
		       r->tx, r->rx, r->tx_pps,
		       r->rx_pps, loss, r->reordered, r->foreign, r->flood_tx,
		       r->flood_tx / r->elapsed_s, h->count ? h->min : 0, avg,
		       hist_quantile(h, 0.5), hist_quantile(h, 0.99), h->max, r->gap.start_unix,
		       r->gap.longest_s, r->gap.from_s, r->gap.to_s, r->gap.link_down_s,
		       r->gap.link_up_s, r->gap.port_restarts);
		return;
	}
	printf("tern-bench gen: %u-byte %s frames, %u flow(s), rate %s, %.1f s\n", o->gen.frame_size,
	       o->gen.ipv6 ? "IPv6" : "IPv4", o->gen.flows, rate, r->elapsed_s);
	printf("  sent     %12lu packets  %8.3f Mpps\n", r->tx, r->tx_pps / 1e6);
	if (r->flood_tx)
		printf("  flood    %12lu packets  %8.3f Mpps to " IP4_FMT " (not counted above)\n",
		       r->flood_tx, r->flood_tx / r->elapsed_s / 1e6, IP4_ARGS(o->gen.flood_ip));
	printf("  received %12lu packets  %8.3f Mpps  loss %.4f %%  reordered %lu\n", r->rx,
	       r->rx_pps / 1e6, loss, r->reordered);
	if (h->count)
		printf("  latency  min %.1f  avg %.1f  p50 %.1f  p99 %.1f  max %.1f us\n",
		       h->min / 1e3, avg / 1e3, hist_quantile(h, 0.5) / 1e3,
		       hist_quantile(h, 0.99) / 1e3, h->max / 1e3);
	if (r->gap.to_s >= 0)
		printf("  longest time without a frame %.3f s (%.3f to %.3f s into the trial)\n",
		       r->gap.longest_s, r->gap.from_s, r->gap.to_s);
	if (r->gap.link_down_s >= 0)
		printf("  link down %.3f to %.3f s into the trial; %u port restarts\n",
		       r->gap.link_down_s, r->gap.link_up_s, r->gap.port_restarts);
}

int main(int argc, char **argv)
{
	struct options o;
	struct rte_mempool *mp;
	struct gen_result r;
	int rc;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("tern-bench %s\n", TERN_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "pipeline") == 0)
		return pipeline_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "routes") == 0)
		return routes_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "fib6-candidates") == 0)
		return fib6_candidates_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "rfc2544") == 0)
		return rfc2544_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "churn") == 0)
		return churn_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "compare") == 0)
		return compare_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "flood") == 0)
		return flood_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "gen") != 0) {
		fprintf(stderr, "tern-bench: unknown command '%s'; expected gen, compare, flood, rfc2544, pipeline, routes, fib6-candidates or churn\n", argv[1]);
		return 2;
	}
	if (parse_args(argc - 1, argv + 1, &o) < 0)
		return 2;
	if (bench_eal_start(o.eal, o.ports, o.nb_ports) < 0)
		return 1;
	rc = bench_ports_start(o.ports, o.nb_ports, o.gen.nb_rxq, o.gen.tx_port, o.gen.rx_port,
			       o.link_wait_s, &mp);
	if (rc == 0)
		rc = gen_run(&o.gen, mp, &r);
	if (rc == 0)
		report(&o, &r);
	bench_ports_stop();
	eal_exit_cleanup();
	return rc < 0 ? 1 : 0;
}
