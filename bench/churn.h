/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench churn: kernel route changes at a steady rate, packed as a routing daemon packs them. */
#ifndef TERN_BENCH_CHURN_H
#define TERN_BENCH_CHURN_H

#include <stdbool.h>
#include <stdint.h>

struct churn_params {
	uint32_t base;		/* the covering prefix, host order */
	uint8_t base_len;
	uint8_t len;		/* of the routes added and removed: base_len + 1 .. base_len + 24 */
	uint32_t via;		/* their gateway, host order */
	double rate;		/* changes a second */
	double seconds;
};

struct churn_result {
	uint64_t changes;	/* sent: adds and deletes */
	uint64_t batches;	/* sendmsg calls */
	uint64_t errors;	/* changes the kernel refused */
	int first_error;	/* its errno */
	double seconds;
	double cpu_s;		/* this process's, the kernel's work on the changes included */
};

/* Prefixes of p->len under the covering prefix: change n touches slot n / 2 mod this. */
uint64_t churn_slots(const struct churn_params *p);
/* Change n as an rtnetlink request of CHURN_ROUTE_MSG_SIZE bytes: even n adds slot n / 2, odd
 * n deletes it. */
#define CHURN_ROUTE_MSG_SIZE 44
void churn_route_msg_build(void *buf, const struct churn_params *p, uint64_t n, uint32_t seq);
int churn_run(const struct churn_params *p, struct churn_result *r);
/* tern-bench churn --via A.B.C.D [--within P/L] [--len L] [--rate N] [--seconds S] [--json] */
int churn_cmd(int argc, char **argv);

#endif
