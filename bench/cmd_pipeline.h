/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench pipeline: the forwarding nodes measured without I/O. */
#ifndef TERN_BENCH_CMD_PIPELINE_H
#define TERN_BENCH_CMD_PIPELINE_H

int pipeline_cmd(int argc, char **argv);

#endif
