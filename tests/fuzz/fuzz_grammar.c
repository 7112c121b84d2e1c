/* Fuzz target: any line through the command grammar's matcher and completer, in every mode. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "controlplane/command.h"
#include "dataplane/dp.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dp.ports[0].name, sizeof(dp.ports[0].name), "dp0");
	snprintf(dp.ports[1].name, sizeof(dp.ports[1].name), "dp1");
	dp.nb_ports = 2;
	return cmd_init();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmd_session s;
	struct outbuf out;
	char line[1200];
	int mode;

	if (size >= sizeof(line))
		size = sizeof(line) - 1;
	memcpy(line, data, size);
	line[size] = '\0';
	ob_init(&out);
	for (mode = 0; mode < CMD_MODE_MAX; mode++) {
		cmd_session_init(&s, 0, true);
		s.mode = mode;
		snprintf(s.ifname, sizeof(s.ifname), "dp0");
		cmd_validate(&s, line, &out);
		cmd_complete(&s, line, &out);
	}
	ob_free(&out);
	return 0;
}
