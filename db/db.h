/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_DB_H
#define GFPAUDIT_DB_H

#include <sqlite3.h>

/*
 * The findings database.  One database describes one kernel tree; each
 * scan or check invocation is a row of `runs`.  Schema: docs/schema.md.
 */

#define DB_APP_ID "gfpaudit"

enum db_open_mode {
	DB_READONLY,  /* query, report: never writes, fails if missing */
	DB_READWRITE, /* create if missing, migrate if older */
};

/* The schema migrations; db_schema_version() is their count. */
extern const char *const db_migrations[];
int db_schema_version(void);

/*
 * Set SQLite up for this program, before its first use: each connection
 * is used by one thread (the scan's workers open their own), so no
 * connection takes a lock for each call, and no allocation counts its
 * bytes under a global one.
 */
void db_setup(void);

/*
 * Open PATH.  On failure prints one line naming PATH and the problem and
 * returns NULL: not an SQLite file, an SQLite file that is not ours, a
 * schema newer than this binary, a missing file in read-only mode.
 */
sqlite3 *db_open(const char *path, enum db_open_mode mode);
void db_close(sqlite3 *db);

/* Run SQL without results; prints the error and returns -1 on failure. */
int db_exec(sqlite3 *db, const char *sql);

/*
 * Write transactions.  BEGIN IMMEDIATE takes the write lock up front, so
 * concurrent writers (kbuild's make -j running `gfpaudit check`) queue on
 * the busy timeout instead of failing in the middle of a batch.
 */
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);

/* Prepare or report the error (with the SQL) and return NULL. */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql);

/* Value of meta.key, malloc'd, or NULL. */
char *db_meta_get(sqlite3 *db, const char *key);
int db_meta_set(sqlite3 *db, const char *key, const char *value);

/* Single integer result of SQL (no parameters), or dflt. */
long long db_scalar(sqlite3 *db, const char *sql, long long dflt);

#endif
