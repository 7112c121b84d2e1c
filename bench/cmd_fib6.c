/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tern-bench fib6-candidates: DPDK 22.11's two IPv6 longest-prefix-match tables, rte_lpm6
 * and rte_fib6 (its trie), and tern's own (dataplane/fib/fib6.c, both its copies), loaded with
 * the same BGP-shaped table, DPDK's sized for it alike: memory, load and withdraw times,
 * and nanoseconds a lookup in bulks of 64, checked against each other address by address.
 * The numbers behind the IPv6 FIB's choice (ARCHITECTURE.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_fib6.h>
#include <rte_lpm6.h>
#include <rte_malloc.h>

#include "bench/args.h"
#include "bench/cmd_fib6.h"
#include "bench/routes.h"
#include "bench/routes6.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/harness/pipeline.h"
#include "dataplane/rcu.h"

#define BULK 64

static size_t heap_used(void)
{
	struct rte_malloc_socket_stats st;

	rte_malloc_get_socket_stats(0, &st);
	return st.heap_allocsz_bytes;
}

static double secs(uint64_t t0)
{
	return (double)(rte_rdtsc() - t0) / rte_get_tsc_hz();
}

/* BULK addresses in tern's FIB, as a worker looks up a vector's. */
static void lookup_own(uint8_t (*a)[16], uint32_t *nh)
{
	dp_fib6_lookup_bulk((const uint8_t (*)[16])a, nh, BULK);
}

struct result {
	double mib, load_s, lookup_ns, withdraw_s;
	unsigned int refused;
};

int fib6_candidates_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "routes", required_argument, NULL, 'r' }, { "lookups", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' }, { "hugepages", no_argument, NULL, 'H' }, { 0 },
	};
	unsigned int routes = ROUTES6_FULL, lookups = 1u << 20, i, j, groups, differ = 0;
	char prefix[64];
	char *eal[] = { "tern-bench", "--no-huge", "-m", "3072", "--no-pci", "--file-prefix", prefix,
			"--log-level", "*:error", NULL };
	bool huge = false;
	uint8_t (*pfx)[16] = NULL, (*addrs)[16] = NULL, *lens = NULL;
	uint64_t *nh_fib = NULL, state = 42, t0;
	struct result lpm = { 0 }, fib = { 0 }, own = { 0 };
	struct dp_fib6_op *ops = NULL;
	uint32_t *nh_own = NULL;
	struct rte_lpm6 *l = NULL;
	struct rte_fib6 *f = NULL;
	static const char *const names[] = { "rte_lpm6", "rte_fib6", "tern" };
	bool json = false;
	unsigned long n;
	size_t h0;
	int c, ret = 1;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'r' && arg_count(optarg, 1, 1u << 21, &n) == 0)
			routes = n;
		else if (c == 'l' && arg_count(optarg, BULK, 1u << 26, &n) == 0)
			lookups = n / BULK * BULK;
		else if (c == 'j')
			json = true;
		else if (c == 'H')
			huge = true;
		else
			return fprintf(stderr, "usage: tern-bench fib6-candidates [--routes N (1..2097152)] "
				       "[--lookups N (64..67108864)] [--hugepages] [--json]\n"), 2;
	}
	if (huge) {	/* 2 MiB pages, as ternd runs: 2 GiB of them free */
		eal[1] = "--in-memory";
		eal[3] = "2048";
	}
	snprintf(prefix, sizeof(prefix), "tern-fib6-%d", getpid());
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0)
		return fprintf(stderr, "tern-bench fib6-candidates: cannot start EAL\n"), 1;
	pfx = calloc(routes, 16);
	lens = calloc(routes, 1);
	addrs = calloc(lookups, 16);
	nh_fib = calloc(lookups, sizeof(*nh_fib));
	nh_own = calloc(BULK, sizeof(*nh_own));
	ops = calloc(routes, sizeof(*ops));
	if (!pfx || !lens || !addrs || !nh_fib || !nh_own || !ops) {
		fprintf(stderr, "tern-bench fib6-candidates: out of memory\n");
		goto out;
	}
	routes6_bgp_like(pfx, lens, routes, 7);
	groups = routes6_groups((const uint8_t (*)[16])pfx, lens, routes);
	for (i = 0; i < lookups; i++)
		routes6_pick_address((const uint8_t (*)[16])pfx, lens, routes, &state, addrs[i]);

	/* both with the groups the table needs and an eighth more */
	h0 = heap_used();
	l = rte_lpm6_create("cand_lpm6", SOCKET_ID_ANY, &(struct rte_lpm6_config){
		.max_rules = routes, .number_tbl8s = groups + groups / 8 + 64 });
	if (l == NULL) {
		fprintf(stderr, "tern-bench fib6-candidates: rte_lpm6_create: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	t0 = rte_rdtsc();
	for (i = 0; i < routes; i++)
		lpm.refused += rte_lpm6_add(l, pfx[i], lens[i], 1 + i % 1000) < 0;
	lpm.load_s = secs(t0);
	lpm.mib = (heap_used() - h0) / 1048576.0;
	h0 = heap_used();
	f = rte_fib6_create("cand_fib6", SOCKET_ID_ANY, &(struct rte_fib6_conf){
		.type = RTE_FIB6_TRIE, .default_nh = 0, .max_routes = routes,
		.trie = { .nh_sz = RTE_FIB6_TRIE_4B, .num_tbl8 = groups + groups / 8 + 64 } });
	if (f == NULL) {
		fprintf(stderr, "tern-bench fib6-candidates: rte_fib6_create: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	t0 = rte_rdtsc();
	for (i = 0; i < routes; i++)
		fib.refused += rte_fib6_add(f, pfx[i], lens[i], 1 + i % 1000) < 0;
	fib.load_s = secs(t0);
	fib.mib = (heap_used() - h0) / 1048576.0;

	/* tern's: staged into one copy, published, then the other brought level */
	if (dp_rcu_init(1) < 0) {
		fprintf(stderr, "tern-bench fib6-candidates: cannot set up QSBR\n");
		goto out;
	}
	h0 = heap_used();
	if (dp_fib6_init(routes, SOCKET_ID_ANY) < 0) {
		fprintf(stderr, "tern-bench fib6-candidates: cannot make tern's IPv6 FIB\n");
		goto out;
	}
	for (i = 0; i < routes; i++) {
		memcpy(ops[i].prefix, pfx[i], 16);
		ops[i].depth = lens[i];
		ops[i].nh = 1 + i % 1000;
	}
	t0 = rte_rdtsc();
	dp_fib6_stage(ops, routes);
	dp_fib6_publish();
	while (dp_fib6_level(8192))
		;
	own.load_s = secs(t0);
	for (i = 0; i < routes; i++)
		own.refused += ops[i].refused;
	own.mib = (heap_used() - h0) / 1048576.0;

	/* lookups: each twice, the second run timed (the first warms both alike) */
	for (j = 0; j < 2; j++) {
		int32_t r[BULK];

		t0 = rte_rdtsc();
		for (i = 0; i < lookups; i += BULK)
			rte_lpm6_lookup_bulk_func(l, &addrs[i], r, BULK);
		lpm.lookup_ns = secs(t0) * 1e9 / lookups;
		t0 = rte_rdtsc();
		for (i = 0; i < lookups; i += BULK)
			rte_fib6_lookup_bulk(f, &addrs[i], &nh_fib[i], BULK);
		fib.lookup_ns = secs(t0) * 1e9 / lookups;
		t0 = rte_rdtsc();
		for (i = 0; i < lookups; i += BULK)
			lookup_own(&addrs[i], nh_own);
		own.lookup_ns = secs(t0) * 1e9 / lookups;
	}
	for (i = 0; i < lookups; i += BULK) {
		int32_t r[BULK];

		rte_lpm6_lookup_bulk_func(l, &addrs[i], r, BULK);
		lookup_own(&addrs[i], nh_own);
		for (j = 0; j < BULK; j++)
			differ += (uint32_t)(r[j] < 0 ? 0 : r[j]) != nh_own[j];
		for (j = 0; j < BULK && fib.refused == 0; j++)
			differ += (uint64_t)(r[j] < 0 ? 0 : r[j]) != nh_fib[i + j];
	}
	t0 = rte_rdtsc();
	for (i = 0; i < routes; i++)
		rte_lpm6_delete(l, pfx[i], lens[i]);
	lpm.withdraw_s = secs(t0);
	t0 = rte_rdtsc();
	for (i = 0; i < routes; i++)
		rte_fib6_delete(f, pfx[i], lens[i]);
	fib.withdraw_s = secs(t0);
	for (i = 0; i < routes; i++)
		ops[i].del = 1;
	t0 = rte_rdtsc();
	dp_fib6_apply(ops, routes);
	dp_fib6_settle();
	own.withdraw_s = secs(t0);

	if (json) {
		printf("{\"routes\": %u, \"groups\": %u, \"lookups\": %u, \"differ\": %u", routes, groups,
		       lookups, differ);
		for (j = 0; j < 3; j++) {
			const struct result *x = j == 2 ? &own : j ? &fib : &lpm;

			printf(", \"%s\": {\"mib\": %.1f, \"load_s\": %.3f, \"refused\": %u, "
			       "\"lookup_ns\": %.1f, \"withdraw_s\": %.3f}", names[j],
			       x->mib, x->load_s, x->refused, x->lookup_ns, x->withdraw_s);
		}
		printf("}\n");
	} else {
		printf("tern-bench fib6-candidates: %u BGP-shaped IPv6 routes needing %u groups of 256 "
		       "(%.2f a route); %u lookups in bulks of %d\n", routes, groups,
		       (double)groups / routes, lookups, BULK);
		printf("  %-9s %9s %9s %8s %11s %11s\n", "", "MiB", "load s", "refused", "lookup ns",
		       "withdraw s");
		for (j = 0; j < 3; j++) {
			const struct result *x = j == 2 ? &own : j ? &fib : &lpm;

			printf("  %-9s %9.1f %9.3f %8u %11.1f %11.3f\n", names[j],
			       x->mib, x->load_s, x->refused, x->lookup_ns, x->withdraw_s);
		}
		printf("  (tern's: both copies' memory and load; DPDK's: one copy)\n"
		       "  %u of %u addresses answered differently%s\n", differ, lookups,
		       fib.refused ? " (rte_fib6 left out: it refused routes)" : "");
	}
	ret = differ ? 1 : 0;
out:
	rte_lpm6_free(l);
	rte_fib6_free(f);
	free(pfx);
	free(lens);
	free(addrs);
	free(nh_fib);
	free(nh_own);
	free(ops);
	dp_fib6_fini();
	pipeline_fini(prefix);
	return ret;
}
