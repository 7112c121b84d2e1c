/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What '?' says of a word: a keyword that leads to further words has help of its own (the
 * commands' help belongs to their last word), and a value says what it is and its range
 * ("<1-256>  This next hop's share of the ECMP route"), not only its type.
 */
#include <string.h>

#include "controlplane/shell/cmd_syntax.h"
#include "controlplane/shell/command.h"

/* Keywords that lead to further words, by the keywords from the start of the line. */
static const struct {
	const char *path;
	const char *help;
} keywords[] = {
	{ "show", "Show the router's state and configuration" },
	{ "show ip", "IPv4: routes, the FIB, neighbours" },
	{ "show ip route", "The routing table: all of it, a prefix, or the route to an address" },
	{ "show ip fib", "The FIB: what the dataplane does with an address, or its consistency" },
	{ "show ipv6", "IPv6: interfaces, neighbours, routes, the FIB" },
	{ "show ipv6 route", "The IPv6 routing table: all of it, a prefix, or the route to an address" },
	{ "show ipv6 fib", "The IPv6 FIB: what the dataplane does with an address" },
	{ "show ipv6 interface", "Interfaces' IPv6 addresses" },
	{ "show interfaces", "Interfaces: state, addresses, counters" },
	{ "show configuration", "Saved configurations: their history, one version" },
	{ "configure", "Enter configuration mode, or go back to a saved configuration" },
	{ "clear", "Reset counters" },
	{ "copy", "Copy a configuration" },
	{ "copy running-config", "The running configuration" },
	{ "write", "Save the running configuration" },
	{ "no", "Undo a setting, or stop something" },
	{ "no ip", "IPv4 settings" },
	{ "ip", "IPv4 settings" },
	{ "ip route", "A static route" },
	{ "no ip route", "A static route" },
	{ "ipv6", "IPv6 settings" },
	{ "no ipv6", "IPv6 settings" },
	{ "ipv6 route", "A static IPv6 route" },
	{ "no ipv6 route", "A static IPv6 route" },
	{ "ipv6 neighbor", "A static IPv6 neighbour (NDP) entry" },
	{ "no ipv6 neighbor", "A static IPv6 neighbour (NDP) entry" },
	{ "ipv6 address", "An IPv6 address of the interface" },
	{ "no ipv6 address", "An IPv6 address of the interface" },
	{ "no debug", "Stop debug logging" },
	{ "debug", "Debug logging of a subsystem" },
	{ "interface", "An interface, or a new sub-interface (port.VLAN)" },
	{ "no interface", "A sub-interface" },
	{ "encapsulation", "The sub-interface's VLAN tags" },
	{ "encapsulation dot1ad", "802.1ad: an outer (service) tag, then an inner one" },
	{ "capture", "Capture packets of an interface to a pcapng file" },
	{ "trace", "Trace packets of an interface through the forwarding graph" },
	{ "arp", "A static ARP entry" },
	{ "no arp", "A static ARP entry" },
};

/* Values, by the name a command takes them by and their kind: how '?' shows them. */
static const struct {
	const char *name;
	enum tok_kind kind;
	const char *shown;
	const char *help;
} values[] = {
	{ "distance", TOK_NUMBER, "<0-4294967295>", "Administrative distance (the kernel's metric): the lowest is used" },
	{ "weight", TOK_NUMBER, "<1-256>", "This next hop's share of the ECMP route" },
	{ "mtu", TOK_NUMBER, "<68-9216>", "MTU in bytes" },
	{ "prefix", TOK_PREFIX, "A.B.C.D/M", "IPv4 prefix" },
	{ "target", TOK_IPV4, "A.B.C.D", "Gateway address" },
	{ "target", TOK_IFNAME, "IFNAME", "Interface the route leaves by" },
	{ "address", TOK_IPV4, "A.B.C.D", "IPv4 address" },
	{ "address", TOK_PREFIX, "A.B.C.D/M", "IPv4 address and prefix length" },
	{ "mac", TOK_MAC, "MAC", "MAC address (aa:bb:cc:dd:ee:ff)" },
	{ "interface", TOK_IFNAME, "IFNAME", "Interface name" },
	{ "interface", TOK_SUBIF, "IFNAME.VLAN", "A new sub-interface: port.VLAN id (dp0.100)" },
	{ "hostname", TOK_WORD, "WORD", "The router's name" },
	{ "description", TOK_LINE, "LINE", "Text describing the interface" },
	{ "rollback", TOK_NUMBER, "<1-...>", "A saved version (show configuration history)" },
	{ "version", TOK_NUMBER, "<1-...>", "A saved version (show configuration history)" },
	{ "dot1q", TOK_NUMBER, "<1-4094>", "VLAN id" },
	{ "dot1ad", TOK_NUMBER, "<1-4094>", "Outer (service) VLAN id" },
	{ "count", TOK_NUMBER, "<1-...>", "How many packets" },
	{ "file", TOK_WORD, "WORD", "The file to write (pcapng)" },
	{ "port", TOK_IFNAME, "IFNAME", "Interface name" },
	{ "name", TOK_IFNAME, "IFNAME", "Interface name" },
	{ "fib", TOK_IPV4, "A.B.C.D", "The address to look up" },
	{ "fib", TOK_IPV6, "X:X::X:X", "The IPv6 address to look up" },
	{ "prefix", TOK_PREFIX6, "X:X::X:X/M", "IPv6 prefix" },
	{ "address", TOK_IPV6, "X:X::X:X", "IPv6 address" },
	{ "address", TOK_PREFIX6, "X:X::X:X/M", "IPv6 address and prefix length" },
	{ "target", TOK_IPV6, "X:X::X:X", "IPv6 gateway address (a link-local one with its interface)" },
	{ "ping", TOK_IPV4, "A.B.C.D", "The address to ping" },
	{ "traceroute", TOK_IPV4, "A.B.C.D", "The address to trace the route to" },
};

const char *cmd_help_keyword(const char *path)
{
	unsigned int i;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strcmp(keywords[i].path, path) == 0)
			return keywords[i].help;
	return NULL;
}

void cmd_help_value(const struct tok *t, const char **shown, const char **help)
{
	unsigned int i;

	*shown = t->text;
	*help = cmd_syntax_placeholder_help(t->kind);
	if (t->name == NULL)
		return;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		if (values[i].kind == t->kind && strlen(values[i].name) == t->name_len &&
		    strncmp(values[i].name, t->name, t->name_len) == 0) {
			*shown = values[i].shown;
			*help = values[i].help;
			return;
		}
}
