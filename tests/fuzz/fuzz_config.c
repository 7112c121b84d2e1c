/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: any ternd.conf: one precise error or a valid configuration, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "controlplane/ternd/config.h"
#include "controlplane/ternd/eal_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tern_config cfg;
	struct tern_eal_args eal;
	char path[64], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/tern-fuzz-config-%d", getpid());
	f = fopen(path, "w");
	if (f == NULL)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	err[0] = '\0';
	if (tern_config_load(path, &cfg, err, sizeof(err)) == 0)
		tern_eal_args_build(&cfg, &eal, err, sizeof(err));
	else if (err[0] == '\0' || strchr(err, '\n') != NULL)
		__builtin_trap();	/* every refusal is one line */
	unlink(path);
	return 0;
}
