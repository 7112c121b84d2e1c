/* SPDX-License-Identifier: BSD-3-Clause */
/* A growing text buffer for command output, with the few JSON helpers replies need. */
#ifndef TERN_OUTBUF_H
#define TERN_OUTBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct outbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool failed;		/* out of memory: the reply says so instead */
};

void ob_init(struct outbuf *ob);
void ob_free(struct outbuf *ob);
void ob_reset(struct outbuf *ob);
void ob_printf(struct outbuf *ob, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ob_vprintf(struct outbuf *ob, const char *fmt, va_list ap);
void ob_write(struct outbuf *ob, const void *p, size_t n);
/* A JSON string literal, quoted and escaped. */
void ob_json_str(struct outbuf *ob, const char *s);

#endif
