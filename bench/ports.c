/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench's DPDK side: EAL from the command line, ports started and their links awaited. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "bench/ports.h"
#include "dataplane/workarounds/eal_exit.h"
#include "dataplane/workarounds/memif_peer_guard.h"
#include "dataplane/workarounds/memseg_fd_guard.h"

#define MAX_ARGS 64

int bench_eal_start(const char *eal, const char *const *ports, unsigned int nb_ports)
{
	char *argv[MAX_ARGS + 1], buf[1024], *tok, *save = NULL;
	int argc = 0;
	unsigned int i;
	bool lcores = false, pci = false, prefix = false;

	argv[argc++] = "tern-bench";
	snprintf(buf, sizeof(buf), "%s", eal ? eal : "");
	for (tok = strtok_r(buf, " \t", &save); tok && argc < MAX_ARGS - 12;
	     tok = strtok_r(NULL, " \t", &save)) {
		lcores |= !strcmp(tok, "-l") || !strcmp(tok, "-c") || !strcmp(tok, "--lcores");
		pci |= !strcmp(tok, "-a") || !strcmp(tok, "--allow") || !strcmp(tok, "--no-pci");
		prefix |= !strcmp(tok, "--file-prefix") || !strcmp(tok, "--in-memory");
		argv[argc++] = tok;
	}
	if (!lcores) {
		argv[argc++] = "-l";
		argv[argc++] = "0";
	}
	if (!pci)
		argv[argc++] = "--no-pci";
	if (!prefix) {
		argv[argc++] = "--file-prefix";
		argv[argc++] = "tern-bench";
	}
	for (i = 0; i < nb_ports && argc < MAX_ARGS - 1; i++) {
		argv[argc++] = "--vdev";
		argv[argc++] = (char *)ports[i];
		eal_exit_note_port(ports[i]);
	}
	argv[argc] = NULL;
	/* tern-bench links ternd's memif guard for its munmap (gen --reconnect); a generator
	 * trusts its peers' memory, such as a zero-copy client's hugepage files */
	memif_peer_guard_accept_unsealed(true);
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "tern-bench: EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		return -EINVAL;
	}
	return 0;
}

/* Slots in each of the port's rings: memif's rsize (log2, 10 by default), else our 1024. */
static unsigned int port_ring_slots(const char *port)
{
	const char *r = strstr(port, ",rsize=");
	unsigned long log2;
	char *end;

	if (strncmp(port, "net_memif", 9) != 0 || r == NULL)
		return 1024;
	log2 = strtoul(r + 7, &end, 10);
	return end != r + 7 && (*end == ',' || *end == '\0') && log2 <= 14 ? 1u << log2 : 1024;
}

/*
 * 16k buffers for a pair of ports, 8k more for each port beyond; and never fewer than what
 * zero-copy memif clients hold: their own buffers posted in every receive ring and in
 * flight in every transmit ring (rsize=12 on two ports with two rx queues: 24k), with 8k
 * to work with. Sizes are 2^n - 1, the mempool's best.
 */
unsigned int bench_pool_mbufs(const char *const *ports, unsigned int nb_ports, const uint16_t *nb_rxq)
{
	unsigned int i, held = 0, n = nb_ports <= 2 ? 16384 : 8192 * nb_ports;

	for (i = 0; i < nb_ports; i++)
		held += (nb_rxq[i] + 1u) * port_ring_slots(ports[i]);
	while (n - 1 < held + 8192)
		n *= 2;
	return n - 1;
}

/* Every port with its own count of rx queues (the router may send on each) and one tx queue. */
static int ports_setup(const char *const *ports, unsigned int nb_ports, const uint16_t *nb_rxq,
		       struct rte_mempool **mp)
{
	struct rte_eth_conf conf = { 0 };
	uint16_t port, nb = rte_eth_dev_count_avail();

	if (nb < nb_ports) {
		fprintf(stderr, "tern-bench: %u port(s) given, DPDK found %u\n", nb_ports, nb);
		return -ENODEV;
	}
	*mp = rte_pktmbuf_pool_create("bench_pool", bench_pool_mbufs(ports, nb_ports, nb_rxq), 256, 0,
				      RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (*mp == NULL) {
		fprintf(stderr, "tern-bench: cannot create the packet pool: %s\n", rte_strerror(rte_errno));
		return -ENOMEM;
	}
	/* zero-copy memif clients share the pool's hugepage files (dataplane/workarounds/memseg_fd_guard.c) */
	if (memseg_fd_guard_arm() < 0) {
		fprintf(stderr, "tern-bench: cannot guard the hugepage files zero-copy ports share\n");
		return -ENOSPC;
	}
	RTE_ETH_FOREACH_DEV(port) {
		uint16_t q, nq = port < nb_ports ? nb_rxq[port] : 1;
		int rc = rte_eth_dev_configure(port, nq, 1, &conf);

		for (q = 0; q < nq && rc == 0; q++)
			rc = rte_eth_rx_queue_setup(port, q, 1024, rte_eth_dev_socket_id(port), NULL, *mp);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(port, 0, 1024, rte_eth_dev_socket_id(port), NULL);
		if (rc != 0 || rte_eth_dev_start(port) < 0) {
			fprintf(stderr, "tern-bench: cannot start port %u (%s)\n", port,
				port < nb_ports ? ports[port] : "not given");
			return -EIO;
		}
		rte_eth_promiscuous_enable(port);
	}
	return 0;
}

bool bench_port_link_up(uint16_t port)
{
	struct rte_eth_link l;

	return rte_eth_link_get_nowait(port, &l) == 0 && l.link_status;
}

/* memif links come up once the router accepts the connection */
static int ports_wait(const uint16_t *wait, unsigned int nb_wait, unsigned int link_wait_s)
{
	unsigned int waited, i;

	for (waited = 0; waited < link_wait_s * 10; waited++) {
		for (i = 0; i < nb_wait && bench_port_link_up(wait[i]); i++)
			;
		if (i == nb_wait)
			return 0;
		usleep(100000);
	}
	fprintf(stderr, "tern-bench: the links did not come up within %u s; is the router running?\n",
		link_wait_s);
	return -ETIMEDOUT;
}

int bench_ports_start(const char *const *ports, unsigned int nb_ports, uint16_t nb_rxq,
		      uint16_t tx_port, uint16_t rx_port, unsigned int link_wait_s,
		      struct rte_mempool **mp)
{
	uint16_t queues[RTE_MAX_ETHPORTS], wait[2] = { tx_port, rx_port };
	unsigned int i;
	int rc;

	for (i = 0; i < nb_ports && i < RTE_MAX_ETHPORTS; i++)
		queues[i] = nb_rxq;
	if ((rc = ports_setup(ports, nb_ports, queues, mp)) < 0)
		return rc;
	return ports_wait(wait, 2, link_wait_s);
}

int bench_ports_start_each(const char *const *ports, unsigned int nb_ports, const uint16_t *nb_rxq,
			   unsigned int link_wait_s, struct rte_mempool **mp)
{
	uint16_t wait[RTE_MAX_ETHPORTS];
	unsigned int i;
	int rc;

	if (nb_ports > RTE_MAX_ETHPORTS)
		return -E2BIG;
	if ((rc = ports_setup(ports, nb_ports, nb_rxq, mp)) < 0)
		return rc;
	for (i = 0; i < nb_ports; i++)
		wait[i] = i;
	return ports_wait(wait, nb_ports, link_wait_s);
}

void bench_ports_stop(void)
{
	uint16_t port;

	RTE_ETH_FOREACH_DEV(port) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
}
