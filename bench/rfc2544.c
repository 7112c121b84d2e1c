/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 2544 §26: the search and sweep procedures, independent of how a trial is run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/rfc2544.h"

double rfc_line_rate_pps(double gbps, uint16_t frame_size)
{
	return gbps > 0 ? gbps * 1e9 / ((frame_size + RFC_OVERHEAD_BYTES) * 8.0) : 0;
}

double rfc_wire_bps(double pps, uint16_t frame_size)
{
	return pps * (frame_size + RFC_OVERHEAD_BYTES) * 8.0;
}

void rfc_config_defaults(struct rfc_config *c, bool quick)
{
	static const uint16_t sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		c->sizes[i] = sizes[i];
	c->nb_sizes = i;
	c->nb_goals = 1;		/* 0 % loss: the RFC's throughput */
	c->quick = quick;
	c->trial_s = quick ? 1 : 60;
	c->latency_s = quick ? 1 : 120;
	c->resolution = quick ? 0.02 : 0.005;
	c->max_trials = quick ? 8 : 20;
	c->b2b_repeats = quick ? 3 : 50;
	c->b2b_max_s = quick ? 0.05 : 2;
	c->recovery_s = quick ? 1 : 60;
	for (i = 0; i <= RFC_TEST_RECOVERY; i++)
		c->tests[i] = true;
}

static double loss_pct(uint64_t tx, uint64_t rx)
{
	return tx && rx < tx ? 100.0 * (double)(tx - rx) / (double)tx : 0;
}

static int record(struct rfc_report *r, enum rfc_test test, const struct rfc_trial *t,
		  const struct rfc_outcome *o, bool pass)
{
	struct rfc_trial_record *n;

	if (r->nb_trials == r->cap_trials) {
		unsigned int cap = r->cap_trials ? r->cap_trials * 2 : 64;

		n = realloc(r->trials, cap * sizeof(*n));
		if (n == NULL)
			return -ENOMEM;
		r->trials = n;
		r->cap_trials = cap;
	}
	r->trials[r->nb_trials++] = (struct rfc_trial_record){
		.test = test, .frame_size = t->frame_size, .rate_pps = t->rate_pps,
		.tx_pps = o->tx_pps, .tx = o->tx, .rx = o->rx, .loss_pct = loss_pct(o->tx, o->rx),
		.pass = pass,
	};
	return 0;
}

static int trial(rfc_trial_fn fn, void *ctx, struct rfc_report *r, enum rfc_test test,
		 const struct rfc_trial *t, struct rfc_outcome *o, double goal_pct, bool *pass)
{
	struct histogram *lat = o->latency;
	int rc;

	memset(o, 0, sizeof(*o));
	o->latency = lat;
	rc = fn(ctx, t, o);
	if (rc < 0)
		return rc;
	/* nothing offered proves nothing: a trial that sent no frame fails */
	*pass = o->tx > 0 && loss_pct(o->tx, o->rx) <= goal_pct;
	return record(r, test, t, o, *pass);
}

/*
 * Binary search between a rate known to pass (lo, at first 0) and one known or
 * assumed to fail (hi, at first the maximum). The maximum is tried first. Only
 * a trial that met the goal is ever reported, at the rate it actually offered.
 */
int rfc_throughput(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		   struct rfc_size_result *s, unsigned int goal)
{
	struct rfc_trial t = { .frame_size = s->frame_size, .duration_s = c->trial_s };
	double lo = 0, hi = s->max_pps, step = c->resolution * s->max_pps;
	double goal_pct = c->loss_goals_pct[goal];
	struct rfc_outcome o = { 0 };
	unsigned int n = 0;
	bool pass;
	int rc;

	s->throughput[goal].goal_pct = goal_pct;
	s->throughput[goal].pps = 0;
	if (s->max_pps <= 0)
		return -EINVAL;
	t.rate_pps = hi;
	while (n < c->max_trials) {
		rc = trial(fn, ctx, r, RFC_TEST_THROUGHPUT, &t, &o, goal_pct, &pass);
		if (rc < 0)
			return rc;
		n++;
		if (pass) {
			lo = t.rate_pps;
			if (o.tx_pps > s->throughput[goal].pps) {
				s->throughput[goal].pps = o.tx_pps;
				s->throughput[goal].loss_pct = loss_pct(o.tx, o.rx);
			}
			if (n == 1) {	/* met the goal at the maximum: nothing above to find */
				s->throughput[goal].generator_limited =
					s->line_pps <= 0 || s->ceiling_pps < s->line_pps * 0.99;
				break;
			}
		} else {
			hi = t.rate_pps;
		}
		if (hi - lo < step)
			break;
		t.rate_pps = (lo + hi) / 2;
	}
	s->throughput[goal].trials = n;
	return 0;
}

/* §26.3: from 100 % of the maximum down in 10 % steps, until two successive trials lose nothing. */
int rfc_loss_sweep(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		   struct rfc_size_result *s)
{
	struct rfc_trial t = { .frame_size = s->frame_size, .duration_s = c->trial_s };
	struct rfc_outcome o = { 0 };
	unsigned int step, clean = 0;
	bool pass;
	int rc;

	s->nb_loss = 0;
	for (step = 0; step < RFC_MAX_LOSS_STEPS && clean < 2; step++) {
		double pct = 100 - 10.0 * step;

		t.rate_pps = s->max_pps * pct / 100;
		rc = trial(fn, ctx, r, RFC_TEST_LOSS, &t, &o, 0, &pass);
		if (rc < 0)
			return rc;
		s->loss[s->nb_loss].pct_of_max = pct;
		s->loss[s->nb_loss].offered_pps = o.tx_pps;
		s->loss[s->nb_loss].loss_pct = loss_pct(o.tx, o.rx);
		s->nb_loss++;
		clean = pass ? clean + 1 : 0;
	}
	return 0;
}

/*
 * §26.4: the longest burst at the maximum rate that loses nothing, found by a
 * binary search on the burst length, repeated and averaged.
 */
int rfc_back_to_back(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		     struct rfc_size_result *s)
{
	uint64_t limit = (uint64_t)(s->max_pps * c->b2b_max_s), sum = 0;
	struct rfc_trial t = { .frame_size = s->frame_size, .rate_pps = 0 };
	struct rfc_outcome o = { 0 };
	unsigned int rep;
	bool pass;
	int rc;

	if (limit < 2)
		limit = 2;
	s->b2b_min = UINT64_MAX;
	s->b2b_max = 0;
	s->b2b_bounded = false;
	for (rep = 0; rep < c->b2b_repeats; rep++) {
		uint64_t lo = 0, hi = limit + 1, best;

		/* the limit first: a DUT that buffers all of it needs one trial */
		t.frames = limit;
		for (;;) {
			t.duration_s = (double)t.frames / s->max_pps + 0.01;
			rc = trial(fn, ctx, r, RFC_TEST_B2B, &t, &o, 0, &pass);
			if (rc < 0)
				return rc;
			if (pass)
				lo = t.frames;
			else
				hi = t.frames;
			if (hi - lo <= 1 + (hi / 100))	/* within 1 % of the burst */
				break;
			t.frames = lo + (hi - lo) / 2;
		}
		best = lo;
		if (best == limit)
			s->b2b_bounded = true;
		sum += best;
		s->b2b_min = best < s->b2b_min ? best : s->b2b_min;
		s->b2b_max = best > s->b2b_max ? best : s->b2b_max;
	}
	s->b2b_runs = rep;
	s->b2b_mean = rep ? (double)sum / rep : 0;
	s->have_b2b = rep > 0;
	return 0;
}

/* §26.9: overload (110 % of the throughput, or the maximum), then half the throughput. */
static int recovery(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		    struct rfc_size_result *s)
{
	double thr = s->throughput[0].pps;
	struct rfc_trial t = { .frame_size = s->frame_size, .duration_s = c->recovery_s,
			       .duration2_s = c->recovery_s };
	struct rfc_outcome o = { 0 };
	bool pass;
	int rc;

	s->have_recovery = true;
	s->recovery_measurable = false;
	if (thr <= 0 || s->ceiling_pps < thr * 1.02)	/* cannot overload what keeps up with us */
		return 0;
	t.rate_pps = thr * 1.1 < s->ceiling_pps ? thr * 1.1 : 0;
	t.rate2_pps = thr / 2;
	rc = trial(fn, ctx, r, RFC_TEST_RECOVERY, &t, &o, 100, &pass);
	if (rc < 0)
		return rc;
	s->recovery_overload_pps = o.tx_pps;
	s->recovery_time_s = o.recovery_s;
	s->recovery_measurable = true;
	return 0;
}

static int latency(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		   struct rfc_size_result *s)
{
	struct rfc_trial t = { .frame_size = s->frame_size, .duration_s = c->latency_s,
			       .rate_pps = s->throughput[0].pps };
	struct rfc_outcome o = { 0 };
	bool pass;
	int rc;

	if (t.rate_pps <= 0)
		return 0;
	hist_init(&s->latency_ns);
	o.latency = &s->latency_ns;
	rc = trial(fn, ctx, r, RFC_TEST_LATENCY, &t, &o, 100, &pass);
	if (rc < 0)
		return rc;
	s->have_latency = s->latency_ns.count > 0;
	return 0;
}

static unsigned int tests_per_size(const struct rfc_config *c)
{
	return 1 + c->tests[RFC_TEST_THROUGHPUT] * c->nb_goals + c->tests[RFC_TEST_LATENCY] +
	       c->tests[RFC_TEST_LOSS] + c->tests[RFC_TEST_B2B] + c->tests[RFC_TEST_RECOVERY];
}

int rfc_run(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, rfc_progress_fn progress,
	    struct rfc_report *r)
{
	unsigned int i, g, done = 0, total = c->nb_sizes * tests_per_size(c);
	struct timespec t0, t1;
	time_t now = time(NULL);
	char what[96];
	int rc = 0;

	r->cfg = *c;
	r->nb_sizes = 0;
	strftime(r->started, sizeof(r->started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	clock_gettime(CLOCK_MONOTONIC, &t0);
#define STEP(fmt, ...)                                                              \
	do {                                                                        \
		snprintf(what, sizeof(what), fmt, __VA_ARGS__);                      \
		if (progress)                                                       \
			progress((double)done++ / total, what);                     \
	} while (0)
	for (i = 0; i < c->nb_sizes && rc == 0; i++) {
		struct rfc_size_result *s = &r->sizes[r->nb_sizes++];
		struct rfc_trial t = { .frame_size = c->sizes[i], .rate_pps = 0,
				       .duration_s = c->trial_s < 1 ? c->trial_s : 1 };
		struct rfc_outcome o = { 0 };
		bool pass;

		memset(s, 0, sizeof(*s));
		s->frame_size = c->sizes[i];
		s->line_pps = rfc_line_rate_pps(c->line_gbps, s->frame_size) * (c->bidirectional ? 2 : 1);
		STEP("%u B: the generator's ceiling", s->frame_size);
		if ((rc = trial(fn, ctx, r, RFC_TEST_CEILING, &t, &o, 100, &pass)) < 0)
			break;
		s->ceiling_pps = o.tx_pps;
		s->max_pps = s->line_pps > 0 && s->line_pps < s->ceiling_pps ? s->line_pps
									     : s->ceiling_pps;
		for (g = 0; c->tests[RFC_TEST_THROUGHPUT] && g < c->nb_goals && rc == 0; g++) {
			STEP("%u B: throughput, loss <= %g %%", s->frame_size, c->loss_goals_pct[g]);
			rc = rfc_throughput(c, fn, ctx, r, s, g);
		}
		if (rc == 0 && c->tests[RFC_TEST_LATENCY]) {
			STEP("%u B: latency", s->frame_size);
			rc = latency(c, fn, ctx, r, s);
		}
		if (rc == 0 && c->tests[RFC_TEST_LOSS]) {
			STEP("%u B: frame loss rate", s->frame_size);
			rc = rfc_loss_sweep(c, fn, ctx, r, s);
		}
		if (rc == 0 && c->tests[RFC_TEST_B2B]) {
			STEP("%u B: back-to-back", s->frame_size);
			rc = rfc_back_to_back(c, fn, ctx, r, s);
		}
		if (rc == 0 && c->tests[RFC_TEST_RECOVERY]) {
			STEP("%u B: system recovery", s->frame_size);
			rc = recovery(c, fn, ctx, r, s);
		}
	}
#undef STEP
	if (progress)
		progress(1, "done");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->wall_s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return rc;
}

void rfc_report_free(struct rfc_report *r)
{
	free(r->trials);
	free(r->dut_info);
	r->trials = NULL;
	r->dut_info = NULL;
	r->nb_trials = r->cap_trials = 0;
}
