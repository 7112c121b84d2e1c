/* SPDX-License-Identifier: BSD-3-Clause */
/* Cloning the per-port source and sink nodes before graphs are created. */
#ifndef TERN_NODE_PORT_H
#define TERN_NODE_PORT_H

#include <stddef.h>
#include <stdint.h>

#define DP_NODE_CLONES_MAX 1024

struct rte_node;

/* Clones port_rx for (port, queue); name receives the clone's node name. */
int dp_node_port_rx_clone(uint16_t port_id, uint16_t queue, uint16_t burst, char *name, size_t len);
/* Polls of a port_rx node (in a worker's graph) that returned packets; 0 for other nodes. */
uint64_t dp_node_port_rx_busy(const struct rte_node *node);
/* Gives a port (its index in dp.ports) the next transmit edge (node.h), as it is made; or
 * -ENOSPC. */
int dp_tx_edge_take(uint16_t port_index);
/* Clones port_tx for each port that took an edge and has no clone yet, and makes it that
 * edge of every node that sends: before graphs are made. */
int dp_node_port_tx_clones(void);
/* Packets port_tx could not send on a port, summed over workers (0 for a sub-interface). */
uint64_t dp_node_port_tx_drops(uint16_t port_index);

#endif
