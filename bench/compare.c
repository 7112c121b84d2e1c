/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tern-bench compare: each router under test in turn, a short slice each,
 * from one generator that stays connected to all of them. Slices follow each
 * other by milliseconds, so a round compares routers that met the same
 * machine, however that machine's speed drifts between rounds.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench/compare.h"
#include "bench/ports.h"

/* Whether /proc says the process is stopped (state T); -ESRCH when it is gone. */
static int proc_stopped(pid_t pid)
{
	char path[64], buf[512], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -ESRCH;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold spaces and parentheses, the state follows the last ')' */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ' || p[2] == '\0')
		return -EIO;
	if (p[2] == 'Z' || p[2] == 'X')
		return -ESRCH;
	return p[2] == 'T';
}

int compare_continue_all(struct compare_dut *duts, unsigned int nb)
{
	unsigned int d;
	int st;

	for (d = 0; d < nb; d++) {
		if (!duts[d].pid)
			continue;
		if ((st = proc_stopped(duts[d].pid)) < 0 || kill(duts[d].pid, SIGCONT) < 0) {
			fprintf(stderr, "tern-bench: %s: process %d is not running\n", duts[d].name,
				(int)duts[d].pid);
			return -ESRCH;
		}
		duts[d].found = true;
		duts[d].was_stopped = st;
	}
	return 0;
}

void compare_restore_all(const struct compare_dut *duts, unsigned int nb)
{
	unsigned int d;

	for (d = 0; d < nb; d++)
		if (duts[d].pid && duts[d].found)
			kill(duts[d].pid, duts[d].was_stopped ? SIGSTOP : SIGCONT);
}

static void compare_slice(struct compare_dut *dut, const struct compare_params *cp,
			  struct rte_mempool *mp, struct compare_slice *s)
{
	const struct gen_trial warm = { .duration_s = cp->warmup_s, .settle_s = 0.01 };
	const struct gen_trial trial = { .duration_s = cp->slice_s, .settle_s = 0.05 };
	struct gen_trial_result r = { .latency_ns = NULL };	/* gen_trial reads it: no histogram */

	memset(s, 0, sizeof(*s));
	if (dut->pid && kill(dut->pid, SIGCONT) < 0) {
		s->why = "its process is gone";
		return;
	}
	if (!bench_port_link_up(dut->gen.tx_port) || !bench_port_link_up(dut->gen.rx_port)) {
		s->why = "its link is down";
	} else if ((cp->warmup_s > 0 && gen_trial(&dut->gen, 1, mp, &warm, &r) < 0) ||
		   gen_trial(&dut->gen, 1, mp, &trial, &r) < 0 || r.elapsed_s <= 0) {
		s->why = "the generator failed";
	} else if (r.rx == 0) {
		s->why = "it forwarded nothing";
	} else {
		s->ok = true;
		s->rx_pps = r.rx / r.elapsed_s;
		s->loss_percent = r.tx ? 100.0 * (double)(r.tx - (r.rx < r.tx ? r.rx : r.tx)) / r.tx : 0;
	}
	/* stopped at once: the next contender shares its CPU */
	if (dut->pid)
		kill(dut->pid, SIGSTOP);
}

int compare_run(struct compare_dut *duts, unsigned int nb, const struct compare_params *cp,
		struct rte_mempool *mp, struct compare_slice *slices, FILE *log,
		volatile const sig_atomic_t *quit)
{
	unsigned int r, k, d;

	if (nb == 0 || nb > COMPARE_MAX_DUTS || cp->rounds == 0 || cp->slice_s <= 0)
		return -EINVAL;
	for (d = 0; d < nb; d++)
		if (duts[d].pid)
			kill(duts[d].pid, SIGSTOP);
	for (r = 0; r < cp->rounds; r++) {
		for (k = 0; k < nb; k++) {
			struct compare_slice *s;

			if (*quit)
				return -EINTR;
			d = (r + k) % nb;
			s = &slices[r * nb + d];
			compare_slice(&duts[d], cp, mp, s);
			if (s->ok)
				fprintf(log, "round %u  %-8s %10.3f Mpps  (loss %.4f %%)\n", r + 1,
					duts[d].name, s->rx_pps / 1e6, s->loss_percent);
			else
				fprintf(log, "round %u  %-8s no result: %s\n", r + 1, duts[d].name, s->why);
			fflush(log);
		}
	}
	return 0;
}
