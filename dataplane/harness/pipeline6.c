/* SPDX-License-Identifier: BSD-3-Clause */
/* The pipeline's IPv6 side: its FIB, the ports' addresses, and routes of every kind. */
#include <arpa/inet.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "dataplane/harness/pipeline.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/icmp/icmp6.h"
#include "dataplane/node.h"

static unsigned int routes6 = 4096;

void pipeline_set_routes6(unsigned int max_routes)
{
	routes6 = max_routes;
}

static void addr6(const char *text, uint8_t out[16])
{
	inet_pton(AF_INET6, text, out);
}

static int route6(const char *prefix, uint8_t len, uint32_t nh)
{
	uint8_t a[16];

	addr6(prefix, a);
	return dp_fib6_add(a, len, nh);
}

int pipeline_init6(void)
{
	uint8_t a[16];
	int rc;

	if ((rc = dp_fib6_init(routes6, SOCKET_ID_ANY)) < 0)
		return rc;
	addr6(PIPE6_PORT0_ADDR, a);
	dp_port_ip6_set(0, a);
	addr6(PIPE6_PORT1_ADDR, a);
	dp_port_ip6_set(1, a);
	dp_ip6_forwarding = 1;
	return route6("2001:2::", 64, 2);	/* nexthop 2: back out of port 0 */
}

void pipeline_route6_every_kind(void)
{
	unsigned int i;
	char p[32];

	route6("2001:2:0:10::", 64, 1);
	route6("2001:2:0:11::", 64, 8);
	route6(PIPE6_PORT0_ADDR, 128, 3);
	route6("fe80::1", 128, 3);
	for (i = 1; i < 5; i++) {	/* unresolved, blackhole, unreachable, prohibit */
		snprintf(p, sizeof(p), "2001:2:0:%x::", 0x11 + i);
		route6(p, 64, 3 + i);
	}
}

/* As the IPv4 routes: the same route always gets the same upstream. */
static struct dp_fib6_op route_op6(const uint8_t prefix[16], uint8_t len, bool del)
{
	struct dp_fib6_op op = { .depth = len, .del = del };
	uint32_t h = 0;
	unsigned int i;

	memcpy(op.prefix, prefix, 16);
	for (i = 0; i < 16; i++)
		h = h * 31 + prefix[i];
	h = (h * 2654435761u ^ len) >> 29;
	op.nh = del ? 0 : PIPE_UPSTREAM_NH + h % PIPE_UPSTREAMS;
	return op;
}

static double feed_routes6(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n,
			   bool del, int (*feed)(struct dp_fib6_op *, unsigned int))
{
	enum { BATCH = 65536 };
	static struct dp_fib6_op ops[BATCH];
	uint64_t t0 = rte_rdtsc();
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		ops[k++] = route_op6(prefixes[i], lens[i], del);
		if (k == BATCH || i == n - 1) {
			feed(ops, k);
			k = 0;
		}
	}
	return (double)(rte_rdtsc() - t0) / rte_get_tsc_hz();
}

double pipeline_add_routes6(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n)
{
	return feed_routes6(prefixes, lens, n, false, dp_fib6_apply);
}

double pipeline_del_routes6(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n)
{
	return feed_routes6(prefixes, lens, n, true, dp_fib6_apply);
}

double pipeline_load_routes6(const uint8_t (*prefixes)[16], const uint8_t *lens, unsigned int n,
			     double *level_s)
{
	uint64_t t0 = rte_rdtsc(), hz = rte_get_tsc_hz();
	double publish_s;

	dp_fib6_stage(NULL, 0);
	feed_routes6(prefixes, lens, n, false, dp_fib6_stage);
	dp_fib6_publish();
	publish_s = (double)(rte_rdtsc() - t0) / hz;
	while (dp_fib6_level(8192))
		;
	*level_s = (double)(rte_rdtsc() - t0) / hz;
	return publish_s;
}
