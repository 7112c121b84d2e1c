/* SPDX-License-Identifier: BSD-3-Clause */
/* One rte_log type per control-plane subsystem. */
#ifndef TERN_LOG_H
#define TERN_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_log.h>

extern int tern_log_main, tern_log_api, tern_log_rib;

void tern_log_init(void);

/* The level is tested first: a DEBUG line on every netlink message costs nothing when off. */
#define TERN_LOG(type, level, fmt, ...)                                                        \
	do {                                                                                   \
		if (rte_log_can_log(tern_log_##type, RTE_LOG_##level))                         \
			rte_log(RTE_LOG_##level, tern_log_##type, "ternd: " fmt "\n", ##__VA_ARGS__); \
	} while (0)

/*
 * For events that can come by the thousand (a table full during a route
 * flood, a packet flood): at most burst messages per interval from one call
 * site, then one line saying how many were suppressed.
 */
struct tern_ratelimit {
	uint64_t window_start_ms;
	unsigned int count;
	unsigned int suppressed;
};

/* True when this message may go out; *suppressed gets how many were held back before it. */
bool tern_ratelimit_ok(struct tern_ratelimit *rl, unsigned int burst, unsigned int interval_ms,
		       uint64_t now_ms, unsigned int *suppressed);
uint64_t tern_log_now_ms(void);

#define TERN_LOG_RL_BURST 5
#define TERN_LOG_RL_INTERVAL_MS 10000

#define TERN_LOG_RATELIMITED(type, level, fmt, ...)                                            \
	do {                                                                                   \
		static struct tern_ratelimit rl__;                                             \
		unsigned int held__;                                                           \
		if (tern_ratelimit_ok(&rl__, TERN_LOG_RL_BURST, TERN_LOG_RL_INTERVAL_MS,       \
				      tern_log_now_ms(), &held__)) {                           \
			if (held__)                                                            \
				TERN_LOG(type, level, "(%u more like the next were not logged)", held__); \
			TERN_LOG(type, level, fmt, ##__VA_ARGS__);                             \
		}                                                                              \
	} while (0)

#endif
