/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tern-bench compare: the command line of the alternating benchmark. Each
 * --dut names a router and its two ports; one generator connects to all of
 * them and runs them in turn (bench/compare.c), then prints each one's rate
 * by round and, as text, medians and each one's ratio to the first.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>

#include "bench/args.h"
#include "bench/cmd_compare.h"
#include "bench/compare.h"
#include "bench/ports.h"
#include "dataplane/workarounds/eal_exit.h"

#define MAX_PORTS (2 * COMPARE_MAX_DUTS)
#define MAX_ROUNDS 10000
/* a name goes into JSON and text reports as it is */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."

struct compare_opts {
	struct compare_dut duts[COMPARE_MAX_DUTS];
	unsigned int nb_duts;
	const char *ports[MAX_PORTS];
	uint16_t queues[MAX_PORTS];
	unsigned int nb_ports;
	bool have_mac[COMPARE_MAX_DUTS];
	struct compare_params cp;
	struct gen_params stream;	/* what every contender gets: size, flows, addresses */
	char eal[1024];
	unsigned int link_wait_s;
	bool json;
};

static volatile sig_atomic_t quit;	/* set by SIGINT or SIGTERM */

static void on_signal(int sig)
{
	quit = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tern-bench compare --dut NAME --port DEV --port DEV --dst-mac MAC [--pid PID] [--queues N]\n"
		"                          --dut NAME ... [options]\n"
		"  --dut NAME        a router under test (2 to %d); the options up to the next --dut are its own:\n"
		"    --port DEV      a DPDK vdev, twice: frames go out of the first, come back on the second\n"
		"    --dst-mac MAC   the router's MAC on the sending port\n"
		"    --pid PID       its process: continued for its slices, stopped between them (contenders\n"
		"                    that share a CPU take turns), left running or stopped as it was found\n"
		"    --queues N      rx queues polled on its receiving port (1)\n"
		"    --vlan ID       802.1Q-tag its frames with VLAN ID, 1..4094 (4 bytes more on the wire)\n"
		"    --vlans N       with --vlan: its frames go round N VLANs from ID, one each in turn\n"
		"    --ipv6          IPv6/UDP frames from 2001:2::2 to 2001:2:0:1::1 and on (RFC 5180's\n"
		"                    prefix), of --size or %d bytes, whichever is more\n"
		"  --rounds N        rounds; each runs every router once, a different one first (10)\n"
		"  --slice S         measured seconds per router and round (1)\n"
		"  --warmup S        seconds of traffic before each slice, not counted (0.1)\n"
		"  --size BYTES      frame size with CRC, 64..1518 (64); --flows N destinations (1024)\n"
		"  --src-ip A.B.C.D  (198.18.0.2); --dst-ip A.B.C.D first destination (198.19.0.1)\n"
		"  --eal ARGS        extra EAL arguments (default: -l 0 --no-pci --file-prefix tern-bench)\n"
		"  --link-wait S     how long the links may take to come up (10)\n"
		"  --json            one JSON object (each router's rate by round) instead of text\n",
		COMPARE_MAX_DUTS, GEN_IPV6_MIN_FRAME);
}

/* Options that belong to the current --dut; 1 when c is not one of them. */
static int parse_dut_opt(struct compare_opts *o, int c)
{
	struct compare_dut *d = &o->duts[o->nb_duts - 1];
	unsigned long n;

	switch (c) {
	case 'p':
		if (o->nb_ports == MAX_PORTS || o->nb_ports >= 2 * o->nb_duts)
			return fprintf(stderr, "tern-bench: %s: two --port each\n", d->name), -EINVAL;
		o->ports[o->nb_ports] = optarg;
		o->queues[o->nb_ports] = 1;
		*(o->nb_ports % 2 ? &d->gen.rx_port : &d->gen.tx_port) = o->nb_ports;
		o->nb_ports++;
		return 0;
	case 'm':
		if (rte_ether_unformat_addr(optarg, &d->gen.dst_mac) < 0)
			return fprintf(stderr, "tern-bench: %s: --dst-mac '%s': expected aa:bb:cc:dd:ee:ff\n",
				       d->name, optarg), -EINVAL;
		o->have_mac[o->nb_duts - 1] = true;
		return 0;
	case 'P':
		if (arg_count(optarg, 1, 4194304, &n) < 0)
			return fprintf(stderr, "tern-bench: %s: --pid '%s': expected a process id\n",
				       d->name, optarg), -EINVAL;
		d->pid = n;
		return 0;
	case 'Q':
		if (arg_count(optarg, 1, GEN_MAX_RXQ, &n) < 0)
			return fprintf(stderr, "tern-bench: %s: --queues '%s': expected 1 to %d\n",
				       d->name, optarg, GEN_MAX_RXQ), -EINVAL;
		d->gen.nb_rxq = n;
		return 0;
	case 'V':
		if (arg_count(optarg, 1, 4094, &n) < 0)
			return fprintf(stderr, "tern-bench: %s: --vlan '%s': expected a VLAN id, 1 to 4094\n",
				       d->name, optarg), -EINVAL;
		d->gen.vlan = n;
		return 0;
	case 'W':
		if (arg_count(optarg, 1, 4094, &n) < 0)
			return fprintf(stderr, "tern-bench: %s: --vlans '%s': expected 1 to 4094 VLANs\n",
				       d->name, optarg), -EINVAL;
		d->gen.vlans = n;
		return 0;
	case '6':
		d->gen.ipv6 = true;
		return 0;
	}
	return 1;
}

static int parse_opt(struct compare_opts *o, int c)
{
	unsigned long n;

	switch (c) {
	case 'r':
		if (arg_count(optarg, 1, MAX_ROUNDS, &n) < 0)
			return fprintf(stderr, "tern-bench: --rounds '%s': expected 1 to %d\n", optarg, MAX_ROUNDS), -EINVAL;
		o->cp.rounds = n;
		return 0;
	case 't':
	case 'w':
		if (arg_number(optarg, c == 't' ? 0.001 : 0, 3600, c == 't' ? &o->cp.slice_s : &o->cp.warmup_s) < 0)
			return fprintf(stderr, "tern-bench: --%s '%s': expected seconds, %s to 3600\n",
				       c == 't' ? "slice" : "warmup", optarg, c == 't' ? "above 0" : "0"), -EINVAL;
		return 0;
	case 'z':
		if (arg_count(optarg, 64, 1518, &n) < 0)
			return fprintf(stderr, "tern-bench: --size '%s': expected 64 to 1518 bytes\n", optarg), -EINVAL;
		o->stream.frame_size = n;
		return 0;
	case 'f':
		if (arg_count(optarg, 1, GEN_MAX_FLOWS, &n) < 0)
			return fprintf(stderr, "tern-bench: --flows '%s': expected 1 to %d\n", optarg, GEN_MAX_FLOWS), -EINVAL;
		o->stream.flows = n;
		return 0;
	case 's':
	case 'd':
		if (arg_ipv4(optarg, c == 's' ? &o->stream.src_ip : &o->stream.dst_ip) < 0)
			return fprintf(stderr, "tern-bench: '%s' is not an IPv4 address\n", optarg), -EINVAL;
		return 0;
	case 'e':
		snprintf(o->eal, sizeof(o->eal), "%s", optarg);
		return 0;
	case 'L':
		if (arg_count(optarg, 0, 3600, &n) < 0)
			return fprintf(stderr, "tern-bench: --link-wait '%s': expected seconds, 0 to 3600\n", optarg), -EINVAL;
		o->link_wait_s = n;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	}
	usage(stderr);
	return -EINVAL;
}

static int parse_args(int argc, char **argv, struct compare_opts *o)
{
	static const struct option opts[] = {
		{ "dut", required_argument, NULL, 'D' }, { "port", required_argument, NULL, 'p' },
		{ "dst-mac", required_argument, NULL, 'm' }, { "pid", required_argument, NULL, 'P' },
		{ "queues", required_argument, NULL, 'Q' }, { "rounds", required_argument, NULL, 'r' },
		{ "slice", required_argument, NULL, 't' }, { "warmup", required_argument, NULL, 'w' },
		{ "size", required_argument, NULL, 'z' }, { "flows", required_argument, NULL, 'f' },
		{ "src-ip", required_argument, NULL, 's' }, { "dst-ip", required_argument, NULL, 'd' },
		{ "eal", required_argument, NULL, 'e' }, { "link-wait", required_argument, NULL, 'L' },
		{ "json", no_argument, NULL, 'j' }, { "vlan", required_argument, NULL, 'V' },
		{ "vlans", required_argument, NULL, 'W' }, { "ipv6", no_argument, NULL, '6' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	unsigned int d;
	int c, rc;

	memset(o, 0, sizeof(*o));
	o->cp.rounds = 10;
	o->cp.slice_s = 1;
	o->cp.warmup_s = 0.1;
	o->stream.frame_size = 64;
	o->stream.flows = 1024;
	o->stream.src_ip = 0xc6120002;	/* 198.18.0.2 */
	o->stream.dst_ip = 0xc6130001;	/* 198.19.0.1 */
	o->link_wait_s = 10;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == 'D') {
			if (o->nb_duts == COMPARE_MAX_DUTS)
				return fprintf(stderr, "tern-bench: at most %d --dut\n", COMPARE_MAX_DUTS), -EINVAL;
			if (o->nb_ports != 2 * o->nb_duts)
				return fprintf(stderr, "tern-bench: %s: two --port each\n",
					       o->duts[o->nb_duts - 1].name), -EINVAL;
			if (!optarg[0] || strlen(optarg) >= sizeof(o->duts[0].name) ||
			    strspn(optarg, NAME_CHARS) != strlen(optarg))
				return fprintf(stderr, "tern-bench: --dut '%s': expected a name of 1 to %zu letters, digits, '-', '_' or '.'\n",
					       optarg, sizeof(o->duts[0].name) - 1), -EINVAL;
			snprintf(o->duts[o->nb_duts].name, sizeof(o->duts[0].name), "%s", optarg);
			o->duts[o->nb_duts++].gen.nb_rxq = 1;
			continue;
		}
		if (o->nb_duts && (rc = parse_dut_opt(o, c)) <= 0) {
			if (rc < 0)
				return rc;
			continue;
		}
		if (!o->nb_duts && c > 0 && strchr("pmPQVW6", c)) {
			fprintf(stderr, "tern-bench: --port, --dst-mac, --pid, --queues, --vlan, --vlans and --ipv6 follow the --dut they belong to\n");
			return -EINVAL;
		}
		if ((rc = parse_opt(o, c)) < 0)
			return rc;
	}
	if (o->nb_duts < 2 || o->nb_ports != 2 * o->nb_duts) {
		fprintf(stderr, "tern-bench: compare needs two --dut or more, each with two --port\n");
		return -EINVAL;
	}
	for (d = 0; d < o->nb_duts; d++) {
		struct gen_params *g = &o->duts[d].gen;

		if (!o->have_mac[d])
			return fprintf(stderr, "tern-bench: %s: --dst-mac is required\n", o->duts[d].name), -EINVAL;
		g->frame_size = o->stream.frame_size;
		g->flows = o->stream.flows;
		g->src_ip = o->stream.src_ip;
		g->dst_ip = o->stream.dst_ip;
		if (g->ipv6) {
			arg_ipv6("2001:2::2", g->src_ip6);
			arg_ipv6("2001:2:0:1::1", g->dst_ip6);
			g->frame_size = RTE_MAX(g->frame_size, (unsigned int)GEN_IPV6_MIN_FRAME);
		}
		o->queues[g->rx_port] = g->nb_rxq;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One router's values by round, null where a slice had no result. */
static void print_series(const struct compare_opts *o, const struct compare_slice *s, unsigned int d,
			 bool loss)
{
	unsigned int r, nb = o->nb_duts;

	for (r = 0; r < o->cp.rounds; r++) {
		const struct compare_slice *x = &s[r * nb + d];

		if (r)
			printf(", ");
		if (!x->ok)
			printf("null");
		else if (loss)
			printf("%.6f", x->loss_percent);
		else
			printf("%.0f", x->rx_pps);
	}
}

static void report_json(const struct compare_opts *o, const struct compare_slice *s)
{
	unsigned int d;

	printf("{\"frame_size\": %u, \"flows\": %u, \"rounds\": %u, \"slice_s\": %g, \"warmup_s\": %g, \"duts\": [",
	       o->stream.frame_size, o->stream.flows, o->cp.rounds, o->cp.slice_s, o->cp.warmup_s);
	for (d = 0; d < o->nb_duts; d++) {
		printf("%s{\"name\": \"%s\", \"ipv6\": %s, \"frame_size\": %u, \"rx_pps\": [",
		       d ? ", " : "", o->duts[d].name, o->duts[d].gen.ipv6 ? "true" : "false",
		       o->duts[d].gen.frame_size);
		print_series(o, s, d, false);
		printf("], \"loss_percent\": [");
		print_series(o, s, d, true);
		printf("]}");
	}
	printf("]}\n");
}

/* Medians, and each router's rate over the first's taken round by round: rounds with both. */
static void report_text(const struct compare_opts *o, const struct compare_slice *s)
{
	static double v[MAX_ROUNDS];
	unsigned int d, r, n, nb = o->nb_duts;

	printf("tern-bench compare: %u-byte frames, %u flows, %u rounds of %g s each\n",
	       o->stream.frame_size, o->stream.flows, o->cp.rounds, o->cp.slice_s);
	for (d = 0; d < nb; d++) {
		for (r = n = 0; r < o->cp.rounds; r++)
			if (s[r * nb + d].ok)
				v[n++] = s[r * nb + d].rx_pps;
		if (n == 0) {
			printf("  %-8s no result in any round\n", o->duts[d].name);
			continue;
		}
		printf("  %-8s %8.3f Mpps median of %u round(s)", o->duts[d].name, median(v, n) / 1e6, n);
		for (r = n = 0; d && r < o->cp.rounds; r++)
			if (s[r * nb + d].ok && s[r * nb].ok)
				v[n++] = s[r * nb + d].rx_pps / s[r * nb].rx_pps;
		if (n)
			printf("; / %s round by round: %.3f", o->duts[0].name, median(v, n));
		printf("\n");
	}
}

int compare_cmd(int argc, char **argv)
{
	static struct compare_opts o;
	struct compare_slice *slices = NULL;
	struct rte_mempool *mp;
	int rc;

	if (parse_args(argc, argv, &o) < 0)
		return 2;
	if (bench_eal_start(o.eal, o.ports, o.nb_ports) < 0)
		return 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* contenders held stopped must run while their ports connect */
	rc = compare_continue_all(o.duts, o.nb_duts);
	if (rc == 0)
		rc = bench_ports_start_each(o.ports, o.nb_ports, o.queues, o.link_wait_s, &mp);
	if (rc == 0 && (slices = calloc((size_t)o.cp.rounds * o.nb_duts, sizeof(*slices))) == NULL)
		rc = -ENOMEM;
	if (rc == 0)
		rc = compare_run(o.duts, o.nb_duts, &o.cp, mp, slices, stderr, &quit);
	compare_restore_all(o.duts, o.nb_duts);
	if (rc == 0)
		o.json ? report_json(&o, slices) : report_text(&o, slices);
	else if (rc == -EINTR)
		fprintf(stderr, "tern-bench: interrupted; the routers are left as they were found\n");
	free(slices);
	bench_ports_stop();
	eal_exit_cleanup();
	return rc < 0 ? 1 : 0;
}
