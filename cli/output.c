/* SPDX-License-Identifier: BSD-3-Clause */
/* Output filters applied by the shell, so they work on every command alike. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/output.h"

int out_filter_parse(char *line, struct out_filter *f, char *err, size_t errlen)
{
	char *bar = strchr(line, '|'), *kw, *arg, *save = NULL, *end;

	f->kind = OUT_ALL;
	f->word[0] = '\0';
	if (bar == NULL)
		return 0;
	*bar = '\0';
	kw = strtok_r(bar + 1, " \t", &save);
	if (kw == NULL)
		goto bad;
	/* the text to look for: the rest of the line, spaces inside it kept */
	for (arg = save; arg && (*arg == ' ' || *arg == '\t'); arg++)
		;
	if (arg && *arg == '\0')
		arg = NULL;
	if (arg != NULL)
		for (end = arg + strlen(arg); end > arg && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
	if (strncmp("count", kw, strlen(kw)) == 0 && arg == NULL) {
		f->kind = OUT_COUNT;
		return 0;
	}
	if (arg == NULL)
		goto bad;
	if (strncmp("include", kw, strlen(kw)) == 0)
		f->kind = OUT_INCLUDE;
	else if (strncmp("exclude", kw, strlen(kw)) == 0)
		f->kind = OUT_EXCLUDE;
	else if (strncmp("begin", kw, strlen(kw)) == 0)
		f->kind = OUT_BEGIN;
	else
		goto bad;
	snprintf(f->word, sizeof(f->word), "%s", arg);
	return 0;
bad:
	snprintf(err, errlen, "%% Invalid filter: expected '| include TEXT', '| exclude TEXT', '| begin TEXT' or '| count'");
	return -EINVAL;
}

void out_print(FILE *f, const char *text, size_t len, const struct out_filter *flt)
{
	const char *p = text, *end = text + len;
	unsigned long count = 0;
	bool begun = false;

	if (flt->kind == OUT_ALL) {
		fwrite(text, 1, len, f);
		if (len && text[len - 1] != '\n')
			fputc('\n', f);
		return;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[4096];
		bool hit;

		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		hit = strstr(line, flt->word) != NULL;
		if (flt->kind == OUT_COUNT)
			count++;
		else if (flt->kind == OUT_BEGIN ? (begun |= hit) : (flt->kind == OUT_INCLUDE) == hit)
			fprintf(f, "%s\n", line);
		p += n + 1;
	}
	if (flt->kind == OUT_COUNT)
		fprintf(f, "%lu\n", count);
}
