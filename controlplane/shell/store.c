/* SPDX-License-Identifier: BSD-3-Clause */
/* sqlite3 persistence of configurations: atomic saves, history, reads that fail loudly. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <sqlite3.h>

#include "controlplane/shell/store.h"

static sqlite3 *db;
static char db_path[4096];

static int sql_error(const char *what, char *err, size_t errlen)
{
	if (err != NULL)
		snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : "no database");
	return -EIO;
}

static int pragma_int(const char *sql, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

static bool corrupt_code(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

/* SQLITE_OK when quick_check finds the file whole; its first complaint in why otherwise. */
static int quick_check(char *why, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);

		static const char banner[] = "*** in database main ***";
		char *c;

		rc = r != NULL && strcmp(r, "ok") == 0 ? SQLITE_OK : SQLITE_CORRUPT;
		if (r != NULL && strncmp(r, banner, sizeof(banner) - 1) == 0)
			r += sizeof(banner) - 1;
		while (r != NULL && (*r == '\n' || *r == ' '))
			r++;
		snprintf(why, len, "%s", r ? r : "no answer");
		for (c = why; *c; c++)	/* one line for the log */
			if (*c == '\n')
				*c = ' ';
	} else {
		snprintf(why, len, "%s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return rc;
}

/* Renames path and its WAL files to path.corrupt-TIME; the new name in moved. */
static int move_aside(const char *path, char *moved, size_t len)
{
	static const char *const ext[] = { "", "-wal", "-shm" };
	char stamp[32], from[4200], to[4300];
	time_t now = time(NULL);
	unsigned int i;

	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
	snprintf(moved, len, "%s.corrupt-%s", path, stamp);
	for (i = 0; i < RTE_DIM(ext); i++) {
		snprintf(from, sizeof(from), "%s%s", path, ext[i]);
		snprintf(to, sizeof(to), "%s%s", moved, ext[i]);
		if (rename(from, to) < 0 && errno != ENOENT)
			return -errno;
	}
	return 0;
}

static int open_db(const char *path, char *err, size_t errlen)
{
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);

	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot open the configuration database %s: %s", path,
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		store_close();
		return -EIO;
	}
	sqlite3_busy_timeout(db, 2000);
	return 0;
}

/* Brings a whole database to STORE_SCHEMA_VERSION, or says why it cannot. */
static int schema_prepare(const char *path, char *err, size_t errlen)
{
	static const char *const create =
		"CREATE TABLE IF NOT EXISTS config ("
		" id INTEGER PRIMARY KEY AUTOINCREMENT,"
		" created TEXT NOT NULL,"
		" user TEXT NOT NULL,"
		" text TEXT NOT NULL);";
	char *msg = NULL, sql[64];
	int version = 0, rc;

	if ((rc = pragma_int("PRAGMA user_version", &version)) != SQLITE_OK)
		goto fail;
	if (version > STORE_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "the configuration database %s has schema version %d, newer than the version %d this ternd knows; it is left as it is (written by a newer tern?)",
			 path, version, STORE_SCHEMA_VERSION);
		return -EPROTO;
	}
	/* journal mode is kept in the file, synchronous is each connection's own */
	if ((rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL", NULL, NULL, &msg)) != SQLITE_OK)
		goto fail;
	if (version == STORE_SCHEMA_VERSION)
		return 0;
	/* version 0: a new file, or one from a tern before schema versions (the same table) */
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
	if ((rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg)) != SQLITE_OK ||
	    (rc = sqlite3_exec(db, create, NULL, NULL, &msg)) != SQLITE_OK ||
	    (rc = sqlite3_exec(db, sql, NULL, NULL, &msg)) != SQLITE_OK ||
	    (rc = sqlite3_exec(db, "COMMIT", NULL, NULL, &msg)) != SQLITE_OK) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto fail;
	}
	return 0;
fail:
	snprintf(err, errlen, "the configuration database %s is unusable: %s", path,
		 msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return corrupt_code(rc) ? -EUCLEAN : -EIO;
}

int store_open(const char *path, char *err, size_t errlen)
{
	char why[256], moved[4160];
	int rc;

	snprintf(db_path, sizeof(db_path), "%s", path);
	if ((rc = open_db(path, err, errlen)) < 0)
		return rc;
	rc = quick_check(why, sizeof(why));
	if (rc == SQLITE_OK) {
		rc = schema_prepare(path, err, errlen);
		if (rc != -EUCLEAN) {
			if (rc < 0)
				store_close();
			return rc;
		}
		snprintf(why, sizeof(why), "%s", sqlite3_errmsg(db));
	} else if (!corrupt_code(rc) && sqlite3_errcode(db) != SQLITE_NOTADB) {
		snprintf(err, errlen, "the configuration database %s is unusable: %s", path, why);
		store_close();
		return -EIO;
	}
	/* corrupt: never written into; a new database takes its place */
	store_close();
	if ((rc = move_aside(path, moved, sizeof(moved))) < 0) {
		snprintf(err, errlen, "the configuration database %s is corrupt (%s) and cannot be moved aside: %s",
			 path, why, strerror(-rc));
		return -EIO;
	}
	if ((rc = open_db(path, err, errlen)) < 0 || (rc = schema_prepare(path, err, errlen)) < 0) {
		store_close();
		return rc == -EUCLEAN ? -EIO : rc;
	}
	snprintf(err, errlen, "the configuration database %s was corrupt (%s); it was moved aside to %s and a new one started",
		 path, why, moved);
	return -EUCLEAN;
}

int store_info(struct store_info *info)
{
	sqlite3_stmt *st = NULL;

	memset(info, 0, sizeof(*info));
	if (db == NULL)
		return -ENODEV;
	info->path = db_path;
	pragma_int("PRAGMA user_version", &info->schema_version);
	pragma_int("PRAGMA synchronous", &info->synchronous);
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		snprintf(info->journal_mode, sizeof(info->journal_mode), "%s",
			 (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return 0;
}

void store_close(void)
{
	if (db != NULL)
		sqlite3_close(db);
	db = NULL;
}

int store_save(const char *text, const char *user, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (db == NULL)
		return -ENODEV;
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return sql_error("begin", NULL, 0);
	rc = sqlite3_prepare_v2(db,
				"INSERT INTO config (created, user, text) VALUES "
				"(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?, ?)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, user, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK || sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -EIO;
	}
	*id = sqlite3_last_insert_rowid(db);
	return 0;
}

int store_load(int64_t id, char **text, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*text = NULL;
	if (db == NULL)
		return -ENODEV;
	rc = sqlite3_prepare_v2(db, id ? "SELECT text FROM config WHERE id = ?"
				      : "SELECT text FROM config ORDER BY id DESC LIMIT 1",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_error("cannot read the configuration", err, errlen);
	if (id)
		sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		*text = strdup(t ? t : "");
		rc = *text ? 0 : -ENOMEM;
	} else if (rc == SQLITE_DONE) {
		rc = -ENOENT;
	} else {
		rc = sql_error("cannot read the configuration", err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

int store_history(struct store_entry **out, unsigned int *n)
{
	sqlite3_stmt *st = NULL;
	struct store_entry *e = NULL;
	unsigned int cap = 0;
	int rc;

	*n = 0;
	*out = NULL;
	if (db == NULL)
		return -ENODEV;
	rc = sqlite3_prepare_v2(db,
				"SELECT id, created, user, length(text) - length(replace(text, char(10), '')) "
				"FROM config ORDER BY id DESC", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			struct store_entry *g = realloc(e, (cap = cap ? cap * 2 : 16) * sizeof(*e));

			if (g == NULL) {
				free(e);
				sqlite3_finalize(st);
				return -ENOMEM;
			}
			e = g;
		}
		e[*n].id = sqlite3_column_int64(st, 0);
		snprintf(e[*n].created, sizeof(e[*n].created), "%s", sqlite3_column_text(st, 1));
		snprintf(e[*n].user, sizeof(e[*n].user), "%s", sqlite3_column_text(st, 2));
		e[*n].lines = sqlite3_column_int(st, 3);
		(*n)++;
	}
	sqlite3_finalize(st);
	*out = e;
	return rc == SQLITE_DONE ? 0 : -EIO;
}
