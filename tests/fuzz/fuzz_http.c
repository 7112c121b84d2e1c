/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: any bytes as an HTTP request to the metrics endpoint; an answer or a wait, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/metrics/metrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* exactly the bytes received, in a buffer of their size: AddressSanitizer sees a read
	 * past them (ternd's own buffer holds METRICS_MAX_REQUEST) */
	size_t len = size < METRICS_MAX_REQUEST ? size : METRICS_MAX_REQUEST, cut;
	char *req = malloc(len ? len : 1);
	unsigned int page, pg;
	int head, status;

	if (req == NULL)
		return 0;
	memcpy(req, data, len);
	status = metrics_http_status(req, len, &head, &page);
	if (status != 0 && status != 200 && status != 400 && status != 404 && status != 405 &&
	    status != 431)
		__builtin_trap();
	if (status == 200 && page > 999999)
		__builtin_trap();	/* a page of at most 6 digits */
	if (status == 0 && len == METRICS_MAX_REQUEST)
		__builtin_trap();	/* a full buffer must get an answer */
	/* as the bytes arrive: every prefix answers the same once complete, or waits */
	for (cut = 0; cut < len; cut += 1 + cut / 4) {
		int h, s = metrics_http_status(req, cut, &h, &pg);

		if (s != 0 && status != 0 && s != status && s != 431)
			__builtin_trap();
	}
	free(req);
	return 0;
}
