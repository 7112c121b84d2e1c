/* SPDX-License-Identifier: BSD-3-Clause */
/* The command grammar: prefixes, ambiguity, modes, values, privilege and completion. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "controlplane/shell/command.h"
#include "dataplane/dp.h"

static struct cmd_session s;
static struct outbuf out;

static int setup(void **state)
{
	memset(dp.ports, 0, dp.max_ports * sizeof(*dp.ports));
	snprintf(dp.ports[0].name, sizeof(dp.ports[0].name), "dp0");
	snprintf(dp.ports[1].name, sizeof(dp.ports[1].name), "dp1");
	dp.nb_ports = 2;
	assert_int_equal(cmd_init(), 0);
	ob_init(&out);
	cmd_session_init(&s, 0, true);
	return 0;
}

static int teardown(void **state)
{
	ob_free(&out);
	cmd_fini();
	return 0;
}

static void assert_out_has(const char *expect)
{
	if (out.buf == NULL || strstr(out.buf, expect) == NULL)
		fail_msg("output '%s' does not hold '%s'", out.buf ? out.buf : "", expect);
}

static void test_command_modes_and_prompt(void **state)
{
	char prompt[64];

	cmd_session_init(&s, 0, true);
	cmd_prompt(&s, prompt, sizeof(prompt));
	assert_string_equal(prompt, "tern#");
	assert_int_equal(cmd_execute(&s, "conf t", false, &out), 0);
	assert_int_equal(s.mode, CMD_MODE_CONFIG);
	cmd_prompt(&s, prompt, sizeof(prompt));
	assert_string_equal(prompt, "tern(config)#");
	assert_int_equal(cmd_execute(&s, "int dp1", false, &out), 0);
	assert_int_equal(s.mode, CMD_MODE_CONFIG_IF);
	assert_string_equal(s.ifname, "dp1");
	cmd_prompt(&s, prompt, sizeof(prompt));
	assert_string_equal(prompt, "tern(config-if)#");
	/* a config-mode command in interface mode leaves the interface, as in vtysh */
	assert_int_equal(cmd_execute(&s, "interface dp0", false, &out), 0);
	assert_string_equal(s.ifname, "dp0");
	assert_int_equal(cmd_execute(&s, "exit", false, &out), 0);
	assert_int_equal(s.mode, CMD_MODE_CONFIG);
	assert_int_equal(cmd_execute(&s, "end", false, &out), 0);
	assert_int_equal(s.mode, CMD_MODE_EXEC);
}

static void test_command_ambiguous_prefix_lists_candidates(void **state)
{
	cmd_session_init(&s, 0, true);
	assert_int_equal(cmd_execute(&s, "c", false, &out), -EAGAIN);
	assert_out_has("Ambiguous command: 'c' could be: configure, clear");
}

static void test_command_unknown_word_says_what_was_expected(void **state)
{
	cmd_session_init(&s, 0, true);
	assert_int_equal(cmd_execute(&s, "show bogus", false, &out), -EINVAL);
	assert_out_has("Invalid input 'bogus' after 'show'; expected: version, interfaces");
	assert_int_equal(cmd_execute(&s, "frobnicate", false, &out), -EINVAL);
	assert_out_has("Unknown command: 'frobnicate'");
}

static void test_command_incomplete(void **state)
{
	cmd_session_init(&s, 0, true);
	assert_int_equal(cmd_execute(&s, "show ip", false, &out), -ENOENT);
	assert_out_has("Incomplete command: after 'ip' expected: interface, neighbors, fib, route");
}

static void test_command_unknown_interface_lists_known(void **state)
{
	cmd_session_init(&s, 0, true);
	assert_int_equal(cmd_execute(&s, "configure terminal", false, &out), 0);
	assert_int_equal(cmd_execute(&s, "interface dp7", false, &out), -EINVAL);
	assert_out_has("Invalid input 'dp7' after 'interface'; expected: IFNAME, IFNAME.VLAN (known interfaces: dp0, dp1)");
	assert_int_equal(s.mode, CMD_MODE_CONFIG);
}

static void test_command_values_are_validated(void **state)
{
	cmd_session_init(&s, 0, true);
	cmd_execute(&s, "configure terminal", false, &out);
	assert_int_equal(cmd_execute(&s, "ip route 198.18.0.0/33 blackhole", false, &out), -EINVAL);
	assert_out_has("expected: A.B.C.D/M");
	assert_int_equal(cmd_execute(&s, "arp 198.18.0.300 02:00:00:00:00:01 dp0", false, &out), -EINVAL);
	assert_int_equal(cmd_execute(&s, "arp 198.18.0.3 02:00:00:00:01 dp0", false, &out), -EINVAL);
	assert_out_has("expected: MAC");
}

static void test_command_unprivileged_may_not_configure(void **state)
{
	cmd_session_init(&s, 1000, false);
	assert_int_equal(cmd_execute(&s, "configure terminal", false, &out), -EPERM);
	assert_out_has("Permission denied");
	assert_int_equal(s.mode, CMD_MODE_EXEC);
}

static void test_command_json_wraps_text_errors(void **state)
{
	cmd_session_init(&s, 0, true);
	cmd_execute(&s, "configure terminal", false, &out);
	assert_int_equal(cmd_execute(&s, "hostname bad/name", true, &out), -EINVAL);
	assert_string_equal(out.buf,
			    "{\"error\": \"% Hostname 'bad/name' may only hold letters, digits, '-', '.' and '_'\"}");
	assert_int_equal(cmd_execute(&s, "hostname edge1", true, &out), 0);
	assert_string_equal(out.buf, "{\"output\": \"\"}");
	assert_string_equal(cmd_hostname, "edge1");
	assert_int_equal(cmd_execute(&s, "no hostname", false, &out), 0);
}

static void test_command_completion_candidates(void **state)
{
	cmd_session_init(&s, 0, true);
	assert_int_equal(cmd_complete(&s, "sh", &out), 0);
	/* a keyword that leads on has help of its own */
	assert_string_equal(out.buf, "k\tshow\tShow the router's state and configuration\n");
	assert_int_equal(cmd_complete(&s, "show i", &out), 0);
	assert_out_has("k\tinterfaces\t");
	assert_out_has("k\tip\t");
	cmd_execute(&s, "configure terminal", false, &out);
	assert_int_equal(cmd_complete(&s, "interface d", &out), 0);
	assert_out_has("k\tdp0\t");
	assert_out_has("k\tdp1\t");
	assert_int_equal(cmd_complete(&s, "hostname ", &out), 0);
	assert_out_has("p\tWORD\t");
	assert_int_equal(cmd_complete(&s, "end ", &out), 0);
	assert_out_has("c\t<cr>\t");
}

static void test_command_do_runs_exec_commands_from_config(void **state)
{
	cmd_session_init(&s, 0, true);
	cmd_execute(&s, "configure terminal", false, &out);
	assert_int_equal(cmd_execute(&s, "do show workers", false, &out), 0);
	assert_out_has("Worker");
	assert_int_equal(s.mode, CMD_MODE_CONFIG);
}

static void test_command_comments_and_blank_lines(void **state)
{
	cmd_session_init(&s, 0, true);
	assert_int_equal(cmd_execute(&s, "", false, &out), 0);
	assert_int_equal(cmd_execute(&s, "   ! a comment", false, &out), 0);
	assert_int_equal(cmd_execute(&s, "# another", false, &out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_modes_and_prompt),
		cmocka_unit_test(test_command_ambiguous_prefix_lists_candidates),
		cmocka_unit_test(test_command_unknown_word_says_what_was_expected),
		cmocka_unit_test(test_command_incomplete),
		cmocka_unit_test(test_command_unknown_interface_lists_known),
		cmocka_unit_test(test_command_values_are_validated),
		cmocka_unit_test(test_command_unprivileged_may_not_configure),
		cmocka_unit_test(test_command_json_wraps_text_errors),
		cmocka_unit_test(test_command_completion_candidates),
		cmocka_unit_test(test_command_do_runs_exec_commands_from_config),
		cmocka_unit_test(test_command_comments_and_blank_lines),
	};
	return cmocka_run_group_tests_name("command", tests, setup, teardown);
}
