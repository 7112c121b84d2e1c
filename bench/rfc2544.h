/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2544 §26 procedures (throughput, latency, frame loss rate, back-to-back,
 * system recovery) over any device under test, reached through one trial
 * function: the runner drives tern-bench's generator with it, the unit tests
 * a simulated device of known capacity.
 */
#ifndef TERN_BENCH_RFC2544_H
#define TERN_BENCH_RFC2544_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/histogram.h"

#define RFC_MAX_SIZES 16
#define RFC_MAX_GOALS 4
#define RFC_MAX_LOSS_STEPS 10
#define RFC_OVERHEAD_BYTES 20	/* preamble, start delimiter and inter-frame gap */

/* One trial: offer frames of one size at a rate, for a time or a count. */
struct rfc_trial {
	uint16_t frame_size;	/* on the wire, CRC included */
	double rate_pps;	/* 0: as fast as the generator can send */
	double duration_s;
	uint64_t frames;	/* > 0: stop sending after this many (back-to-back) */
	double rate2_pps;	/* > 0: after duration_s, this rate for duration2_s (recovery) */
	double duration2_s;
};

struct rfc_outcome {
	uint64_t tx, rx;
	double tx_pps;		/* the rate actually offered during the (first) phase */
	double elapsed_s;
	double recovery_s;	/* second phase: from its start to the last frame lost; 0 = none lost */
	struct histogram *latency;	/* filled when the caller gives one */
};

typedef int (*rfc_trial_fn)(void *ctx, const struct rfc_trial *t, struct rfc_outcome *o);

enum rfc_test {
	RFC_TEST_CEILING,
	RFC_TEST_THROUGHPUT,
	RFC_TEST_LATENCY,
	RFC_TEST_LOSS,
	RFC_TEST_B2B,
	RFC_TEST_RECOVERY,
};

struct rfc_trial_record {
	enum rfc_test test;
	uint16_t frame_size;
	double rate_pps, tx_pps;
	uint64_t tx, rx;
	double loss_pct;
	bool pass;
};

struct rfc_config {
	uint16_t sizes[RFC_MAX_SIZES];
	unsigned int nb_sizes;
	double loss_goals_pct[RFC_MAX_GOALS];	/* 0 = RFC throughput (NDR); e.g. 0.5 = PDR */
	unsigned int nb_goals;
	double line_gbps;		/* 0: unknown */
	double trial_s;			/* throughput and frame-loss trials (RFC: 60) */
	double latency_s;		/* latency trial (RFC: 120) */
	double resolution;		/* search stops when hi - lo < resolution x max rate */
	unsigned int max_trials;	/* per search */
	unsigned int b2b_repeats;	/* RFC: 50 */
	double b2b_max_s;		/* longest burst tried, in seconds at the maximum rate */
	double recovery_s;		/* overload time (RFC: 60); as long again at half rate */
	bool tests[RFC_TEST_RECOVERY + 1];
	bool quick;
	bool bidirectional;		/* rates are then the sum of both directions */
	bool ipv6;			/* IPv6/UDP frames (RFC 5180) */
};

struct rfc_size_result {
	uint16_t frame_size;
	double line_pps;		/* theoretical, 0 when the speed is unknown */
	double ceiling_pps;		/* what the generator offered flat out */
	double max_pps;			/* the searches' upper bound: min(line, ceiling) */
	struct {
		double goal_pct;
		double pps;		/* highest rate offered whose trial met the goal; 0: none */
		double loss_pct;	/* that trial's loss */
		unsigned int trials;
		bool generator_limited;	/* the DUT met the goal at the generator's ceiling */
	} throughput[RFC_MAX_GOALS];
	bool have_latency;
	struct histogram latency_ns;
	unsigned int nb_loss;
	struct {
		double pct_of_max, offered_pps, loss_pct;
	} loss[RFC_MAX_LOSS_STEPS];
	bool have_b2b, b2b_bounded;	/* bounded: no burst up to the search's limit lost a frame */
	double b2b_mean;
	uint64_t b2b_min, b2b_max;
	unsigned int b2b_runs;
	bool have_recovery, recovery_measurable;
	double recovery_overload_pps, recovery_time_s;
};

struct rfc_report {
	struct rfc_config cfg;
	struct rfc_size_result sizes[RFC_MAX_SIZES];
	unsigned int nb_sizes;
	struct rfc_trial_record *trials;
	unsigned int nb_trials, cap_trials;
	char started[32];		/* ISO 8601, UTC */
	double wall_s;
	char generator[1024];		/* ports and versions of the generator */
	char *dut_info;			/* the DUT's own account (tern --json), or NULL */
};

/* Progress: called before each trial with a fraction done (0..1) and what runs. */
typedef void (*rfc_progress_fn)(double done, const char *what);

/* Frames per second on a link of gbps for frames of size bytes (CRC included, plus 20 of overhead). */
double rfc_line_rate_pps(double gbps, uint16_t frame_size);
/* Bits per second on the wire for that many frames per second. */
double rfc_wire_bps(double pps, uint16_t frame_size);
/* The RFC's defaults, or the --quick profile. */
void rfc_config_defaults(struct rfc_config *c, bool quick);
/* Runs every enabled test for every frame size; 0, or a negative errno from the trial function. */
int rfc_run(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, rfc_progress_fn progress,
	    struct rfc_report *r);
void rfc_report_free(struct rfc_report *r);

/* The single procedures, also used by the tests. */
int rfc_throughput(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		   struct rfc_size_result *s, unsigned int goal);
int rfc_loss_sweep(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		   struct rfc_size_result *s);
int rfc_back_to_back(const struct rfc_config *c, rfc_trial_fn fn, void *ctx, struct rfc_report *r,
		     struct rfc_size_result *s);

/* Report writers (rfc2544_report.c, rfc2544_svg.c); each returns 0 or a negative errno. */
int rfc_write_json(const struct rfc_report *r, FILE *f);
int rfc_write_csv(const struct rfc_report *r, FILE *f);
int rfc_write_markdown(const struct rfc_report *r, FILE *f);
int rfc_write_svg_throughput(const struct rfc_report *r, FILE *f);
int rfc_write_svg_latency(const struct rfc_report *r, FILE *f);
int rfc_write_svg_loss(const struct rfc_report *r, FILE *f);
/* Writes report.md, results.json, results.csv and the three charts into dir (made if missing). */
int rfc_write_all(const struct rfc_report *r, const char *dir, char *err, size_t errlen);
/* The terminal summary. */
void rfc_print_summary(const struct rfc_report *r, FILE *f);

#endif
