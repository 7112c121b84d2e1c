/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench's DPDK side: EAL with the ports given on the command line, started and linked. */
#ifndef TERN_BENCH_PORTS_H
#define TERN_BENCH_PORTS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>

/* EAL from extra arguments plus one --vdev per port (-l 0, --no-pci, --file-prefix tern-bench by default). */
int bench_eal_start(const char *eal, const char *const *ports, unsigned int nb_ports);
/* Starts every port (nb_rxq rx queues, one tx queue) and waits for the tx and rx ports' links. */
int bench_ports_start(const char *const *ports, unsigned int nb_ports, uint16_t nb_rxq,
		      uint16_t tx_port, uint16_t rx_port, unsigned int link_wait_s,
		      struct rte_mempool **mp);
/* Starts every port, port i with nb_rxq[i] rx queues, and waits for all their links. */
int bench_ports_start_each(const char *const *ports, unsigned int nb_ports, const uint16_t *nb_rxq,
			   unsigned int link_wait_s, struct rte_mempool **mp);
/* Buffers in the generator's pool for these ports, port i with nb_rxq[i] rx queues. */
unsigned int bench_pool_mbufs(const char *const *ports, unsigned int nb_ports, const uint16_t *nb_rxq);
/* Whether the port's link is up now (no waiting). */
bool bench_port_link_up(uint16_t port);
void bench_ports_stop(void);

#endif
