/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench compare: routers under test in turn from one generator. */
#ifndef TERN_BENCH_CMD_COMPARE_H
#define TERN_BENCH_CMD_COMPARE_H

int compare_cmd(int argc, char **argv);

#endif
