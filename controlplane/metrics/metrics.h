/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics endpoint: ternd's counters as OpenMetrics text over HTTP,
 * for Prometheus and the like. Off unless [metrics] listen is set; the
 * default address is loopback. Served from the control thread's event loop.
 */
#ifndef TERN_METRICS_H
#define TERN_METRICS_H

#include <stddef.h>

#include "controlplane/ternd/outbuf.h"

#define METRICS_MAX_REQUEST 4096

void metrics_started(void);
/* Appends the whole exposition, ending with "# EOF". */
void metrics_render(struct outbuf *ob);

/*
 * What to answer a request of len bytes: 0 while the header is incomplete,
 * else an HTTP status (200 for GET or HEAD of /metrics, 404, 405, 400, 431).
 * *head is set for HEAD.
 */
int metrics_http_status(const char *req, size_t len, int *head);

/* Listens on "ADDR:PORT"; 0 or a negative errno with one sentence in err. */
int metrics_server_start(const char *listen, char *err, size_t errlen);
void metrics_server_stop(void);
/* Closes connections past their deadline: the control thread's tick calls it. */
void metrics_server_tick(void);

#endif
