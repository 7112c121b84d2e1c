/* SPDX-License-Identifier: BSD-3-Clause */
/* Registers the control plane's log types; levels can be changed at run time. */
#include <time.h>

#include "controlplane/ternd/log.h"

int tern_log_main = RTE_LOGTYPE_USER1;
int tern_log_api = RTE_LOGTYPE_USER2;
int tern_log_rib = RTE_LOGTYPE_USER3;

void tern_log_init(void)
{
	int t;

	if ((t = rte_log_register_type_and_pick_level("tern.main", RTE_LOG_INFO)) >= 0)
		tern_log_main = t;
	if ((t = rte_log_register_type_and_pick_level("tern.api", RTE_LOG_INFO)) >= 0)
		tern_log_api = t;
	if ((t = rte_log_register_type_and_pick_level("tern.rib", RTE_LOG_INFO)) >= 0)
		tern_log_rib = t;
}

uint64_t tern_log_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool tern_ratelimit_ok(struct tern_ratelimit *rl, unsigned int burst, unsigned int interval_ms,
		       uint64_t now_ms, unsigned int *suppressed)
{
	*suppressed = 0;
	if (rl->window_start_ms == 0 || now_ms - rl->window_start_ms >= interval_ms) {
		*suppressed = rl->suppressed;
		rl->window_start_ms = now_ms ? now_ms : 1;
		rl->count = 0;
		rl->suppressed = 0;
	}
	if (rl->count >= burst) {
		rl->suppressed++;
		return false;
	}
	rl->count++;
	return true;
}
