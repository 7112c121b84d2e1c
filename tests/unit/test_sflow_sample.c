/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sFlow's sampling on the workers (dataplane/l2/sflow_sample.h): 1 in N frames taken on
 * average, whatever the bursts; each sample the frame's first bytes, its interface and length;
 * the pool counts every frame seen; a full ring drops the sample and counts it; the count of
 * sampled sub-interfaces follows their rates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dataplane/dp.h"
#include "dataplane/l2/sflow_sample.h"

#define FRAME_LEN 64
#define PORT 1
#define WORKER 0

static struct rte_mbuf mbufs[DP_BURST_MAX];
static uint8_t data[DP_BURST_MAX][RTE_PKTMBUF_HEADROOM + FRAME_LEN];

static void frames_make(void)
{
	unsigned int i;

	for (i = 0; i < DP_BURST_MAX; i++) {
		memset(&mbufs[i], 0, sizeof(mbufs[i]));
		mbufs[i].buf_addr = data[i];
		mbufs[i].data_off = RTE_PKTMBUF_HEADROOM;
		mbufs[i].data_len = FRAME_LEN;
		mbufs[i].pkt_len = FRAME_LEN;
		memset(data[i] + RTE_PKTMBUF_HEADROOM, (int)i, FRAME_LEN);
	}
}

/* Drains every sample; returns how many. */
static uint64_t drain(void)
{
	static struct dp_sflow_sample s[256];
	uint64_t total = 0;
	unsigned int n;

	while ((n = dp_sflow_drain(s, 256)) > 0)
		total += n;
	return total;
}

/* Frames in bursts; with drained, the samples are drained as they come and counted there (as
 * the control thread would), else they stay in the ring. */
static void bursts(uint16_t index, uint32_t rate, uint64_t frames, unsigned int burst,
		   uint64_t *drained)
{
	struct rte_mbuf *m[DP_BURST_MAX];
	unsigned int i;

	for (i = 0; i < DP_BURST_MAX; i++)
		m[i] = &mbufs[i];
	while (frames > 0) {
		uint16_t n = (uint16_t)(frames < burst ? frames : burst);

		dp_sflow_frames(WORKER, index, m, n);
		frames -= n;
		if (drained != NULL)
			*drained += drain();
	}
}

static int setup(void **state)
{
	(void)state;
	frames_make();
	assert_int_equal(dp_sflow_init(1), 0);
	drain();
	dp_sflow_zero(PORT);
	return 0;
}

static void test_every_frame_at_rate_one(void **state)
{
	struct dp_sflow_sample s[DP_BURST_MAX];
	struct dp_sflow_count c;
	unsigned int n, i;

	(void)state;
	dp_sflow_rate_set(PORT, 1);
	bursts(PORT, 1, 32, 32, NULL);
	n = dp_sflow_drain(s, DP_BURST_MAX);
	assert_int_equal(n, 32);
	for (i = 0; i < n; i++) {
		assert_int_equal(s[i].index, PORT);
		assert_int_equal(s[i].frame_len, FRAME_LEN);
		assert_int_equal(s[i].header_len, FRAME_LEN);
		/* in order: frame i's bytes */
		assert_memory_equal(s[i].header, data[i] + RTE_PKTMBUF_HEADROOM, FRAME_LEN);
	}
	dp_sflow_count_get(PORT, &c);
	assert_int_equal(c.pool, 32);
	assert_int_equal(c.samples, 32);
	assert_int_equal(c.drops, 0);
}

/* 1 in 100 over a million frames, in bursts of 1, 7, 32 and 256: 10 000 samples each time
 * within 5 % (the count's standard deviation is below 1 %). */
static void test_one_in_n_whatever_the_bursts(void **state)
{
	static const unsigned int sizes[] = { 1, 7, 32, 256 };
	unsigned int k;

	(void)state;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct dp_sflow_count c;
		uint64_t got = 0;

		dp_sflow_zero(PORT);
		dp_sflow_rate_set(PORT, 100);
		bursts(PORT, 100, 1000000, sizes[k], &got);
		assert_in_range(got, 9500, 10500);
		dp_sflow_count_get(PORT, &c);
		assert_int_equal(c.pool, 1000000);
		assert_int_equal(c.drops, 0);
	}
}

/* The header is the frame's first DP_SFLOW_HEADER bytes, and no more than its first segment. */
static void test_header_is_cut(void **state)
{
	static uint8_t big[RTE_PKTMBUF_HEADROOM + 1500];
	struct rte_mbuf m = { .buf_addr = big, .data_off = RTE_PKTMBUF_HEADROOM,
			      .data_len = 1500, .pkt_len = 9000 };
	struct rte_mbuf *pm = &m;
	struct dp_sflow_sample s;

	(void)state;
	dp_sflow_burst(WORKER, PORT, 1, &pm, 1);
	assert_int_equal(dp_sflow_drain(&s, 1), 1);
	assert_int_equal(s.header_len, DP_SFLOW_HEADER);
	assert_int_equal(s.frame_len, 9000);
}

/* The bound: a ring the control thread does not drain holds what it can; every sample
 * past that is dropped and counted, and the pool still counts every frame. */
static void test_full_ring_drops_and_counts(void **state)
{
	struct dp_sflow_count c;
	uint64_t held;

	(void)state;
	dp_sflow_rate_set(PORT, 1);
	bursts(PORT, 1, DP_SFLOW_RING + 1000, 64, NULL);
	dp_sflow_count_get(PORT, &c);
	assert_int_equal(c.pool, DP_SFLOW_RING + 1000);
	held = drain();
	assert_true(held < DP_SFLOW_RING + 1000);
	assert_int_equal(c.samples, held);
	assert_int_equal(c.drops, DP_SFLOW_RING + 1000 - held);
}

/* A sub-interface sampled is counted, so that vlan_input looks rates up; its removal and a
 * rate of 0 take it off again. */
static void test_subifs_counted(void **state)
{
	unsigned int slot = 5;

	(void)state;
	dp.nb_ports = slot + 1;
	dp.ports[slot].kind = DP_PORT_VLAN;
	assert_int_equal(dp_sflow_subifs, 0);
	dp_sflow_rate_set(slot, 1000);
	assert_int_equal(dp_sflow_subifs, 1);
	dp_sflow_rate_set(slot, 10);
	assert_int_equal(dp_sflow_subifs, 1);
	dp_sflow_rate_set(slot, 0);
	assert_int_equal(dp_sflow_subifs, 0);
	dp_sflow_rate_set(slot, 10);
	dp_sflow_zero(slot);
	assert_int_equal(dp_sflow_subifs, 0);
	assert_int_equal(dp_sflow_rate[slot], 0);
	dp.ports[slot].kind = DP_PORT_FREE;
	dp.nb_ports = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_every_frame_at_rate_one, setup),
		cmocka_unit_test_setup(test_one_in_n_whatever_the_bursts, setup),
		cmocka_unit_test_setup(test_header_is_cut, setup),
		cmocka_unit_test_setup(test_full_ring_drops_and_counts, setup),
		cmocka_unit_test_setup(test_subifs_counted, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
