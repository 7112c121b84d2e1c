/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench pipeline: FIB insert rate and cycles per packet of ternd's forwarding nodes, no I/O. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "bench/args.h"
#include "dataplane/acl/acl.h"
#include "dataplane/fib/rpf.h"
#include "bench/cmd_pipeline.h"
#include "bench/gen.h"
#include "dataplane/harness/pipeline.h"
#include "bench/routes.h"
#include "bench/routes6.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/l2/vlan.h"
#include "dataplane/node.h"
#include "dataplane/trace.h"

/*
 * An ingress access list of n entries on port 0, where the stream arrives: n - 1 that deny
 * TCP or UDP from sources in 203.0.0.0/8 (none of the stream's) to random prefixes and port
 * ranges, then one that permits everything, so that every packet is classified against the
 * whole list and forwarded. Returns the list, or NULL with why on stderr.
 */
static struct dp_acl *ingress_list(unsigned int n, bool ipv6, uint64_t *state)
{
	uint8_t family = ipv6 ? DP_ACL_IPV6 : DP_ACL_IPV4;
	struct dp_acl_entry *e = calloc(n, sizeof(*e));
	struct dp_acl *a = NULL;
	char err[200];
	unsigned int i, k;

	if (e == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		e[i].seq = i + 1;
		e[i].sport_hi = e[i].dport_hi = UINT16_MAX;
		if (i == n - 1) {
			e[i].permit = e[i].any_proto = true;
			break;
		}
		e[i].proto = (uint32_t)routes_rand(state) & 1 ? 6 : 17;
		for (k = 0; k < 16; k++) {
			e[i].src[k] = (uint32_t)routes_rand(state);
			e[i].dst[k] = (uint32_t)routes_rand(state);
		}
		e[i].src[0] = ipv6 ? 0x20 : 203;
		e[i].src[1] = ipv6 ? 0x03 : e[i].src[1];	/* 2003::/16 */
		e[i].src_len = ipv6 ? 48 + (uint32_t)routes_rand(state) % 81 : 8 + (uint32_t)routes_rand(state) % 25;
		e[i].dst_len = ipv6 ? 32 + (uint32_t)routes_rand(state) % 97 : 8 + (uint32_t)routes_rand(state) % 25;
		e[i].l4 = true;
		e[i].dport_lo = (uint32_t)routes_rand(state) % 60000;
		e[i].dport_hi = e[i].dport_lo + (uint32_t)routes_rand(state) % 5000;
	}
	if (dp_acl_build(family, "bench", e, n, &a, err, sizeof(err)) < 0)
		fprintf(stderr, "tern-bench pipeline: %s\n", err);
	else
		dp_acl_bind(0, family, DP_ACL_IN, a);
	free(e);
	return a;
}

/*
 * 802.1Q sub-interfaces dp0.vid, where the stream arrives tagged, and dp1.vid, which the routes
 * leave by (tagged): the path of ternd's tern-vlan in make bench.
 */
static int subifs(unsigned int vid, struct gen_params *gp)
{
	const struct dp_vlan_encap e = { RTE_ETHER_TYPE_VLAN, vid, 0 };
	char name[sizeof(dp.ports[0].name)], err[192];
	int in, out = -1;

	snprintf(name, sizeof(name), "dp0.%u", vid);
	in = dp_vlan_add(name, 0, &e, err, sizeof(err));
	if (in >= 0) {
		snprintf(name, sizeof(name), "dp1.%u", vid);
		out = dp_vlan_add(name, 1, &e, err, sizeof(err));
	}
	if (in < 0 || out < 0) {
		fprintf(stderr, "tern-bench pipeline: %s\n", err);
		return -EINVAL;
	}
	dp_port_map.up[in] = dp_port_map.up[out] = 1;	/* as their kernel interfaces would be */
	gp->vlan = vid;
	return pipeline_upstreams_via(out);
}

int pipeline_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "routes", required_argument, NULL, 'r' }, { "flows", required_argument, NULL, 'f' },
		{ "seconds", required_argument, NULL, 's' }, { "json", no_argument, NULL, 'j' },
		{ "workers", required_argument, NULL, 'w' }, { "cpus", required_argument, NULL, 'c' },
		{ "trace-armed", no_argument, NULL, 'T' }, { "hugepages", no_argument, NULL, 'H' },
		{ "ipv6", no_argument, NULL, '6' }, { "acl", required_argument, NULL, 'a' },
		{ "rpf", required_argument, NULL, 'R' }, { "vlan", required_argument, NULL, 'V' }, { 0 },
	};
	unsigned int routes = 1000, flows = 65536, workers = 1, acl = 0, vlan = 0, i;
	struct dp_acl *list = NULL;
	enum dp_rpf_mode rpf = DP_RPF_OFF;
	unsigned long n;
	bool huge = false, ipv6 = false;
	uint8_t (*prefixes6)[16] = NULL, (*dsts6)[16] = NULL;
	double seconds = 3, insert_s, run_s, mpps, withdraw_s, publish_s, level_s;
	uint64_t state = 42, cycles, packets, forwarded, injected[PIPE_MAX_WORKERS], total = 0;
	uint64_t by_stage[PIPE_STAGES];
	struct gen_params gp = { .flows = 1, .frame_size = 64, .src_ip = 0xc6120002 };
	struct rte_ether_addr src = { { 2, 0, 0, 0, 0xb0, 0 } };
	uint8_t frame[RTE_ETHER_MAX_LEN], *lens = NULL;
	uint32_t *prefixes = NULL, *dsts = NULL, *nhs = NULL;
	unsigned int nb_check, differ = 0;
	struct pipeline p;
	const char *cpus = NULL;
	bool trace = false;
	bool json = false;
	char prefix[64];
	int c, rc, ret = 1;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (arg_count(optarg, 1, ROUTES_MAX, &n) < 0)
				return fprintf(stderr, "tern-bench pipeline: --routes '%s': expected 1 to %u\n", optarg,
					       ROUTES_MAX), 2;
			routes = n;
			break;
		case 'f':
			if (arg_count(optarg, 1, 1u << 24, &n) < 0)
				return fprintf(stderr, "tern-bench pipeline: --flows '%s': expected 1 to 16777216\n", optarg), 2;
			flows = n;
			break;
		case 's':
			if (arg_number(optarg, 0.001, 86400, &seconds) < 0)
				return fprintf(stderr, "tern-bench pipeline: --seconds '%s': expected above 0, up to 86400\n", optarg), 2;
			break;
		case 'j': json = true; break;
		case 'w':
			if (arg_count(optarg, 1, PIPE_MAX_WORKERS, &n) < 0)
				return fprintf(stderr, "tern-bench pipeline: --workers '%s': expected 1 to %d\n", optarg, PIPE_MAX_WORKERS), 2;
			workers = n;
			break;
		case 'c': cpus = optarg; break;
		case 'T': trace = true; break;
		case 'H': huge = true; break;
		case '6': ipv6 = true; break;
		case 'a':
			if (arg_count(optarg, 1, DP_ACL_ENTRIES_MAX, &n) < 0)
				return fprintf(stderr, "tern-bench pipeline: --acl '%s': expected 1 to %u entries\n",
					       optarg, DP_ACL_ENTRIES_MAX), 2;
			acl = n;
			break;
		case 'R':
			if (strcmp(optarg, "rx") != 0 && strcmp(optarg, "any") != 0)
				return fprintf(stderr, "tern-bench pipeline: --rpf '%s': expected rx (strict) or any (loose)\n",
					       optarg), 2;
			rpf = strcmp(optarg, "rx") == 0 ? DP_RPF_STRICT : DP_RPF_LOOSE;
			break;
		case 'V':
			if (arg_count(optarg, DP_VLAN_VID_MIN, DP_VLAN_VID_MAX, &n) < 0)
				return fprintf(stderr, "tern-bench pipeline: --vlan '%s': expected a VLAN id, 1 to 4094\n",
					       optarg), 2;
			vlan = n;
			break;
		default:
			fprintf(stderr, "usage: tern-bench pipeline [--routes N] [--flows N] [--seconds S] "
				"[--workers N [--cpus LIST]] [--trace-armed] [--hugepages] [--ipv6] [--acl N] [--rpf rx|any] [--vlan VID] [--json]\n");
			return 2;
		}
	}
	if (workers > 1 && !cpus && sysconf(_SC_NPROCESSORS_ONLN) < workers) {
		fprintf(stderr, "tern-bench pipeline: %u workers need %u CPUs; this machine has %ld\n",
			workers, workers, sysconf(_SC_NPROCESSORS_ONLN));
		return 2;
	}
	snprintf(prefix, sizeof(prefix), "tern-pipeline-%d", getpid());
	pipeline_use_hugepages(huge);
	if (ipv6)	/* the IPv6 FIB holds the table; the IPv4 one only the harness's routes */
		pipeline_set_routes6(routes + routes / 8 + 1024);
	if ((rc = pipeline_init(&p, ipv6 ? 4096 : routes + routes / 8 + 1024, prefix, workers, cpus)) < 0) {
		if (rc == -EINVAL && cpus)
			fprintf(stderr, "tern-bench pipeline: --cpus must list %u CPU numbers, separated by commas\n",
				workers);
		else if (huge)
			fprintf(stderr, "tern-bench pipeline: cannot set up the pipeline on hugepages (%s): it needs 1.5 GiB of them free, e.g. echo 768 > /proc/sys/vm/nr_hugepages\n",
				strerror(-rc));
		else
			fprintf(stderr, "tern-bench pipeline: cannot set up the pipeline: %s\n", strerror(-rc));
		return 1;
	}
	lens = calloc(routes, 1);
	nhs = calloc(flows, sizeof(*nhs));
	if (ipv6) {
		prefixes6 = calloc(routes, 16);
		dsts6 = calloc(flows, 16);
	} else {
		prefixes = calloc(routes, sizeof(*prefixes));
		dsts = calloc(flows, sizeof(*dsts));
	}
	if (!lens || !nhs || (ipv6 ? !prefixes6 || !dsts6 : !prefixes || !dsts)) {
		fprintf(stderr, "tern-bench pipeline: out of memory for %u routes and %u flows\n", routes, flows);
		goto out;
	}
	gp.dst_mac = dp_port0_mac();
	if (vlan && subifs(vlan, &gp) < 0)
		goto out;
	if (ipv6) {
		routes6_bgp_like(prefixes6, lens, routes, 7);
		insert_s = pipeline_add_routes6((const uint8_t (*)[16])prefixes6, lens, routes);
		for (i = 0; i < flows; i++)
			routes6_pick_address((const uint8_t (*)[16])prefixes6, lens, routes, &state, dsts6[i]);
		gp.ipv6 = true;
		gp.frame_size = GEN_IPV6_MIN_FRAME;
		inet_pton(AF_INET6, "2001:2::2", gp.src_ip6);
		pipeline_stream6(frame, gen_build_frame(&gp, &src, 0, 0, 0, frame),
				 (const uint8_t (*)[16])dsts6, flows);
	} else {
		routes_bgp_like(prefixes, lens, routes, 7);
		insert_s = pipeline_add_routes(prefixes, lens, routes);
		for (i = 0; i < flows; i++)
			dsts[i] = routes_pick_address(prefixes, lens, routes, &state);
		pipeline_stream(frame, gen_build_frame(&gp, &src, 0, 0, 0, frame), dsts, flows);
	}
	if (acl && (list = ingress_list(acl, ipv6, &state)) == NULL)
		goto out;
	/* unicast RPF on the receiving port: the frames' source, 198.18.0.2 or 2001:2::2, has its
	 * route back out of it */
	dp_rpf_set(0, ipv6 ? DP_RPF_IPV6 : DP_RPF_IPV4, rpf);
	/* a trace armed on dp1, where nothing arrives: every node runs its trace hook, none picks */
	if (trace && dp_trace_arm(1, 1) < 0) {
		fprintf(stderr, "tern-bench pipeline: cannot arm the trace\n");
		goto out;
	}
	run_s = pipeline_run(&p, seconds, injected);
	for (i = 0; i < workers; i++)
		total += injected[i];
	mpps = total / run_s / 1e6;
	pipeline_node_cycles(&p, &cycles, &packets, by_stage);
	forwarded = dp_node_objs("port_tx-1");
	/* the table withdrawn, then loaded as ternd loads its kernel's at start; the same answers */
	nb_check = flows < 65536 ? flows : 65536;
	for (i = 0; i < nb_check; i++)
		nhs[i] = ipv6 ? dp_fib6_lookup(dsts6[i]) : dp_fib_lookup(dsts[i]);
	if (ipv6) {
		withdraw_s = pipeline_del_routes6((const uint8_t (*)[16])prefixes6, lens, routes);
		publish_s = pipeline_load_routes6((const uint8_t (*)[16])prefixes6, lens, routes, &level_s);
	} else {
		withdraw_s = pipeline_del_routes(prefixes, lens, routes);
		publish_s = pipeline_load_routes(prefixes, lens, routes, &level_s);
	}
	for (i = 0; i < nb_check; i++)
		differ += (ipv6 ? dp_fib6_lookup(dsts6[i]) : dp_fib_lookup(dsts[i])) != nhs[i];
	if (differ) {
		fprintf(stderr, "tern-bench pipeline: after the staged load, %u of %u destinations have another next hop\n",
			differ, nb_check);
		goto out;
	}
	if (json) {
		printf("{\"family\": \"%s\", \"acl_entries\": %u, \"rpf\": \"%s\", \"vlan\": %u, \"frame_size\": %u, \"routes\": %u, \"flows\": %u, \"workers\": %u, \"insert_s\": %.3f, "
		       "\"insert_per_s\": %.0f, \"withdraw_s\": %.3f, \"load_publish_s\": %.3f, "
		       "\"load_level_s\": %.3f, \"pipeline_cycles_per_packet\": %.1f, "
		       "\"walk_mpps\": %.3f, \"packets\": %lu, \"forwarded\": %lu, \"worker_mpps\": [",
		       ipv6 ? "ipv6" : "ipv4", acl, dp_rpf_mode_name(rpf), vlan, gp.frame_size, routes, flows, workers, insert_s, routes / insert_s, withdraw_s, publish_s, level_s,
		       (double)cycles / packets, mpps, packets, forwarded);
		for (i = 0; i < workers; i++)
			printf("%s%.3f", i ? ", " : "", injected[i] / run_s / 1e6);
		/* each node that ran, in cycles a packet of the stream */
		printf("], \"node_cycles_per_packet\": {");
		for (i = 0, n = 0; i < PIPE_STAGES; i++)
			if (by_stage[i])
				printf("%s\"%s\": %.1f", n++ ? ", " : "", pipeline_stages[i],
				       (double)by_stage[i] / packets);
		printf("}}\n");
	} else {
		printf("tern-bench pipeline: %u BGP-shaped %s routes in the FIB in %.3f s (%.0f routes/s, two copies)\n"
		       "  %lu %u-byte packets to %u destinations: %.1f cycles/packet in the forwarding nodes; "
		       "%.3f Mpps through the whole graph on %u worker%s",
		       routes, ipv6 ? "IPv6" : "IPv4", insert_s, routes / insert_s, packets, gp.frame_size, flows,
		       (double)cycles / packets,
		       mpps, workers, workers > 1 ? "s (" : "");
		for (i = 0; workers > 1 && i < workers; i++)
			printf("%s%.2f", i ? " + " : "", injected[i] / run_s / 1e6);
		printf("%s\n  %.2f %% of them forwarded out of dp1\n", workers > 1 ? ")" : "",
		       100.0 * forwarded / (total ? total : 1));
		printf("  withdrawn in %.3f s; loaded again as ternd loads its kernel's table at start: "
		       "forwarding on all of it after %.3f s (staged, one switch), both copies level after %.3f s\n",
		       withdraw_s, publish_s, level_s);
	}
	ret = 0;
out:
	dp_rpf_set(0, ipv6 ? DP_RPF_IPV6 : DP_RPF_IPV4, DP_RPF_OFF);
	if (list != NULL) {
		dp_acl_bind(0, ipv6 ? DP_ACL_IPV6 : DP_ACL_IPV4, DP_ACL_IN, NULL);
		dp_acl_free(list);	/* the workers have stopped */
	}
	free(prefixes);
	free(prefixes6);
	free(lens);
	free(dsts);
	free(dsts6);
	free(nhs);
	pipeline_fini(prefix);
	return ret;
}
