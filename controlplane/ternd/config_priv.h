/* SPDX-License-Identifier: BSD-3-Clause */
/* What config.c and config_syntax.c share while reading ternd.conf. */
#ifndef TERN_CONFIG_PRIV_H
#define TERN_CONFIG_PRIV_H

#include <stddef.h>

#include <rte_cfgfile.h>

#include "controlplane/ternd/config.h"

/* Where each section and key of the file is: errors name the line. */
struct line_ref {
	char sect[CFG_NAME_LEN];
	char key[CFG_NAME_LEN];	/* "": the section's header */
	int line;
};

struct parse {
	struct tern_config *cfg;
	struct rte_cfgfile *file;
	char *err;
	size_t errlen;
	struct line_ref *refs;
	unsigned int nb_refs;
};

/* The shape of a key's value. */
enum config_type {
	CFG_UINT,	/* a number from min to max */
	CFG_STRING,	/* 1 to size - 1 characters */
	CFG_PATH,	/* the same, starting with '/' */
	CFG_CHOICE,	/* one of the words of choices; the field takes its index */
	CFG_OWN,	/* a value of a shape of its own, read by config.c */
};

/* A section of ternd.conf: [name] or [name ARG]. */
struct config_section {
	const char *name;
	const char *arg;	/* "NAME" for [port NAME]; NULL: none */
	const char *help;
};

/* A key of ternd.conf: config_schema.c lists every one. */
struct config_key {
	const char *section;	/* a config_section's name */
	const char *name;
	enum config_type type;
	unsigned long min, max;	/* CFG_UINT */
	const char *def;	/* what an absent key takes, as written in the file; NULL: none */
	const char *absent;	/* with no def: what absence means ("required", "default: ...") */
	size_t offset, size;	/* the field in tern_config, tern_port_config or tern_worker_config */
	const char *help;
	const char *choices;	/* CFG_CHOICE: the words allowed, "no|yes" */
};

extern const struct config_section config_sections[];	/* ends with a NULL name */
extern const struct config_key config_keys[];		/* ends with a NULL section */

const struct config_section *config_section_find(const char *name);
const struct config_key *config_key_find(const char *section, const char *key);
/* Refuses the keys of sect (a section of kind section) the table does not list, then stores
 * each listed key's value, or its default, into base; CFG_OWN keys are left to the caller. */
int config_schema_apply(struct parse *p, const char *section, const char *sect, void *base);
/* The same without refusing any key: for a section that takes the keys of two kinds. */
int config_schema_apply_keys(struct parse *p, const char *section, const char *sect, void *base);
/* "eal, port NAME, ... or capture": the sections, for an error. */
int config_sections_expected(char *buf, size_t len);
/* A number from min to max (decimal, or 0x hex), digits only. */
int config_parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/* One line in err: "PATH: line N: message" (the line found from the message's "[section] key"). */
int config_fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Checks every line as rte_cfgfile would read it, keeping where each section and key is. */
int config_check_syntax(struct parse *p, const char *path);

#endif
