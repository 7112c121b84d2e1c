/* SPDX-License-Identifier: BSD-3-Clause */
/* The dataplane's public face: ports, workers and the tables the control thread hands them. */
#ifndef TERN_DP_H
#define TERN_DP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mempool.h>

/*
 * Interfaces (ports, bonds and their members, sub-interfaces) are slots of dp.ports and of
 * every per-interface table: dp.max_ports of them, ternd.conf's [interfaces] max
 * (dp_ifaces_init), at most DP_MAX_IFACES; DP_IFACES_MIN until it is called.
 */
#define DP_MAX_IFACES 16384
#define DP_IFACES_MIN 32
#define DP_MAX_WORKERS 64
#define DP_MAX_RXQ_PER_WORKER 64
/*
 * A worker's rx burst: the most packets one poll of one rx queue takes, so the
 * longest vector its graph walks. 128, not l3fwd's 32: a poll, a walk and each
 * node call cost the same for 128 packets as for 32, and at the limit the queue
 * holds more than 32. Against 32 in make bench's harness (bench/ab.sh, both
 * ways round, 60 rounds each): 64 forwarded 1.021x, 128 1.078x, 256 1.148x
 * with a slot edge of 1.10 (too noisy to take); ternd.conf's [worker N]
 * rx_burst sets it per worker, up to DP_BURST_MAX.
 */
#define DP_BURST 128
#define DP_BURST_MAX 256	/* RTE_GRAPH_BURST_SIZE: a node's first vector */

/* What a frame holds beyond its MTU, and a packet buffer must too: Ethernet header, one VLAN
 * tag, CRC. */
#define DP_FRAME_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN)
/* A port's MTU: IPv4's minimum, and the most memif, TAP and most NICs carry. */
#define DP_MTU_MIN 68
#define DP_MTU_MAX 9216

enum dp_port_kind {
	DP_PORT_ETH = 0,		/* an ethdev of its own */
	DP_PORT_VLAN,			/* a sub-interface of a port (dataplane/l2/vlan.h) */
	DP_PORT_FREE,			/* a removed sub-interface's slot */
	DP_PORT_MEMBER,			/* a member of a bond (dataplane/l2/bond.h): the bond drives it */
};

/* A tern interface: a port, or a VLAN sub-interface of one. */
struct dp_port {
	uint16_t port_id;		/* DPDK ethdev id (a sub-interface's: its parent's) */
	uint16_t ifid;			/* what its frames' mbuf port field holds (dp_port_map.index) */
	uint8_t kind;			/* enum dp_port_kind */
	uint16_t parent;		/* a sub-interface's port, a member's bond (index); else its own */
	uint16_t outer_tpid, outer_vid, inner_vid;	/* a sub-interface's tags */
	char name[16];
	char dev[256];
	uint16_t nb_rxq;
	uint16_t nb_txq;
	uint16_t mtu;
	uint16_t base_mtu;		/* the MTU the configuration file gave (a sub-interface: its port's) */
	uint16_t conf_mtu;		/* the operator's (mtu, or the kernel interface's); 0: none */
	uint16_t mtu_refused;		/* the last MTU asked of the port and refused; 0: none */
	int socket;
	struct rte_ether_addr mac;
	struct rte_mempool *pool;
	bool started;
	bool admin_up;			/* a member's: in its bond (not shut down) */
	bool is_bond;			/* a bonding ethdev over members */
	/* it receives and sends a frame longer than a packet buffer as a chain of them (its
	 * driver scatters on receive, as memif always does, and sends chains): then any MTU its
	 * driver takes works at once; a sub-interface's: its port's */
	bool chains;
};

struct dp_rxq {
	uint16_t port;			/* index into dp.ports */
	uint16_t queue;
};

/* Per-worker counters: written only by that worker, summed by the control thread. */
struct dp_worker_stats {
	uint64_t loops;
	uint64_t busy_cycles;	/* sampled: cycles of the walks that handled packets */
} __rte_cache_aligned;

struct dp_worker {
	unsigned int lcore;
	unsigned int index;		/* also its tx queue on every port */
	unsigned int nb_rxq;
	unsigned int rx_burst;		/* packets a poll of one of its queues takes, at most */
	struct dp_rxq rxq[DP_MAX_RXQ_PER_WORKER];
	char graph_name[32];
	uint16_t graph_id;
	struct rte_graph *graph;
	volatile bool quit;
	bool running;
	struct dp_worker_stats stats;
};

/*
 * Packets come from the dataplane's own node counters (they survive a driver
 * resetting its statistics, as memif does on reconnect); bytes and errors
 * from the driver.
 */
struct dp_port_stats {
	uint64_t ipackets, opackets, ibytes, obytes, imissed, ierrors, oerrors, rx_nombuf, tx_drops;
};

struct dataplane {
	struct dp_port *ports;		/* max_ports slots (dataplane/ifaces.h) */
	unsigned int nb_ports;		/* slots in use or freed below the last in use */
	unsigned int max_ports;
	uint64_t ports_refused;		/* sub-interfaces refused for want of a slot */
	struct dp_worker workers[DP_MAX_WORKERS];
	unsigned int nb_workers;
	struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
};

extern struct dataplane dp;

struct dp_port_params {
	const char *name;
	const char *dev;		/* the ethdev name is the part before the first ',' */
	uint16_t nb_rxq;
	uint16_t nb_txq;
	uint16_t mtu;
	const uint8_t *mac;		/* NULL: keep the device's */
	bool mac_soft;			/* the device keeps its own MAC if it refuses mac */
};

/* Sets the pools' size (per NUMA socket) and buffer room; pools are made as ports need them. */
int dp_pools_create(unsigned int mbufs, unsigned int cache, uint16_t max_mtu);
int dp_port_add(const struct dp_port_params *prm, char *err, size_t errlen);
/* Gives *out the next slot of dp.ports for prm's ethdev, with what every port has (ids,
 * name, device, queues, MTU, socket), not yet counted in dp.nb_ports; or -ENOSPC (no slot
 * left) or -ENODEV (no such ethdev) with why in err. */
int dp_port_claim(const struct dp_port_params *prm, struct dp_port **out, char *err,
		  size_t errlen);
int dp_port_start(struct dp_port *p, char *err, size_t errlen);
void dp_ports_stop(void);
struct dp_port *dp_port_by_name(const char *name);
/* Whether slot i of dp.ports holds an interface (a removed sub-interface's does not). */
static inline bool dp_port_in_use(unsigned int i)
{
	return i < dp.nb_ports && dp.ports[i].kind != DP_PORT_FREE;
}
/* Each interface's index in turn: ports and sub-interfaces, not free slots. */
#define DP_FOREACH_IFACE(i) \
	for ((i) = 0; (i) < dp.nb_ports; (i)++) \
		if (!dp_port_in_use(i)) { \
		} else
int dp_port_stats_get(const struct dp_port *p, struct dp_port_stats *st);
void dp_port_stats_reset(const struct dp_port *p);
bool dp_port_link_up(const struct dp_port *p, uint32_t *speed_mbps);
/* Control thread, each tick: notes which ports' links are down, so that nothing is sent out
 * of them (dp_port_egress_ok); returns how many changed. */
unsigned int dp_port_links_refresh(void);
/* Sets the port's MTU and records it, or leaves both as they were and returns a negative
 * errno with why in err: what the driver refuses, above DP_MTU_MAX, or, on a port that does
 * not chain buffers, a frame larger than the packet buffers ternd made at start (sized from
 * the largest [port] mtu of ternd.conf). */
int dp_port_set_mtu(struct dp_port *p, uint32_t mtu, char *err, size_t errlen);
const char *dp_port_driver(const struct dp_port *p);

/* rx_burst: 1 .. DP_BURST_MAX, or 0 for DP_BURST. */
int dp_worker_add(unsigned int lcore, const struct dp_rxq *rxq, unsigned int nb_rxq,
		  unsigned int rx_burst);
int dp_workers_start(char *err, size_t errlen);
void dp_workers_stop(void);
/* Packets that passed the nodes named by a shell pattern, summed over workers. */
uint64_t dp_node_objs(const char *pattern);

#endif
