/* SPDX-License-Identifier: BSD-3-Clause */
/* Show commands' answers as text or JSON from one description (render.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "controlplane/shell/render.h"

void render_begin(struct render *r, struct cmd_ctx *ctx)
{
	memset(r, 0, sizeof(*r));
	r->out = ctx->out;
	r->json = ctx->json;
	ctx->wrote_json = ctx->json;
	render_object_begin(r, NULL);
}

void render_end(struct render *r)
{
	render_object_end(r);
}

/* JSON: the comma before a member, and its key. */
static void member(struct render *r, const char *key)
{
	if (r->comma[r->depth])
		ob_printf(r->out, ", ");
	r->comma[r->depth] = true;
	if (key != NULL) {
		ob_json_str(r->out, key);
		ob_printf(r->out, ": ");
	}
}

static void open_(struct render *r, const char *key, char bracket)
{
	if (!r->json)
		return;
	if (r->depth > 0 || r->comma[0])
		member(r, key);
	ob_printf(r->out, "%c", bracket);
	if (r->depth + 1 < RENDER_DEPTH_MAX)
		r->depth++;
	r->comma[r->depth] = false;
}

static void close_(struct render *r, char bracket)
{
	if (!r->json)
		return;
	ob_printf(r->out, "%c", bracket);
	if (r->depth > 0)
		r->depth--;
}

void render_object_begin(struct render *r, const char *key)
{
	open_(r, key, '{');
}

void render_object_end(struct render *r)
{
	close_(r, '}');
}

void render_list_begin(struct render *r, const char *key)
{
	open_(r, key, '[');
}

void render_list_end(struct render *r)
{
	close_(r, ']');
}

void render_str(struct render *r, const char *key, const char *text_fmt, const char *v)
{
	if (r->json) {
		member(r, key);
		ob_json_str(r->out, v);
	} else if (text_fmt != NULL) {
		ob_printf(r->out, text_fmt, v);
	}
}

void render_uint(struct render *r, const char *key, const char *text_fmt, uint64_t v)
{
	if (r->json) {
		member(r, key);
		ob_printf(r->out, "%lu", v);
	} else if (text_fmt != NULL) {
		ob_printf(r->out, text_fmt, v);
	}
}

void render_double(struct render *r, const char *key, const char *text_fmt, const char *json_fmt,
		   double v)
{
	if (r->json) {
		member(r, key);
		ob_printf(r->out, json_fmt, v);
	} else if (text_fmt != NULL) {
		ob_printf(r->out, text_fmt, v);
	}
}

void render_bool(struct render *r, const char *key, const char *text_fmt, bool v)
{
	if (r->json) {
		member(r, key);
		ob_printf(r->out, "%s", v ? "true" : "false");
	} else if (text_fmt != NULL) {
		ob_printf(r->out, text_fmt, v ? "yes" : "no");
	}
}

void render_null(struct render *r, const char *key)
{
	if (r->json) {
		member(r, key);
		ob_printf(r->out, "null");
	}
}

void render_text(struct render *r, const char *fmt, ...)
{
	va_list ap;

	if (r->json)
		return;
	va_start(ap, fmt);
	ob_vprintf(r->out, fmt, ap);
	va_end(ap);
}

/*
 * A column's format with another conversion: for its header, "%-14lu" as "%-14s", " %s" as
 * " %s" and "%7.1f%%" as "%8s" (text after the value counts in the width); for JSON,
 * "%10.1f" as "%.1f".
 * Formats are the program's own, short and well formed.
 */
static void col_format(const char *fmt, bool header, char conv, char *buf, size_t len)
{
	const char *p = fmt, *prec = "";
	size_t before = 0, after = 0, prec_len = 0;
	bool left = false;
	int width = 0;

	for (; *p != '%' && *p != '\0'; p++)
		before++;	/* spaces before the value, kept before the header */
	if (*p == '%')
		p++;
	for (; *p == '-'; p++)
		left = true;
	for (; *p >= '0' && *p <= '9'; p++)
		width = width * 10 + (*p - '0');
	if (*p == '.') {
		prec = p;
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
		prec_len = p - prec;
	}
	while (*p != '\0' && strchr("hlzjt", *p) != NULL)
		p++;
	if (*p != '\0')
		p++;	/* the conversion */
	for (; *p != '\0'; p++) {
		after++;	/* text after the value ("%%", "s") widens the header */
		if (p[0] == '%' && p[1] == '%')
			p++;
	}
	width += after;
	if (header && width > 0)
		snprintf(buf, len, "%.*s%%%s%d%c", (int)before, fmt, left ? "-" : "", width, conv);
	else if (header)
		snprintf(buf, len, "%.*s%%%c", (int)before, fmt, conv);
	else
		snprintf(buf, len, "%%%.*s%c", (int)prec_len, prec, conv);
}

void render_table_begin(struct render *r, const char *key, const struct render_col *cols,
			unsigned int nb_cols, bool header)
{
	unsigned int i, shown = 0;
	char f[16];

	r->cols = cols;
	r->nb_cols = nb_cols;
	if (r->json) {
		render_list_begin(r, key);
		return;
	}
	if (!header)
		return;
	for (i = 0; i < nb_cols; i++) {
		if (cols[i].head == NULL || cols[i].head[0] == '\0')
			continue;
		if (shown++)
			ob_printf(r->out, " ");
		col_format(cols[i].fmt, true, 's', f, sizeof(f));
		ob_printf(r->out, f, cols[i].head);
	}
	ob_printf(r->out, "\n");
}

void render_row(struct render *r, const union render_val *v)
{
	unsigned int i, shown = 0;
	char f[16];

	if (r->json)
		render_object_begin(r, NULL);
	for (i = 0; i < r->nb_cols; i++) {
		const struct render_col *c = &r->cols[i];

		if (r->json) {
			if (c->key == NULL)
				continue;
			member(r, c->key);
			if (c->type == R_STR) {
				ob_json_str(r->out, v[i].s);
			} else if (c->type == R_JSON) {
				ob_printf(r->out, "%s", v[i].s);
			} else if (c->type == R_BOOL) {
				ob_printf(r->out, "%s", v[i].u ? "true" : "false");
			} else if (c->type == R_UINT) {
				ob_printf(r->out, "%lu", v[i].u);
			} else {
				col_format(c->fmt, false, 'f', f, sizeof(f));
				ob_printf(r->out, f, v[i].d);
			}
			continue;
		}
		if (c->head == NULL)
			continue;
		if (shown++ && c->head[0] != '\0')
			ob_printf(r->out, " ");
		if (c->type == R_STR || c->type == R_JSON)
			ob_printf(r->out, c->fmt, v[i].s);
		else if (c->type == R_BOOL)
			ob_printf(r->out, c->fmt, v[i].u ? "yes" : "no");
		else if (c->type == R_UINT)
			ob_printf(r->out, c->fmt, v[i].u);
		else
			ob_printf(r->out, c->fmt, v[i].d);
	}
	if (r->json)
		render_object_end(r);
	else
		ob_printf(r->out, "\n");
}

void render_table_end(struct render *r)
{
	if (r->json)
		render_list_end(r);
	r->cols = NULL;
	r->nb_cols = 0;
}
