/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether a call came from DPDK's memif PMD, for the interposers of ternd's shared build. */
#ifndef TERN_MEMIF_PMD_CALLER_H
#define TERN_MEMIF_PMD_CALLER_H

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

/* caller: __builtin_return_address(0) of the interposed function. dladdr names the shared
 * library the address lies in; in ternd-static the PMD is ternd's own text, and its calls
 * reach the guards by renamed symbols instead (Makefile, MEMIF_GUARDED). */
static inline bool memif_pmd_is_caller(const void *caller)
{
	Dl_info info;

	return dladdr(caller, &info) != 0 && info.dli_fname != NULL &&
	       strstr(info.dli_fname, "librte_net_memif") != NULL;
}

#endif
