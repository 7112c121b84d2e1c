/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 2544 procedures against a simulated device of known capacity, and the report writers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/rfc2544.h"

/* A DUT that forwards up to capacity (plus or minus noise), buffers some frames, and a generator's ceiling. */
struct sim {
	double capacity_pps, noise, ceiling_pps, buffer_frames, recovery_s;
	uint64_t rng;
	unsigned int trials;
};

static double uniform(struct sim *s)	/* -1 .. 1 */
{
	s->rng = s->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(s->rng >> 11) / (double)(1ull << 53) * 2 - 1;
}

static int sim_trial(void *ctx, const struct rfc_trial *t, struct rfc_outcome *o)
{
	struct sim *s = ctx;
	double offered = t->rate_pps > 0 && t->rate_pps < s->ceiling_pps ? t->rate_pps : s->ceiling_pps;
	double cap = s->capacity_pps * (1 + s->noise * uniform(s));

	s->trials++;
	if (t->frames) {	/* a burst at the ceiling: the buffer absorbs what the DUT cannot forward */
		double keep = s->buffer_frames / (1 - (cap < offered ? cap / offered : 1));

		o->tx = t->frames;
		o->rx = cap >= offered || t->frames <= keep ? t->frames : (uint64_t)keep;
		o->tx_pps = offered;
		return 0;
	}
	o->tx = (uint64_t)(offered * t->duration_s);
	o->rx = offered <= cap ? o->tx : (uint64_t)(o->tx * cap / offered);
	o->tx_pps = offered;
	o->elapsed_s = t->duration_s;
	if (t->rate2_pps > 0)
		o->recovery_s = s->recovery_s;
	if (o->latency)
		for (int i = 0; i < 1000; i++)
			hist_add(o->latency, 5000 + i);
	return 0;
}

static struct rfc_size_result size_at(struct sim *s, uint16_t fs)
{
	struct rfc_size_result z = { .frame_size = fs, .ceiling_pps = s->ceiling_pps,
				     .max_pps = s->ceiling_pps };

	return z;
}

static void test_line_rate_arithmetic(void **state)
{
	assert_float_equal(rfc_line_rate_pps(10, 64), 14880952.38, 0.01);
	assert_float_equal(rfc_line_rate_pps(10, 1518), 812743.82, 0.01);
	assert_float_equal(rfc_line_rate_pps(100, 64), 148809523.8, 0.1);
	assert_float_equal(rfc_line_rate_pps(0, 64), 0, 0);
	assert_float_equal(rfc_wire_bps(14880952.38, 64), 10e9, 1);
	assert_float_equal(rfc_wire_bps(812743.82, 1518), 10e9, 1);
}

static void test_throughput_converges_within_resolution(void **state)
{
	struct sim s = { .capacity_pps = 5.3e6, .ceiling_pps = 14e6, .rng = 1 };
	struct rfc_config c;
	struct rfc_report r = { 0 };
	struct rfc_size_result z = size_at(&s, 64);

	rfc_config_defaults(&c, true);
	c.resolution = 0.001;
	c.max_trials = 30;
	assert_int_equal(rfc_throughput(&c, sim_trial, &s, &r, &z, 0), 0);
	assert_true(z.throughput[0].pps <= s.capacity_pps);
	assert_true(z.throughput[0].pps >= s.capacity_pps - c.resolution * s.ceiling_pps);
	assert_false(z.throughput[0].generator_limited);
	assert_true(z.throughput[0].trials <= 12);	/* log2(1/0.001) + the first at the maximum */
	rfc_report_free(&r);
}

/* With noise, whatever is reported is a rate a trial offered without loss, near the capacity. */
static void test_throughput_with_noise_never_reports_a_lossy_rate(void **state)
{
	struct rfc_config c;
	unsigned int seed, i;

	rfc_config_defaults(&c, true);
	c.resolution = 0.005;
	c.max_trials = 20;
	for (seed = 1; seed <= 200; seed++) {
		struct sim s = { .capacity_pps = 3e6 + seed * 1e4, .noise = 0.02, .ceiling_pps = 10e6,
				 .rng = seed };
		struct rfc_report r = { 0 };
		struct rfc_size_result z = size_at(&s, 128);
		bool found = false;

		assert_int_equal(rfc_throughput(&c, sim_trial, &s, &r, &z, 0), 0);
		assert_true(z.throughput[0].pps > 0);
		for (i = 0; i < r.nb_trials; i++) {
			if (r.trials[i].tx_pps == z.throughput[0].pps) {
				found = true;
				assert_true(r.trials[i].pass);
				assert_true(r.trials[i].rx >= r.trials[i].tx);
			}
		}
		assert_true(found);
		assert_true(z.throughput[0].pps <= s.capacity_pps * 1.02);
		assert_true(z.throughput[0].pps >= s.capacity_pps * 0.98 - c.resolution * s.ceiling_pps);
		rfc_report_free(&r);
	}
}

static void test_throughput_of_a_dut_that_drops_everything_is_zero(void **state)
{
	struct sim s = { .capacity_pps = 0, .ceiling_pps = 1e6, .rng = 3 };
	struct rfc_config c;
	struct rfc_report r = { 0 };
	struct rfc_size_result z = size_at(&s, 64);

	rfc_config_defaults(&c, true);
	assert_int_equal(rfc_throughput(&c, sim_trial, &s, &r, &z, 0), 0);
	assert_float_equal(z.throughput[0].pps, 0, 0);
	assert_true(z.throughput[0].trials >= 2 && z.throughput[0].trials <= c.max_trials);
	rfc_report_free(&r);
}

static void test_generator_limit_is_said(void **state)
{
	struct sim s = { .capacity_pps = 50e6, .ceiling_pps = 8e6, .rng = 4 };
	struct rfc_config c;
	struct rfc_report r = { 0 };
	struct rfc_size_result z = size_at(&s, 64);

	rfc_config_defaults(&c, true);
	z.line_pps = rfc_line_rate_pps(10, 64);	/* 14.88 Mpps: the generator cannot reach it */
	assert_int_equal(rfc_throughput(&c, sim_trial, &s, &r, &z, 0), 0);
	assert_int_equal(z.throughput[0].trials, 1);
	assert_float_equal(z.throughput[0].pps, 8e6, 1);
	assert_true(z.throughput[0].generator_limited);
	rfc_report_free(&r);
}

static void test_partial_drop_rate_is_at_least_the_no_drop_rate(void **state)
{
	struct sim s = { .capacity_pps = 4e6, .ceiling_pps = 10e6, .rng = 5 };
	struct rfc_config c;
	struct rfc_report r = { 0 };
	struct rfc_size_result z = size_at(&s, 64);

	rfc_config_defaults(&c, true);
	c.nb_goals = 2;
	c.loss_goals_pct[1] = 5;
	c.max_trials = 30;
	c.resolution = 0.001;
	assert_int_equal(rfc_throughput(&c, sim_trial, &s, &r, &z, 0), 0);
	assert_int_equal(rfc_throughput(&c, sim_trial, &s, &r, &z, 1), 0);
	assert_true(z.throughput[1].pps > z.throughput[0].pps);
	/* 5 % loss is reached at capacity / 0.95 */
	assert_true(z.throughput[1].pps <= 4e6 / 0.95);
	assert_true(z.throughput[1].pps >= 4e6 / 0.95 - 0.001 * 10e6);
	assert_true(z.throughput[1].loss_pct <= 5);
	rfc_report_free(&r);
}

static void test_loss_sweep_stops_after_two_clean_trials(void **state)
{
	struct sim s = { .capacity_pps = 7.5e6, .ceiling_pps = 10e6, .rng = 6 };
	struct rfc_config c;
	struct rfc_report r = { 0 };
	struct rfc_size_result z = size_at(&s, 64);

	rfc_config_defaults(&c, true);
	assert_int_equal(rfc_loss_sweep(&c, sim_trial, &s, &r, &z), 0);
	assert_int_equal(z.nb_loss, 5);	/* 100 90 80 lose, 70 60 clean */
	assert_float_equal(z.loss[0].pct_of_max, 100, 0);
	assert_float_equal(z.loss[0].loss_pct, 25, 0.01);
	assert_float_equal(z.loss[2].loss_pct, 100 * (1 - 7.5 / 8), 0.01);
	assert_float_equal(z.loss[3].loss_pct, 0, 0);
	assert_float_equal(z.loss[4].pct_of_max, 60, 0);
	rfc_report_free(&r);
}

static void test_back_to_back_finds_the_buffer(void **state)
{
	/* forwards half the offered rate, buffers 1000 frames: bursts up to 2000 pass */
	struct sim s = { .capacity_pps = 5e6, .ceiling_pps = 10e6, .buffer_frames = 1000, .rng = 7 };
	struct rfc_config c;
	struct rfc_report r = { 0 };
	struct rfc_size_result z = size_at(&s, 64);

	rfc_config_defaults(&c, true);
	c.b2b_repeats = 4;
	c.b2b_max_s = 0.01;	/* up to 100 000 frames */
	assert_int_equal(rfc_back_to_back(&c, sim_trial, &s, &r, &z), 0);
	assert_int_equal(z.b2b_runs, 4);
	assert_false(z.b2b_bounded);
	assert_true(z.b2b_mean <= 2000);
	assert_true(z.b2b_mean >= 2000 * 0.98);

	/* a DUT that keeps up: every burst passes, and the report says the limit was reached */
	s.capacity_pps = 20e6;
	memset(&z, 0, sizeof(z));
	z = size_at(&s, 64);
	assert_int_equal(rfc_back_to_back(&c, sim_trial, &s, &r, &z), 0);
	assert_true(z.b2b_bounded);
	assert_float_equal(z.b2b_mean, 100000, 0);
	rfc_report_free(&r);
}

static void run_all(struct sim *s, struct rfc_report *r, double line_gbps)
{
	struct rfc_config c;

	rfc_config_defaults(&c, true);
	c.nb_sizes = 3;
	c.sizes[0] = 64, c.sizes[1] = 512, c.sizes[2] = 1518;
	c.nb_goals = 2;
	c.loss_goals_pct[1] = 0.5;
	c.line_gbps = line_gbps;
	assert_int_equal(rfc_run(&c, sim_trial, s, NULL, r), 0);
}

static void test_full_run_fills_every_test(void **state)
{
	struct sim s = { .capacity_pps = 2e6, .ceiling_pps = 6e6, .buffer_frames = 500,
			 .recovery_s = 0.004, .rng = 8 };
	struct rfc_report r = { 0 };
	unsigned int i;

	run_all(&s, &r, 10);
	assert_int_equal(r.nb_sizes, 3);
	for (i = 0; i < 3; i++) {
		const struct rfc_size_result *z = &r.sizes[i];

		assert_float_equal(z->ceiling_pps, 6e6, 1);
		/* 512 and 1518 B frames: the 10G line is below the ceiling, so it is the maximum */
		assert_float_equal(z->max_pps, i == 0 ? 6e6 : rfc_line_rate_pps(10, z->frame_size), 1);
		assert_true(z->throughput[0].pps > 0);
		assert_true(z->have_latency);
		assert_int_equal(z->latency_ns.count, 1000);
		assert_true(z->nb_loss >= 2);
		assert_true(z->have_b2b);
		assert_true(z->have_recovery);
	}
	assert_true(r.sizes[0].recovery_measurable);
	assert_float_equal(r.sizes[0].recovery_time_s, 0.004, 1e-9);
	rfc_report_free(&r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void test_report_files_are_written_and_valid(void **state)
{
	struct sim s = { .capacity_pps = 1e6, .ceiling_pps = 3e6, .buffer_frames = 100, .rng = 9 };
	struct rfc_report r = { 0 };
	char dir[] = "/tmp/tern-rfc2544-XXXXXX", path[256], err[256], cmd[512];
	char *text;

	run_all(&s, &r, 0);
	snprintf(r.generator, sizeof(r.generator), "simulated \"DUT\"");
	r.dut_info = strdup("line one\nline \"two\"\tend");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(rfc_write_all(&r, dir, err, sizeof(err)), 0);

	snprintf(path, sizeof(path), "%s/results.json", dir);
	text = slurp(path);
	assert_non_null(strstr(text, "\"frame_size\": 1518"));
	assert_non_null(strstr(text, "\"pct_of_line\": null"));	/* speed unknown */
	assert_non_null(strstr(text, "line one\\nline \\\"two\\\"\\tend"));
	free(text);
	/* a real parser, where the machine has one */
	snprintf(cmd, sizeof(cmd), "command -v python3 >/dev/null || exit 0; python3 -c "
		 "'import json,sys; d = json.load(open(sys.argv[1])); assert len(d[\"sizes\"]) == 3' %s",
		 path);
	assert_int_equal(system(cmd), 0);

	snprintf(path, sizeof(path), "%s/results.csv", dir);
	text = slurp(path);
	assert_true(strncmp(text, "frame_size,test,parameter,value,unit\n", 37) == 0);
	assert_non_null(strstr(text, "1518,throughput,loss<=0.5%,"));
	free(text);

	snprintf(path, sizeof(path), "%s/report.md", dir);
	text = slurp(path);
	assert_non_null(strstr(text, "# RFC 2544 report"));
	assert_non_null(strstr(text, "## Back-to-back frames"));
	assert_non_null(strstr(text, "![throughput](throughput.svg)"));
	free(text);

	for (const char *const *n = (const char *const[]){ "throughput.svg", "latency.svg", "loss.svg", NULL };
	     *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *n);
		text = slurp(path);
		assert_true(strncmp(text, "<?xml", 5) == 0);
		assert_non_null(strstr(text, "<polyline"));
		assert_non_null(strstr(text, "</svg>\n"));
		assert_null(strstr(text, "nan"));
		free(text);
		snprintf(cmd, sizeof(cmd), "command -v python3 >/dev/null || exit 0; python3 -c "
			 "'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' %s", path);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	/* a directory that cannot be made: one clear sentence */
	assert_true(rfc_write_all(&r, "/proc/no/such/dir", err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot make the directory /proc/no/such/dir"));
	rfc_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_rate_arithmetic),
		cmocka_unit_test(test_throughput_converges_within_resolution),
		cmocka_unit_test(test_throughput_with_noise_never_reports_a_lossy_rate),
		cmocka_unit_test(test_throughput_of_a_dut_that_drops_everything_is_zero),
		cmocka_unit_test(test_generator_limit_is_said),
		cmocka_unit_test(test_partial_drop_rate_is_at_least_the_no_drop_rate),
		cmocka_unit_test(test_loss_sweep_stops_after_two_clean_trials),
		cmocka_unit_test(test_back_to_back_finds_the_buffer),
		cmocka_unit_test(test_full_run_fills_every_test),
		cmocka_unit_test(test_report_files_are_written_and_valid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
