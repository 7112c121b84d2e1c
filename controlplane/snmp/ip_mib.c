/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ipAddressTable on net-snmp's table_container helper, its rows (one an address, keyed by
 * ipAddressAddrType and the length-prefixed ipAddressAddr) made again from rib_addrs at a
 * request when a second old; inetCidrRouteNumber counted from the RIB when asked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/snmp/if_mib.h"
#include "controlplane/snmp/ip_mib.h"
#include "controlplane/ternd/log.h"

#define ROWS_MAX_AGE_MS 1000

enum { INET_IPV4 = 1, INET_IPV6 = 2 };
enum { ADDR_UNICAST = 1 };
enum { ORIGIN_MANUAL = 2, ORIGIN_LINKLAYER = 5 };
enum { STATUS_PREFERRED = 1, STATUS_TENTATIVE = 8 };
enum { ROW_ACTIVE = 1, STORAGE_VOLATILE = 2 };

static const oid ip_address_table_oid[] = { 1, 3, 6, 1, 2, 1, 4, 34 };
static const oid inet_cidr_route_number_oid[] = { 1, 3, 6, 1, 2, 1, 4, 24, 6 };

struct addr_row {
	netsnmp_index idx;		/* first: the container's key */
	oid key[2 + 16];		/* type, length, the address's bytes */
	uint16_t port;
	bool link_local, tentative;
};

static struct addr_row *rows;
static unsigned int nb_rows, rows_room;
static netsnmp_container *container;
static uint64_t rows_made_ms;

static void rows_make(void)
{
	uint64_t now = tern_log_now_ms();
	const struct rib_addr *a;
	unsigned int n, i, k;

	if (rows_made_ms != 0 && now - rows_made_ms < ROWS_MAX_AGE_MS)
		return;
	rows_made_ms = now;
	CONTAINER_CLEAR(container, NULL, NULL);
	n = rib_addrs(&a);
	if (n > rows_room) {
		struct addr_row *r = realloc(rows, n * sizeof(*r));

		if (r == NULL) {
			nb_rows = 0;
			return;
		}
		rows = r;
		rows_room = n;
	}
	for (i = 0, nb_rows = 0; i < n; i++) {
		struct addr_row *r = &rows[nb_rows];
		uint8_t b[16];
		unsigned int len;

		if (a[i].family == AF_INET) {
			b[0] = a[i].ip >> 24, b[1] = a[i].ip >> 16, b[2] = a[i].ip >> 8, b[3] = a[i].ip;
			len = 4;
			r->key[0] = INET_IPV4;
		} else if (a[i].family == AF_INET6) {
			memcpy(b, a[i].ip6, 16);
			len = 16;
			r->key[0] = INET_IPV6;
		} else {
			continue;
		}
		r->key[1] = len;
		for (k = 0; k < len; k++)
			r->key[2 + k] = b[k];
		r->idx.oids = r->key;
		r->idx.len = 2 + len;
		r->port = a[i].port;
		r->link_local = len == 16 && b[0] == 0xfe && (b[1] & 0xc0) == 0x80;
		r->tentative = a[i].tentative;
		nb_rows++;
	}
	/* the container keeps pointers: insert only once the array stopped moving */
	for (i = 0; i < nb_rows; i++)
		CONTAINER_INSERT(container, &rows[i]);
}

static int rows_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reg,
			netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	rows_make();
	return netsnmp_call_next_handler(handler, reg, reqinfo, requests);
}

static int table_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reg,
			 netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	static const oid zero_oid[] = { 0, 0 };
	netsnmp_request_info *r;

	(void)handler, (void)reg;
	if (reqinfo->mode != MODE_GET && reqinfo->mode != MODE_GETNEXT)
		return SNMP_ERR_NOERROR;
	for (r = requests; r != NULL; r = r->next) {
		const struct addr_row *row = netsnmp_container_table_row_extract(r);
		netsnmp_table_request_info *ti = netsnmp_extract_table_info(r);
		netsnmp_variable_list *vb = r->requestvb;

		if (r->processed)
			continue;
		if (row == NULL || ti == NULL) {
			netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
			continue;
		}
		switch (ti->colnum) {
		case 3: snmp_set_var_typed_integer(vb, ASN_INTEGER, if_mib_ifindex(row->port)); break;
		case 4: snmp_set_var_typed_integer(vb, ASN_INTEGER, ADDR_UNICAST); break;
		case 5:	/* ipAddressPrefixTable is not ternd's */
			snmp_set_var_typed_value(vb, ASN_OBJECT_ID, zero_oid, sizeof(zero_oid));
			break;
		case 6:
			snmp_set_var_typed_integer(vb, ASN_INTEGER,
						   row->link_local ? ORIGIN_LINKLAYER : ORIGIN_MANUAL);
			break;
		case 7:
			snmp_set_var_typed_integer(vb, ASN_INTEGER,
						   row->tentative ? STATUS_TENTATIVE : STATUS_PREFERRED);
			break;
		case 8:	/* ipAddressCreated, ipAddressLastChanged: not kept */
		case 9: snmp_set_var_typed_integer(vb, ASN_TIMETICKS, 0); break;
		case 10: snmp_set_var_typed_integer(vb, ASN_INTEGER, ROW_ACTIVE); break;
		case 11: snmp_set_var_typed_integer(vb, ASN_INTEGER, STORAGE_VOLATILE); break;
		default: netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHOBJECT);
		}
	}
	return SNMP_ERR_NOERROR;
}

/* The kernel's routes the RIB holds, both families, in use or set aside (another table's or
 * metric's): what show ip route summary and show ipv6 route summary count as from the kernel
 * and set aside. */
static int route_number_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reg,
				netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	struct rib_counts c4, c6;

	(void)handler, (void)reg;
	if (reqinfo->mode != MODE_GET)
		return SNMP_ERR_NOERROR;
	rib_counts(&c4);
	rib_counts6(&c6);
	snmp_set_var_typed_integer(requests->requestvb, ASN_GAUGE,
				   c4.routes[RIB_SRC_KERNEL] + c4.alternates +
				   c6.routes[RIB_SRC_KERNEL] + c6.alternates);
	return SNMP_ERR_NOERROR;
}

int ip_mib_init(void)
{
	netsnmp_table_registration_info *ti;
	netsnmp_handler_registration *reg;

	container = netsnmp_container_find("table_container");
	ti = SNMP_MALLOC_TYPEDEF(netsnmp_table_registration_info);
	reg = netsnmp_create_handler_registration("ipAddressTable", table_handler,
						  ip_address_table_oid,
						  OID_LENGTH(ip_address_table_oid), HANDLER_CAN_RONLY);
	if (container == NULL || ti == NULL || reg == NULL) {
		free(ti);
		return -ENOMEM;
	}
	netsnmp_table_helper_add_indexes(ti, ASN_INTEGER, ASN_OCTET_STR, 0);
	ti->min_column = 3;
	ti->max_column = 11;
	if (netsnmp_container_table_register(reg, ti, container,
					     TABLE_CONTAINER_KEY_NETSNMP_INDEX) != SNMPERR_SUCCESS ||
	    netsnmp_inject_handler(reg, netsnmp_create_handler("ternIpAddressRows", rows_handler)) !=
		    SNMPERR_SUCCESS)
		return -EIO;
	reg = netsnmp_create_handler_registration("inetCidrRouteNumber", route_number_handler,
						  inet_cidr_route_number_oid,
						  OID_LENGTH(inet_cidr_route_number_oid),
						  HANDLER_CAN_RONLY);
	if (reg == NULL || netsnmp_register_scalar(reg) != SNMPERR_SUCCESS)
		return -EIO;
	return 0;
}
