/* tern-bench pipeline: FIB insert rate and cycles per packet of ternd's forwarding nodes, no I/O. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "bench/cmd_pipeline.h"
#include "bench/gen.h"
#include "bench/pipeline.h"
#include "bench/routes.h"

int pipeline_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "routes", required_argument, NULL, 'r' }, { "flows", required_argument, NULL, 'f' },
		{ "seconds", required_argument, NULL, 's' }, { "json", no_argument, NULL, 'j' },
		{ 0 },
	};
	unsigned int routes = 1000, flows = 65536, i;
	double seconds = 3, insert_s;
	uint64_t state = 42, t0, t1, cycles, packets, injected = 0;
	struct gen_params gp = { .flows = 1, .frame_size = 64, .src_ip = 0xc6120002 };
	struct rte_ether_addr src = { { 2, 0, 0, 0, 0xb0, 0 } };
	uint8_t frame[RTE_ETHER_MAX_LEN], *lens;
	uint32_t *prefixes, *dsts;
	struct pipeline p;
	bool json = false;
	char prefix[64];
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r': routes = strtoul(optarg, NULL, 10); break;
		case 'f': flows = strtoul(optarg, NULL, 10); break;
		case 's': seconds = strtod(optarg, NULL); break;
		case 'j': json = true; break;
		default:
			fprintf(stderr, "usage: tern-bench pipeline [--routes N] [--flows N] [--seconds S] [--json]\n");
			return 2;
		}
	}
	if (routes < 1 || routes > (1u << 24) || flows < 1 || seconds <= 0) {
		fprintf(stderr, "tern-bench pipeline: routes 1..16M, flows >= 1, seconds > 0\n");
		return 2;
	}
	snprintf(prefix, sizeof(prefix), "tern-pipeline-%d", getpid());
	if (pipeline_init(&p, routes + routes / 8 + 1024, prefix) < 0) {
		fprintf(stderr, "tern-bench pipeline: cannot set up the pipeline\n");
		return 1;
	}
	prefixes = calloc(routes, sizeof(*prefixes));
	lens = calloc(routes, 1);
	dsts = calloc(flows, sizeof(*dsts));
	if (!prefixes || !lens || !dsts)
		return 1;
	routes_bgp_like(prefixes, lens, routes, 7);
	insert_s = pipeline_add_routes(prefixes, lens, routes);
	for (i = 0; i < flows; i++)
		dsts[i] = routes_pick_address(prefixes, lens, routes, &state);
	gp.dst_mac = dp_port0_mac();
	pipeline_stream(frame, gen_build_frame(&gp, &src, 0, 0, 0, frame), dsts, flows);
	t0 = rte_rdtsc();
	t1 = t0 + (uint64_t)(seconds * rte_get_tsc_hz());
	while (rte_rdtsc() < t1)
		injected += pipeline_walk(&p);
	t1 = rte_rdtsc();
	pipeline_node_cycles(&p, &cycles, &packets);
	if (json)
		printf("{\"routes\": %u, \"flows\": %u, \"insert_s\": %.3f, \"insert_per_s\": %.0f, "
		       "\"pipeline_cycles_per_packet\": %.1f, \"walk_mpps\": %.3f, \"packets\": %lu}\n",
		       routes, flows, insert_s, routes / insert_s, (double)cycles / packets,
		       injected / ((double)(t1 - t0) / rte_get_tsc_hz()) / 1e6, packets);
	else
		printf("tern-bench pipeline: %u BGP-shaped routes in the FIB in %.3f s (%.0f routes/s, two copies)\n"
		       "  %lu packets to %u destinations: %.1f cycles/packet in eth_input..ip4_rewrite; "
		       "%.3f Mpps through the whole graph on one core\n",
		       routes, insert_s, routes / insert_s, packets, flows, (double)cycles / packets,
		       injected / ((double)(t1 - t0) / rte_get_tsc_hz()) / 1e6);
	rte_eal_cleanup();
	return 0;
}
