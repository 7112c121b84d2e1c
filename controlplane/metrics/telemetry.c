/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ternd's DPDK telemetry commands, for dpdk-telemetry.py and monitoring agents:
 * /tern/workers, /tern/errors, /tern/fib. They run in EAL's telemetry thread, so
 * they read only counters (single 64-bit words) and never the control thread's tables.
 */
#include <rte_telemetry.h>

#include "controlplane/metrics/telemetry.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/fib/fib.h"
#include "dataplane/punt/node_sink.h"

static int workers_cb(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i;

	rte_tel_data_start_dict(d);
	for (i = 0; i < dp.nb_workers; i++) {
		char key[32];

		snprintf(key, sizeof(key), "worker%u_lcore%u_loops", i, dp.workers[i].lcore);
		rte_tel_data_add_dict_u64(d, key, dp.workers[i].stats.loops);
	}
	rte_tel_data_add_dict_u64(d, "workers", dp.nb_workers);
	return 0;
}

static void add_reasons(struct rte_tel_data *d, const struct dp_sink_info *info)
{
	const struct dp_sink_info *r;

	for (r = info; r->node; r++)
		rte_tel_data_add_dict_u64(d, r->node, dp_node_objs(r->node));
}

static int errors_cb(const char *cmd, const char *params, struct rte_tel_data *d)
{
	rte_tel_data_start_dict(d);
	add_reasons(d, dp_drop_reasons);
	add_reasons(d, dp_punt_reasons);
	add_reasons(d, dp_icmp_errors);
	return 0;
}

static int fib_cb(const char *cmd, const char *params, struct rte_tel_data *d)
{
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "updates", dp_fib_updates());
	rte_tel_data_add_dict_u64(d, "memory_bytes", dp_fib_memory());
	rte_tel_data_add_dict_u64(d, "active_copy", dp_fib_active_index());
	return 0;
}

void tern_telemetry_register(void)
{
	if (rte_telemetry_register_cmd("/tern/workers", workers_cb,
				       "Forwarding workers and their loop counts. No parameters") < 0 ||
	    rte_telemetry_register_cmd("/tern/errors", errors_cb,
				       "Packets dropped, punted and answered with ICMP, by reason. No parameters") < 0 ||
	    rte_telemetry_register_cmd("/tern/fib", fib_cb, "FIB updates and memory. No parameters") < 0)
		TERN_LOG(main, WARNING, "cannot register the /tern telemetry commands");
}
