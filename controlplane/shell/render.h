/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One rendering of a show command's answer: the handler fills fields, tables and objects
 * once, and the renderer writes them as the text an operator reads or as JSON (--json).
 *
 * A table's columns say each value's JSON key, its text header and its text format
 * ("%-12s", "%14lu", "%10.1f"): the header takes the format's width, and JSON numbers keep
 * its precision. A column without a key is text only; one without a header, JSON only; one
 * whose header is "" follows the column before it with no space and no header.
 */
#ifndef TERN_RENDER_H
#define TERN_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "controlplane/shell/command.h"

#define RENDER_DEPTH_MAX 8

enum render_type {
	R_STR,
	R_UINT,
	R_DOUBLE,
	R_BOOL,		/* JSON true or false; text "yes" or "no" with the column's "%s" format */
	R_JSON,		/* a JSON value given whole (a list of objects); text: the string as it is */
};

struct render_col {
	const char *key;	/* JSON key; NULL: text only */
	const char *head;	/* text header; NULL: JSON only */
	const char *fmt;	/* text format of one value, with its width */
	enum render_type type;
};

union render_val {
	const char *s;
	uint64_t u;
	double d;
};

#define RS(x) ((union render_val){ .s = (x) })
#define RU(x) ((union render_val){ .u = (x) })
#define RD(x) ((union render_val){ .d = (x) })
#define RB(x) ((union render_val){ .u = !!(x) })

struct render {
	struct outbuf *out;
	bool json;
	unsigned int depth;
	bool comma[RENDER_DEPTH_MAX];	/* the next member at this depth follows another */
	const struct render_col *cols;	/* the table being filled */
	unsigned int nb_cols;
};

/* Starts the answer (JSON: an object) and marks it as the handler's own JSON. */
void render_begin(struct render *r, struct cmd_ctx *ctx);
void render_end(struct render *r);

/* A value: JSON, under key (NULL: a list's member); text, printed with text_fmt (NULL: not
 * shown), e.g. "MTU %lu, ". */
void render_str(struct render *r, const char *key, const char *text_fmt, const char *v);
void render_uint(struct render *r, const char *key, const char *text_fmt, uint64_t v);
void render_double(struct render *r, const char *key, const char *text_fmt, const char *json_fmt,
		   double v);
/* JSON true or false under key; text, text_fmt with "yes" or "no" (NULL: not shown). */
void render_bool(struct render *r, const char *key, const char *text_fmt, bool v);
/* JSON null under key: a value that is not there. Nothing in text. */
void render_null(struct render *r, const char *key);
/* Text only. */
void render_text(struct render *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Objects and lists inside the answer (JSON only: text has no brackets). key NULL: a list's member. */
void render_object_begin(struct render *r, const char *key);
void render_object_end(struct render *r);
void render_list_begin(struct render *r, const char *key);
void render_list_end(struct render *r);

/* A table: JSON, a list of objects under key; text, a header line and a line a row. */
void render_table_begin(struct render *r, const char *key, const struct render_col *cols,
			unsigned int nb_cols, bool header);
void render_row(struct render *r, const union render_val *vals);
void render_table_end(struct render *r);

#endif
