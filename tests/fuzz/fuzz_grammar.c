/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: any line through the command grammar's matcher and completer, in every
 * mode; a line that starts with a prefix of "show" is run, in text and JSON, against
 * tables that hold a few of each kind (routes, an ECMP group, neighbours, addresses); and
 * every line is run in both access-list modes (entries parsed and kept, then the list
 * removed, so that each input starts from none).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <rte_eal.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/shell/command.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

static void tables_fill(void)
{
	struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
				     .table = RT_TABLE_MAIN };
	struct rib_nh_spec gw = { .type = RIB_NH_GATEWAY, .hop = { .port = 1, .gw = 0xc6120102 } };
	struct rib_nh_spec ecmp = { .type = RIB_NH_GROUP, .nb_members = 2,
				    .members = { { .port = 0, .gw = 0xc6120002 }, { .port = 1, .gw = 0xc6120102 } } };
	struct rib_nh_spec drop = { .type = RIB_NH_BLACKHOLE };
	struct rte_ether_addr mac = { { 0x02, 0, 0, 0, 0, 0x22 } };

	rib_addr_add(0, 0xc6120001, 24);
	rib_addr_add(1, 0xc6120101, 24);
	rib_neigh_set(1, 0xc6120102, &mac, true);
	rib_route_add(0xc6130000, 24, &a, &gw, RIB_ADD_REPLACE);
	rib_route_add(0xc6130100, 24, &a, &ecmp, RIB_ADD_REPLACE);
	a.metric = 200;
	rib_route_add(0xc6130000, 24, &a, &drop, RIB_ADD_REPLACE);
	rib_commit();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char prefix[64];
	char *eal[] = { "fuzz_grammar", "--no-huge", "-m", "256", "--no-pci", "-l", "0",
			"--file-prefix", prefix, "--log-level", "error", NULL };

	snprintf(prefix, sizeof(prefix), "tern-fuzz-grammar-%d", getpid());
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(4096, SOCKET_ID_ANY) < 0 || rib_init(4096, 1024) < 0)
		__builtin_trap();
	snprintf(dp.ports[0].name, sizeof(dp.ports[0].name), "dp0");
	snprintf(dp.ports[1].name, sizeof(dp.ports[1].name), "dp1");
	dp.ports[0].port_id = dp.ports[1].port_id = RTE_MAX_ETHPORTS - 1;	/* no such ethdev */
	dp.nb_ports = 2;
	tables_fill();
	return cmd_init();
}

/* Whether the line's first word abbreviates "show" (as the grammar takes it). */
static bool is_show(const char *line)
{
	size_t n;

	line += strspn(line, " \t");
	n = strcspn(line, " \t");
	return n >= 2 && n <= 4 && strncmp(line, "show", n) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmd_session s;
	struct outbuf out;
	char line[1200];
	int mode;

	if (size >= sizeof(line))
		size = sizeof(line) - 1;
	memcpy(line, data, size);
	line[size] = '\0';
	ob_init(&out);
	for (mode = 0; mode < CMD_MODE_MAX; mode++) {
		cmd_session_init(&s, 0, true);
		s.mode = mode;
		snprintf(s.ifname, sizeof(s.ifname), "dp0");
		cmd_validate(&s, line, &out);
		cmd_complete(&s, line, &out);
	}
	for (mode = CMD_MODE_CONFIG_ACL; mode <= CMD_MODE_CONFIG_ACL6; mode++) {
		cmd_session_init(&s, 0, true);
		s.mode = mode;
		snprintf(s.acl, sizeof(s.acl), "fuzz");
		ob_reset(&out);
		cmd_execute(&s, line, false, &out);
		s.mode = CMD_MODE_CONFIG;
		cmd_execute(&s, mode == CMD_MODE_CONFIG_ACL ? "no ip access-list fuzz" :
			    "no ipv6 access-list fuzz", false, &out);
	}
	if (is_show(line) && strstr(line, "consistency") == NULL) {
		/* the consistency check dumps the kernel's tables: too slow for a fuzzer */
		cmd_session_init(&s, 0, true);
		ob_reset(&out);
		cmd_execute(&s, line, false, &out);
		ob_reset(&out);
		cmd_execute(&s, line, true, &out);
	}
	ob_free(&out);
	return 0;
}
