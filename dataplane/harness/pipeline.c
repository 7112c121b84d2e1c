/* SPDX-License-Identifier: BSD-3-Clause */
/* A ternd graph on null ports with an injector source: the pipeline measured or fuzzed alone. */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_lcore.h>

#include "dataplane/harness/pipeline.h"
#include "dataplane/acl/acl.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/node.h"
#include "dataplane/l2/node_port.h"
#include "dataplane/punt/punt.h"
#include "dataplane/rcu.h"
#include "dataplane/trace.h"
#include "dataplane/workarounds/eth_tx_override.h"
#include "dataplane/workarounds/graph_walk.h"

#define INJECT_MAX 256

static struct {
	uint8_t frame[INJECT_MAX][256];
	uint16_t len[INJECT_MAX];
	struct pipeline_shape shape[INJECT_MAX];	/* fuzzing: segments and offload flags */
	unsigned int n;
	bool pending;			/* fuzzing: inject once (graph 0), then nothing */
	bool repeat;			/* benchmarking: a burst every walk, in every graph */
	const uint32_t *dsts;		/* ... frame[0] sent to each of these in turn */
	const uint8_t (*dsts6)[16];	/* ... or, an IPv6 frame, to each of these */
	unsigned int nb_dsts;
	uint16_t l2;			/* ... its link header's length: Ethernet, and its tags */
	struct rte_mempool *pool;
} inj;

/* Each worker walks the destination list from its own place: no shared cursor. */
static struct {
	unsigned int next;
	uint64_t injected;
} __rte_cache_aligned cursor[PIPE_MAX_WORKERS];

static volatile uint64_t run_until;	/* TSC deadline for pipeline_run's workers */

/* frame[0] again, to this worker's next destination of the list, with its checksum. */
static void stream_fill(struct rte_mbuf *m, unsigned int w)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, inj.l2);

	rte_memcpy(rte_pktmbuf_mtod(m, void *), inj.frame[0], inj.len[0]);
	m->data_len = m->pkt_len = inj.len[0];
	if (inj.dsts6 != NULL) {	/* IPv6: no header checksum */
		rte_memcpy(((struct rte_ipv6_hdr *)ip)->dst_addr, inj.dsts6[cursor[w].next], 16);
		if (++cursor[w].next == inj.nb_dsts)
			cursor[w].next = 0;
		return;
	}
	ip->dst_addr = rte_cpu_to_be_32(inj.dsts[cursor[w].next]);
	if (++cursor[w].next == inj.nb_dsts)
		cursor[w].next = 0;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

/* Frame i as the driver would hand it over: in one segment or two, with its offload flags. */
static void inject_fill(struct rte_mbuf *m, unsigned int i)
{
	const struct pipeline_shape *sh = &inj.shape[i];
	uint16_t first = sh->first_seg && sh->first_seg < inj.len[i] ? sh->first_seg : inj.len[i];
	struct rte_mbuf *tail;

	if (sh->no_headroom)
		m->data_off = 0;
	rte_memcpy(rte_pktmbuf_mtod(m, void *), inj.frame[i], first);
	m->data_len = m->pkt_len = first;
	m->ol_flags = sh->ol_flags;
	if (first == inj.len[i] || (tail = rte_pktmbuf_alloc(inj.pool)) == NULL)
		return;
	rte_memcpy(rte_pktmbuf_mtod(tail, void *), inj.frame[i] + first, inj.len[i] - first);
	tail->data_len = tail->pkt_len = inj.len[i] - first;
	if (rte_pktmbuf_chain(m, tail) < 0)
		rte_pktmbuf_free(tail);
}

static uint16_t inject_process(struct rte_graph *graph, struct rte_node *node, void **objs,
			       uint16_t nb)
{
	struct rte_mbuf **m = (struct rte_mbuf **)node->objs;
	unsigned int w = graph->id, n = inj.repeat ? DP_BURST : inj.n, i;

	if (!inj.repeat) {
		if (!inj.pending || w != 0)
			return 0;
		inj.pending = false;	/* never written while streaming: workers share inj's lines */
	}
	if (n == 0 || rte_pktmbuf_alloc_bulk(inj.pool, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (inj.repeat) {
			stream_fill(m[i], w);
		} else {
			inject_fill(m[i], i);
		}
		m[i]->port = dp.ports[0].port_id;
	}
	if (unlikely(dp_trace.on))
		dp_trace_rx(w, node->id, m, n);
	node->idx = n;
	/* as port_rx: through vlan_input when dp0 has sub-interfaces */
	rte_node_next_stream_move(graph, node, dp_port_map.vlans[0] ? 1 : 0);
	cursor[w].injected += n;
	return n;
}

static struct rte_node_register inject_node = {
	.name = "pipeline_inject",
	.flags = RTE_NODE_SOURCE_F,
	.process = inject_process,
	.nb_edges = 2,
	.next_nodes = { "ip4_fast", "vlan_input" },
};
RTE_NODE_REGISTER(inject_node);

struct rte_ether_addr dp_port0_mac(void)
{
	return dp.ports[0].mac;
}

void pipeline_inject_shaped(const uint8_t *const *frames, const uint16_t *lens,
			    const struct pipeline_shape *shapes, unsigned int n)
{
	unsigned int i;

	inj.n = n > INJECT_MAX ? INJECT_MAX : n;
	for (i = 0; i < inj.n; i++) {
		inj.len[i] = lens[i] > sizeof(inj.frame[0]) ? sizeof(inj.frame[0]) : lens[i];
		memcpy(inj.frame[i], frames[i], inj.len[i]);
		inj.shape[i] = shapes ? shapes[i] : (struct pipeline_shape){ 0 };
	}
	inj.pending = true;
}

void pipeline_inject(const uint8_t *const *frames, const uint16_t *lens, unsigned int n)
{
	pipeline_inject_shaped(frames, lens, NULL, n);
}

/*
 * The null ports' transmit: free the burst. net_null's own counts every burst
 * with an atomic add on per-queue counters that share cache lines between
 * neighbouring queues, which would make workers contend on the PMD rather
 * than on anything of tern's; port_tx's node statistics count what was sent.
 */
static struct pipeline_frame *capture;
static unsigned int capture_cap, *capture_n;

static inline uint16_t sink(uint16_t port, struct rte_mbuf **pkts, uint16_t nb)
{
	uint16_t i;

	for (i = 0; unlikely(capture != NULL) && i < nb && *capture_n < capture_cap; i++) {
		struct pipeline_frame *f = &capture[(*capture_n)++];

		uint16_t n;
		const void *at;

		f->port = port;
		f->len = rte_pktmbuf_pkt_len(pkts[i]);
		n = RTE_MIN(f->len, (uint16_t)sizeof(f->data));
		/* the bytes the frame holds, across its segments (a chained frame's first
		 * segment ends before its data does) */
		at = rte_pktmbuf_read(pkts[i], 0, n, f->data);
		if (at != NULL && at != f->data)
			rte_memcpy(f->data, at, n);
	}
	rte_pktmbuf_free_bulk(pkts, nb);
	return nb;
}

static uint16_t sink_tx0(void *txq, struct rte_mbuf **pkts, uint16_t nb)
{
	return sink(0, pkts, nb);
}

static uint16_t sink_tx1(void *txq, struct rte_mbuf **pkts, uint16_t nb)
{
	return sink(1, pkts, nb);
}

int pipeline_frame_cmp(const void *x, const void *y)
{
	const struct pipeline_frame *a = x, *b = y;

	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->data, b->data, RTE_MIN(a->len, sizeof(a->data)));
}

void pipeline_capture(struct pipeline_frame *buf, unsigned int cap, unsigned int *n)
{
	capture = buf;
	capture_cap = cap;
	capture_n = n;
}

int pipeline_upstreams_via(unsigned int port)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < PIPE_UPSTREAMS && rc == 0; i++) {
		struct dp_nexthop nh = *dp_nh_get(PIPE_UPSTREAM_NH + i);

		nh.port = port;
		rc = dp_nh_set(PIPE_UPSTREAM_NH + i, &nh, NULL);
	}
	return rc;
}

static int set_nexthop(uint32_t id, unsigned int port, const char *dst)
{
	struct dp_nexthop nh = { .kind = DP_NH_FORWARD, .port = port, .mtu = 1500 };

	rte_ether_unformat_addr(dst, &nh.eth.dst_addr);
	nh.eth.src_addr = dp.ports[port].mac;
	return dp_nh_set(id, &nh, NULL);
}

/*
 * EAL's --lcores: worker i is lcore i, on the i-th CPU of the list (one
 * worker alone: the CPU this thread runs on; more: CPUs 0..N-1).
 */
static int lcore_map(char *out, size_t len, unsigned int nb_workers, const char *cpus)
{
	unsigned int i, cpu;
	size_t off = 0;
	const char *c = cpus;
	char *end;

	for (i = 0; i < nb_workers; i++) {
		if (c != NULL) {
			cpu = strtoul(c, &end, 10);
			if (end == c || (*end != ',' && *end != '\0') || (*end == '\0' && i < nb_workers - 1))
				return -EINVAL;
			c = *end == ',' ? end + 1 : end;
		} else {
			cpu = nb_workers == 1 && sched_getcpu() >= 0 ? (unsigned int)sched_getcpu() : i;
		}
		off += snprintf(out + off, len - off, "%s%u@%u", i ? "," : "", i, cpu);
		if (off >= len)
			return -ENAMETOOLONG;
	}
	return 0;
}

static bool use_hugepages;

void pipeline_use_hugepages(bool on)
{
	use_hugepages = on;
}

void pipeline_fini(const char *file_prefix)
{
	const char *base;
	struct dirent *e;
	char dir[256];
	DIR *d;

	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	base = strrchr(dir, '/');
	if (base == NULL || strcmp(base + 1, file_prefix) != 0 || (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

int pipeline_init(struct pipeline *p, unsigned int max_routes, const char *file_prefix,
		  unsigned int nb_workers, const char *cpus)
{
	char prefix[64], lcores[512];
	char *argv[] = { "tern-pipeline", use_hugepages ? "--in-memory" : "--no-huge", "-m", "1536",
			 "--no-pci", "--lcores", lcores,
			 "--file-prefix", prefix, "--log-level", "*:error", "--vdev", "net_null0",
			 "--vdev", "net_null1", NULL };
	static const char *const patterns[] = { "pipeline_inject", "vlan_input", "eth_input", "ip4_*",
						"ip6_*", "ip_rewrite", "icmp_*", "icmp6_*", "vlan_output", "port_tx-*", "drop_*", "punt_*" };
	struct rte_graph_param prm = { 0 };
	struct dp_punt_policy policy[2];
	char err[256];
	unsigned int i;
	int rc;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < 2 * DP_PUNT_CLASS_MAX; i++)
		policy[i / DP_PUNT_CLASS_MAX].cls[i % DP_PUNT_CLASS_MAX] = (struct dp_punt_rate){ 1000000, 1000 };
	if (nb_workers < 1 || nb_workers > PIPE_MAX_WORKERS)
		return -EINVAL;
	if ((rc = lcore_map(lcores, sizeof(lcores), nb_workers, cpus)) < 0)
		return rc;
	snprintf(prefix, sizeof(prefix), "%s", file_prefix);
	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0)
		return -rte_errno;
	dp_pools_create(8192 + 2048 * nb_workers, 256, 1500);
	for (i = 0; i < 2; i++) {
		char name[8], dev[16];
		struct dp_port_params pp = { .name = name, .dev = dev, .nb_rxq = 1,
					     .nb_txq = nb_workers, .mtu = 1500 };

		snprintf(name, sizeof(name), "dp%u", i);
		snprintf(dev, sizeof(dev), "net_null%u", i);
		if ((rc = dp_port_add(&pp, err, sizeof(err))) < 0 ||
		    (rc = dp_port_start(&dp.ports[i], err, sizeof(err))) < 0) {
			fprintf(stderr, "pipeline: %s\n", err);
			return rc;
		}
		eth_tx_override(dp.ports[i].port_id, i == 0 ? sink_tx0 : sink_tx1);
	}
	if ((rc = dp_node_port_tx_clones()) < 0)
		return rc;
	dp.nb_workers = nb_workers;
	if ((rc = dp_acl_init(nb_workers, 0)) < 0 || (rc = dp_rcu_init(nb_workers)) < 0 || (rc = dp_nh_init()) < 0 ||
	    (rc = dp_node_meta_register()) < 0 || (rc = dp_trace_init(nb_workers)) < 0 ||
	    (rc = dp_fib_init(max_routes, SOCKET_ID_ANY)) < 0 || (rc = pipeline_init6()) < 0 ||
	    (rc = dp_punt_init(nb_workers, policy, 2)) < 0)
		return rc;
	dp_icmp_limit_init(nb_workers, 1000000, 1000);
	dp_port_ip4[0] = rte_cpu_to_be_32(0xc6120001);	/* 198.18.0.1 */
	dp_port_ip4[1] = rte_cpu_to_be_32(0xc6120101);
	if ((rc = set_nexthop(1, 1, PIPE_DST_MAC_OUT)) < 0 ||
	    (rc = set_nexthop(2, 0, "02:00:00:00:b0:00")) < 0)
		return rc;
	for (i = 0; i < PIPE_UPSTREAMS; i++) {
		char mac[RTE_ETHER_ADDR_FMT_SIZE];

		snprintf(mac, sizeof(mac), "02:00:00:00:b1:%02x", i);
		if ((rc = set_nexthop(PIPE_UPSTREAM_NH + i, 1, mac)) < 0)
			return rc;
	}
	/* the sender's side, so that ICMP errors have somewhere to go */
	dp_fib_add(0xc6120000, 24, 2);
	prm.nb_node_patterns = RTE_DIM(patterns);
	prm.node_patterns = (const char **)patterns;
	/* graphs are made in worker order: graph id = worker index = tx queue, as in ternd */
	for (i = 0; i < nb_workers; i++) {
		struct dp_worker *w = &dp.workers[i];

		w->index = i;
		w->lcore = i == 0 ? rte_lcore_id() : rte_get_next_lcore(dp.workers[i - 1].lcore, 1, 0);
		snprintf(w->graph_name, sizeof(w->graph_name), "pipeline%u", i);
		prm.socket_id = rte_lcore_to_socket_id(w->lcore);
		w->graph_id = rte_graph_create(w->graph_name, &prm);
		if (w->graph_id != i)
			return -EINVAL;
		w->graph = rte_graph_lookup(w->graph_name);
		if (w->graph == NULL)
			return -ENOENT;
		p->graphs[i] = w->graph;
	}
	p->graph = p->graphs[0];
	p->nb_workers = nb_workers;
	p->pool = dp.ports[0].pool;
	inj.pool = p->pool;
	/* this thread is worker 0 only while it walks: table updates never wait on it */
	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	return 0;
}

void pipeline_route_every_kind(void)
{
	static const uint32_t members[] = { 1, 2 };
	static const enum dp_nh_kind kinds[] = { DP_NH_LOCAL, DP_NH_UNRESOLVED, DP_NH_BLACKHOLE,
						 DP_NH_UNREACHABLE, DP_NH_PROHIBIT };
	struct dp_nexthop nh = { .port = 1, .mtu = 1400 };
	unsigned int i;

	for (i = 0; i < RTE_DIM(kinds); i++) {
		nh.kind = kinds[i];
		dp_nh_set(3 + i, &nh, NULL);
	}
	nh.kind = DP_NH_GROUP;
	nh.nb_members = 2;
	dp_nh_set(8, &nh, members);
	dp_fib_add(0xc6130000, 24, 1);
	dp_fib_add(0xc6130100, 24, 8);
	dp_fib_add(0xc6120001, 32, 3);
	for (i = 1; i < RTE_DIM(kinds); i++)
		dp_fib_add(0xc6130100 + (i << 8), 24, 3 + i);
}

/* The same route always gets the same upstream: a hash of the prefix picks it. */
static struct dp_fib_op route_op(uint32_t prefix, uint8_t len, bool del)
{
	uint32_t up = (prefix * 2654435761u ^ len) >> 29;

	return (struct dp_fib_op){ .prefix = prefix, .depth = len, .del = del,
				   .nh = del ? 0 : PIPE_UPSTREAM_NH + up % PIPE_UPSTREAMS };
}

/* Feeds the FIB batches of 65536 changes with apply (both copies, each batch) or stage. */
static double feed_routes(const uint32_t *prefixes, const uint8_t *lens, unsigned int n, bool del,
			  int (*feed)(struct dp_fib_op *, unsigned int))
{
	enum { BATCH = 65536 };
	static struct dp_fib_op ops[BATCH];
	uint64_t t0 = rte_rdtsc();
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		ops[k++] = route_op(prefixes[i], lens[i], del);
		if (k == BATCH || i == n - 1) {
			feed(ops, k);
			k = 0;
		}
	}
	return (double)(rte_rdtsc() - t0) / rte_get_tsc_hz();
}

double pipeline_add_routes(const uint32_t *prefixes, const uint8_t *lens, unsigned int n)
{
	return feed_routes(prefixes, lens, n, false, dp_fib_apply);
}

double pipeline_del_routes(const uint32_t *prefixes, const uint8_t *lens, unsigned int n)
{
	return feed_routes(prefixes, lens, n, true, dp_fib_apply);
}

double pipeline_load_routes(const uint32_t *prefixes, const uint8_t *lens, unsigned int n,
			    double *level_s)
{
	uint64_t t0 = rte_rdtsc(), hz = rte_get_tsc_hz();
	double publish_s;

	dp_fib_stage(NULL, 0);
	feed_routes(prefixes, lens, n, false, dp_fib_stage);
	dp_fib_publish();
	publish_s = (double)(rte_rdtsc() - t0) / hz;
	while (dp_fib_level(8192))
		;
	*level_s = (double)(rte_rdtsc() - t0) / hz;
	return publish_s;
}

unsigned int pipeline_walk(struct pipeline *p)
{
	unsigned int n = inj.repeat ? DP_BURST : inj.pending ? inj.n : 0;

	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	dp_graph_walk_timed(p->graph, 1, dp_walk_call_max());
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);
	return n;
}

/* A worker of pipeline_run: ternd's worker loop, until the deadline, every walk timed. */
static int run_worker(void *arg)
{
	struct dp_worker *w = arg;
	unsigned int id = w->index, loops = 0;
	uint64_t call_max = dp_walk_call_max();

	if (id != 0)
		rte_rcu_qsbr_thread_register(dp_rcu, id);
	rte_rcu_qsbr_thread_online(dp_rcu, id);
	for (;;) {
		w->stats.busy_cycles += dp_graph_walk_timed(w->graph, 1, call_max);
		rte_rcu_qsbr_quiescent(dp_rcu, id);
		if ((++loops & 63) == 0 && rte_rdtsc() >= run_until)
			break;
	}
	rte_rcu_qsbr_thread_offline(dp_rcu, id);
	if (id != 0)
		rte_rcu_qsbr_thread_unregister(dp_rcu, id);
	return 0;
}

double pipeline_run(struct pipeline *p, double seconds, uint64_t *injected)
{
	uint64_t t0, t1;
	unsigned int i;

	for (i = 0; i < p->nb_workers; i++) {
		cursor[i].injected = 0;
		cursor[i].next = inj.nb_dsts ? (uint64_t)inj.nb_dsts * i / p->nb_workers : 0;
	}
	t0 = rte_rdtsc();
	run_until = t0 + (uint64_t)(seconds * rte_get_tsc_hz());
	for (i = 1; i < p->nb_workers; i++)
		rte_eal_remote_launch(run_worker, &dp.workers[i], dp.workers[i].lcore);
	run_worker(&dp.workers[0]);
	rte_eal_mp_wait_lcore();
	t1 = rte_rdtsc();
	for (i = 0; i < p->nb_workers; i++)
		injected[i] = cursor[i].injected;
	return (double)(t1 - t0) / rte_get_tsc_hz();
}

void pipeline_stream(const uint8_t *frame, uint16_t len, const uint32_t *dsts, unsigned int n)
{
	memcpy(inj.frame[0], frame, len);
	inj.len[0] = len;
	/* an 802.1Q tag after the MACs: the network header 4 bytes on */
	inj.l2 = RTE_ETHER_HDR_LEN + (len >= RTE_ETHER_HDR_LEN && frame[12] == 0x81 && frame[13] == 0x00 ?
				      RTE_VLAN_HLEN : 0);
	inj.dsts = dsts;
	inj.dsts6 = NULL;
	inj.nb_dsts = n;
	inj.repeat = n > 0;
}

void pipeline_stream6(const uint8_t *frame, uint16_t len, const uint8_t (*dsts)[16], unsigned int n)
{
	pipeline_stream(frame, len, NULL, n);
	inj.dsts6 = dsts;
}

const char *const pipeline_stages[PIPE_STAGES] = {
	"vlan_input", "ip4_fast", "ip6_fast", "eth_input", "ip4_input", "ip4_lookup", "ip4_forward",
	"ip6_input", "ip6_lookup", "ip6_forward", "ip_rewrite", "vlan_output",
};

void pipeline_node_cycles(struct pipeline *p, uint64_t *cycles, uint64_t *packets,
			  uint64_t *by_stage)
{
	struct rte_node *n;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned int s, w;

	*cycles = *packets = 0;
	if (by_stage != NULL)
		memset(by_stage, 0, PIPE_STAGES * sizeof(*by_stage));
	for (w = 0; w < p->nb_workers; w++)
		rte_graph_foreach_node(count, off, p->graphs[w], n) {
			for (s = 0; s < PIPE_STAGES; s++)
				if (strcmp(n->name, pipeline_stages[s]) == 0) {
					*cycles += n->total_cycles;
					if (by_stage != NULL)
						by_stage[s] += n->total_cycles;
				}
			if (strcmp(n->name, "ip4_fast") == 0)
				*packets += n->total_objs;
		}
}
