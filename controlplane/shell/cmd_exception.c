/* SPDX-License-Identifier: BSD-3-Clause */
/* show exception (alias show punt): what went to the kernel and back, per port, control-plane
 * policing class and reason. */
#include <stdbool.h>
#include <stdio.h>

#include "controlplane/shell/command.h"
#include "controlplane/shell/counters.h"
#include "controlplane/shell/render.h"
#include "dataplane/dp.h"
#include "dataplane/punt/punt.h"
#include "kni/exception.h"

static void port_render(struct render *r, unsigned int i)
{
	struct dp_punt_stats ps;
	struct kni_port_stats ks;
	unsigned int k;

	counters_punt(i, &ps);	/* since the last clear counters */
	counters_kni(i, &ks);
	render_object_begin(r, NULL);
	render_str(r, "port", "%s <-> ", dp.ports[i].name);
	render_str(r, "tap", "kernel interface %s\n", kni_tap_name(i));
	render_uint(r, "to_kernel", "  to kernel   %12lu  ", ks.to_kernel);
	render_uint(r, "to_kernel_errors", "(write errors %lu)\n", ks.to_kernel_errors);
	render_uint(r, "from_kernel", "  from kernel %12lu  ", ks.from_kernel);
	render_uint(r, "from_kernel_drops", "(dropped %lu, ", ks.from_kernel_drops);
	render_uint(r, "from_kernel_too_long", "too long for a buffer %lu, ", ks.from_kernel_too_long);
	render_uint(r, "from_kernel_link_down", "link down %lu)\n", ks.from_kernel_link_down);
	render_uint(r, "policed", "  policed     %12lu  ", ps.policed);
	render_uint(r, "ring_full", "ring full %lu\n", ps.ring_full);
	render_object_begin(r, "classes");	/* control-plane policing, in the order served */
	for (k = 0; k < DP_PUNT_CLASS_MAX; k++) {
		bool any = ps.passed[k] || ps.policed_by_class[k] || ps.ring_full_by_class[k];

		render_object_begin(r, dp_punt_classes[k].node);
		if (any)	/* text: the classes that saw something */
			render_text(r, "  class %-11s ", dp_punt_classes[k].node);
		render_uint(r, "passed", any ? "passed %10lu  " : NULL, ps.passed[k]);
		render_uint(r, "policed", any ? "policed %10lu  " : NULL, ps.policed_by_class[k]);
		render_uint(r, "ring_full", any ? "ring full %lu\n" : NULL, ps.ring_full_by_class[k]);
		render_object_end(r);
	}
	render_object_end(r);
	render_object_begin(r, "punted");
	for (k = 0; k < DP_PUNT_REASON_MAX; k++) {
		if (ps.punted[k])	/* text: the reasons that punted something, with their meaning */
			render_text(r, "  %-18s ", dp_punt_reasons[k].node);
		render_uint(r, dp_punt_reasons[k].node, ps.punted[k] ? "%10lu  " : NULL, ps.punted[k]);
		if (ps.punted[k])
			render_text(r, "%s\n", dp_punt_reasons[k].description);
	}
	render_object_end(r);
	render_object_end(r);
}

static int cmd_show_exception(struct cmd_ctx *ctx)
{
	struct render r;
	unsigned int i;

	render_begin(&r, ctx);
	render_list_begin(&r, "ports");
	DP_FOREACH_IFACE(i)
		if (dp.ports[i].kind != DP_PORT_MEMBER)	/* its bond's kernel interface is its */
			port_render(&r, i);
	render_list_end(&r);
	render_end(&r);
	return 0;
}

const struct cmd_def cmd_exception_table[] = {
	{ CMD_MODE_EXEC, "show exception", "Packets punted to the kernel and sent by it", cmd_show_exception, 0 },
	{ CMD_MODE_EXEC, "show punt", "Packets punted to the kernel and sent by it", cmd_show_exception, 0 },
	{ 0 },
};
