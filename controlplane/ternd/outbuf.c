/* SPDX-License-Identifier: BSD-3-Clause */
/* Command output buffer: grows as needed, remembers allocation failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/ternd/outbuf.h"

void ob_init(struct outbuf *ob)
{
	memset(ob, 0, sizeof(*ob));
}

void ob_free(struct outbuf *ob)
{
	free(ob->buf);
	ob_init(ob);
}

void ob_reset(struct outbuf *ob)
{
	ob->len = 0;
	ob->failed = false;
	if (ob->buf)
		ob->buf[0] = '\0';
}

static bool ob_grow(struct outbuf *ob, size_t need)
{
	size_t cap = ob->cap ? ob->cap : 1024;
	char *b;

	if (ob->failed)
		return false;
	if (ob->len + need + 1 <= ob->cap)
		return true;
	while (cap < ob->len + need + 1)
		cap *= 2;
	b = realloc(ob->buf, cap);
	if (b == NULL) {
		ob->failed = true;
		return false;
	}
	ob->buf = b;
	ob->cap = cap;
	return true;
}

void ob_write(struct outbuf *ob, const void *p, size_t n)
{
	if (!ob_grow(ob, n))
		return;
	memcpy(ob->buf + ob->len, p, n);
	ob->len += n;
	ob->buf[ob->len] = '\0';
}

/* Formats into the room left first and again only when it did not fit: one pass a line, not
 * one to measure and one to write (the metrics' pages are some 40 000 lines). */
void ob_vprintf(struct outbuf *ob, const char *fmt, va_list ap)
{
	size_t room = ob->buf != NULL && !ob->failed ? ob->cap - ob->len : 0;
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(room ? ob->buf + ob->len : NULL, room, fmt, cp);
	va_end(cp);
	if (n >= 0 && (size_t)n < room) {
		ob->len += n;
		return;
	}
	if (room)
		ob->buf[ob->len] = '\0';	/* what did not fit is not the buffer's */
	if (n < 0 || !ob_grow(ob, n))
		return;
	vsnprintf(ob->buf + ob->len, n + 1, fmt, ap);
	ob->len += n;
}

void ob_printf(struct outbuf *ob, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ob_vprintf(ob, fmt, ap);
	va_end(ap);
}

void ob_json_str(struct outbuf *ob, const char *s)
{
	ob_write(ob, "\"", 1);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			ob_printf(ob, "\\%c", c);
		else if (c < 0x20)
			ob_printf(ob, "\\u%04x", c);
		else
			ob_write(ob, s, 1);
	}
	ob_write(ob, "\"", 1);
}
