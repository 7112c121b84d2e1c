/* SPDX-License-Identifier: BSD-3-Clause */
/* Builds EAL's argv from ternd.conf so that only the configured devices are probed. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "controlplane/ternd/eal_args.h"

struct builder {
	struct tern_eal_args *a;
	size_t used;
};

static int push(struct builder *b, const char *s)
{
	size_t n = strlen(s) + 1;

	if (b->a->argc >= TERN_EAL_MAX_ARGS || b->used + n > sizeof(b->a->storage))
		return -E2BIG;
	memcpy(b->a->storage + b->used, s, n);
	b->a->argv[b->a->argc++] = b->a->storage + b->used;
	b->a->argv[b->a->argc] = NULL;
	b->used += n;
	return 0;
}

static bool has_arg(const struct tern_eal_args *a, const char *const *names)
{
	int i, k;

	for (i = 1; i < a->argc; i++)
		for (k = 0; names[k]; k++)
			if (strcmp(a->argv[i], names[k]) == 0 ||
			    (strncmp(a->argv[i], names[k], strlen(names[k])) == 0 &&
			     a->argv[i][strlen(names[k])] == '='))
				return true;
	return false;
}

int tern_eal_args_build(const struct tern_config *cfg, struct tern_eal_args *a, char *err,
			size_t errlen)
{
	static const char *const lcore_opts[] = { "-l", "-c", "--lcores", NULL };
	static const char *const pci_opts[] = { "-a", "--allow", "-b", "--block", "--no-pci", NULL };
	static const char *const prefix_opts[] = { "--file-prefix", "--in-memory", NULL };
	struct builder b = { .a = a };
	char buf[sizeof(cfg->eal_args)], *tok, *save = NULL, lcores[1024];
	bool any_pci = false;
	unsigned int i;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	rc |= push(&b, "ternd");
	snprintf(buf, sizeof(buf), "%s", cfg->eal_args);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		rc |= push(&b, tok);
	if (!has_arg(a, lcore_opts)) {
		int n = snprintf(lcores, sizeof(lcores), "%u", cfg->main_lcore);

		for (i = 0; i < cfg->nb_workers && n < (int)sizeof(lcores); i++)
			n += snprintf(lcores + n, sizeof(lcores) - n, ",%u", cfg->workers[i].lcore);
		rc |= push(&b, "-l");
		rc |= push(&b, lcores);
		if (cfg->main_lcore != 0) {
			snprintf(lcores, sizeof(lcores), "%u", cfg->main_lcore);
			rc |= push(&b, "--main-lcore");
			rc |= push(&b, lcores);
		}
	}
	for (i = 0; i < cfg->nb_ports; i++)
		any_pci |= cfg->ports[i].is_pci;
	if (!any_pci && !has_arg(a, pci_opts))
		rc |= push(&b, "--no-pci");
	for (i = 0; i < cfg->nb_ports; i++) {
		if (cfg->ports[i].is_bond)
			continue;	/* made by ternd on its members (dataplane/l2/bond.c) */
		rc |= push(&b, cfg->ports[i].is_pci ? "-a" : "--vdev");
		rc |= push(&b, cfg->ports[i].dev);
	}
	if (!has_arg(a, prefix_opts)) {
		rc |= push(&b, "--file-prefix");
		rc |= push(&b, "tern");
	}
	if (cfg->log_syslog) {
		rc |= push(&b, "--syslog");
		rc |= push(&b, "daemon");
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s: [eal] args: too many EAL arguments (at most %d)",
			 cfg->path, TERN_EAL_MAX_ARGS);
		return -E2BIG;
	}
	return 0;
}
