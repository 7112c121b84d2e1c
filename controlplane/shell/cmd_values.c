/* SPDX-License-Identifier: BSD-3-Clause */
/* The values a command line carries: addresses, prefixes, MACs and numbers, checked and parsed. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>

#include "controlplane/shell/command.h"
#include "dataplane/ip4/ip4.h"

bool cmd_value_is_ipv4(const char *w)
{
	struct in_addr a;

	return inet_pton(AF_INET, w, &a) == 1;
}

bool cmd_value_is_prefix(const char *w)
{
	char buf[32], *slash, *end;
	long len;

	if (strlen(w) >= sizeof(buf))
		return false;
	strcpy(buf, w);
	slash = strchr(buf, '/');
	if (slash == NULL)
		return false;
	*slash = '\0';
	len = strtol(slash + 1, &end, 10);
	return cmd_value_is_ipv4(buf) && *end == '\0' && slash[1] != '\0' && len >= 0 && len <= 32;
}

bool cmd_value_is_ipv6(const char *w)
{
	struct in6_addr a;

	return inet_pton(AF_INET6, w, &a) == 1;
}

/* Splits X/M into the address and a length of at most max; false when it is not that. */
static bool split_prefix(const char *w, char *addr, size_t size, long max, long *len)
{
	char *slash, *end;

	if (strlen(w) >= size)
		return false;
	strcpy(addr, w);
	slash = strchr(addr, '/');
	if (slash == NULL || slash[1] == '\0')
		return false;
	*slash = '\0';
	*len = strtol(slash + 1, &end, 10);
	return *end == '\0' && *len >= 0 && *len <= max;
}

bool cmd_value_is_prefix6(const char *w)
{
	char buf[INET6_ADDRSTRLEN + 8];
	long len;

	return split_prefix(w, buf, sizeof(buf), 128, &len) && cmd_value_is_ipv6(buf);
}

int cmd_parse_prefix6(struct cmd_ctx *ctx, const char *s, uint8_t ip6[16], uint8_t *len, bool exact)
{
	char buf[INET6_ADDRSTRLEN + 8], net[INET6_ADDRSTRLEN];
	uint8_t masked[16];
	unsigned int i, l;
	long n;

	if (!split_prefix(s, buf, sizeof(buf), 128, &n) || inet_pton(AF_INET6, buf, ip6) != 1)
		return cmd_error(ctx, -EINVAL, "%% Invalid prefix '%s': expected X:X::X:X/M with M from 0 to 128", s);
	*len = n;
	for (i = 0, l = n; i < 16; i++, l = l > 8 ? l - 8 : 0)
		masked[i] = l >= 8 ? ip6[i] : ip6[i] & (uint8_t)(0xff00 >> l);
	if (exact && memcmp(masked, ip6, 16) != 0) {
		inet_ntop(AF_INET6, masked, net, sizeof(net));
		return cmd_error(ctx, -EINVAL, "%% Prefix %s has host bits set; did you mean %s/%u?", s,
				 net, *len);
	}
	return 0;
}

bool cmd_value_is_mac(const char *w)
{
	struct rte_ether_addr a;

	return rte_ether_unformat_addr(w, &a) == 0;
}

bool cmd_value_is_number(const char *w)
{
	if (*w == '\0' || strlen(w) > 10)
		return false;
	for (; *w; w++)
		if (!isdigit((unsigned char)*w))
			return false;
	return true;
}

int cmd_parse_ip(const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*ip = ntohl(a.s_addr);
	return 0;
}

void cmd_fmt_ip(uint32_t ip, char *buf, size_t len)
{
	snprintf(buf, len, IP4_FMT, IP4_ARGS(ip));
}

int cmd_parse_prefix(struct cmd_ctx *ctx, const char *s, uint32_t *ip, uint8_t *len, bool exact)
{
	char buf[32], net[16];
	char *slash;
	uint32_t m;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash == NULL)
		return cmd_error(ctx, -EINVAL, "%% Invalid prefix '%s': expected A.B.C.D/M", s);
	*slash = '\0';
	if (cmd_parse_ip(buf, ip) < 0 || !cmd_value_is_number(slash + 1) || atoi(slash + 1) > 32)
		return cmd_error(ctx, -EINVAL, "%% Invalid prefix '%s': expected A.B.C.D/M with M from 0 to 32", s);
	*len = atoi(slash + 1);
	m = *len ? ~0u << (32 - *len) : 0;
	if (exact && (*ip & ~m)) {
		cmd_fmt_ip(*ip & m, net, sizeof(net));
		return cmd_error(ctx, -EINVAL, "%% Prefix %s has host bits set; did you mean %s/%u?", s,
				 net, *len);
	}
	return 0;
}
