/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tern-bench's command-line values. strtoul takes "-1" as ULONG_MAX and "8k" as 8, strtod
 * takes "nan", which no range check with < and > refuses, and atoi takes "abc" as 0: every
 * option goes through these instead, so a mistyped value is refused with a sentence rather
 * than becoming a different run.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "bench/args.h"

int arg_ipv4(const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*ip = ntohl(a.s_addr);
	return 0;
}

int arg_ipv6(const char *s, uint8_t ip6[16])
{
	return inet_pton(AF_INET6, s, ip6) == 1 ? 0 : -EINVAL;
}

int arg_prefix(const char *s, uint32_t *base, uint8_t *len)
{
	char addr[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	unsigned long l;
	uint32_t ip;

	if (slash == NULL || (size_t)(slash - s) >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, slash - s);
	addr[slash - s] = '\0';
	if (arg_ipv4(addr, &ip) < 0 || arg_count(slash + 1, 0, 32, &l) < 0)
		return -EINVAL;
	if (l < 32 && (ip & (0xffffffffu >> l)) != 0)
		return -EINVAL;
	*base = ip;
	*len = (uint8_t)l;
	return 0;
}

int arg_count(const char *s, unsigned long min, unsigned long max, unsigned long *v)
{
	unsigned long x;
	const char *c;
	char *end;

	if (*s == '\0')
		return -EINVAL;
	for (c = s; *c; c++)
		if (!isdigit((unsigned char)*c))
			return -EINVAL;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno == ERANGE || x < min || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

int arg_number(const char *s, double min, double max, double *v)
{
	char *end;
	double x;

	if (*s == '\0' || isspace((unsigned char)*s))
		return -EINVAL;
	x = strtod(s, &end);
	if (*end != '\0' || !isfinite(x) || !(x >= min && x <= max))
		return -EINVAL;
	*v = x;
	return 0;
}
