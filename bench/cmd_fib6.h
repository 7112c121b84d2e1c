/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench fib6-candidates: the IPv6 lookup structures DPDK offers, measured side by side. */
#ifndef TERN_BENCH_CMD_FIB6_H
#define TERN_BENCH_CMD_FIB6_H

int fib6_candidates_cmd(int argc, char **argv);

#endif
