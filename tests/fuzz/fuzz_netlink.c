/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: rtnetlink messages of any shape through the parser the mirror trusts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "controlplane/mirror/netlink_parse.h"

static int check_one(const struct nlmsghdr *nlh, void *data)
{
	struct nl_msg m;

	if (nl_parse(nlh, &m) < 0)
		return 0;
	if (m.kind == NL_ROUTE && (m.route.nb_paths > NL_MAX_PATHS ||
				   (m.route.family == AF_INET6 ? m.route.len > 128 :
				    m.route.family != AF_INET || m.route.len > 32)))
		__builtin_trap();
	for (unsigned int i = 0; m.kind == NL_ROUTE && i < m.route.nb_paths; i++)
		if (m.route.paths[i].gw_family != 0 && m.route.paths[i].gw_family != AF_INET6)
			__builtin_trap();
	if (m.kind == NL_ADDR && (m.addr.family == AF_INET6 ? m.addr.len > 128 :
				  m.addr.family != AF_INET || m.addr.len > 32))
		__builtin_trap();
	if (m.kind == NL_NEIGH && m.neigh.family != AF_INET && m.neigh.family != AF_INET6)
		__builtin_trap();
	if (m.kind == NL_NEXTHOP && (m.nexthop.nb_members > NL_MAX_PATHS || m.nexthop.id == 0))
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a buffer of exactly the input's size (malloc aligns it as netlink's are), so that
	 * AddressSanitizer sees a read one byte past the last message */
	uint8_t *buf = malloc(size ? size : 1);

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	nl_for_each(buf, size, check_one, NULL);
	free(buf);
	return 0;
}
