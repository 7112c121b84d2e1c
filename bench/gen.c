/* SPDX-License-Identifier: BSD-3-Clause */
/* The generator's loop: rate-paced bursts out, stamps read back for loss, order and latency. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "bench/gen.h"
#include "dataplane/rcu.h"
#include "bench/rxq_backoff.h"

#define GEN_BURST 32
#define GEN_RX_DRAIN 8	/* bursts read from queue 0 a loop at most */
/* The IPv4 and UDP headers after the link header: the stamp follows them. */
#define L3_L4 (sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr))
#define L3_L4_V6 (sizeof(struct rte_ipv6_hdr) + sizeof(struct rte_udp_hdr))

unsigned int gen_l2_len(const struct gen_params *p)
{
	return sizeof(struct rte_ether_hdr) + (p->vlan ? RTE_VLAN_HLEN : 0);
}

unsigned int gen_build_frame(const struct gen_params *p, const struct rte_ether_addr *src_mac,
			     uint32_t flow, uint32_t seq, uint64_t tsc, uint8_t *buf)
{
	unsigned int l2 = gen_l2_len(p);
	/* a tag makes the frame 4 bytes longer: the packet inside is the one frame_size gives */
	unsigned int len = p->frame_size - RTE_ETHER_CRC_LEN + l2 - sizeof(struct rte_ether_hdr);
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(buf + l2);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	struct gen_stamp *st = (struct gen_stamp *)(udp + 1);
	rte_be16_t *type = (rte_be16_t *)(buf + l2) - 1;

	memset(buf, 0, len);
	eth->dst_addr = p->dst_mac;
	eth->src_addr = *src_mac;
	if (p->vlan) {
		struct rte_vlan_hdr *tag = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		tag->vlan_tci = rte_cpu_to_be_16(p->vlan);
	}
	if (p->ipv6) {
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)(buf + l2);
		rte_be32_t last;

		udp = (struct rte_udp_hdr *)(ip6 + 1);
		st = (struct gen_stamp *)(udp + 1);
		*type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
		ip6->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip6->payload_len = rte_cpu_to_be_16(len - l2 - sizeof(*ip6));
		ip6->proto = IPPROTO_UDP;
		ip6->hop_limits = 64;
		memcpy(ip6->src_addr, p->src_ip6, 16);
		memcpy(ip6->dst_addr, p->dst_ip6, 16);
		memcpy(&last, ip6->dst_addr + 12, 4);
		last = rte_cpu_to_be_32(rte_be_to_cpu_32(last) + flow);
		memcpy(ip6->dst_addr + 12, &last, 4);
		udp->dgram_len = rte_cpu_to_be_16(len - l2 - sizeof(*ip6));
	} else {
		*type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->total_length = rte_cpu_to_be_16(len - l2);
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_UDP;
		ip->src_addr = rte_cpu_to_be_32(p->src_ip);
		ip->dst_addr = rte_cpu_to_be_32(p->dst_ip + flow);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp->dgram_len = rte_cpu_to_be_16(len - l2 - sizeof(*ip));
	}
	udp->src_port = rte_cpu_to_be_16(1024 + (flow & 0x3fff));
	udp->dst_port = rte_cpu_to_be_16(7);	/* echo: harmless if it ever reached a host */
	st->magic = GEN_MAGIC;
	st->seq = seq;
	st->tsc = tsc;
	return len;
}

/* A port's link as --reconnect follows it. */
struct gen_port_watch {
	bool started;		/* the last start succeeded (a memif client connected) */
	bool up_seen;		/* the link was up at the last look */
	bool dropped;		/* the link went down since it was last up */
	uint64_t since;		/* when the above last changed */
};

struct gen_state {
	const struct gen_params *p;
	struct rte_mempool *mp;
	struct rte_ether_addr src_mac;
	uint8_t templ[RTE_ETHER_MAX_LEN + RTE_VLAN_HLEN];
	unsigned int len;
	unsigned int l2;		/* link header: Ethernet, and a tag with --vlan */
	unsigned int l3l4;		/* IPv4 or IPv6, and UDP */
	uint32_t dst6_last;		/* IPv6: the last 32 bits of the first destination */
	uint16_t flow_cksum[GEN_MAX_FLOWS];	/* IP checksum of each flow's header */
	uint16_t flood_cksum;
	unsigned int flood_acc;
	uint64_t flood_tx;
	uint32_t seq;
	uint32_t next_flow;		/* the flow of the next frame: flows in turn, no division per frame */
	uint16_t next_vlan;		/* with vlans: the next frame's VLAN, less vlan */
	uint32_t next_expected;		/* the sequence number after the highest seen */
	uint64_t phase2_tsc;		/* when the second phase began; 0: none */
	uint64_t last_gap_tsc;		/* sent time of the frame after the last loss in phase 2 */
	uint64_t tx, rx, foreign, reordered;
	uint64_t last_rx_tsc, gap_tsc, gap_end_tsc;	/* the longest time without a frame of ours */
	uint64_t next_link_tsc, down_tsc, link_down_tsc, link_up_tsc;
	struct gen_port_watch watch[2];	/* tx, rx */
	unsigned int restarts;
	struct rxq_backoff rxq[GEN_MAX_RXQ];	/* queues 1..: when each is polled next */
	double ns_per_tsc;
	struct histogram *lat;
};

static void gen_prepare(struct gen_state *g)
{
	uint32_t f;

	rte_eth_macaddr_get(g->p->tx_port, &g->src_mac);
	g->len = gen_build_frame(g->p, &g->src_mac, 0, 0, 0, g->templ);
	g->l2 = gen_l2_len(g->p);
	g->l3l4 = g->p->ipv6 ? L3_L4_V6 : L3_L4;
	if (g->p->ipv6) {	/* no header checksum to keep; a flow is its destination's last bits */
		rte_be32_t last;

		memcpy(&last, g->p->dst_ip6 + 12, 4);
		g->dst6_last = rte_be_to_cpu_32(last);
		return;
	}
	for (f = 0; f < g->p->flows; f++) {
		uint8_t tmp[RTE_ETHER_MAX_LEN + RTE_VLAN_HLEN];
		const struct rte_ipv4_hdr *ip;

		gen_build_frame(g->p, &g->src_mac, f, 0, 0, tmp);
		ip = (const struct rte_ipv4_hdr *)(tmp + g->l2);
		g->flow_cksum[f] = ip->hdr_checksum;
	}
	if (g->p->flood_share) {
		struct gen_params fp = *g->p;
		uint8_t tmp[RTE_ETHER_MAX_LEN + RTE_VLAN_HLEN];

		fp.dst_ip = fp.flood_ip;
		gen_build_frame(&fp, &g->src_mac, 0, 0, 0, tmp);
		g->flood_cksum = ((const struct rte_ipv4_hdr *)(tmp + g->l2))->hdr_checksum;
	}
}

static uint16_t gen_send(struct gen_state *g, uint16_t n, uint64_t now)
{
	struct rte_mbuf *m[GEN_BURST];
	bool flood[GEN_BURST];
	uint16_t i, sent;

	if (rte_pktmbuf_alloc_bulk(g->mp, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		uint8_t *d = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint32_t flow = g->next_flow;
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(d + g->l2);
		struct gen_stamp *st = (struct gen_stamp *)(d + g->l2 + g->l3l4);
		struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(d + g->l2 + g->l3l4 - sizeof(*udp));

		if (++g->next_flow == g->p->flows)
			g->next_flow = 0;
		rte_memcpy(d, g->templ, g->l2 + g->l3l4 + sizeof(*st));
		if (g->p->ipv6) {
			rte_be32_t last = rte_cpu_to_be_32(g->dst6_last + flow);

			memcpy(((struct rte_ipv6_hdr *)ip)->dst_addr + 12, &last, 4);
		} else {
			ip->dst_addr = rte_cpu_to_be_32(g->p->dst_ip + flow);
			ip->hdr_checksum = g->flow_cksum[flow];
		}
		udp->src_port = rte_cpu_to_be_16(1024 + (flow & 0x3fff));
		if (g->p->vlans > 1) {
			struct rte_vlan_hdr *tag = (struct rte_vlan_hdr *)(d + sizeof(struct rte_ether_hdr));

			/* VIDs 1..4094, round from vlan */
			tag->vlan_tci = rte_cpu_to_be_16((g->p->vlan - 1 + g->next_vlan) % 4094 + 1);
			if (++g->next_vlan == g->p->vlans)
				g->next_vlan = 0;
		}
		st->seq = g->seq++;
		st->tsc = now;
		m[i]->data_len = m[i]->pkt_len = g->len;
		/* a share of the frames goes to the flood address instead, unstamped */
		flood[i] = false;
		if (g->p->flood_share && (g->flood_acc += g->p->flood_share) >= 100) {
			g->flood_acc -= 100;
			flood[i] = true;
			g->seq--;
			ip->dst_addr = rte_cpu_to_be_32(g->p->flood_ip);
			ip->hdr_checksum = g->flood_cksum;
			st->magic = 0;
		}
	}
	sent = rte_eth_tx_burst(g->p->tx_port, 0, m, n);
	for (i = 0; i < n; i++) {
		if (i < sent && flood[i])
			g->flood_tx++;
		else if (i >= sent && !flood[i])
			g->seq--;	/* unsent frames never existed */
	}
	if (sent < n)
		rte_pktmbuf_free_bulk(m + sent, n - sent);
	return sent;
}

static uint16_t gen_receive_queue(struct gen_state *g, uint16_t q, bool count)
{
	struct rte_mbuf *m[GEN_BURST];
	uint16_t n = rte_eth_rx_burst(g->p->rx_port, q, m, GEN_BURST), i;
	uint64_t now;

	if (n == 0)
		return 0;	/* most polls, at the edge of the DUT's rate: no TSC read for them */
	now = rte_rdtsc();
	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m[i], const struct rte_ether_hdr *);
		const struct gen_stamp *st;
		unsigned int at = sizeof(*eth) + g->l3l4;

		/* the router may send it on tagged, or not, whatever it came with */
		if (m[i]->data_len >= sizeof(*eth) && eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_VLAN))
			at += RTE_VLAN_HLEN;
		if (m[i]->data_len < at + sizeof(*st)) {
			g->foreign++;
			continue;
		}
		st = rte_pktmbuf_mtod_offset(m[i], const struct gen_stamp *, at);
		if (st->magic != GEN_MAGIC) {
			g->foreign++;
			continue;
		}
		if (!count)
			continue;
		g->rx++;
		if (st->seq < g->next_expected) {
			g->reordered++;
		} else {
			if (st->seq > g->next_expected && g->phase2_tsc && st->tsc >= g->phase2_tsc)
				g->last_gap_tsc = st->tsc;
			g->next_expected = st->seq + 1;
		}
		hist_add(g->lat, (uint64_t)((now - st->tsc) * g->ns_per_tsc));
		if (g->last_rx_tsc && now - g->last_rx_tsc > g->gap_tsc) {
			g->gap_tsc = now - g->last_rx_tsc;
			g->gap_end_tsc = now;
		}
		g->last_rx_tsc = now;
	}
	rte_pktmbuf_free_bulk(m, n);
	return n;
}

/*
 * With --reconnect, the links are looked at every millisecond. DPDK's memif client connects
 * only when its port starts, and its handshake then runs in EAL's interrupt thread, which a
 * stop from here must not cut into: a port whose start failed (no router listening) is
 * started again every 20 ms; one whose link went down is stopped 20 ms later, once its
 * disconnect is over, and started again; one started whose link has not come up in 1 s is
 * stopped. The last outage is noted.
 *
 * A router that goes away makes DPDK 22.11's memif PMD unmap the rings in its interrupt
 * thread while this thread may be reading them (the fault ternd's memif_peer_guard.c keeps
 * from its workers): tern-bench takes the same guard, this thread a reader of dp_rcu that
 * reports between loops, offline while it stops and starts ports itself.
 */
static int gen_reader_online(void)
{
	if (dp_rcu == NULL && dp_rcu_init(1) < 0)
		return -ENOMEM;
	rte_rcu_qsbr_thread_register(dp_rcu, 0);
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	return 0;
}
static void gen_port_restart(struct gen_state *g, struct gen_port_watch *w, uint16_t port,
			     uint64_t now)
{
	rte_rcu_qsbr_thread_offline(dp_rcu, 0);
	if (w->started)
		rte_eth_dev_stop(port);
	w->started = rte_eth_dev_start(port) == 0;
	rte_rcu_qsbr_thread_online(dp_rcu, 0);
	w->up_seen = false;
	w->since = now;
	g->restarts++;
}

static void gen_links_watch(struct gen_state *g, uint64_t now)
{
	uint64_t hz = rte_get_tsc_hz();
	uint16_t ports[2] = { g->p->tx_port, g->p->rx_port };
	unsigned int i, n = ports[0] == ports[1] ? 1 : 2;
	struct rte_eth_link link;
	bool down = false;

	if (now < g->next_link_tsc)
		return;
	g->next_link_tsc = now + hz / 1000;
	for (i = 0; i < n; i++) {
		struct gen_port_watch *w = &g->watch[i];

		if (rte_eth_link_get_nowait(ports[i], &link) == 0 && link.link_status) {
			w->up_seen = true;
			w->since = now;
			continue;
		}
		down = true;
		if (w->up_seen) {	/* just went down: its disconnect first */
			w->up_seen = false;
			w->dropped = true;
			w->since = now;
		} else if (!w->started ? now - w->since >= hz / 50 :
			   w->dropped ? now - w->since >= hz / 50 : now - w->since >= hz) {
			gen_port_restart(g, w, ports[i], now);
			w->dropped = false;
		}
	}
	if (down && !g->down_tsc)
		g->down_tsc = now;
	if (!down && g->down_tsc) {
		g->link_down_tsc = g->down_tsc;
		g->link_up_tsc = now;
		g->down_tsc = 0;
	}
}

/*
 * Queue 0 is polled every loop. A router's other queues may carry as much
 * (a worker each) or next to nothing (ternd's exception path): those that
 * come back empty are polled less and less often (rxq_backoff.h). On a wire
 * the tester would not pay for the router's queue count; over memif every
 * queue is a ring of its own to poll, and polling an idle second ring every
 * loop took 4 to 6 % off ternd's rate against one polled only on queue 0
 * (bench.sh, tern against tern-b, 20 rounds), a cost l3fwd, which sends on
 * one queue, never met.
 *
 * Queue 0 is read again while it gives whole bursts, up to GEN_RX_DRAIN of
 * them a loop: a loop sends at most one burst, so a backlog that built up
 * while the generator was not running (its CPU shared with the churn, say)
 * never shrank while the sender caught up, and a router's transmit ring
 * towards it stayed near full and overflowed (churn.sh: p99 latency of
 * 1 ms at 5 Mpps, a 4096-slot ring's worth, and frames lost there alone).
 */
static void gen_receive(struct gen_state *g, bool count)
{
	uint16_t q, nq = g->p->nb_rxq ? g->p->nb_rxq : 1;
	unsigned int polls = 0;

	while (gen_receive_queue(g, 0, count) == GEN_BURST && ++polls < GEN_RX_DRAIN)
		;
	for (q = 1; q < nq && q < GEN_MAX_RXQ; q++)
		if (rxq_backoff_due(&g->rxq[q]))
			rxq_backoff_polled(&g->rxq[q], gen_receive_queue(g, q, count));
}

/*
 * Each state (one per direction) sends for duration at rate (0: unpaced,
 * < 0: not at all) and receives all the while; with max_frames, each stops
 * sending after that many (and the phase ends once all are out, or at the end
 * of duration). Returns the frames sent, all directions.
 */
static uint64_t gen_phase_n(struct gen_state *const *gs, unsigned int ng, double duration,
			    double rate, bool count, uint64_t max_frames)
{
	uint64_t hz = rte_get_tsc_hz(), start = rte_rdtsc(), end = start + duration * hz, now;
	uint64_t sent[GEN_MAX_DIRS] = { 0 }, total = 0;
	unsigned int d, done;

	while ((now = rte_rdtsc()) < end) {
		for (d = 0, done = 0; d < ng; d++) {
			struct gen_state *g = gs[d];
			uint16_t n = rate < 0 ? 0 : GEN_BURST;

			if (max_frames) {
				if (sent[d] >= max_frames) {
					done++;
					n = 0;
				} else if (n > max_frames - sent[d]) {
					n = max_frames - sent[d];
				}
			}
			if (rate > 0) {
				uint64_t due = (uint64_t)((double)(now - start) * rate / hz);

				n = due > sent[d] ? (due - sent[d] > GEN_BURST ? GEN_BURST : due - sent[d]) : 0;
			}
			if (n) {
				uint64_t flood_before = g->flood_tx;
				uint16_t s = gen_send(g, n, now);

				sent[d] += s;
				total += s;
				if (count)
					g->tx += s - (g->flood_tx - flood_before);
			}
			gen_receive(g, count);
			if (g->p->reconnect) {
				rte_rcu_qsbr_quiescent(dp_rcu, 0);
				gen_links_watch(g, now);
			}
		}
		if (max_frames && done == ng)
			break;
	}
	return total;
}

static void gen_phase(struct gen_state *g, double duration, double rate, bool count)
{
	gen_phase_n(&g, 1, duration, rate, count, 0);
}

static int gen_begin(struct gen_state *g, const struct gen_params *p, struct rte_mempool *mp,
		     struct histogram *lat)
{
	if (p->flows == 0 || p->flows > GEN_MAX_FLOWS || p->frame_size < 64 ||
	    p->frame_size > RTE_ETHER_MAX_LEN)
		return -EINVAL;
	if (p->ipv6 && (p->frame_size < GEN_IPV6_MIN_FRAME || p->flood_share))
		return -EINVAL;	/* no room for the stamp; no IPv6 flood */
	memset(g, 0, sizeof(*g));
	g->p = p;
	g->mp = mp;
	g->lat = lat;
	g->ns_per_tsc = 1e9 / rte_get_tsc_hz();
	gen_prepare(g);
	return 0;
}

static double wall_clock_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void gen_gap_result(const struct gen_state *g, uint64_t t0, struct gen_gap *gap)
{
	double hz = rte_get_tsc_hz();

	gap->longest_s = g->gap_tsc / hz;
	gap->to_s = g->gap_end_tsc ? (g->gap_end_tsc - t0) / hz : -1;
	gap->from_s = g->gap_end_tsc ? gap->to_s - gap->longest_s : -1;
	gap->link_down_s = g->link_down_tsc ? ((double)g->link_down_tsc - t0) / hz : -1;
	gap->link_up_s = g->link_up_tsc ? ((double)g->link_up_tsc - t0) / hz : -1;
	gap->port_restarts = g->restarts;
}

int gen_run(const struct gen_params *p, struct rte_mempool *mp, struct gen_result *r)
{
	static struct gen_state g;
	uint64_t hz = rte_get_tsc_hz(), t0, t1;
	int rc;

	memset(r, 0, sizeof(*r));
	hist_init(&r->latency_ns);
	if ((rc = gen_begin(&g, p, mp, &r->latency_ns)) < 0)
		return rc;
	if (p->reconnect && (rc = gen_reader_online()) < 0)
		return rc;
	g.watch[0].started = g.watch[1].started = true;	/* bench_ports_start started them */
	if (p->warmup_s > 0)
		gen_phase(&g, p->warmup_s, 1000, false);
	gen_phase(&g, 0.05, -1, false);		/* drain what the warm-up left in flight */
	g.next_expected = g.seq;
	g.tx = g.rx = g.foreign = g.reordered = g.flood_tx = 0;
	t0 = rte_rdtsc();
	r->gap.start_unix = wall_clock_s();
	gen_phase(&g, p->duration_s, p->rate_pps, true);
	t1 = rte_rdtsc();
	gen_gap_result(&g, t0, &r->gap);
	gen_phase(&g, 0.1, -1, true);		/* late frames still count */
	if (p->reconnect)
		rte_rcu_qsbr_thread_offline(dp_rcu, 0);	/* the ports stop next, from this thread */
	r->tx = g.tx;
	r->flood_tx = g.flood_tx;
	r->rx = g.rx;
	r->foreign = g.foreign;
	r->reordered = g.reordered;
	r->elapsed_s = (double)(t1 - t0) / hz;
	r->tx_pps = r->tx / r->elapsed_s;
	r->rx_pps = r->rx / r->elapsed_s;
	return 0;
}


int gen_learn(const struct gen_params *p, struct rte_mempool *mp, double seconds)
{
	static struct gen_state g;
	static struct histogram scratch;
	int rc = gen_begin(&g, p, mp, &scratch);

	if (rc < 0)
		return rc;
	gen_phase(&g, seconds, 1000, false);
	gen_phase(&g, 0.05, -1, false);
	return 0;
}

int gen_trial(const struct gen_params *p, unsigned int nb_dirs, struct rte_mempool *mp,
	      const struct gen_trial *t, struct gen_trial_result *r)
{
	static struct gen_state states[GEN_MAX_DIRS];
	static struct histogram scratch;
	struct gen_state *g[GEN_MAX_DIRS];
	struct histogram *lat = r->latency_ns ? r->latency_ns : &scratch;
	uint64_t hz = rte_get_tsc_hz(), t0, t1, sent, phase2 = 0;
	unsigned int d;
	int rc;

	if (nb_dirs < 1 || nb_dirs > GEN_MAX_DIRS)
		return -EINVAL;
	for (d = 0; d < nb_dirs; d++) {
		g[d] = &states[d];
		if ((rc = gen_begin(g[d], &p[d], mp, lat)) < 0)
			return rc;
	}
	memset(r, 0, sizeof(*r));
	r->latency_ns = lat == &scratch ? NULL : lat;
	gen_phase_n(g, nb_dirs, 0.02, -1, false, 0);	/* whatever an earlier trial left in flight */
	for (d = 0; d < nb_dirs; d++)
		g[d]->next_expected = g[d]->seq;
	/* rates and bursts are the sum over the directions, shared evenly */
	t0 = rte_rdtsc();
	if (t->frames)	/* a burst: as long as it takes to send, within reason */
		sent = gen_phase_n(g, nb_dirs, t->duration_s + 5, 0, true,
				   (t->frames + nb_dirs - 1) / nb_dirs);
	else
		sent = gen_phase_n(g, nb_dirs, t->duration_s, t->rate_pps / nb_dirs, true, 0);
	t1 = rte_rdtsc();
	if (t->rate2_pps > 0) {
		phase2 = rte_rdtsc();
		for (d = 0; d < nb_dirs; d++)
			g[d]->phase2_tsc = phase2;
		gen_phase_n(g, nb_dirs, t->duration2_s, t->rate2_pps / nb_dirs, true, 0);
	}
	gen_phase_n(g, nb_dirs, t->settle_s > 0 ? t->settle_s : 0.1, -1, true, 0);	/* late frames count */
	for (d = 0; d < nb_dirs; d++) {
		r->tx += g[d]->tx;
		r->rx += g[d]->rx;
		r->foreign += g[d]->foreign;
		r->reordered += g[d]->reordered;
		if (phase2 && g[d]->last_gap_tsc > phase2 &&
		    (double)(g[d]->last_gap_tsc - phase2) / hz > r->recovery_s)
			r->recovery_s = (double)(g[d]->last_gap_tsc - phase2) / hz;
	}
	r->elapsed_s = (double)(t1 - t0) / hz;
	r->tx_pps = r->elapsed_s > 0 ? sent / r->elapsed_s : 0;
	return 0;
}
