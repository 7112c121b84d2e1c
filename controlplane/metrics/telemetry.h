/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd's commands on DPDK's telemetry socket. */
#ifndef TERN_TELEMETRY_H
#define TERN_TELEMETRY_H

void tern_telemetry_register(void);

#endif
