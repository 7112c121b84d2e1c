/* One rte_log type per control-plane subsystem. */
#ifndef TERN_LOG_H
#define TERN_LOG_H

#include <rte_log.h>

extern int tern_log_main, tern_log_api, tern_log_rib;

void tern_log_init(void);

#define TERN_LOG(type, level, fmt, ...) \
	rte_log(RTE_LOG_##level, tern_log_##type, "ternd: " fmt "\n", ##__VA_ARGS__)

#endif
