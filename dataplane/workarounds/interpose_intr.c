/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL's interrupt-source registrations, taken for the memif PMD (memif_channel_guard.c
 * says why).
 *
 * Linked only into ternd, whose memif PMD is a shared library that EAL loads as a plugin,
 * where symbol interposition is the one way to reach its calls (the link exports these
 * names: Makefile, INTERPOSE_INTR_EXPORT). A call from the memif PMD (dladdr names its
 * library) goes to the guard; every other goes straight on to EAL. ternd-static, with EAL
 * linked in, reaches the guard by renamed symbols instead (Makefile, MEMIF_GUARDED).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>

#include "dataplane/workarounds/memif_pmd_caller.h"
#include "dataplane/workarounds/memif_channel_guard.h"

typedef int (*register_fn)(const struct rte_intr_handle *, rte_intr_callback_fn, void *);
typedef int (*unregister_pending_fn)(const struct rte_intr_handle *, rte_intr_callback_fn,
				     void *, rte_intr_unregister_callback_fn);

static register_fn eal_register, eal_unregister;
static unregister_pending_fn eal_unregister_pending;

__attribute__((constructor)) static void interpose_intr_init(void)
{
	eal_register = (register_fn)dlsym(RTLD_NEXT, "rte_intr_callback_register");
	eal_unregister = (register_fn)dlsym(RTLD_NEXT, "rte_intr_callback_unregister");
	eal_unregister_pending =
		(unregister_pending_fn)dlsym(RTLD_NEXT, "rte_intr_callback_unregister_pending");
}

int rte_intr_callback_register(const struct rte_intr_handle *h, rte_intr_callback_fn cb,
			       void *arg)
{
	if (memif_pmd_is_caller(__builtin_return_address(0)))
		return memif_pmd_intr_callback_register(h, cb, arg);
	return eal_register != NULL ? eal_register(h, cb, arg) : -ENOSYS;
}

int rte_intr_callback_unregister(const struct rte_intr_handle *h, rte_intr_callback_fn cb,
				 void *arg)
{
	if (memif_pmd_is_caller(__builtin_return_address(0)))
		return memif_pmd_intr_callback_unregister(h, cb, arg);
	return eal_unregister != NULL ? eal_unregister(h, cb, arg) : -ENOSYS;
}

int rte_intr_callback_unregister_pending(const struct rte_intr_handle *h,
					 rte_intr_callback_fn cb, void *arg,
					 rte_intr_unregister_callback_fn ucb)
{
	if (memif_pmd_is_caller(__builtin_return_address(0)))
		return memif_pmd_intr_callback_unregister_pending(h, cb, arg, ucb);
	return eal_unregister_pending != NULL ? eal_unregister_pending(h, cb, arg, ucb) : -ENOSYS;
}
