/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ternd.conf line by line, before rte_cfgfile reads it: what rte_cfgfile would refuse is
 * named here with its line, section and key, and the place of each section and key is kept
 * so that errors found later (a bad value, an unknown key) name their line too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controlplane/ternd/config_priv.h"

static int line_of(const struct parse *p, const char *sect, const char *key)
{
	unsigned int i;
	int header = 0;

	for (i = 0; i < p->nb_refs; i++) {
		if (strcmp(p->refs[i].sect, sect) != 0)
			continue;
		if (key != NULL && strcmp(p->refs[i].key, key) == 0)
			return p->refs[i].line;
		if (p->refs[i].key[0] == '\0')
			header = p->refs[i].line;	/* the last header of that name */
	}
	return header;
}

/*
 * The line a message about "[section] key ..." (or "[section]: ...", or "[section] unknown
 * key 'k'") is about: the key's own, else the section's header; 0 when it names neither.
 */
static int line_of_message(const struct parse *p, const char *msg)
{
	char sect[CFG_NAME_LEN], key[CFG_NAME_LEN] = "";
	const char *end, *k;
	size_t n;

	if (msg[0] != '[' || (end = strchr(msg, ']')) == NULL || (size_t)(end - msg - 1) >= sizeof(sect))
		return 0;
	snprintf(sect, sizeof(sect), "%.*s", (int)(end - msg - 1), msg + 1);
	k = end + 1;
	if (strncmp(k, " unknown key '", 14) == 0)
		k += 14;
	else if (*k == ' ')
		k++;
	else
		return line_of(p, sect, NULL);
	n = strcspn(k, " =:'");
	if (n < sizeof(key))
		snprintf(key, sizeof(key), "%.*s", (int)n, k);
	return line_of(p, sect, key);
}

int config_fail(struct parse *p, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int line;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	line = line_of_message(p, msg);
	if (line > 0)
		snprintf(p->err, p->errlen, "%s: line %d: %s", p->cfg->path, line, msg);
	else
		snprintf(p->err, p->errlen, "%s: %s", p->cfg->path, msg);
	return -EINVAL;
}

static int line_ref_add(struct parse *p, const char *sect, const char *key, int line)
{
	struct line_ref *r;

	if ((p->nb_refs & (p->nb_refs + 1)) == 0 || p->refs == NULL) {
		/* grows at 1, 2, 4, 8, ... entries */
		struct line_ref *g = realloc(p->refs, (2 * p->nb_refs + 2) * sizeof(*g));

		if (g == NULL)
			return -ENOMEM;
		p->refs = g;
	}
	r = &p->refs[p->nb_refs++];
	snprintf(r->sect, sizeof(r->sect), "%s", sect);
	snprintf(r->key, sizeof(r->key), "%s", key);
	r->line = line;
	return 0;
}

/* The line of key in the section being read (the refs since its header), or 0. */
static int key_line_in_section(const struct parse *p, const char *key)
{
	unsigned int i = p->nb_refs;

	while (i-- > 0 && p->refs[i].key[0] != '\0')
		if (strcmp(p->refs[i].key, key) == 0)
			return p->refs[i].line;
	return 0;
}

/* rte_cfgfile says only "failed", and logs "line N - cannot use empty values" on its own. */
int config_check_syntax(struct parse *p, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[1024], sect[CFG_NAME_LEN] = "";
	int lineno = 0, rc = 0, first;

	if (f == NULL) {
		snprintf(p->err, p->errlen, "%s: cannot open: %s", path, strerror(errno));
		return -errno;
	}
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		char *s = line, *e, *v;

		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f)) {
			rc = config_fail(p, "line %d: longer than %zu characters", lineno, sizeof(line) - 2);
			break;
		}
		if ((e = strchr(s, '#')) != NULL)
			*e = '\0';
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (*s == '\0')
			continue;
		if (*s == '[') {
			if (e[-1] != ']' || e - s < 3)
				rc = config_fail(p, "line %d: '%s': expected a section header like [port dp0]", lineno, s);
			else if ((size_t)(e - s - 2) >= CFG_NAME_LEN)
				rc = config_fail(p, "line %d: section name longer than %d characters", lineno, CFG_NAME_LEN - 1);
			else {
				snprintf(sect, sizeof(sect), "%.*s", (int)(e - s - 2), s + 1);
				rc = line_ref_add(p, sect, "", lineno);
			}
			continue;
		}
		e = strchr(s, '=');
		if (e == NULL || e == s) {
			rc = config_fail(p, "line %d: '%s': expected 'key = value' or a [section]", lineno, s);
			break;
		}
		for (v = e + 1; isspace((unsigned char)*v); v++)
			;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		*e = '\0';
		if (sect[0] == '\0')
			rc = config_fail(p, "line %d: '%s' comes before any [section]", lineno, s);
		else if ((size_t)(e - s) >= CFG_NAME_LEN)
			rc = config_fail(p, "line %d: [%s] key '%.40s...' is longer than %d characters", lineno, sect, s,
				  CFG_NAME_LEN - 1);
		else if (*v == '\0')
			rc = config_fail(p, "line %d: [%s] %s has no value", lineno, sect, s);
		else if (strlen(v) >= CFG_VALUE_LEN)
			rc = config_fail(p, "line %d: [%s] %s: value longer than %d characters", lineno, sect, s,
				  CFG_VALUE_LEN - 1);
		else if ((first = key_line_in_section(p, s)) > 0)
			rc = config_fail(p, "line %d: [%s] %s is given twice (first on line %d)", lineno, sect, s, first);
		else
			rc = line_ref_add(p, sect, s, lineno);
	}
	fclose(f);
	return rc;
}
