/* SPDX-License-Identifier: BSD-3-Clause */
/* For the unit tests that run EAL's heap out, to see what a failed allocation leaves. */
#ifndef TERN_TEST_HEAP_HOG_H
#define TERN_TEST_HEAP_HOG_H

#include <stddef.h>

#include <rte_malloc.h>

/* Takes all of EAL's heap it can, largest pieces first, into hog (n of them); returns n. */
static inline unsigned int heap_hog(void **hog, unsigned int max)
{
	unsigned int n = 0;
	size_t size;

	for (size = 64u << 20; size >= 16; size /= 2)
		while (n < max && (hog[n] = rte_malloc(NULL, size, 0)) != NULL)
			n++;
	return n;
}

#endif
