/* SPDX-License-Identifier: BSD-3-Clause */
/* show exception (alias show punt): what went to the kernel and back, per port and reason. */
#include <stdio.h>

#include "controlplane/shell/command.h"
#include "dataplane/dp.h"
#include "dataplane/punt.h"
#include "kni/exception.h"

static void port_json(struct cmd_ctx *ctx, unsigned int i, const struct dp_punt_stats *ps,
		      const struct kni_port_stats *ks)
{
	unsigned int r;

	ob_printf(ctx->out, "{\"port\": \"%s\", \"tap\": \"%s\", \"punted\": {", dp.ports[i].name,
		  kni_tap_name(i));
	for (r = 0; r < DP_PUNT_REASON_MAX; r++)
		ob_printf(ctx->out, "%s\"%s\": %lu", r ? ", " : "", dp_punt_reasons[r].node,
			  ps->punted[r]);
	ob_printf(ctx->out, "}, \"policed\": %lu, \"ring_full\": %lu, \"to_kernel\": %lu, "
		  "\"to_kernel_errors\": %lu, \"from_kernel\": %lu, \"from_kernel_drops\": %lu, "
		  "\"from_kernel_too_long\": %lu}",
		  ps->policed, ps->ring_full, ks->to_kernel, ks->to_kernel_errors, ks->from_kernel,
		  ks->from_kernel_drops, ks->from_kernel_too_long);
}

static void port_text(struct cmd_ctx *ctx, unsigned int i, const struct dp_punt_stats *ps,
		      const struct kni_port_stats *ks)
{
	unsigned int r;

	ob_printf(ctx->out, "%s <-> kernel interface %s\n", dp.ports[i].name, kni_tap_name(i));
	ob_printf(ctx->out, "  to kernel   %12lu  (write errors %lu)\n", ks->to_kernel,
		  ks->to_kernel_errors);
	ob_printf(ctx->out, "  from kernel %12lu  (dropped %lu, too long for a buffer %lu)\n",
		  ks->from_kernel, ks->from_kernel_drops, ks->from_kernel_too_long);
	ob_printf(ctx->out, "  policed     %12lu  ring full %lu\n", ps->policed, ps->ring_full);
	for (r = 0; r < DP_PUNT_REASON_MAX; r++)
		if (ps->punted[r])
			ob_printf(ctx->out, "  %-18s %10lu  %s\n", dp_punt_reasons[r].node,
				  ps->punted[r], dp_punt_reasons[r].description);
}

static int cmd_show_exception(struct cmd_ctx *ctx)
{
	unsigned int i;

	if (ctx->json) {
		ctx->wrote_json = true;
		ob_printf(ctx->out, "{\"ports\": [");
	}
	for (i = 0; i < dp.nb_ports; i++) {
		struct dp_punt_stats ps;
		struct kni_port_stats ks;

		dp_punt_stats(i, &ps);
		kni_port_stats(i, &ks);
		if (ctx->json) {
			ob_printf(ctx->out, "%s", i ? ", " : "");
			port_json(ctx, i, &ps, &ks);
		} else {
			port_text(ctx, i, &ps, &ks);
		}
	}
	if (ctx->json)
		ob_printf(ctx->out, "]}");
	return 0;
}

const struct cmd_def cmd_exception_table[] = {
	{ CMD_MODE_EXEC, "show exception", "Packets punted to the kernel and sent by it", cmd_show_exception, 0 },
	{ CMD_MODE_EXEC, "show punt", "Packets punted to the kernel and sent by it", cmd_show_exception, 0 },
	{ 0 },
};
