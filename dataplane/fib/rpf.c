/* SPDX-License-Identifier: BSD-3-Clause */
/* Unicast RPF's per-interface modes (rpf.h). */
#include "dataplane/fib/rpf.h"

struct dp_rpf_map dp_rpf;

void dp_rpf_set(unsigned int port, enum dp_rpf_family family, enum dp_rpf_mode mode)
{
	uint8_t was;

	if (port >= dp.max_ports || family >= DP_RPF_FAMILIES || mode >= DP_RPF_MODES)
		return;
	was = dp_rpf.mode[family][port];
	dp_rpf.mode[family][port] = mode;
	if ((was == DP_RPF_OFF) != (mode == DP_RPF_OFF))
		__atomic_store_n(&dp_rpf.on[family],
				 dp_rpf.on[family] + (mode == DP_RPF_OFF ? -1u : 1u), __ATOMIC_RELEASE);
}

const char *dp_rpf_mode_name(enum dp_rpf_mode mode)
{
	static const char *const names[DP_RPF_MODES] = { "off", "rx", "any" };

	return mode < DP_RPF_MODES ? names[mode] : names[DP_RPF_OFF];
}
