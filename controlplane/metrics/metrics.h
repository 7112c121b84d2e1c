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
/*
 * The exposition comes in pages of this many interfaces (ports, bonds and sub-interfaces in
 * the order of their slots): /metrics?page=N, N from 0; /metrics is page 0, which also holds
 * every series that is not an interface's and tern_metrics_pages. A router of up to this
 * many interfaces is served whole by /metrics. Rendering is the control thread's, a stall of
 * netlink and the API while it lasts: 1024 interfaces' series are about 2.5 MB and 20-30 ms
 * of its CPU (test_subif_scale.sh), where 4000 in one answer were 10 MB.
 */
#define METRICS_PAGE_IFACES 1024u

void metrics_started(void);
/* Appends page page of the exposition, ending with "# EOF" (a page past the last holds no
 * interface's series). */
void metrics_render(struct outbuf *ob, unsigned int page);

/*
 * What to answer a request of len bytes: 0 while the header is incomplete,
 * else an HTTP status (200 for GET or HEAD of /metrics, 404, 405, 400 (also for a page
 * that is not a number), 431). *head is set for HEAD, *page to the page asked for (0 when
 * the query names none).
 */
int metrics_http_status(const char *req, size_t len, int *head, unsigned int *page);

/* Listens on "ADDR:PORT"; 0 or a negative errno with one sentence in err. */
int metrics_server_start(const char *listen, char *err, size_t errlen);
void metrics_server_stop(void);
/* Closes connections past their deadline: the control thread's tick calls it. */
void metrics_server_tick(void);

#endif
