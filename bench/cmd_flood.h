/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench flood: ARP or neighbour solicitations and echo requests at the router, flat out. */
#ifndef TERN_BENCH_CMD_FLOOD_H
#define TERN_BENCH_CMD_FLOOD_H

int flood_cmd(int argc, char **argv);

#endif
