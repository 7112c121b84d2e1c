/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store (sqlite3, WAL): every `write memory` is one row,
 * written in one transaction; the newest row is the startup configuration.
 */
#ifndef TERN_STORE_H
#define TERN_STORE_H

#include <stddef.h>
#include <stdint.h>

struct store_entry {
	int64_t id;
	char created[32];	/* UTC, ISO 8601 */
	char user[32];
	unsigned int lines;
};

/* The schema this ternd writes; PRAGMA user_version in the file. */
#define STORE_SCHEMA_VERSION 1

struct store_info {
	const char *path;
	int schema_version;
	char journal_mode[16];	/* "wal" */
	int synchronous;	/* 2: FULL */
};

/*
 * Opens (creating) the database and brings an older schema to this one. A negative errno
 * with one sentence in err when it cannot be used: -EPROTO for a newer schema (left as it
 * is), -EIO otherwise. A corrupt file is never written into: it is moved aside, a new
 * database is opened in its place, and -EUCLEAN says so in err (the store is usable).
 */
int store_open(const char *path, char *err, size_t errlen);
int store_info(struct store_info *info);
void store_close(void);
int store_save(const char *text, const char *user, int64_t *id);
/* The text of version id (0: the newest); *text is malloc'd. -ENOENT when there is none. */
int store_load(int64_t id, char **text, char *err, size_t errlen);
/* Newest first; *out is malloc'd. */
int store_history(struct store_entry **out, unsigned int *n);

#endif
