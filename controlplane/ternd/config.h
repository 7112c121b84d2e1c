/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd's configuration file (INI, read with rte_cfgfile): what it holds and how it is checked. */
#ifndef TERN_CONFIG_H
#define TERN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "controlplane/mirror/rib.h"
#include "controlplane/ternd/api_server.h"

#define TERN_MAX_PORTS 32
#define TERN_MAX_WORKERS 64
#define TERN_MAX_RXQ 16
#define TERN_RX_BURST_MAX 256	/* a worker's rx_burst: DP_BURST_MAX */
#define TERN_PORT_NAME_LEN 16	/* it is also the exception TAP's name: IFNAMSIZ */
#define TERN_DEFAULT_CONFIG "/etc/tern/ternd.conf"
#define TERN_DEFAULT_DB "/var/lib/tern/tern.db"
#define TERN_PUNT_CLASSES 6	/* DP_PUNT_CLASS_MAX (dataplane/punt/punt.h) */
#define TERN_MGMT_PORTS_MAX 16
/* what a punt policer takes, in ternd.conf and in the shell's control-plane mode */
#define TERN_PUNT_RATE_MAX 10000000	/* packets a second */
#define TERN_PUNT_BURST_MAX 1000000	/* packets */

struct tern_port_config {
	char name[TERN_PORT_NAME_LEN];
	char dev[256];		/* PCI address or vdev string */
	bool is_pci;
	uint16_t rxq;
	uint16_t txq;		/* one per worker at least */
	uint16_t mtu;
	bool has_mac;
	uint8_t mac[6];
	char tap[TERN_PORT_NAME_LEN];	/* the exception interface's name */
	bool tap_persist;	/* the TAP outlives ternd, and the kernel's routes through it */
	uint32_t punt_rate;	/* pps the policer lets through to the kernel */
	uint32_t punt_burst;
	/* a [bond NAME] section: an aggregate of ports, a port of its own to workers and the kernel */
	bool is_bond;
	uint8_t bond_mode;	/* enum tern_bond_mode */
	uint8_t xmit_hash;	/* enum tern_bond_hash */
	uint8_t lacp_rate;	/* 0 slow, 1 fast */
	uint8_t nb_members;
	uint16_t members[TERN_MAX_PORTS];	/* indexes of its member ports */
	uint16_t member_of;	/* a member port: its bond's index + 1; 0: none */
};

/* [bond] mode and xmit_hash, in the order of their words in the schema */
enum tern_bond_mode { TERN_BOND_8023AD, TERN_BOND_ACTIVE_BACKUP, TERN_BOND_BALANCE_XOR };
enum tern_bond_hash { TERN_BOND_HASH_L2, TERN_BOND_HASH_L23, TERN_BOND_HASH_L34 };

struct tern_rx_assign {
	uint16_t port;		/* index into tern_config.ports */
	uint16_t queue;
};

struct tern_worker_config {
	unsigned int lcore;
	unsigned int rx_burst;	/* packets a poll of one rx queue takes, at most; 0: the default */
	unsigned int nb_rx;
	struct tern_rx_assign rx[TERN_MAX_PORTS * TERN_MAX_RXQ];
};

struct tern_config {
	char path[256];
	char eal_args[256];
	unsigned int main_lcore;
	struct tern_port_config ports[TERN_MAX_PORTS];
	unsigned int nb_ports;
	struct tern_worker_config workers[TERN_MAX_WORKERS];
	unsigned int nb_workers;
	unsigned int mbufs;	/* per NUMA socket */
	unsigned int mbuf_cache;
	unsigned int fib_routes;	/* FIB capacity */
	unsigned int fib6_routes;	/* [fib6] max_routes: the IPv6 FIB's capacity */
	unsigned int max_interfaces;	/* [interfaces] max: dp.max_ports */
	unsigned int max_neighbours;	/* [neighbours] max: the RIB's neighbour table */
	unsigned int acl_memory_mb;	/* [acl] memory_mb: the classifier's memory for one list */
	bool memif_accept_unsealed;	/* [memif] peer_memory = any */
	unsigned int netlink_rcvbuf;	/* bytes */
	unsigned int netlink_batch_us;	/* least time between two batches of kernel changes */
	unsigned int netlink_batch_max_us;	/* the most it grows to while changes keep coming */
	unsigned int exception_idle_ms;	/* an idle exception service's longest sleep between polls */
	uint32_t tables[RIB_MAX_TABLES];	/* kernel tables mirrored besides local and main */
	unsigned int nb_tables;
	char api_socket[108];
	unsigned int api_mode;	/* 0660: root and group tern; 0666: anyone may read */
	struct api_limits api_limits;
	char store_db[256];
	char capture_dir[200];	/* captures are written here only */
	bool log_syslog;
	char metrics_listen[64];	/* "ADDR:PORT"; empty: no metrics endpoint */
	char snmp_agentx[108];		/* the AgentX master's socket; empty: no subagent */
	/* [control-plane]: each punt class's policer on every port, but the last class (other),
	 * whose policer is each port's punt_rate and punt_burst; the management ports */
	uint32_t copp_rate[TERN_PUNT_CLASSES], copp_burst[TERN_PUNT_CLASSES];
	uint16_t mgmt_ports[TERN_MGMT_PORTS_MAX];
	unsigned int nb_mgmt_ports;
};

/*
 * Reads and checks the whole file. On error returns a negative errno and
 * writes one line to err naming the file, section, key and what was expected;
 * cfg is then unusable.
 */
int tern_config_load(const char *path, struct tern_config *cfg, char *err, size_t errlen);

/* Prints what a valid configuration may still get wrong on this machine (missing CPUs or
 * PCI devices, NUMA mismatches, too few mbufs); returns how many warnings. */
unsigned int tern_config_warnings(const struct tern_config *cfg, FILE *out);

/* Reserves the 2 MiB hugepages per NUMA node that [eal] args asks for (never fewer than
 * there are); 0, or -ENOMEM when some could not be had. */
int tern_reserve_hugepages(const struct tern_config *cfg, FILE *out);

/* The reference of every section and key (config_schema.c) as the man page ternd.conf(5). */
void tern_config_reference(FILE *out);

/* Index of the port named name, or -ENOENT. */
int tern_config_port_index(const struct tern_config *cfg, const char *name);

#endif
