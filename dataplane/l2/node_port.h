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
/* Clones port_tx for an interface and wires it as ip_rewrite's, ip4_fast's, ip6_fast's and kernel_out's
 * edge (interface index); port_id: its ethdev. Every slot of dp.ports has one, sub-interfaces
 * to come included (graphs cannot take nodes once made). */
int dp_node_port_tx_clone(uint16_t port_index, uint16_t port_id);
/* Packets port_tx could not send on an interface, summed over workers. */
uint64_t dp_node_port_tx_drops(uint16_t port_index);

#endif
