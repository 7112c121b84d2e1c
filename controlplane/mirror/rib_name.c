/* SPDX-License-Identifier: BSD-3-Clause */
/* Names for the shell: routing protocols, nexthop types, and a nexthop as `ip route` says it. */

#include <linux/rtnetlink.h>
#include <arpa/inet.h>
#include <stdio.h>

#include "controlplane/mirror/rib.h"
#include "dataplane/dp.h"
#include "dataplane/ip4/ip4.h"

const char *rib_kproto_name(uint8_t p)
{
	switch (p) {
	case RTPROT_KERNEL: return "kernel";
	case RTPROT_BOOT: return "boot";
	case RTPROT_STATIC: return "static";
	case RTPROT_ZEBRA: return "zebra";
	case RTPROT_BIRD: return "bird";
	case RTPROT_DHCP: return "dhcp";
	case 186: return "bgp";
	case 188: return "ospf";
	}
	return "other";
}

const char *rib_nh_type_name(enum rib_nh_type t)
{
	static const char *const names[] = {
		[RIB_NH_GATEWAY] = "gateway", [RIB_NH_CONNECTED] = "connected",
		[RIB_NH_LOCAL] = "local", [RIB_NH_BLACKHOLE] = "blackhole",
		[RIB_NH_UNREACHABLE] = "unreachable", [RIB_NH_PROHIBIT] = "prohibit",
		[RIB_NH_BROADCAST] = "broadcast",
		[RIB_NH_GROUP] = "ecmp",
	};
	return t <= RIB_NH_GROUP ? names[t] : "?";
}

int rib_hop_gw_text(const struct rib_hop *h, char *buf, size_t len)
{
	char text[INET6_ADDRSTRLEN];
	uint32_t be = htonl(h->gw);

	if (!rib_hop_has_gw(h))
		return snprintf(buf, len, "%s", "");
	return snprintf(buf, len, "%s", rib_hop_is_v6(h) ?
			inet_ntop(AF_INET6, h->gw6, text, sizeof(text)) :
			inet_ntop(AF_INET, &be, text, sizeof(text)));
}

static int hop_describe(const struct rib_hop *h, char *buf, size_t len)
{
	char gw[INET6_ADDRSTRLEN];

	if (!rib_hop_has_gw(h))
		return snprintf(buf, len, "dev %s", dp.ports[h->port].name);
	rib_hop_gw_text(h, gw, sizeof(gw));
	return snprintf(buf, len, "via %s dev %s", gw, dp.ports[h->port].name);
}

void rib_nh_describe(const struct rib_nh_spec *nh, char *buf, size_t len)
{
	unsigned int m;
	int n = 0;

	switch (nh->type) {
	case RIB_NH_GATEWAY:
	case RIB_NH_CONNECTED:
		hop_describe(&nh->hop, buf, len);
		return;
	case RIB_NH_BROADCAST:
		snprintf(buf, len, "broadcast dev %s", dp.ports[nh->hop.port].name);
		return;
	case RIB_NH_GROUP:
		for (m = 0; m < nh->nb_members && n < (int)len; m++) {
			n += snprintf(buf + n, len - n, "%s", m ? ", " : "");
			if (n < (int)len)
				n += hop_describe(&nh->members[m], buf + n, len - n);
		}
		return;
	default:
		snprintf(buf, len, "%s", rib_nh_type_name(nh->type));
	}
}
