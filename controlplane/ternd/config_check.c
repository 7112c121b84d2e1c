/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd --check-config: what a valid configuration may still get wrong on this machine. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "controlplane/ternd/config.h"

#define RX_DESC 1024
#define TX_DESC 1024
#define BURST 32

/* NUMA node of a CPU, -1 when the machine does not say. */
static int cpu_node(unsigned int cpu)
{
	char path[96];
	struct dirent *d;
	DIR *dir;
	int node = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", cpu);
	dir = opendir(path);
	if (dir == NULL)
		return -2;	/* no such CPU */
	while ((d = readdir(dir)) != NULL)
		if (sscanf(d->d_name, "node%d", &node) == 1)
			break;
	closedir(dir);
	return node;
}

static int pci_node(const char *addr)
{
	char path[128];
	FILE *f;
	int node = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s%s/numa_node",
		 strchr(addr, ':') == strrchr(addr, ':') ? "0000:" : "", addr);
	f = fopen(path, "re");
	if (f == NULL)
		return -2;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node;
}

unsigned int tern_config_warnings(const struct tern_config *cfg, FILE *out)
{
	unsigned int w, p, r, n = 0, need = 0, lcores = cfg->nb_workers + 1;
	int node;

	if (cpu_node(cfg->main_lcore) == -2) {
		fprintf(out, "warning: [eal] main_lcore = %u: this machine has no CPU %u\n",
			cfg->main_lcore, cfg->main_lcore);
		n++;
	}
	for (w = 0; w < cfg->nb_workers; w++) {
		const struct tern_worker_config *wc = &cfg->workers[w];
		int wnode = cpu_node(wc->lcore);

		if (wnode == -2) {
			fprintf(out, "warning: [worker %u]: this machine has no CPU %u\n", wc->lcore,
				wc->lcore);
			n++;
			continue;
		}
		for (r = 0; r < wc->nb_rx; r++) {
			const struct tern_port_config *pc = &cfg->ports[wc->rx[r].port];

			if (!pc->is_pci)
				continue;
			node = pci_node(pc->dev);
			if (node == -2) {
				fprintf(out, "warning: [port %s] dev = %s: no such PCI device on this machine\n",
					pc->name, pc->dev);
				n++;
			} else if (node >= 0 && wnode >= 0 && node != wnode) {
				fprintf(out, "warning: [worker %u] polls %s:%u across NUMA nodes: the port is on node %d, lcore %u on node %d\n",
					wc->lcore, pc->name, wc->rx[r].queue, node, wc->lcore, wnode);
				n++;
			}
		}
	}
	/* every descriptor ring full, every lcore cache full, and a burst in flight per queue */
	for (p = 0; p < cfg->nb_ports; p++)
		need += cfg->ports[p].rxq * (RX_DESC + BURST) + cfg->ports[p].txq * (TX_DESC + BURST);
	need += lcores * cfg->mbuf_cache;
	if (cfg->mbufs < need) {
		fprintf(out, "warning: [mempool] mbufs = %u: the configured queues can hold %u; expect rx drops (no mbuf) under load\n",
			cfg->mbufs, need);
		n++;
	}
	return n;
}
