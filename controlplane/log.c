/* Registers the control plane's log types; levels can be changed at run time. */
#include "controlplane/log.h"

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
