/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency histogram: log-linear buckets (16 per power of two) in nanoseconds, exact min/max/avg. */
#ifndef TERN_BENCH_HISTOGRAM_H
#define TERN_BENCH_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB 16
#define HIST_BUCKETS (64 * HIST_SUB)

struct histogram {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct histogram *h);
void hist_add(struct histogram *h, uint64_t v);
/* The value below which a fraction q (0..1) of the samples lie, within 1/16 of an octave. */
uint64_t hist_quantile(const struct histogram *h, double q);
uint64_t hist_bucket_low(unsigned int b);

#endif
