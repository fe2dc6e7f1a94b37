// SPDX-License-Identifier: GPL-2.0
/* Unit tests for db/: creation, versioning, refusal of foreign files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "db/db.h"
#include "db/labels.h"
#include "db/runs.h"
#include "lib/spawn.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/gfpaudit-unit.XXXXXX";

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void test_create_sets_meta(void **state)
{
	char *p = tmp_path("a.db");
	sqlite3 *db = db_open(p, DB_READWRITE);
	char *app, *ver, want[16];

	(void)state;
	assert_non_null(db);
	app = db_meta_get(db, "app");
	ver = db_meta_get(db, "schema_version");
	snprintf(want, sizeof(want), "%d", db_schema_version());
	assert_string_equal(app, "gfpaudit");
	assert_string_equal(ver, want);
	free(app);
	free(ver);
	db_close(db);
	/* Re-open is idempotent. */
	db = db_open(p, DB_READWRITE);
	assert_non_null(db);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM meta", -1), 2);
	db_close(db);
	free(p);
}

static void test_wal_mode(void **state)
{
	char *p = tmp_path("wal.db");
	sqlite3 *db = db_open(p, DB_READWRITE);
	sqlite3_stmt *st;

	(void)state;
	assert_non_null(db);
	st = db_prepare(db, "PRAGMA journal_mode");
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	db_close(db);
	free(p);
}

static void test_newer_schema_refused(void **state)
{
	char *p = tmp_path("new.db");
	sqlite3 *db = db_open(p, DB_READWRITE);

	(void)state;
	assert_non_null(db);
	assert_int_equal(db_meta_set(db, "schema_version", "999"), 0);
	db_close(db);
	assert_null(db_open(p, DB_READWRITE));
	assert_null(db_open(p, DB_READONLY));
	free(p);
}

static void test_foreign_sqlite_refused(void **state)
{
	char *p = tmp_path("foreign.db");
	sqlite3 *raw;

	(void)state;
	assert_int_equal(sqlite3_open(p, &raw), SQLITE_OK);
	assert_int_equal(db_exec(raw, "CREATE TABLE t(x)"), 0);
	sqlite3_close(raw);
	assert_null(db_open(p, DB_READWRITE));
	/* And it was not modified: still one table. */
	sqlite3_open(p, &raw);
	assert_int_equal(db_scalar(raw, "SELECT count(*) FROM sqlite_schema",
				   -1), 1);
	sqlite3_close(raw);
	free(p);
}

static void test_not_sqlite_refused(void **state)
{
	char *p = tmp_path("text.db");
	FILE *f = fopen(p, "w");

	(void)state;
	fputs("this is not a database, it is a sentence of text\n", f);
	fclose(f);
	assert_null(db_open(p, DB_READWRITE));
	assert_null(db_open(p, DB_READONLY));
	free(p);
}

static void test_readonly_missing(void **state)
{
	char *p = tmp_path("missing.db");

	(void)state;
	assert_null(db_open(p, DB_READONLY));
	assert_int_equal(access(p, F_OK), -1);
	free(p);
}

static void test_readonly_cannot_write(void **state)
{
	char *p = tmp_path("ro.db");
	sqlite3 *db = db_open(p, DB_READWRITE);

	(void)state;
	db_close(db);
	db = db_open(p, DB_READONLY);
	assert_non_null(db);
	assert_int_not_equal(sqlite3_exec(db, "DELETE FROM runs", NULL, NULL,
					  NULL), SQLITE_OK);
	db_close(db);
	free(p);
}

static void test_every_migration_step(void **state)
{
	int v;

	(void)state;
	/* Each intermediate version must migrate to the current one. */
	for (v = 1; v < db_schema_version(); v++) {
		char *p = xasprintf("%s/m%d.db", dir, v);
		sqlite3 *raw, *db;
		char buf[16];
		int i;

		sqlite3_open(p, &raw);
		db_exec(raw, "CREATE TABLE meta (key TEXT PRIMARY KEY, "
			     "value TEXT NOT NULL)");
		for (i = 0; i < v; i++)
			assert_int_equal(db_exec(raw, db_migrations[i]), 0);
		snprintf(buf, sizeof(buf), "%d", v);
		db_meta_set(raw, "app", DB_APP_ID);
		db_meta_set(raw, "schema_version", buf);
		sqlite3_close(raw);
		db = db_open(p, DB_READWRITE);
		assert_non_null(db);
		db_close(db);
		free(p);
	}
}

static void test_foreign_keys_cascade(void **state)
{
	char *p = tmp_path("fk.db");
	sqlite3 *db = db_open(p, DB_READWRITE);

	(void)state;
	assert_int_equal(db_exec(db,
		"INSERT INTO files(path, hash, size, parse_mode) "
		"VALUES ('a.c', 'x', 1, 'lexical');"
		"INSERT INTO flag_uses(file_id, path, line, col, flag, context)"
		" VALUES (1, 'a.c', 1, 1, 'GFP_TEMPORARY', 'other');"
		"DELETE FROM files;"), 0);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM flag_uses", -1),
			 0);
	db_close(db);
	free(p);
}

/* One run's columns as text, "|"-separated, NULL as "-". */
static char *run_row(sqlite3 *db, long long id)
{
	char *sql = xasprintf("SELECT command || '|' || tree || '|' || "
			      "coalesce(kernel_version, '-') || '|' || "
			      "coalesce(git_head, '-') || '|' || "
			      "coalesce(arch, '-') || '|' || "
			      "coalesce(shard, '-') || '|' || options || "
			      "'|' || "
			      "status || '|' || coalesce(files_total, '-') || "
			      "'|' || coalesce(files_parsed, '-') || '|' || "
			      "coalesce(files_unchanged, '-') || '|' || "
			      "coalesce(files_failed, '-') || '|' || "
			      "(finished_at IS NULL) FROM runs WHERE id = %lld",
			      id);
	sqlite3_stmt *st = db_prepare(db, sql);
	char *out = NULL;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		out = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	free(sql);
	assert_non_null(out);
	return out;
}

static void test_runs(void **state)
{
	char *p = tmp_path("runs.db");
	sqlite3 *db = db_open(p, DB_READWRITE);
	struct db_run r = { "scan", "/t", "6.1.0", NULL, "x86", "1/2", "{}",
			    -1 };
	struct db_run_files all = { 20, 18, 1, 1 }, keep = { -1, 3, 0, -1 };
	long long id;
	char *row;

	(void)state;
	assert_non_null(db);
	id = db_run_open(db, &r);
	assert_true(id > 0);
	row = run_row(db, id);
	assert_string_equal(row,
			    "scan|/t|6.1.0|-|x86|1/2|{}|running|-|-|-|-|1");
	free(row);
	assert_int_equal(db_run_close(db, id, "complete", &all), 0);
	row = run_row(db, id);
	assert_string_equal(row,
			    "scan|/t|6.1.0|-|x86|1/2|{}|complete|20|18|1|1|0");
	free(row);
	/* -1 keeps what the start recorded (check: files_total 1) */
	r.command = "check";
	r.shard = NULL;
	r.files_total = 1;
	id = db_run_open(db, &r);
	assert_int_equal(db_run_close(db, id, "failed", &keep), 0);
	row = run_row(db, id);
	assert_string_equal(row, "check|/t|6.1.0|-|x86|-|{}|failed|1|3|0|-|0");
	free(row);
	/* a merge starts and finishes at once */
	r.command = "merge";
	id = db_run_record(db, &r, "complete", &(struct db_run_files){
		-1, -1, -1, -1 });
	assert_true(id > 0);
	row = run_row(db, id);
	assert_string_equal(row,
			    "merge|/t|6.1.0|-|x86|-|{}|complete|1|-|-|-|0");
	free(row);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs WHERE "
				   "command = 'merge' AND started_at = "
				   "finished_at", -1), 1);
	/* a NOT NULL column left out fails, and says so through SQLite */
	r.tree = NULL;
	assert_int_equal(db_run_open(db, &r), -1);
	db_close(db);
	free(p);
}

static void test_runs_json(void **state)
{
	char *p = tmp_path("json.db");
	sqlite3 *db = db_open(p, DB_READWRITE);
	const char *kv[] = { "db", "a\"b.db", "file", NULL };
	char *in[] = { "s1.db", "s\n2.db" };
	char *s;

	(void)state;
	s = db_json_object(db, kv, 2);
	assert_string_equal(s, "{\"db\":\"a\\\"b.db\",\"file\":null}");
	free(s);
	s = db_json_array(db, in, 2);
	assert_string_equal(s, "[\"s1.db\",\"s\\n2.db\"]");
	free(s);
	s = db_json_array(db, in, 0);
	assert_string_equal(s, "[]");
	free(s);
	db_close(db);
	free(p);
}

/* Insert a site with LIFETIME and CONTEXT (NULL for SQL NULL). */
static int insert_site(sqlite3 *db, int line, const char *lifetime,
		       const char *context)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO sites (file_id, path, line, col, api, lifetime, "
		"context) VALUES (1, 'a.c', ?1, 1, 'kmalloc', ?2, ?3)");
	int rc;

	sqlite3_bind_int(st, 1, line);
	sqlite3_bind_text(st, 2, lifetime, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, context, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The triggers' lists are db/labels.h's, generated here from it. */
#define QUOTED(e, s) ", '" s "'"
static const char lifetimes_in[] = SITE_LIFETIMES(QUOTED);
static const char contexts_in[] = SITE_CONTEXTS(QUOTED);
#undef QUOTED

static void assert_trigger_list(sqlite3 *db, const char *name,
				const char *list)
{
	char *sql = xasprintf("SELECT sql FROM sqlite_schema WHERE type = "
			      "'trigger' AND name = '%s'", name);
	char *want = xasprintf("NOT IN (%s)", list + 2);
	sqlite3_stmt *st = db_prepare(db, sql);

	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_non_null(strstr((const char *)sqlite3_column_text(st, 0), want));
	sqlite3_finalize(st);
	free(want);
	free(sql);
}

static void test_labels_enforced(void **state)
{
	char *p = tmp_path("labels.db");
	sqlite3 *db = db_open(p, DB_READWRITE);
	int i, line = 1;

	(void)state;
	assert_int_equal(db_exec(db,
		"INSERT INTO files(path, hash, size, parse_mode) "
		"VALUES ('a.c', 'x', 1, 'lexical')"), 0);
	for (i = 0; i < LIFETIME_COUNT; i++)
		assert_int_equal(insert_site(db, line++, site_lifetime_names[i],
					     "process"), 0);
	for (i = 0; i < CONTEXT_COUNT; i++)
		assert_int_equal(insert_site(db, line++, "scoped",
					     site_context_names[i]), 0);
	/* not classified */
	assert_int_equal(insert_site(db, line++, NULL, NULL), 0);
	/* misspelt, or another case: refused, and SQLite says why */
	assert_int_equal(insert_site(db, line++, "scopd", NULL), -1);
	assert_non_null(strstr(sqlite3_errmsg(db), "sites.lifetime must be"));
	assert_int_equal(insert_site(db, line++, NULL, "Atomic"), -1);
	assert_non_null(strstr(sqlite3_errmsg(db), "sites.context must be"));
	assert_int_equal(insert_site(db, line++, "", NULL), -1);
	assert_int_equal(sqlite3_exec(db, "UPDATE sites SET lifetime = "
				      "'temporary'", NULL, NULL, NULL),
			 SQLITE_CONSTRAINT);
	assert_int_equal(sqlite3_exec(db, "UPDATE sites SET context = "
				      "'irq'", NULL, NULL, NULL),
			 SQLITE_CONSTRAINT);
	assert_int_equal(db_exec(db, "UPDATE sites SET lifetime = 'stored', "
				 "context = NULL"), 0);
	assert_trigger_list(db, "sites_lifetime_insert", lifetimes_in);
	assert_trigger_list(db, "sites_lifetime_update", lifetimes_in);
	assert_trigger_list(db, "sites_context_insert", contexts_in);
	assert_trigger_list(db, "sites_context_update", contexts_in);
	assert_int_equal(site_lifetime_of("leaked_on_path"),
			 LIFETIME_LEAKED_ON_PATH);
	assert_int_equal(site_context_of("atomic"), CONTEXT_ATOMIC);
	assert_int_equal(site_lifetime_of("scopd"), -1);
	assert_int_equal(site_context_of(NULL), -1);
	db_close(db);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_sets_meta),
		cmocka_unit_test(test_wal_mode),
		cmocka_unit_test(test_newer_schema_refused),
		cmocka_unit_test(test_foreign_sqlite_refused),
		cmocka_unit_test(test_not_sqlite_refused),
		cmocka_unit_test(test_readonly_missing),
		cmocka_unit_test(test_readonly_cannot_write),
		cmocka_unit_test(test_every_migration_step),
		cmocka_unit_test(test_foreign_keys_cascade),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_runs_json),
		cmocka_unit_test(test_labels_enforced),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	{
		char *argv[] = { "rm", "-rf", dir, NULL };

		run_argv(argv, NULL);
	}
	return rc;
}
