/* SPDX-License-Identifier: BSD-3-Clause */
/* Turns the configuration into EAL's argument vector. */
#ifndef TERN_EAL_ARGS_H
#define TERN_EAL_ARGS_H

#include "controlplane/ternd/config.h"

#define TERN_EAL_MAX_ARGS 128

struct tern_eal_args {
	int argc;
	char *argv[TERN_EAL_MAX_ARGS + 1];
	char storage[4096];
};

/*
 * [eal] args, then what the ports and workers need: --vdev for virtual
 * devices, -a for PCI ones (and --no-pci when there are none, so the host's
 * own NICs are never probed), -l with the main and worker lcores unless
 * given, --file-prefix tern unless given.
 */
int tern_eal_args_build(const struct tern_config *cfg, struct tern_eal_args *a, char *err,
			size_t errlen);

#endif
