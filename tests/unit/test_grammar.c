/* SPDX-License-Identifier: BSD-3-Clause */
/* The grammar's syntax: optional and alternative words, nested groups, and arguments by name. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "controlplane/shell/command.h"
#include "dataplane/dp.h"

static struct cmd_session s;
static struct outbuf out;
static char seen[256];	/* what the handler found, "name=value" for each name asked */

static void note(struct cmd_ctx *ctx, const char *name)
{
	const char *v = cmd_arg(ctx, name);

	snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s%s=%s", *seen ? " " : "",
		 name, v ? v : "-");
}

static int route(struct cmd_ctx *ctx)
{
	note(ctx, "prefix");
	note(ctx, "target");
	note(ctx, "distance");
	note(ctx, "weight");
	return 0;
}

static int shutdown_fn(struct cmd_ctx *ctx)
{
	note(ctx, "no");
	note(ctx, "interface");
	return 0;
}

static const struct cmd_def test_table[] = {
	{ CMD_MODE_CONFIG, "route prefix:A.B.C.D/M (target:A.B.C.D|target:IFNAME|target:drop) [distance:NUMBER] [weight NUMBER]",
	  "a route", route, 0 },
	{ CMD_MODE_CONFIG, "[no] shutdown [interface IFNAME [now]]", "shut", shutdown_fn, 0 },
	{ .syntax = NULL },
};

static const struct cmd_def *const tables[] = { test_table, NULL };

static int setup(void **state)
{
	memset(dp.ports, 0, dp.max_ports * sizeof(*dp.ports));
	snprintf(dp.ports[0].name, sizeof(dp.ports[0].name), "dp0");
	dp.nb_ports = 1;
	assert_int_equal(cmd_init_tables(tables), 0);
	ob_init(&out);
	cmd_session_init(&s, 0, true);
	s.mode = CMD_MODE_CONFIG;
	return 0;
}

static int teardown(void **state)
{
	ob_free(&out);
	cmd_fini();
	return 0;
}

static void run(const char *line, int rc, const char *expect)
{
	seen[0] = '\0';
	assert_int_equal(cmd_execute(&s, line, false, &out), rc);
	if (expect != NULL && strcmp(seen, expect) != 0)
		fail_msg("'%s' gave '%s', expected '%s'", line, seen, expect);
}

static void test_grammar_optional_words_may_be_left_out_in_any_combination(void **state)
{
	run("route 198.18.0.0/24 198.19.0.1", 0, "prefix=198.18.0.0/24 target=198.19.0.1 distance=- weight=-");
	run("route 198.18.0.0/24 198.19.0.1 5", 0, "prefix=198.18.0.0/24 target=198.19.0.1 distance=5 weight=-");
	run("route 198.18.0.0/24 198.19.0.1 weight 3", 0,
	    "prefix=198.18.0.0/24 target=198.19.0.1 distance=- weight=3");
	run("route 198.18.0.0/24 198.19.0.1 5 weight 3", 0,
	    "prefix=198.18.0.0/24 target=198.19.0.1 distance=5 weight=3");
	/* the order is the syntax's */
	run("route 198.18.0.0/24 198.19.0.1 weight 3 5", -EINVAL, "");
}

static void test_grammar_alternatives_take_exactly_one(void **state)
{
	run("route 198.18.0.0/24 dp0", 0, "prefix=198.18.0.0/24 target=dp0 distance=- weight=-");
	run("route 198.18.0.0/24 dr", 0, "prefix=198.18.0.0/24 target=drop distance=- weight=-");
	run("route 198.18.0.0/24", -ENOENT, "");
	assert_non_null(strstr(out.buf, "expected: A.B.C.D, IFNAME, drop"));
	run("route 198.18.0.0/24 dp0 drop", -EINVAL, "");
}

static void test_grammar_groups_nest(void **state)
{
	run("shutdown", 0, "no=- interface=-");
	run("no shutdown", 0, "no=no interface=-");
	run("no shutdown interface dp0", 0, "no=no interface=dp0");
	run("shutdown interface dp0 now", 0, "no=- interface=dp0");
	/* what is inside an optional group comes with its group */
	run("shutdown now", -EINVAL, "");
	run("shutdown interface", -ENOENT, "");
}

static void test_grammar_completion_offers_every_way_on(void **state)
{
	assert_int_equal(cmd_complete(&s, "route 198.18.0.0/24 198.19.0.1 ", &out), 0);
	/* a value shows its range and what it is */
	assert_non_null(strstr(out.buf, "p\t<0-4294967295>\tAdministrative distance"));
	assert_non_null(strstr(out.buf, "k\tweight\t"));
	assert_non_null(strstr(out.buf, "c\t<cr>\t"));
}

static void line(const char *head, const struct cmd_word *w, unsigned int n, const char *expect)
{
	struct outbuf o;

	ob_init(&o);
	if (expect == NULL) {
		assert_int_equal(cmd_line(&o, CMD_MODE_CONFIG, head, w, n), -EINVAL);
	} else {
		assert_int_equal(cmd_line(&o, CMD_MODE_CONFIG, head, w, n), 0);
		assert_string_equal(o.buf, expect);
		/* and the line says what it was written from */
		run(o.buf, 0, NULL);
	}
	ob_free(&o);
}

static void test_grammar_writes_lines_as_its_rows_spell_them(void **state)
{
	line("route", (struct cmd_word[]){ { "prefix", "198.18.0.0/24" }, { "target", "dp0" } }, 2,
	     "route 198.18.0.0/24 dp0\n");
	line("route", (struct cmd_word[]){ { "prefix", "198.18.0.0/24" }, { "target", "drop" },
	     { "weight", "3" }, { "distance", "5" } }, 4, "route 198.18.0.0/24 drop 5 weight 3\n");
	line("shutdown", NULL, 0, "shutdown\n");
	line("shutdown", (struct cmd_word[]){ { "interface", "dp0" } }, 1, "shutdown interface dp0\n");
	line("no shutdown", NULL, 0, "no shutdown\n");
	/* what no row takes is refused, never written */
	line("route", (struct cmd_word[]){ { "prefix", "198.18.0.0/24" }, { "target", "nowhere" } }, 2, NULL);
	line("route", (struct cmd_word[]){ { "prefix", "198.18.0.0/24" } }, 1, NULL);
	line("route", (struct cmd_word[]){ { "prefix", "198.18.0.0/24" }, { "target", "dp0" },
	     { "colour", "red" } }, 3, NULL);
}

static void test_grammar_broken_syntax_is_refused_at_init(void **state)
{
	static const char *const broken[] = { "a [b", "a (b|c", "a (b|) c", "a ]", "a (|b)", "a b)" };
	unsigned int i;

	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		const struct cmd_def t[] = { { CMD_MODE_EXEC, broken[i], "", route, 0 }, { .syntax = NULL } };
		const struct cmd_def *const tt[] = { t, NULL };

		cmd_fini();
		if (cmd_init_tables(tt) != -EINVAL)
			fail_msg("syntax '%s' was not refused", broken[i]);
	}
	cmd_fini();
	assert_int_equal(cmd_init_tables(tables), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammar_optional_words_may_be_left_out_in_any_combination),
		cmocka_unit_test(test_grammar_alternatives_take_exactly_one),
		cmocka_unit_test(test_grammar_groups_nest),
		cmocka_unit_test(test_grammar_completion_offers_every_way_on),
		cmocka_unit_test(test_grammar_writes_lines_as_its_rows_spell_them),
		cmocka_unit_test(test_grammar_broken_syntax_is_refused_at_init),
	};
	return cmocka_run_group_tests_name("grammar", tests, setup, teardown);
}
