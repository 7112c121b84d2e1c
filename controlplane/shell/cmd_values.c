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
