/* sqlite3 persistence of configurations: atomic saves, history, reads that fail loudly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "controlplane/store.h"

static sqlite3 *db;

static int sql_error(const char *what, char *err, size_t errlen)
{
	if (err != NULL)
		snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : "no database");
	return -EIO;
}

int store_open(const char *path, char *err, size_t errlen)
{
	static const char *const schema =
		"PRAGMA journal_mode=WAL;"
		"PRAGMA synchronous=FULL;"
		"CREATE TABLE IF NOT EXISTS config ("
		" id INTEGER PRIMARY KEY AUTOINCREMENT,"
		" created TEXT NOT NULL,"
		" user TEXT NOT NULL,"
		" text TEXT NOT NULL);";
	char *msg = NULL;
	int rc;

	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot open the configuration database %s: %s", path,
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		store_close();
		return -EIO;
	}
	sqlite3_busy_timeout(db, 2000);
	if (sqlite3_exec(db, schema, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "the configuration database %s is unusable: %s", path,
			 msg ? msg : "unknown error");
		sqlite3_free(msg);
		store_close();
		return -EIO;
	}
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
