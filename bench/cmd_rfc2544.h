/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench rfc2544: the RFC 2544 runner over tern-bench's generator. */
#ifndef TERN_BENCH_CMD_RFC2544_H
#define TERN_BENCH_CMD_RFC2544_H

int rfc2544_cmd(int argc, char **argv);

#endif
