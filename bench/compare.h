/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench compare: routers under test in turn, short slices, from one generator. */
#ifndef TERN_BENCH_COMPARE_H
#define TERN_BENCH_COMPARE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <rte_mempool.h>

#include "bench/gen.h"

#define COMPARE_MAX_DUTS 12	/* make bench's contenders, all of them */

/*
 * One router under test: the generator's stream to it (its two ports, the
 * router's MAC, the queues it answers on) and, when pid is set, the process
 * that is continued for its slices and stopped between them, so contenders
 * that share a CPU take turns on it.
 */
struct compare_dut {
	char name[32];
	pid_t pid;		/* 0: never signalled */
	bool found;		/* its state was read (compare_continue_all) */
	bool was_stopped;	/* as found; left so at the end */
	struct gen_params gen;
};

struct compare_params {
	unsigned int rounds;
	double slice_s;		/* measured time per slice */
	double warmup_s;	/* traffic before each slice, not counted */
};

/* A slice's result: forwarded frames per second, or none (link down, process gone). */
struct compare_slice {
	bool ok;
	double rx_pps;
	double loss_percent;
	const char *why;	/* when !ok */
};

/*
 * Round r runs every contender once, starting with contender r % nb, each
 * slice a few milliseconds after the last. slices[r * nb + d] gets each
 * result; progress lines go to log. Stops early, returning -EINTR, once
 * *quit is set (checked between slices).
 */
int compare_run(struct compare_dut *duts, unsigned int nb, const struct compare_params *cp,
		struct rte_mempool *mp, struct compare_slice *slices, FILE *log,
		volatile const sig_atomic_t *quit);

/* Contenders with a pid: each is continued (for the ports to connect) or put back as it was found. */
int compare_continue_all(struct compare_dut *duts, unsigned int nb);
void compare_restore_all(const struct compare_dut *duts, unsigned int nb);

#endif
