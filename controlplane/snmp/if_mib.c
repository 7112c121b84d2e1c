/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ifTable and ifXTable on net-snmp's table_container helper: a sorted container of rows,
 * one per interface with an ifIndex, made again when older than ROWS_MAX_AGE_MS at a request
 * (so a walk is a lookup a row, not a scan); the values are read when asked, the counters
 * once a row per request (if_counters.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "controlplane/mirror/netlink.h"
#include "controlplane/shell/iface.h"
#include "controlplane/snmp/if_counters.h"
#include "controlplane/snmp/if_mib.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/l2/group_count.h"
#include "dataplane/node.h"
#include "dataplane/punt/punt.h"

#define ROWS_MAX_AGE_MS 1000

enum { IF_UP = 1, IF_DOWN = 2, IF_LOWER_LAYER_DOWN = 7 };
enum { IFTYPE_ETHERNET = 6, IFTYPE_L2VLAN = 135, IFTYPE_LAG = 161 };
enum table { IF_TABLE, IFX_TABLE, TABLES };

static const oid if_table_oid[] = { 1, 3, 6, 1, 2, 1, 2, 2 };
static const oid ifx_table_oid[] = { 1, 3, 6, 1, 2, 1, 31, 1, 1 };
static const oid if_entry_oid[] = { 1, 3, 6, 1, 2, 1, 2, 2, 1 };
static const oid snmp_trap_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0 };
static const oid link_down_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 5, 3 };
static const oid link_up_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 5, 4 };

struct if_row {
	netsnmp_index idx;		/* first: the container's key, one sub-identifier */
	oid ifindex;
	unsigned int slot;
};

/* What the agent keeps of an interface, from its first sight under its ifIndex. */
struct if_state {
	uint32_t ifindex;		/* 0: not seen yet */
	uint8_t oper;
	uint32_t mbps;			/* a port's or bond's link speed, as the tick found it */
	u_long last_change;		/* agent uptime, hundredths of a second */
	u_long discontinuity;
	uint64_t sampled_in;		/* the request its counters were last read for */
	struct if_counters c;
};

static struct if_row *rows;
static struct if_state *states;
static unsigned int nb_slots;
static netsnmp_container *containers[TABLES];
static netsnmp_handler_registration *regs[TABLES];
static uint64_t rows_made_ms, request;

uint32_t if_mib_ifindex(unsigned int slot)
{
	if (slot >= dp.nb_ports || !dp_port_in_use(slot))
		return 0;
	if (dp.ports[slot].kind == DP_PORT_MEMBER)
		return IF_MIB_MEMBER_IFINDEX_BASE + slot;
	return mirror_port_ifindex(slot);
}

static bool admin_up(unsigned int slot)
{
	const struct dp_port *p = &dp.ports[slot];

	return p->kind == DP_PORT_MEMBER ? p->admin_up : dp_port_map.up[slot] != 0;
}

/* From the links as the tick last found them (dp_port_links_refresh): no driver is asked. */
static uint8_t oper_status(unsigned int slot)
{
	const struct dp_port *p = &dp.ports[slot];

	if (!admin_up(slot))
		return IF_DOWN;
	if (p->kind == DP_PORT_VLAN)	/* its port's link and state */
		return admin_up(p->parent) && !dp_port_map.link_down[slot] ? IF_UP :
									  IF_LOWER_LAYER_DOWN;
	return dp_port_map.link_down[slot] ? IF_DOWN : IF_UP;
}

/* The state of slot under its ifIndex now: what was kept, or a new one from now on. */
static struct if_state *state_of(unsigned int slot, uint32_t ifindex)
{
	struct if_state *s = &states[slot];

	if (s->ifindex != ifindex) {
		memset(s, 0, sizeof(*s));
		s->ifindex = ifindex;
		s->oper = oper_status(slot);
		s->last_change = s->discontinuity = netsnmp_get_agent_uptime();
	}
	return s;
}

static void rows_make(void)
{
	uint64_t now = tern_log_now_ms();
	unsigned int i, t;

	if (rows_made_ms != 0 && now - rows_made_ms < ROWS_MAX_AGE_MS)
		return;
	rows_made_ms = now;
	for (t = 0; t < TABLES; t++)
		CONTAINER_CLEAR(containers[t], NULL, NULL);
	for (i = 0; i < dp.nb_ports && i < nb_slots; i++) {
		uint32_t ifindex = if_mib_ifindex(i);

		if (ifindex == 0)
			continue;
		state_of(i, ifindex);
		rows[i].ifindex = ifindex;
		rows[i].idx.oids = &rows[i].ifindex;
		rows[i].idx.len = 1;
		rows[i].slot = i;
		for (t = 0; t < TABLES; t++)
			CONTAINER_INSERT(containers[t], &rows[i]);
	}
}

/* The interface's counters for this request, read once a request. */
static const struct if_counters *counters(unsigned int slot)
{
	struct if_state *s = &states[slot];
	uint64_t raw[IFC_MAX];

	if (s->sampled_in == request)
		return &s->c;
	if_counters_read(slot, raw);
	if_counters_add(&s->c, raw);
	s->sampled_in = request;
	return &s->c;
}

static void set_int(netsnmp_variable_list *vb, u_char type, long v)
{
	snmp_set_var_typed_integer(vb, type, v);
}

static void set_c64(netsnmp_variable_list *vb, uint64_t v)
{
	struct counter64 c = { .high = v >> 32, .low = v & 0xffffffffu };

	snmp_set_var_typed_value(vb, ASN_COUNTER64, &c, sizeof(c));
}

static void set_str(netsnmp_variable_list *vb, const char *s)
{
	snmp_set_var_typed_value(vb, ASN_OCTET_STR, s, strlen(s));
}

/* A sub-interface's is its port's. */
static uint32_t speed_mbps(unsigned int slot)
{
	const struct dp_port *p = &dp.ports[slot];

	return states[p->kind == DP_PORT_VLAN ? p->parent : slot].mbps;
}

static int if_type(const struct dp_port *p)
{
	if (p->kind == DP_PORT_VLAN)
		return IFTYPE_L2VLAN;
	return p->is_bond ? IFTYPE_LAG : IFTYPE_ETHERNET;
}

/* ifTable's five counters of a direction (0 in, 1 out), in column order: octets, unicast,
 * non-unicast, discards, errors (if_counters.h lists each direction's in that order). */
static uint64_t direction_count(const struct if_counters *c, unsigned int out, unsigned int k)
{
	const unsigned int base = out ? IFC_OUT_OCTETS : IFC_IN_OCTETS;

	switch (k) {
	case 0: return c->total[base];
	case 1: return out ? c->out_ucast : c->in_ucast;
	case 2: return c->total[base + 2] + c->total[base + 3];
	case 3: return c->total[base + 4];
	default: return c->total[base + 5];
	}
}

/* ifTable's column col of slot's row; false when there is no such column. */
static bool if_column(unsigned int slot, unsigned int col, netsnmp_variable_list *vb)
{
	static const oid zero_oid[] = { 0, 0 };
	const struct dp_port *p = &dp.ports[slot];
	const struct if_state *s = &states[slot];
	uint64_t sp;

	switch (col) {
	case 1: set_int(vb, ASN_INTEGER, s->ifindex); break;
	case 2: set_str(vb, p->name); break;
	case 3: set_int(vb, ASN_INTEGER, if_type(p)); break;
	case 4: set_int(vb, ASN_INTEGER, p->mtu); break;
	case 5:
		sp = (uint64_t)speed_mbps(slot) * 1000000;
		set_int(vb, ASN_GAUGE, (long)(sp > 0xffffffffu ? 0xffffffffu : sp));
		break;
	case 6: snmp_set_var_typed_value(vb, ASN_OCTET_STR, &p->mac, RTE_ETHER_ADDR_LEN); break;
	case 7: set_int(vb, ASN_INTEGER, admin_up(slot) ? IF_UP : IF_DOWN); break;
	case 8: set_int(vb, ASN_INTEGER, oper_status(slot)); break;
	case 9: set_int(vb, ASN_TIMETICKS, (long)s->last_change); break;
	case 10 ... 14:
		set_int(vb, ASN_COUNTER, (uint32_t)direction_count(counters(slot), 0, col - 10));
		break;
	case 15: set_int(vb, ASN_COUNTER, 0); break;	/* ifInUnknownProtos: the kernel takes them */
	case 16 ... 20:
		set_int(vb, ASN_COUNTER, (uint32_t)direction_count(counters(slot), 1, col - 16));
		break;
	case 21: set_int(vb, ASN_GAUGE, 0); break;	/* ifOutQLen: deprecated */
	case 22: snmp_set_var_typed_value(vb, ASN_OBJECT_ID, zero_oid, sizeof(zero_oid)); break;
	default: return false;
	}
	return true;
}

/* ifXTable's column col of slot's row. */
static bool ifx_column(unsigned int slot, unsigned int col, netsnmp_variable_list *vb)
{
	const struct dp_port *p = &dp.ports[slot];
	const struct if_state *s = &states[slot];
	const char *alias;

	if (col >= 2 && col <= 13) {
		const struct if_counters *c = counters(slot);
		static const int of[] = {
			[2] = IFC_IN_MCAST, [3] = IFC_IN_BCAST, [4] = IFC_OUT_MCAST,
			[5] = IFC_OUT_BCAST, [6] = IFC_IN_OCTETS, [8] = IFC_IN_MCAST,
			[9] = IFC_IN_BCAST, [10] = IFC_OUT_OCTETS, [12] = IFC_OUT_MCAST,
			[13] = IFC_OUT_BCAST,
		};

		if (col <= 5)
			set_int(vb, ASN_COUNTER, (uint32_t)c->total[of[col]]);
		else if (col == 7)
			set_c64(vb, c->in_ucast);
		else if (col == 11)
			set_c64(vb, c->out_ucast);
		else
			set_c64(vb, c->total[of[col]]);
		return true;
	}
	switch (col) {
	case 1: set_str(vb, p->name); break;
	case 14:	/* ifLinkUpDownTrapEnable: ports and bonds notify, sub-interfaces not */
		set_int(vb, ASN_INTEGER, p->kind == DP_PORT_VLAN ? TV_FALSE : TV_TRUE);
		break;
	case 15: set_int(vb, ASN_GAUGE, speed_mbps(slot)); break;
	case 16: set_int(vb, ASN_INTEGER, TV_FALSE); break;
	case 17:
		set_int(vb, ASN_INTEGER,
			p->kind == DP_PORT_VLAN || p->is_bond ? TV_FALSE : TV_TRUE);
		break;
	case 18:
		alias = iface_description(slot);
		set_str(vb, alias != NULL ? alias : "");
		break;
	case 19: set_int(vb, ASN_TIMETICKS, (long)s->discontinuity); break;
	default: return false;
	}
	return true;
}

static int table_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reg,
			 netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	enum table t = reg == regs[IF_TABLE] ? IF_TABLE : IFX_TABLE;
	netsnmp_request_info *r;

	(void)handler;
	if (reqinfo->mode != MODE_GET && reqinfo->mode != MODE_GETNEXT)
		return SNMP_ERR_NOERROR;
	request++;
	for (r = requests; r != NULL; r = r->next) {
		const struct if_row *row = netsnmp_container_table_row_extract(r);
		netsnmp_table_request_info *ti = netsnmp_extract_table_info(r);
		bool ok;

		if (r->processed)
			continue;
		if (row == NULL || ti == NULL || row->slot >= dp.nb_ports ||
		    !dp_port_in_use(row->slot)) {
			netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
			continue;
		}
		ok = t == IF_TABLE ? if_column(row->slot, ti->colnum, r->requestvb) :
				     ifx_column(row->slot, ti->colnum, r->requestvb);
		if (!ok)
			netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHOBJECT);
	}
	return SNMP_ERR_NOERROR;
}

/* Above the table helpers: the rows as they are now, before they are looked up. */
static int rows_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reg,
			netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	rows_make();
	return netsnmp_call_next_handler(handler, reg, reqinfo, requests);
}

static int table_register(enum table t, const char *name, const oid *root, size_t len,
			  unsigned int max_col)
{
	netsnmp_table_registration_info *ti;
	netsnmp_handler_registration *reg;

	containers[t] = netsnmp_container_find("table_container");
	ti = SNMP_MALLOC_TYPEDEF(netsnmp_table_registration_info);
	reg = netsnmp_create_handler_registration(name, table_handler, root, len,
						  HANDLER_CAN_RONLY);
	if (containers[t] == NULL || ti == NULL || reg == NULL) {
		free(ti);
		return -ENOMEM;
	}
	netsnmp_table_helper_add_indexes(ti, ASN_INTEGER, 0);
	ti->min_column = 1;
	ti->max_column = max_col;
	if (netsnmp_container_table_register(reg, ti, containers[t],
					     TABLE_CONTAINER_KEY_NETSNMP_INDEX) != SNMPERR_SUCCESS)
		return -EIO;
	if (netsnmp_inject_handler(reg, netsnmp_create_handler("ternIfRows", rows_handler)) !=
	    SNMPERR_SUCCESS)
		return -EIO;
	regs[t] = reg;
	return 0;
}

int if_mib_init(void)
{
	int rc;

	nb_slots = dp.max_ports;
	rows = calloc(nb_slots, sizeof(*rows));
	states = calloc(nb_slots, sizeof(*states));
	if (rows == NULL || states == NULL) {
		if_mib_fini();
		return -ENOMEM;
	}
	rc = table_register(IF_TABLE, "ifTable", if_table_oid, OID_LENGTH(if_table_oid), 22);
	if (rc == 0)
		rc = table_register(IFX_TABLE, "ifXTable", ifx_table_oid, OID_LENGTH(ifx_table_oid),
				    19);
	return rc;
}

/* linkDown or linkUp of slot, with its ifIndex, ifAdminStatus and ifOperStatus. */
static void notify(unsigned int slot, const struct if_state *s)
{
	netsnmp_variable_list *vars = NULL;
	oid col[OID_LENGTH(if_entry_oid) + 2];
	const oid *trap = s->oper == IF_UP ? link_up_oid : link_down_oid;
	long v;

	snmp_varlist_add_variable(&vars, snmp_trap_oid, OID_LENGTH(snmp_trap_oid), ASN_OBJECT_ID,
				  trap, OID_LENGTH(link_up_oid) * sizeof(oid));
	memcpy(col, if_entry_oid, sizeof(if_entry_oid));
	col[OID_LENGTH(if_entry_oid) + 1] = s->ifindex;
	col[OID_LENGTH(if_entry_oid)] = 1;
	v = s->ifindex;
	snmp_varlist_add_variable(&vars, col, OID_LENGTH(col), ASN_INTEGER, &v, sizeof(v));
	col[OID_LENGTH(if_entry_oid)] = 7;
	v = admin_up(slot) ? IF_UP : IF_DOWN;
	snmp_varlist_add_variable(&vars, col, OID_LENGTH(col), ASN_INTEGER, &v, sizeof(v));
	col[OID_LENGTH(if_entry_oid)] = 8;
	v = s->oper;
	snmp_varlist_add_variable(&vars, col, OID_LENGTH(col), ASN_INTEGER, &v, sizeof(v));
	send_v2trap(vars);
	snmp_free_varbind(vars);
}

void if_mib_tick(bool connected)
{
	unsigned int i;

	for (i = 0; i < dp.nb_ports && i < nb_slots; i++) {
		uint32_t ifindex = if_mib_ifindex(i);
		struct if_state *s;
		uint8_t oper;

		if (ifindex == 0)
			continue;
		s = state_of(i, ifindex);
		if (dp.ports[i].kind != DP_PORT_VLAN)
			dp_port_link_up(&dp.ports[i], &s->mbps);
		oper = oper_status(i);
		if (oper == s->oper)
			continue;
		s->oper = oper;
		s->last_change = netsnmp_get_agent_uptime();
		if (connected && dp.ports[i].kind != DP_PORT_VLAN)
			notify(i, s);
	}
}

void if_mib_fini(void)
{
	unsigned int t;

	for (t = 0; t < TABLES; t++) {
		if (regs[t] != NULL)
			netsnmp_unregister_handler(regs[t]);
		regs[t] = NULL;
		if (containers[t] != NULL) {
			CONTAINER_CLEAR(containers[t], NULL, NULL);
			CONTAINER_FREE(containers[t]);
		}
		containers[t] = NULL;
	}
	free(rows);
	free(states);
	rows = NULL;
	states = NULL;
	nb_slots = 0;
	rows_made_ms = 0;
}
