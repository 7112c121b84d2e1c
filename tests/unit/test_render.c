/* SPDX-License-Identifier: BSD-3-Clause */
/* One description of an answer, written as text and as JSON (controlplane/shell/render.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "controlplane/shell/render.h"

static const struct render_col cols[] = {
	{ "name", "Interface", "%-8s", R_STR }, { "packets", "Packets", "%8lu", R_UINT },
	{ "share", "Share", "%6.1f%%", R_DOUBLE }, { "up", "Up", " %s", R_BOOL },
	{ "id", NULL, "%lu", R_UINT }, { NULL, "", "%s", R_STR },
};

/* The same answer, said once, as the handler of a show command would. */
static void answer(struct cmd_ctx *ctx)
{
	struct render r;

	render_begin(&r, ctx);
	render_str(&r, "host", "host %s, ", "r\"1");
	render_uint(&r, "ports", "%lu ports\n", 2);
	render_null(&r, "gone");
	render_table_begin(&r, "ports", cols, sizeof(cols) / sizeof(cols[0]), true);
	render_row(&r, (union render_val[]){ RS("dp0"), RU(12), RD(33.33), RB(true), RU(7), RS("") });
	render_row(&r, (union render_val[]){ RS("dp1"), RU(3), RD(0), RB(false), RU(8), RS(" (new)") });
	render_table_end(&r);
	render_list_begin(&r, "rx");
	render_text(&r, "rx:");
	render_str(&r, NULL, " %s", "dp0:0");
	render_str(&r, NULL, " %s", "dp1:0");
	render_list_end(&r);
	render_object_begin(&r, "stats");
	render_double(&r, "load", "\nload %.1f %%\n", "%.2f", 12.345);
	render_bool(&r, "busy", "busy %s\n", false);
	render_object_end(&r);
	render_end(&r);
}

static void test_render_text(void **state)
{
	struct outbuf out;
	struct cmd_ctx ctx = { .out = &out, .json = false };

	ob_init(&out);
	answer(&ctx);
	assert_false(ctx.wrote_json);
	assert_string_equal(out.buf,
			    "host r\"1, 2 ports\n"
			    "Interface  Packets   Share  Up\n"
			    "dp0            12   33.3%  yes\n"
			    "dp1             3    0.0%  no (new)\n"
			    "rx: dp0:0 dp1:0\n"
			    "load 12.3 %\n"
			    "busy no\n");
	ob_free(&out);
}

static void test_render_json(void **state)
{
	struct outbuf out;
	struct cmd_ctx ctx = { .out = &out, .json = true };

	ob_init(&out);
	answer(&ctx);
	assert_true(ctx.wrote_json);
	assert_string_equal(out.buf,
			    "{\"host\": \"r\\\"1\", \"ports\": 2, \"gone\": null, \"ports\": ["
			    "{\"name\": \"dp0\", \"packets\": 12, \"share\": 33.3, \"up\": true, \"id\": 7}, "
			    "{\"name\": \"dp1\", \"packets\": 3, \"share\": 0.0, \"up\": false, \"id\": 8}], "
			    "\"rx\": [\"dp0:0\", \"dp1:0\"], \"stats\": {\"load\": 12.35, \"busy\": false}}");
	ob_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_text),
		cmocka_unit_test(test_render_json),
	};
	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
