/* SPDX-License-Identifier: BSD-3-Clause */
/* The workers' caches of access-list verdicts (acl_cache.h). */
#include <errno.h>

#include <rte_malloc.h>

#include "dataplane/acl/acl_cache.h"

struct acl_cache *acl_caches;
static unsigned int nb_caches;

static void caches_free(void)
{
	unsigned int w;

	for (w = 0; acl_caches != NULL && w < nb_caches; w++) {
		rte_free(acl_caches[w].v4);
		rte_free(acl_caches[w].v6);
	}
	rte_free(acl_caches);
	acl_caches = NULL;
	nb_caches = 0;
}

int acl_cache_init(unsigned int nb_workers)
{
	unsigned int w;

	if (acl_caches != NULL && nb_caches >= nb_workers)
		return 0;
	caches_free();
	acl_caches = rte_zmalloc("tern_acl_caches", sizeof(*acl_caches) * nb_workers,
				 RTE_CACHE_LINE_SIZE);
	if (acl_caches == NULL)
		return -ENOMEM;
	nb_caches = nb_workers;
	for (w = 0; w < nb_workers; w++) {
		acl_caches[w].v4 = rte_zmalloc("tern_acl_cache4",
					       (size_t)ACL4_SLOT_SIZE * DP_ACL_CACHE_SLOTS,
					       RTE_CACHE_LINE_SIZE);
		acl_caches[w].v6 = rte_zmalloc("tern_acl_cache6",
					       (size_t)ACL6_SLOT_SIZE * DP_ACL_CACHE_SLOTS,
					       RTE_CACHE_LINE_SIZE);
		if (acl_caches[w].v4 == NULL || acl_caches[w].v6 == NULL) {
			caches_free();
			return -ENOMEM;
		}
	}
	return 0;
}
