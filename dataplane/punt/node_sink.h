/* SPDX-License-Identifier: BSD-3-Clause */
/* The drop and punt reasons: each is a graph node of the same name. */
#ifndef TERN_NODE_SINK_H
#define TERN_NODE_SINK_H

#define DP_DROP_REASONS(X)                                                          \
	X(drop_runt, "frame shorter than an Ethernet header")                      \
	X(drop_other_host, "frame for another host's MAC")                         \
	X(drop_unknown_vlan, "tagged with a VLAN of no sub-interface")             \
	X(drop_no_headroom, "no room before the frame for its sub-interface's tags") \
	X(drop_l2_mcast, "link-layer broadcast or multicast, not for the router")  \
	X(drop_port_down, "in or out of an administratively down port")           \
	X(drop_ip_truncated, "frame shorter than an IPv4 header")                  \
	X(drop_ip_version, "IP version is not 4")                                  \
	X(drop_ip_ihl, "IHL below 5 or past the frame")                            \
	X(drop_ip_length, "IP total length below the header or past the frame")    \
	X(drop_ip_checksum, "bad IPv4 header checksum")                            \
	X(drop_martian_src, "martian source (0/8, 127/8, multicast, 240/4)")       \
	X(drop_martian_dst, "martian destination (0/8, 127/8)")                    \
	X(drop_ip6_truncated, "frame shorter than an IPv6 header")                 \
	X(drop_ip6_version, "IPv6 EtherType, IP version is not 6")                 \
	X(drop_ip6_length, "IPv6 payload length 0 or past the frame")             \
	X(drop_ip6_martian_src, "IPv6 source multicast, loopback, or unspecified to unicast") \
	X(drop_ip6_martian_dst, "IPv6 destination unspecified, loopback, or interface-local multicast") \
	X(drop_ip6_header_chain, "IPv6 extension headers past the datagram, a first fragment without them all, or over 8") \
	X(drop_ip6_link_local, "IPv6 link-local source or destination, not for the router") \
	X(drop_blackhole, "blackhole route")                                       \
	X(drop_acl, "denied by an access list")                                    \
	X(drop_rpf, "unicast RPF: no route back to the source (by the ingress interface, in strict mode)") \
	X(drop_icmp_suppressed, "no ICMP error allowed (about an error, a fragment)") \
	X(drop_icmp_rate_limited, "ICMP error over the rate limit")                \
	X(drop_icmp_no_source, "ICMP error due but the port has no address")

#define DP_PUNT_REASONS(X)                                                          \
	X(punt_arp, "ARP")                                                         \
	X(punt_non_ip, "not IPv4, IPv6 nor ARP (or IPv6 while IPv6 forwarding is off)") \
	X(punt_nd, "IPv6 Neighbour Discovery (ICMPv6 133-137)")                    \
	X(punt_mld, "IPv6 Multicast Listener Discovery (ICMPv6 130-132, 143)")     \
	X(punt_ip_options, "IPv4 options")                                         \
	X(punt_mcast, "multicast or broadcast destination")                        \
	X(punt_local, "addressed to the router")                                   \
	X(punt_unresolved, "next hop's MAC not yet resolved")                      \
	X(punt_fragment, "larger than the egress MTU, to be fragmented")

struct dp_sink_info {
	const char *node;
	const char *description;
};

extern const struct dp_sink_info dp_drop_reasons[];
extern const struct dp_sink_info dp_punt_reasons[];
extern const struct dp_sink_info dp_icmp_errors[];

#endif
