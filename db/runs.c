// SPDX-License-Identifier: GPL-2.0
/*
 * The `runs` rows (see runs.h).  scan, check and merge used to write
 * them with three INSERTs of their own; one place keeps the columns and
 * their meaning the same for all.
 */
#include "db/runs.h"
#include "db/db.h"
#include "lib/util.h"

#include <stdlib.h>

static void bind_count(sqlite3_stmt *st, int i, long long n)
{
	if (n >= 0)
		sqlite3_bind_int64(st, i, n);
	else
		sqlite3_bind_null(st, i);
}

static long long run_insert(sqlite3 *db, const struct db_run *r,
			    const char *started_at)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO runs (command, tree, kernel_version, git_head, "
		"arch, shard, options, started_at, status, files_total) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'running', ?9)");
	long long id = -1;

	if (!st)
		return -1;
	/* a NULL pointer binds SQL NULL */
	sqlite3_bind_text(st, 1, r->command, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->tree, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->kernel_version, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->git_head, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->arch, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, r->shard, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, r->options, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, started_at, -1, SQLITE_STATIC);
	bind_count(st, 9, r->files_total);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return id;
}

static int run_update(sqlite3 *db, long long id, const char *finished_at,
		      const char *status, const struct db_run_files *f)
{
	sqlite3_stmt *st = db_prepare(db,
		"UPDATE runs SET finished_at = ?2, status = ?3, "
		"files_total = coalesce(?4, files_total), "
		"files_parsed = coalesce(?5, files_parsed), "
		"files_unchanged = coalesce(?6, files_unchanged), "
		"files_failed = coalesce(?7, files_failed) WHERE id = ?1");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, finished_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, status, -1, SQLITE_STATIC);
	bind_count(st, 4, f->total);
	bind_count(st, 5, f->parsed);
	bind_count(st, 6, f->unchanged);
	bind_count(st, 7, f->failed);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

long long db_run_open(sqlite3 *db, const struct db_run *r)
{
	char now[32];

	iso8601_now(now);
	return run_insert(db, r, now);
}

int db_run_close(sqlite3 *db, long long id, const char *status,
		 const struct db_run_files *f)
{
	char now[32];

	iso8601_now(now);
	return run_update(db, id, now, status, f);
}

long long db_run_record(sqlite3 *db, const struct db_run *r,
			const char *status, const struct db_run_files *f)
{
	char now[32];
	long long id;

	iso8601_now(now);
	id = run_insert(db, r, now);
	if (id >= 0 && run_update(db, id, now, status, f))
		id = -1;
	return id;
}

/* The text of a one-column, one-row SELECT, malloc'd, or NULL. */
static char *step_text(sqlite3_stmt *st)
{
	char *out = NULL;

	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		out = xstrdup((const char *)sqlite3_column_text(st, 0));
	return out;
}

char *db_json_object(sqlite3 *db, const char *const *kv, int npairs)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	char *out = NULL;
	int i;

	sb_adds(&sql, "SELECT json_object(");
	for (i = 0; i < 2 * npairs; i++)
		sb_addf(&sql, "%s?%d", i ? ", " : "", i + 1);
	sb_adds(&sql, ")");
	st = db_prepare(db, sql.buf);
	if (st) {
		for (i = 0; i < 2 * npairs; i++)
			sqlite3_bind_text(st, i + 1, kv[i], -1, SQLITE_STATIC);
		out = step_text(st);
		sqlite3_finalize(st);
	}
	sb_release(&sql);
	return out;
}

char *db_json_array(sqlite3 *db, char *const *v, int n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT json_insert(?1, '$[#]', ?2)");
	char *out = xstrdup("[]");
	int i;

	for (i = 0; st && i < n; i++) {
		char *next;

		sqlite3_bind_text(st, 1, out, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, v[i], -1, SQLITE_STATIC);
		next = step_text(st);
		sqlite3_reset(st);
		if (next) {
			free(out);
			out = next;
		}
	}
	sqlite3_finalize(st);
	return out;
}
