/* What config.c and config_syntax.c share while reading ternd.conf. */
#ifndef TERN_CONFIG_PRIV_H
#define TERN_CONFIG_PRIV_H

#include <stddef.h>

#include <rte_cfgfile.h>

#include "controlplane/config.h"

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

/* One line in err: "PATH: line N: message" (the line found from the message's "[section] key"). */
int config_fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Checks every line as rte_cfgfile would read it, keeping where each section and key is. */
int config_check_syntax(struct parse *p, const char *path);

#endif
