/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tern-bench rfc2544: RFC 2544 §26 runs against any router reached through
 * two DPDK ports, with the generator as the trial engine; reports in a
 * directory (report.md, results.json, results.csv, three SVG charts).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_version.h>

#include "api/tern_version.h"
#include "bench/args.h"
#include "bench/cmd_rfc2544.h"
#include "bench/gen.h"
#include "bench/ports.h"
#include "bench/rfc2544.h"
#include "dataplane/ip4/ip4.h"
#include "dataplane/workarounds/eal_exit.h"

#define MAX_PORTS 2

struct runner {
	struct gen_params gen[GEN_MAX_DIRS];	/* [1]: the other way, when bidirectional */
	unsigned int nb_dirs;
	struct rte_mempool *mp;
	double learn_s, settle_s;
	uint16_t learned_size;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tern-bench rfc2544 --port DEV --port DEV --dst-mac MAC [options]\n"
		"  --port DEV          a DPDK vdev or PCI address, twice: frames go out of the first, back on the second\n"
		"  --dst-mac MAC       the DUT's MAC on the sending side\n"
		"  --bidirectional     frames also go from the second port to the first, to --dst-mac2\n"
		"  --dst-mac2 MAC      the DUT's MAC on the second port\n"
		"  --src-ip2, --dst-ip2  the other direction's addresses (198.18.1.2, 198.19.128.1;\n"
		"                      with --ipv6 2001:2:0:ff::2, 2001:2:0:2::1)\n"
		"  --ipv6              IPv6/UDP frames (RFC 5180): sizes from %d bytes, the smallest that\n"
		"                      carries the generator's stamp (it stands for 64 in the sizes' default)\n"
		"  --eal ARGS          extra EAL arguments (default: -l 0 --no-pci --file-prefix tern-bench)\n"
		"  --quick             the short profile for CI and smoke tests (RFC durations otherwise)\n"
		"  --sizes LIST        frame sizes (64,128,256,512,1024,1280,1518)\n"
		"  --tests LIST        of throughput,latency,loss,b2b,recovery (all)\n"
		"  --loss-goal PCT     a throughput search per goal, repeat: 0 (NDR), 0.5 (PDR) ... (0)\n"
		"  --trial S           throughput and frame-loss trial length (60; quick 1)\n"
		"  --latency-trial S   latency trial length (120; quick 1)\n"
		"  --resolution PCT    search resolution, %% of the maximum rate (0.5; quick 2)\n"
		"  --max-trials N      trials per search (20; quick 8)\n"
		"  --b2b-repeats N     back-to-back runs averaged (50; quick 3)\n"
		"  --recovery S        overload time, then as long at half the throughput (60; quick 1)\n"
		"  --line-rate GBPS    port speed for %% of line rate (the sending port's reported speed)\n"
		"  --src-ip ADDRESS    (198.18.0.2); --dst-ip ADDRESS first destination (198.19.0.1);\n"
		"                      with --ipv6 2001:2::2 and 2001:2:0:1::1 (flows: + i in the last 32 bits)\n"
		"  --flows N           destinations, for RSS and ECMP (1024)\n"
		"  --vlan ID           802.1Q-tag the frames with VLAN ID, 1..4094 (sizes are of untagged frames)\n"
		"  --learn S           learning frames before each frame size (1; quick 0.2)\n"
		"  --queues N          rx queues polled on the receiving port (1)\n"
		"  --out DIR           where the report goes (rfc2544-YYYYmmdd-HHMMSS)\n"
		"  --tern-socket PATH  the DUT is tern: its version, configuration and counters go in the report\n",
		GEN_IPV6_MIN_FRAME);
}

static int parse_list(const char *s, double *out, unsigned int max)
{
	unsigned int n = 0;
	char *end;

	while (*s) {
		if (n == max)
			return -E2BIG;
		out[n++] = strtod(s, &end);
		if (end == s || (*end && *end != ','))
			return -EINVAL;
		s = *end ? end + 1 : end;
	}
	return n;
}

static int parse_tests(const char *s, struct rfc_config *c)
{
	static const struct {
		const char *name;
		enum rfc_test t;
	} names[] = { { "throughput", RFC_TEST_THROUGHPUT }, { "latency", RFC_TEST_LATENCY },
		      { "loss", RFC_TEST_LOSS }, { "b2b", RFC_TEST_B2B },
		      { "recovery", RFC_TEST_RECOVERY } };
	char buf[128], *tok, *save = NULL;
	unsigned int i;

	for (i = RFC_TEST_THROUGHPUT; i <= RFC_TEST_RECOVERY; i++)
		c->tests[i] = false;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(tok, names[i].name) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return -EINVAL;
		c->tests[names[i].t] = true;
	}
	/* latency and recovery run at the throughput rate, so they need it found first */
	if (c->tests[RFC_TEST_LATENCY] || c->tests[RFC_TEST_RECOVERY])
		c->tests[RFC_TEST_THROUGHPUT] = true;
	return 0;
}

static int trial_fn(void *ctx, const struct rfc_trial *t, struct rfc_outcome *o)
{
	struct runner *rn = ctx;
	struct gen_trial gt = { .rate_pps = t->rate_pps, .duration_s = t->duration_s,
				.frames = t->frames, .rate2_pps = t->rate2_pps,
				.duration2_s = t->duration2_s, .settle_s = rn->settle_s };
	struct gen_trial_result gr = { .latency_ns = o->latency };
	int rc;

	unsigned int d;

	for (d = 0; d < rn->nb_dirs; d++)
		rn->gen[d].frame_size = t->frame_size;
	if (rn->learned_size != t->frame_size) {	/* §23: learning frames before each size */
		for (d = 0; d < rn->nb_dirs; d++)
			if ((rc = gen_learn(&rn->gen[d], rn->mp, rn->learn_s)) < 0)
				return rc;
		rn->learned_size = t->frame_size;
	}
	if ((rc = gen_trial(rn->gen, rn->nb_dirs, rn->mp, &gt, &gr)) < 0)
		return rc;
	o->tx = gr.tx;
	o->rx = gr.rx;
	o->tx_pps = gr.tx_pps;
	o->elapsed_s = gr.elapsed_s;
	o->recovery_s = gr.recovery_s;
	return 0;
}

static bool tty;

static void progress(double done, const char *what)
{
	int i, w = 30, fill = (int)(done * w + 0.5);

	if (!tty) {
		fprintf(stderr, "rfc2544: %3.0f %% %s\n", done * 100, what);
		return;
	}
	fputs("\r[", stderr);
	for (i = 0; i < w; i++)
		fputc(i < fill ? '#' : '.', stderr);
	fprintf(stderr, "] %3.0f %% %-44s", done * 100, what);
	if (done >= 1)
		fputc('\n', stderr);
	fflush(stderr);
}

/* The DUT's own account, when it is tern: the shell beside this program, else the one on PATH. */
static char *tern_capture(const char *sock, const char *when, const char *const *cmds)
{
	char self[PATH_MAX], tern[PATH_MAX + 8], cmd[8192], buf[4096];
	size_t len = 0, cap = 0, off;
	char *out = NULL, *n;
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *p;

	snprintf(tern, sizeof(tern), "tern");
	if (k > 0) {
		self[k] = '\0';
		snprintf(tern, sizeof(tern), "%s/tern", dirname(self));
		if (access(tern, X_OK) != 0)
			snprintf(tern, sizeof(tern), "tern");
	}
	off = snprintf(cmd, sizeof(cmd), "'%s' -s '%s' --json", tern, sock);
	for (; *cmds && off < sizeof(cmd); cmds++)
		off += snprintf(cmd + off, sizeof(cmd) - off, " -c '%s'", *cmds);
	if (off >= sizeof(cmd) - 8)
		return NULL;
	snprintf(cmd + off, sizeof(cmd) - off, " 2>&1");
	p = popen(cmd, "r");
	if (p == NULL)
		return NULL;
	while ((k = fread(buf, 1, sizeof(buf), p)) > 0) {
		if (len + k + 64 > cap) {
			cap = (len + k + 64) * 2;
			if ((n = realloc(out, cap)) == NULL)
				break;
			out = n;
		}
		if (len == 0)
			len = snprintf(out, cap, "# %s\n", when);
		memcpy(out + len, buf, k);
		len += k;
		out[len] = '\0';
	}
	pclose(p);
	return out;
}

static char *join(char *a, char *b)
{
	char *r;

	if (!a || !b)
		return a ? a : b;
	if (asprintf(&r, "%s\n%s", a, b) < 0)
		r = NULL;
	free(a);
	free(b);
	return r;
}

static int parse(int argc, char **argv, struct rfc_config *c, struct runner *rn,
		 const char **ports, unsigned int *nb_ports, char *eal, size_t eal_len,
		 const char **out, const char **sock, uint16_t *nb_rxq)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' }, { "dst-mac", required_argument, NULL, 'm' },
		{ "eal", required_argument, NULL, 'e' }, { "quick", no_argument, NULL, 'q' },
		{ "sizes", required_argument, NULL, 'z' }, { "tests", required_argument, NULL, 'T' },
		{ "loss-goal", required_argument, NULL, 'g' }, { "trial", required_argument, NULL, 't' },
		{ "latency-trial", required_argument, NULL, 'l' },
		{ "resolution", required_argument, NULL, 'r' },
		{ "max-trials", required_argument, NULL, 'n' },
		{ "b2b-repeats", required_argument, NULL, 'b' },
		{ "recovery", required_argument, NULL, 'R' }, { "line-rate", required_argument, NULL, 'L' },
		{ "src-ip", required_argument, NULL, 's' }, { "dst-ip", required_argument, NULL, 'd' },
		{ "flows", required_argument, NULL, 'f' }, { "learn", required_argument, NULL, 'w' },
		{ "queues", required_argument, NULL, 'Q' }, { "out", required_argument, NULL, 'o' },
		{ "tern-socket", required_argument, NULL, 'S' }, { "help", no_argument, NULL, 'h' },
		{ "bidirectional", no_argument, NULL, 'B' }, { "dst-mac2", required_argument, NULL, 'M' },
		{ "src-ip2", required_argument, NULL, 'x' }, { "dst-ip2", required_argument, NULL, 'y' },
		{ "vlan", required_argument, NULL, 'V' }, { "ipv6", no_argument, NULL, '6' }, { 0 },
	};
	double v[RFC_MAX_SIZES], goals[RFC_MAX_GOALS];
	bool quick = false, ipv6 = false, have_mac = false, have_mac2 = false;
	int c0, n, i, nb_goals = 0;
	const char *sizes = NULL, *tests = NULL;
	double trial = 0, lat = 0, res = 0, rec = 0, line = -1;
	unsigned int max_trials = 0, b2b = 0;

	/* the profile and the family first: explicit options then override them */
	for (i = 1; i < argc; i++) {
		quick |= strcmp(argv[i], "--quick") == 0;
		ipv6 |= strcmp(argv[i], "--ipv6") == 0;
	}
	rfc_config_defaults(c, quick);
	c->ipv6 = ipv6;
	optind = 1;
	while ((c0 = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c0) {
		case 'p':
			if (*nb_ports == MAX_PORTS)
				return fprintf(stderr, "tern-bench rfc2544: two ports: one sends, one receives\n"), -EINVAL;
			ports[(*nb_ports)++] = optarg;
			break;
		case 'm':
		case 'M':
			if (rte_ether_unformat_addr(optarg, &rn->gen[c0 == 'M'].dst_mac) < 0)
				return fprintf(stderr, "tern-bench rfc2544: --dst-mac%s '%s': expected aa:bb:cc:dd:ee:ff\n",
					       c0 == 'M' ? "2" : "", optarg), -EINVAL;
			*(c0 == 'M' ? &have_mac2 : &have_mac) = true;
			break;
		case 'B': c->bidirectional = true; break;
		case 'e': snprintf(eal, eal_len, "%s", optarg); break;
		case 'q': case '6': break;
		case 'z': sizes = optarg; break;
		case 'T': tests = optarg; break;
		case 'g':
			if (nb_goals == RFC_MAX_GOALS)
				return fprintf(stderr, "tern-bench rfc2544: at most %d loss goals\n", RFC_MAX_GOALS), -EINVAL;
			if (arg_number(optarg, 0, 100, &goals[nb_goals]) < 0 || goals[nb_goals] == 100)
				return fprintf(stderr, "tern-bench rfc2544: --loss-goal '%s': expected a percentage from 0 to below 100\n", optarg), -EINVAL;
			nb_goals++;
			break;
		case 't': case 'l': case 'r': case 'R': case 'L': case 'w': {
			double x;

			if (arg_number(optarg, 0, 86400, &x) < 0 || (x == 0 && c0 != 'L' && c0 != 'w'))
				return fprintf(stderr, "tern-bench rfc2544: '%s' is not a valid value for --%s\n",
					       optarg, c0 == 't' ? "trial" : c0 == 'l' ? "latency-trial" :
					       c0 == 'r' ? "resolution" : c0 == 'R' ? "recovery" :
					       c0 == 'L' ? "line-rate" : "learn"), -EINVAL;
			*(c0 == 't' ? &trial : c0 == 'l' ? &lat : c0 == 'r' ? &res : c0 == 'R' ? &rec :
			  c0 == 'L' ? &line : &rn->learn_s) = x;
			break;
		}
		case 'n': case 'b': case 'f': case 'Q': case 'V': {
			unsigned long x;

			if (arg_count(optarg, 1, c0 == 'f' ? GEN_MAX_FLOWS : c0 == 'Q' ? GEN_MAX_RXQ :
				      c0 == 'V' ? 4094 : 100000, &x) < 0)
				return fprintf(stderr, "tern-bench rfc2544: '%s' is not a valid count for --%s\n",
					       optarg, c0 == 'n' ? "max-trials" : c0 == 'b' ? "b2b-repeats" :
					       c0 == 'f' ? "flows" : c0 == 'V' ? "vlan" : "queues"), -EINVAL;
			if (c0 == 'n') max_trials = x;
			else if (c0 == 'b') b2b = x;
			else if (c0 == 'f') rn->gen[0].flows = x;
			else if (c0 == 'V') rn->gen[0].vlan = x;
			else *nb_rxq = x;
			break;
		}
		case 's': case 'd': case 'x': case 'y': {
			struct gen_params *g = &rn->gen[c0 == 'x' || c0 == 'y'];
			bool src = c0 == 's' || c0 == 'x';

			if (c->ipv6 ? arg_ipv6(optarg, src ? g->src_ip6 : g->dst_ip6) < 0 :
				      arg_ipv4(optarg, src ? &g->src_ip : &g->dst_ip) < 0)
				return fprintf(stderr, "tern-bench rfc2544: '%s' is not an %s address%s\n", optarg,
					       c->ipv6 ? "IPv6" : "IPv4", c->ipv6 ? " (--ipv6 is given)" : ""), -EINVAL;
			break;
		}
		case 'o': *out = optarg; break;
		case 'S': *sock = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -EINVAL;
		}
	}
	if (*nb_ports != 2 || !have_mac) {
		fprintf(stderr, "tern-bench rfc2544: two --port and --dst-mac are required\n");
		usage(stderr);
		return -EINVAL;
	}
	if (c->bidirectional != have_mac2)
		return fprintf(stderr, "tern-bench rfc2544: --bidirectional and --dst-mac2 go together\n"), -EINVAL;
	if (sizes) {
		n = parse_list(sizes, v, RFC_MAX_SIZES);
		if (n <= 0)
			return fprintf(stderr, "tern-bench rfc2544: --sizes '%s': expected up to %d sizes separated by commas\n", sizes, RFC_MAX_SIZES), -EINVAL;
		for (i = 0; i < n; i++) {
			if (v[i] < 64 || v[i] > 1518 || v[i] != (uint16_t)v[i])
				return fprintf(stderr, "tern-bench rfc2544: frame size %g: expected 64 to 1518 bytes\n", v[i]), -EINVAL;
			if (c->ipv6 && v[i] < GEN_IPV6_MIN_FRAME)
				return fprintf(stderr, "tern-bench rfc2544: frame size %g: an IPv6 frame carrying the generator's stamp takes %d bytes or more\n",
					       v[i], GEN_IPV6_MIN_FRAME), -EINVAL;
			c->sizes[i] = v[i];
		}
		c->nb_sizes = n;
	} else if (c->ipv6) {	/* RFC 5180 5.1.1: the smallest size that carries the test's payload */
		for (i = 0; i < (int)c->nb_sizes; i++)
			c->sizes[i] = RTE_MAX(c->sizes[i], (uint16_t)GEN_IPV6_MIN_FRAME);
	}
	if (tests && parse_tests(tests, c) < 0)
		return fprintf(stderr, "tern-bench rfc2544: --tests '%s': expected names from throughput,latency,loss,b2b,recovery\n", tests), -EINVAL;
	if (nb_goals) {
		memcpy(c->loss_goals_pct, goals, sizeof(goals));
		c->nb_goals = nb_goals;
	}
	c->trial_s = trial ? trial : c->trial_s;
	c->latency_s = lat ? lat : c->latency_s;
	c->resolution = res ? res / 100 : c->resolution;
	c->recovery_s = rec ? rec : c->recovery_s;
	c->max_trials = max_trials ? max_trials : c->max_trials;
	c->b2b_repeats = b2b ? b2b : c->b2b_repeats;
	if (line >= 0)
		c->line_gbps = line;
	else
		c->line_gbps = -1;	/* from the port, once started */
	return 0;
}

int rfc2544_cmd(int argc, char **argv)
{
	struct runner rn = { .learn_s = -1 };
	struct rfc_config c;
	struct rfc_report r = { 0 };
	const char *ports[MAX_PORTS], *out = NULL, *sock = NULL;
	static const char *const before[] = { "show version", "show running-config", NULL };
	static const char *const after[] = { "show interfaces", "show errors", "show workers", NULL };
	char eal[1024] = "", dir[64], err[256], src[INET6_ADDRSTRLEN];
	unsigned int nb_ports = 0;
	uint16_t nb_rxq = 1;
	struct rte_eth_link link;
	time_t now = time(NULL);
	int rc;

	rn.gen[0].flows = 1024;
	rn.gen[0].src_ip = 0xc6120002;		/* 198.18.0.2 */
	rn.gen[0].dst_ip = 0xc6130001;		/* 198.19.0.1 */
	rn.gen[1].src_ip = 0xc6120102;		/* 198.18.1.2 */
	rn.gen[1].dst_ip = 0xc6138001;		/* 198.19.128.1 */
	arg_ipv6("2001:2::2", rn.gen[0].src_ip6);
	arg_ipv6("2001:2:0:1::1", rn.gen[0].dst_ip6);
	arg_ipv6("2001:2:0:ff::2", rn.gen[1].src_ip6);
	arg_ipv6("2001:2:0:2::1", rn.gen[1].dst_ip6);
	if (parse(argc, argv, &c, &rn, ports, &nb_ports, eal, sizeof(eal), &out, &sock, &nb_rxq) < 0)
		return 2;
	rn.nb_dirs = c.bidirectional ? 2 : 1;
	rn.gen[0].tx_port = 0;
	rn.gen[0].rx_port = 1;
	rn.gen[0].nb_rxq = nb_rxq;
	rn.gen[1].tx_port = 1;
	rn.gen[1].rx_port = 0;
	rn.gen[1].nb_rxq = nb_rxq;
	rn.gen[1].flows = rn.gen[0].flows;
	rn.gen[1].vlan = rn.gen[0].vlan;
	rn.gen[0].ipv6 = rn.gen[1].ipv6 = c.ipv6;
	if (rn.learn_s < 0)
		rn.learn_s = c.quick ? 0.2 : 1;
	rn.settle_s = c.quick ? 0.1 : 2;	/* RFC 2544 §23: wait 2 s for late frames */
	if (out == NULL) {
		strftime(dir, sizeof(dir), "rfc2544-%Y%m%d-%H%M%S", localtime(&now));
		out = dir;
	}
	if (bench_eal_start(eal, ports, nb_ports) < 0)
		return 1;
	rc = bench_ports_start(ports, nb_ports, nb_rxq, 0, 1, 10, &rn.mp);
	if (rc < 0)
		goto done;
	if (c.line_gbps < 0) {
		c.line_gbps = rte_eth_link_get_nowait(0, &link) == 0 && link.link_speed > 0 &&
					      link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN
				      ? link.link_speed / 1000.0
				      : 0;
	}
	if (c.ipv6)
		inet_ntop(AF_INET6, rn.gen[0].src_ip6, src, sizeof(src));
	else
		snprintf(src, sizeof(src), IP4_FMT, IP4_ARGS(rn.gen[0].src_ip));
	snprintf(r.generator, sizeof(r.generator), "tern-bench %s, %s; ports %s and %s; %u %s flows "
		 "from %s; line rate %s%g Gbit/s", TERN_VERSION, rte_version(), ports[0], ports[1],
		 rn.gen[0].flows, c.ipv6 ? "IPv6/UDP" : "IPv4/UDP", src,
		 c.line_gbps > 0 ? "(the port's reported speed unless --line-rate) " : "unknown ",
		 c.line_gbps);
	if (sock)
		r.dut_info = tern_capture(sock, "before the run", before);
	tty = isatty(STDERR_FILENO);
	rc = rfc_run(&c, trial_fn, &rn, progress, &r);
	if (sock)
		r.dut_info = join(r.dut_info, tern_capture(sock, "after the run", after));
	if (rc < 0) {
		fprintf(stderr, "tern-bench rfc2544: a trial failed: %s\n", strerror(-rc));
		goto done;
	}
	rfc_print_summary(&r, stdout);
	rc = rfc_write_all(&r, out, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "tern-bench rfc2544: %s\n", err);
	else
		printf("report: %s/report.md (results.json, results.csv, throughput.svg, latency.svg, loss.svg)\n",
		       out);
done:
	rfc_report_free(&r);
	bench_ports_stop();
	eal_exit_cleanup();
	return rc < 0 ? 1 : 0;
}
