// SPDX-License-Identifier: GPL-2.0
/*
 * Opening, versioning and migrating the findings database.
 *
 * WAL mode lets readers (query, report) run while a scan writes, and lets
 * several `gfpaudit check` processes started by make -j append one after
 * the other; the busy timeout makes them wait instead of failing.
 */
#include "db/db.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define BUSY_TIMEOUT_MS 60000

int db_exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		error_msg("%s: %s", sqlite3_db_filename(db, "main"),
			  err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		error_msg("%s: %s (in: %.60s)", sqlite3_db_filename(db, "main"),
			  sqlite3_errmsg(db), sql);
		return NULL;
	}
	return st;
}

long long db_scalar(sqlite3 *db, const char *sql, long long dflt)
{
	sqlite3_stmt *st = NULL;
	long long v = dflt;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return dflt;
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

char *db_meta_get(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;

	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1,
			       &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

int db_meta_set(sqlite3 *db, const char *key, const char *value)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO meta(key, value) VALUES (?, ?) "
		"ON CONFLICT(key) DO UPDATE SET value = excluded.value");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int db_begin(sqlite3 *db)
{
	return db_exec(db, "BEGIN IMMEDIATE");
}

int db_commit(sqlite3 *db)
{
	return db_exec(db, "COMMIT");
}

void db_rollback(sqlite3 *db)
{
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

/*
 * Run SQL, waiting while it fails with SQLITE_BUSY.  Two gfpaudit
 * processes that open one new database at once race on its first
 * PRAGMA journal_mode = WAL: the other's read of the schema then fails
 * with SQLITE_BUSY at once, without its busy handler (t7002 failed so in
 * a CI run, and in 9 of 15 runs on an idle machine; how often depends on
 * the timing).  Wait for it as the busy timeout would.  Returns SQLite's
 * code; prints nothing.
 */
static int exec_waiting(sqlite3 *db, const char *sql)
{
	int rc, waited;

	for (waited = 0;; waited += 10) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) ||
		    waited >= BUSY_TIMEOUT_MS)
			return rc;
		usleep(10000);
	}
}

/* How many user tables other than ours-to-be the file holds. */
static long long count_tables(sqlite3 *db)
{
	return db_scalar(db,
		"SELECT count(*) FROM sqlite_schema WHERE type = 'table'", -1);
}

/*
 * Decide whether an opened file is ours, and at which version.  Returns the
 * schema version (0 for a fresh, empty database) or -1 after printing why
 * the file cannot be used.
 */
static int identify(sqlite3 *db, const char *path)
{
	long long tables = count_tables(db);
	char *app, *ver;
	int v;

	if (tables < 0) {
		int code = sqlite3_errcode(db);

		if (code == SQLITE_NOTADB)
			error_msg("%s: not an SQLite database", path);
		else
			error_msg("%s: %s", path, sqlite3_errmsg(db));
		return -1;
	}
	if (tables == 0)
		return 0;
	app = db_meta_get(db, "app");
	if (!app || strcmp(app, DB_APP_ID)) {
		free(app);
		error_msg("%s: an SQLite database, but not a gfpaudit one "
			  "(no meta.app = '%s')", path, DB_APP_ID);
		return -1;
	}
	free(app);
	ver = db_meta_get(db, "schema_version");
	v = ver ? atoi(ver) : -1;
	free(ver);
	if (v < 1) {
		error_msg("%s: gfpaudit database without a schema version",
			  path);
		return -1;
	}
	if (v > db_schema_version()) {
		error_msg("%s: schema version %d is newer than this gfpaudit "
			  "understands (%d); use a newer gfpaudit", path, v,
			  db_schema_version());
		return -1;
	}
	return v;
}

static int migrate(sqlite3 *db, const char *path, int from)
{
	int to = db_schema_version(), v;
	char buf[16];

	if (db_begin(db))
		return -1;
	/* Another writer may have migrated while we waited for the lock. */
	if (from == 0 && count_tables(db) > 0) {
		db_rollback(db);
		v = identify(db, path);
		if (v < 0)
			return -1;
		if (v == to)
			return 0;
		return migrate(db, path, v);
	}
	if (from == 0 &&
	    db_exec(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, "
			"value TEXT NOT NULL)"))
		goto fail;
	for (v = from; v < to; v++)
		if (db_exec(db, db_migrations[v]))
			goto fail;
	snprintf(buf, sizeof(buf), "%d", to);
	if (db_meta_set(db, "app", DB_APP_ID) ||
	    db_meta_set(db, "schema_version", buf))
		goto fail;
	return db_commit(db);
fail:
	db_rollback(db);
	return -1;
}

/*
 * A WAL database on read-only media cannot be opened normally (the -shm
 * file cannot be created); readers then open it as immutable.
 */
static sqlite3 *open_immutable(const char *path)
{
	struct strbuf uri = STRBUF_INIT;
	sqlite3 *db = NULL;
	const char *p;

	sb_adds(&uri, "file:");
	for (p = path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			sb_addf(&uri, "%%%02X", (unsigned char)*p);
		else
			sb_addc(&uri, *p);
	}
	sb_adds(&uri, "?immutable=1");
	if (sqlite3_open_v2(uri.buf, &db, SQLITE_OPEN_READONLY |
			    SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		db = NULL;
	}
	sb_release(&uri);
	return db;
}

static int on_readonly_fs(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct statvfs vfs;
	int ro;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	ro = statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY);
	free(dir);
	return ro;
}

void db_setup(void)
{
	/*
	 * Both only fail once SQLite is initialised (SQLITE_MISUSE), and
	 * then the defaults stay: slower, as correct.
	 */
	sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

sqlite3 *db_open(const char *path, enum db_open_mode mode)
{
	int flags = mode == DB_READONLY ? SQLITE_OPEN_READONLY :
		    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	struct stat st;
	sqlite3 *db = NULL;
	int v;

	if (mode == DB_READONLY && stat(path, &st) != 0) {
		error_msg("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		error_msg("%s: is a directory, not a database", path);
		return NULL;
	}
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		error_msg("%s: cannot open database: %s", path,
			  db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(db, 0);
	if (on_readonly_fs(path)) {
		if (mode == DB_READWRITE) {
			error_msg("%s: the database's location is on a "
				  "read-only file system", path);
			goto fail;
		}
		sqlite3_close(db);
		db = open_immutable(path);
		if (!db) {
			error_msg("%s: cannot open database on read-only "
				  "media", path);
			return NULL;
		}
	}
	exec_waiting(db, "SELECT count(*) FROM sqlite_schema");
	v = identify(db, path);
	if (v < 0)
		goto fail;
	if (mode == DB_READONLY) {
		if (v == 0) {
			error_msg("%s: empty database (run gfpaudit scan)",
				  path);
			goto fail;
		}
		if (v < db_schema_version()) {
			error_msg("%s: schema version %d is older than %d; "
				  "open it once read-write (gfpaudit scan) to "
				  "migrate it", path, v, db_schema_version());
			goto fail;
		}
		return db;
	}
	if (exec_waiting(db, "PRAGMA journal_mode = WAL") != SQLITE_OK) {
		error_msg("%s: %s (in: PRAGMA journal_mode = WAL)", path,
			  sqlite3_errmsg(db));
		goto fail;
	}
	if (db_exec(db, "PRAGMA foreign_keys = ON") ||
	    db_exec(db, "PRAGMA synchronous = NORMAL"))
		goto fail;
	if (v < db_schema_version() && migrate(db, path, v))
		goto fail;
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

void db_close(sqlite3 *db)
{
	sqlite3_close(db);
}
