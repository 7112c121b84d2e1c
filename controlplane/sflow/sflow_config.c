/* SPDX-License-Identifier: BSD-3-Clause */
/* The sFlow agent's lines of the running configuration (sflow_agent.h). */
#include <stdio.h>

#include "controlplane/sflow/sflow_agent.h"
#include "controlplane/shell/command.h"
#include "dataplane/dp.h"

void sflow_running_config(struct outbuf *out)
{
	const struct sflow_collector *c;
	unsigned int n = sflow_collectors(&c), i;
	struct sflow_addr a;
	char text[48], port[8], rate[12];
	bool any = false;

	if (sflow_agent_address(&a)) {
		sflow_addr_text(&a, text, sizeof(text));
		cmd_line(out, CMD_MODE_CONFIG, "sflow agent-address",
			 &(struct cmd_word){ "addr", text }, 1);
		any = true;
	}
	for (i = 0; i < n; i++) {
		sflow_addr_text(&c[i].addr, text, sizeof(text));
		snprintf(port, sizeof(port), "%u", c[i].port);
		if (c[i].port == SFLOW_PORT)
			cmd_line(out, CMD_MODE_CONFIG, "sflow collector",
				 &(struct cmd_word){ "addr", text }, 1);
		else
			cmd_line(out, CMD_MODE_CONFIG, "sflow collector",
				 (struct cmd_word[]){ { "addr", text }, { "port", port } }, 2);
		any = true;
	}
	if (sflow_polling() != SFLOW_POLLING_S) {
		snprintf(rate, sizeof(rate), "%u", sflow_polling());
		cmd_line(out, CMD_MODE_CONFIG, "sflow polling-interval",
			 &(struct cmd_word){ "polling-interval", rate }, 1);
		any = true;
	}
	if (sflow_global_rate()) {
		snprintf(rate, sizeof(rate), "%u", sflow_global_rate());
		cmd_line(out, CMD_MODE_CONFIG, "sflow sample-rate",
			 &(struct cmd_word){ "sample-rate", rate }, 1);
		any = true;
	}
	if (any)
		ob_printf(out, "!\n");
}

void sflow_iface_running_config(struct outbuf *out, unsigned int slot)
{
	char rate[12];

	if (sflow_iface_rate(slot) == 0)
		return;
	snprintf(rate, sizeof(rate), "%u", sflow_iface_rate(slot));
	cmd_line(out, CMD_MODE_CONFIG_IF, "sflow sample-rate",
		 &(struct cmd_word){ "sample-rate", rate }, 1);
}
