/* SPDX-License-Identifier: BSD-3-Clause */
/* Output of a command as the shell shows it: filters (| include, | exclude, | begin, | count) and pager. */
#ifndef TERN_CLI_OUTPUT_H
#define TERN_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum out_filter_kind { OUT_ALL, OUT_INCLUDE, OUT_EXCLUDE, OUT_BEGIN, OUT_COUNT };

struct out_filter {
	enum out_filter_kind kind;
	char word[128];
};

/* Cuts "CMD | include WORD" into CMD and its filter; -EINVAL with err for a bad filter. */
int out_filter_parse(char *line, struct out_filter *f, char *err, size_t errlen);
/* Writes text through the filter; the pager is used when page is true. */
void out_print(FILE *f, const char *text, size_t len, const struct out_filter *flt);

#endif
