/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: a sampled frame of any bytes, as the workers copy it, made into an sFlow flow
 * sample (its tags and addresses read, its routes looked up in the RIB) and encoded into a
 * datagram with the room running out anywhere: nothing read past the sample, nothing written
 * past the datagram, and a sample that does not fit leaves the datagram as it was.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/sflow/sflow_datagram.h"
#include "controlplane/sflow/sflow_flow.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"
#include "dataplane/fib/nexthop.h"
#include "dataplane/rcu.h"

/* Routes a sample's addresses may meet: a default route of each family through a gateway on
 * dp0, a blackhole, and ECMP routes of each family (198.18.0.0/16, 2001::/16), whose member
 * the sample's flow picks. */
static void routes_add(void)
{
	static const uint8_t any6[16];
	const struct rib_route_attrs a = { .src = RIB_SRC_KERNEL, .kproto = RTPROT_STATIC,
					   .table = RT_TABLE_MAIN };
	struct rib_nh_spec gw = { .type = RIB_NH_GATEWAY, .hop = { .port = 0, .gw = 0xc6120102u } };
	struct rib_nh_spec gw6 = { .type = RIB_NH_GATEWAY, .hop = { .port = 0, .family = AF_INET6 } };
	struct rib_nh_spec drop = { .type = RIB_NH_BLACKHOLE };
	struct rib_nh_spec g = { .type = RIB_NH_GROUP, .nb_members = 3 };
	struct rib_nh_spec g6 = { .type = RIB_NH_GROUP, .nb_members = 3 };
	const uint8_t p6[16] = { 0x20, 0x01 };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		g.members[i] = (struct rib_hop){ .port = 0, .gw = 0xc6120202u + i };
		g6.members[i] = (struct rib_hop){ .port = 0, .family = AF_INET6 };
		g6.members[i].gw6[0] = 0xfe;
		g6.members[i].gw6[1] = 0x80;
		g6.members[i].gw6[15] = 2 + i;
	}

	gw6.hop.gw6[0] = 0x20;
	gw6.hop.gw6[1] = 0x01;
	gw6.hop.gw6[15] = 2;
	if (rib_route_add(0, 0, &a, &gw, RIB_ADD_REPLACE) < 0 ||
	    rib_route_add(0xc6130000u, 16, &a, &drop, RIB_ADD_REPLACE) < 0 ||
	    rib_route6_add(any6, 0, &a, &gw6, RIB_ADD_REPLACE) < 0 ||
	    rib_route_add(0xc6120000u, 16, &a, &g, RIB_ADD_REPLACE) < 0 ||
	    rib_route6_add(p6, 16, &a, &g6, RIB_ADD_REPLACE) < 0 || rib_commit() < 0) {
		fprintf(stderr, "fuzz_sflow: cannot add its routes\n");
		__builtin_trap();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char prefix[64];
	char *eal[] = { "fuzz_sflow", "--no-huge", "-m", "512", "--no-pci", "-l", "0",
			"--file-prefix", prefix, "--log-level", "error", NULL };

	(void)argc;
	(void)argv;
	snprintf(prefix, sizeof(prefix), "tern-fuzz-sflow-%d", getpid());
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0 || dp_rcu_init(1) < 0 || dp_nh_init() < 0 ||
	    dp_fib_init(4096, SOCKET_ID_ANY) < 0 || dp_fib6_init(4096, SOCKET_ID_ANY) < 0 ||
	    rib_init(4096, 1024) < 0 || rib_init6(4096) < 0) {
		fprintf(stderr, "fuzz_sflow: cannot set up EAL and the tables\n");
		__builtin_trap();
	}
	snprintf(dp.ports[0].name, sizeof(dp.ports[0].name), "dp0");
	dp.nb_ports = 1;
	routes_add();
	return 0;
}

/* data: the room the datagram has left (one byte), then the sample's bytes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[SFLOW_DATAGRAM_MAX + 64];
	struct sflow_addr agent = { .family = 4 };
	struct dp_sflow_count counts = { .pool = 1000, .drops = 1 };
	struct dp_sflow_sample s;
	struct sflow_datagram d;
	struct sflow_flow f;
	size_t room, before;
	int rc;

	if (size < 1)
		return 0;
	room = 28 + (size_t)data[0] * 8;	/* the header's 28 bytes and some */
	if (room > SFLOW_DATAGRAM_MAX)
		room = SFLOW_DATAGRAM_MAX;
	memset(&s, 0, sizeof(s));
	s.header_len = (uint16_t)RTE_MIN(size - 1, (size_t)DP_SFLOW_HEADER);
	s.frame_len = (uint32_t)(size - 1);
	memcpy(s.header, data + 1, s.header_len);
	sflow_flow_of(&s, 1000, &counts, 1, &f);
	if (f.header != s.header || f.header_length != s.header_len)
		__builtin_trap();
	memset(buf, 0xa5, sizeof(buf));
	if (sflow_datagram_begin(&d, buf, room, &agent, 1, 0) < 0)
		return 0;
	before = d.len;
	rc = sflow_datagram_add_flow(&d, &f);
	if ((rc == 0 && (d.len <= before || d.len > room || d.samples != 1)) ||
	    (rc < 0 && (rc != -ENOSPC || d.len != before || d.samples != 0)))
		__builtin_trap();
	for (size_t i = room; i < sizeof(buf); i++)	/* nothing written past the room */
		if (buf[i] != 0xa5)
			__builtin_trap();
	return 0;
}
