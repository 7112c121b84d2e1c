/* SPDX-License-Identifier: BSD-3-Clause */
/* Unicast RPF's per-interface configuration (rpf_config.h). */
#include "controlplane/shell/rpf_config.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"

static const char *const family_word[DP_RPF_FAMILIES] = { "ip", "ipv6" };

void rpf_config_set(unsigned int port, enum dp_rpf_family family, enum dp_rpf_mode mode)
{
	if (dp_rpf_get(port, family) == mode)
		return;
	dp_rpf_set(port, family, mode);
	TERN_LOG(main, NOTICE, "%s: %s unicast RPF %s", dp.ports[port].name,
		 family == DP_RPF_IPV4 ? "IPv4" : "IPv6",
		 mode == DP_RPF_STRICT ? "strict (reachable-via rx)" :
		 mode == DP_RPF_LOOSE ? "loose (reachable-via any)" : "off");
}

void rpf_iface_running_config(struct outbuf *out, unsigned int port)
{
	unsigned int f;

	for (f = 0; f < DP_RPF_FAMILIES; f++)
		if (dp_rpf_get(port, f) != DP_RPF_OFF)
			ob_printf(out, " %s verify unicast source reachable-via %s\n", family_word[f],
				  dp_rpf_mode_name(dp_rpf_get(port, f)));
}

void rpf_iface_removed(unsigned int port)
{
	unsigned int f;

	for (f = 0; f < DP_RPF_FAMILIES; f++)
		dp_rpf_set(port, f, DP_RPF_OFF);
}
