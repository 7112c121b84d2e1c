/* SPDX-License-Identifier: BSD-3-Clause */
/* Leaving EAL at exit without tripping DPDK 22.11's memif listener (see the .c). */
#ifndef TERN_EAL_EXIT_H
#define TERN_EAL_EXIT_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>

/* Whether dev, a device string, makes a memif port that listens on its socket (role server). */
bool eal_exit_memif_listens(const char *dev);

/* Notes a port's device string ("net_memif0,role=server,..."): call it for every port made. */
void eal_exit_note_port(const char *dev);

/* rte_eal_cleanup(), unless a port it cannot survive was made (a memif server): then EAL's
 * memory stays mapped until the process ends. Returns whether it cleaned up. */
bool eal_exit_cleanup(void);

#endif
