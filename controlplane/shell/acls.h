/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The operator's access lists and where they are bound: the configuration, kept here, and
 * its compiled form in the dataplane (dataplane/acl/acl.h). A list is compiled once it is
 * bound to an interface, and again at each change while it is: a change that does not
 * compile is refused and the list stays as it was. A binding names a list: one that names no
 * list, or a list without entries, filters nothing (as Cisco's do), so a configuration can
 * bind a list before it says what it holds.
 */
#ifndef TERN_ACLS_H
#define TERN_ACLS_H

#include <stdint.h>

#include "controlplane/ternd/outbuf.h"
#include "dataplane/acl/acl.h"

#define ACL_LISTS_MAX 1024u

struct acl_list {
	char name[DP_ACL_NAME_MAX];
	uint8_t family;			/* DP_ACL_IPV4, DP_ACL_IPV6 */
	struct dp_acl_entry *e;		/* by seq */
	unsigned int n;
	struct dp_acl *dp;		/* compiled; NULL: not (yet) */
};

/* Whether name may name a list: 1 to 31 letters, digits, '-', '_' and '.'. */
bool acl_name_ok(const char *name);
struct acl_list *acl_find(uint8_t family, const char *name);
/* The list of that name, made when there is none; NULL with why in err. */
struct acl_list *acl_get(uint8_t family, const char *name, char *err, size_t errlen);
/* Adds an entry, or replaces the one of its seq; -errno with why in err, the list unchanged. */
int acl_set_entry(struct acl_list *l, const struct dp_acl_entry *e, char *err, size_t errlen);
/* -ENOENT when the list has no entry seq. */
int acl_del_entry(struct acl_list *l, uint32_t seq, char *err, size_t errlen);
void acl_delete(struct acl_list *l);
/* The lists, in the order they were made; *n of them. */
struct acl_list *const *acl_lists(unsigned int *n);

/* Binds the list name (NULL: none) to an interface's family and direction; -errno with why
 * in err when the list must be compiled and does not compile. */
int acl_bind(unsigned int port, uint8_t family, uint8_t dir, const char *name, char *err,
	     size_t errlen);
/* The name bound there, or NULL. */
const char *acl_bound(unsigned int port, uint8_t family, uint8_t dir);
/* A removed interface's bindings go with it. */
void acl_iface_removed(unsigned int port);

/* "permit tcp any host 198.18.1.2 eq 80 log": an entry as the grammar says it, without seq. */
void acl_entry_text(uint8_t family, const struct dp_acl_entry *e, char *buf, size_t len);
/* The lists' sections of the running configuration; an interface's bindings. */
void acl_running_config(struct outbuf *out);
void acl_iface_running_config(struct outbuf *out, unsigned int port);
/* Control thread, each tick: the workers' samples of log entries, to the log. */
void acl_log_tick(void);

#endif
