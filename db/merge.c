// SPDX-License-Identifier: GPL-2.0
/*
 * The SQL of `gfpaudit merge` (see merge.h), apart from the command so
 * that it can be read, tested and reused as database code.
 *
 * The copy is SQL: the input is ATTACHed under a bound file name and each
 * table copied with INSERT ... SELECT, file, run and site ids remapped
 * through temp tables.  Column lists come from the schema itself, so a
 * migration that adds a column needs no change here.  Rows already
 * present (by the tables' UNIQUE keys, or equal in every column) are not
 * copied twice.  Each input is merged in one transaction.
 */
#include "db/merge.h"
#include "db/db.h"
#include "db/runs.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *col_dup(sqlite3_stmt *st, int c)
{
	const unsigned char *t = sqlite3_column_text(st, c);

	return t ? xstrdup((const char *)t) : NULL;
}

int db_identity_load(sqlite3 *db, struct db_identity *id)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT tree, kernel_version, git_head, arch, "
		"(SELECT max(substr(shard, instr(shard, '/') + 1)) FROM "
		"runs WHERE shard IS NOT NULL), (SELECT count(*) FROM runs) "
		"FROM runs ORDER BY id DESC LIMIT 1");
	int rc;

	memset(id, 0, sizeof(*id));
	if (!st)
		return -EIO;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id->tree = col_dup(st, 0);
		id->version = col_dup(st, 1);
		id->head = col_dup(st, 2);
		id->arch = col_dup(st, 3);
		id->shards = col_dup(st, 4);
		id->runs = sqlite3_column_int64(st, 5);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		error_msg("%s: %s", sqlite3_db_filename(db, "main"),
			  sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -EIO;
}

void db_identity_free(struct db_identity *id)
{
	free(id->tree);
	free(id->version);
	free(id->head);
	free(id->arch);
	free(id->shards);
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* NULL when A and B are the same tree, else which field differs. */
const char *db_identity_diff(const struct db_identity *a,
			     const struct db_identity *b)
{
	if (!same(a->tree, b->tree))
		return "tree";
	if (!same(a->version, b->version))
		return "kernel version";
	if (!same(a->head, b->head))
		return "git HEAD";
	if (!same(a->arch, b->arch))
		return "arch";
	if (a->shards && b->shards && strcmp(a->shards, b->shards))
		return "shard count";
	return NULL;
}

const char *db_identity_field(const struct db_identity *id,
			      const char *what)
{
	const char *v = !strcmp(what, "tree")		? id->tree :
			!strcmp(what, "kernel version") ? id->version :
			!strcmp(what, "git HEAD")	? id->head :
			!strcmp(what, "arch")		? id->arch :
							  id->shards;

	return v ? v : "none";
}

/* A statement with one bound text parameter (or none). */
static int exec_bound(sqlite3 *db, const char *sql, const char *param)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int rc;

	if (!st)
		return -1;
	if (param)
		sqlite3_bind_text(st, 1, param, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		error_msg("%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/*
 * The column list of main.TABLE without its id, as written into the
 * INSERT (cols) and as selected from the input (sel), where file_id,
 * run_id and site_id go through the id maps.
 */
static int column_lists(sqlite3 *db, const char *table, struct strbuf *cols,
			struct strbuf *sel)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid");
	int rc, n = 0;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);
		const char *map = !strcmp(c, "file_id") ? "file_map" :
				  !strcmp(c, "run_id")	? "run_map" :
				  !strcmp(c, "site_id") ? "site_map" :
							  NULL;

		if (!strcmp(c, "id"))
			continue;
		sb_addf(cols, "%s\"%s\"", n ? ", " : "", c);
		if (map)
			sb_addf(sel, "%s(SELECT new FROM temp.%s WHERE old = "
				     "s.\"%s\")", n ? ", " : "", map, c);
		else
			sb_addf(sel, "%ss.\"%s\"", n ? ", " : "", c);
		n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE && n ? 0 : -1;
}

/*
 * Copy src.TABLE into main.TABLE: rows equal in every column to one
 * already there are left out (EXCEPT), rows colliding on a UNIQUE key
 * are the same item seen by two shards (OR IGNORE).
 */
static int copy_table(sqlite3 *db, const char *table)
{
	struct strbuf cols = STRBUF_INIT, sel = STRBUF_INIT;
	char *sql;
	int rc;

	if (column_lists(db, table, &cols, &sel)) {
		sb_release(&cols);
		sb_release(&sel);
		error_msg("cannot read the columns of %s", table);
		return -1;
	}
	sql = xasprintf("INSERT OR IGNORE INTO main.\"%s\" (%s) SELECT * FROM "
			"(SELECT %s FROM src.\"%s\" s EXCEPT SELECT %s FROM "
			"main.\"%s\") ORDER BY 1, 2, 3",
			table, cols.buf, sel.buf, table, cols.buf, table);
	rc = exec_bound(db, sql, NULL);
	free(sql);
	sb_release(&cols);
	sb_release(&sel);
	return rc;
}

/*
 * A learned allocator or sleeper defined in two files (percpu-km.c and
 * percpu-vm.c): the scan keeps the first by path and line
 * (analyzer/fileproc.c), so the merge does too, in any input order.
 */
static int prefer_first_defined(sqlite3 *db, const char *table,
				const char *key)
{
	struct strbuf cols = STRBUF_INIT, sel = STRBUF_INIT, set = STRBUF_INIT;
	char *sql, *p, *save = NULL;
	int rc;

	if (column_lists(db, table, &cols, &sel)) {
		sb_release(&cols);
		sb_release(&sel);
		return -1;
	}
	p = xstrdup(cols.buf);
	for (char *c = strtok_r(p, ", ", &save); c;
	     c = strtok_r(NULL, ", ", &save))
		sb_addf(&set, "%s%s = excluded.%s", set.len ? ", " : "", c, c);
	free(p);
	sql = xasprintf("INSERT INTO main.\"%s\" (%s) SELECT %s FROM "
			"src.\"%s\" s WHERE s.origin = 'learned' "
			"ON CONFLICT(\"%s\") DO UPDATE SET %s WHERE "
			"main.\"%s\".origin = 'learned' AND (excluded.path < "
			"main.\"%s\".path OR (excluded.path = main.\"%s\".path "
			"AND excluded.line < main.\"%s\".line))",
			table, cols.buf, sel.buf, table, key, set.buf, table,
			table, table, table);
	rc = exec_bound(db, sql, NULL);
	free(sql);
	sb_release(&cols);
	sb_release(&sel);
	sb_release(&set);
	return rc;
}

/* How much of a file a parse mode saw, to pick the best of two copies. */
#define RANK(col)                                                          \
	"(CASE " col " WHEN 'compile_commands' THEN 6 WHEN 'kbuild' THEN 5 " \
	"WHEN 'synthesized' THEN 4 WHEN 'single_file' THEN 3 "              \
	"WHEN 'lexical' THEN 2 WHEN 'failed' THEN 1 ELSE 0 END)"

static const char *const merge_setup[] = {
	/* Runs: kept once each (same command, tree, start and shard). */
	"INSERT INTO main.runs (command, tree, kernel_version, git_head, "
	"arch, shard, options, started_at, finished_at, status, files_total, "
	"files_parsed, files_unchanged, files_failed) SELECT command, tree, "
	"kernel_version, git_head, arch, shard, options, started_at, "
	"finished_at, status, files_total, files_parsed, files_unchanged, "
	"files_failed FROM src.runs s WHERE NOT EXISTS (SELECT 1 FROM "
	"main.runs m WHERE m.command = s.command AND m.tree = s.tree AND "
	"m.started_at = s.started_at AND m.shard IS s.shard) ORDER BY id",
	"DELETE FROM temp.run_map",
	"INSERT INTO temp.run_map SELECT s.id, (SELECT m.id FROM main.runs m "
	"WHERE m.command = s.command AND m.tree = s.tree AND m.started_at = "
	"s.started_at AND m.shard IS s.shard ORDER BY m.id LIMIT 1) "
	"FROM src.runs s",
	/*
	 * A file two inputs both hold (a shard's learned-wrapper pass parses
	 * files of other shards too) is taken from the input that parsed it
	 * best: the weaker copy's rows go (ON DELETE CASCADE), remembering
	 * its sites so that findings pointing at them can be re-pointed.
	 */
	"DELETE FROM temp.site_keys",
	"INSERT INTO temp.site_keys SELECT x.id, x.path, x.line, x.col, x.api "
	"FROM main.sites x JOIN main.files m ON m.id = x.file_id "
	"JOIN src.files s ON s.path = m.path "
	"WHERE " RANK("s.parse_mode") " > " RANK("m.parse_mode"),
	"DELETE FROM main.files WHERE id IN (SELECT m.id FROM main.files m "
	"JOIN src.files s USING (path) WHERE " RANK("s.parse_mode") " > "
	RANK("m.parse_mode") ")",
	/*
	 * Files: new paths are added; known paths keep their row.  The
	 * digest describes the rows as analysed, wherever; they are not
	 * linked in this tree until the merge's link step has run.
	 */
	"INSERT INTO main.files (path, hash, size, run_id, parse_mode, "
	"diagnostics, error, mtime_ns, link_digest, linked) SELECT path, "
	"hash, size, (SELECT new FROM temp.run_map WHERE old = s.run_id), "
	"parse_mode, diagnostics, error, mtime_ns, link_digest, 0 "
	"FROM src.files s WHERE NOT EXISTS (SELECT 1 FROM main.files m "
	"WHERE m.path = s.path) ORDER BY path",
	"DELETE FROM temp.file_map",
	"INSERT INTO temp.file_map SELECT s.id, m.id FROM src.files s "
	"JOIN main.files m USING (path)",
	NULL,
};

static const char sql_site_map[] =
	"INSERT INTO temp.site_map SELECT s.id, m.id FROM src.sites s "
	"JOIN main.sites m ON m.path = s.path AND m.line = s.line AND "
	"m.col = s.col AND m.api = s.api";

/* Findings whose site was replaced by a better copy of its file. */
static const char sql_repoint[] =
	"UPDATE main.findings SET site_id = (SELECT x.id FROM main.sites x "
	"JOIN temp.site_keys k ON x.path = k.path AND x.line = k.line AND "
	"x.col = k.col AND x.api = k.api WHERE k.old = findings.site_id) "
	"WHERE site_id IN (SELECT old FROM temp.site_keys)";

/* The tables copied generically, sites before the findings that use them. */
static int copy_tables(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT name FROM main.sqlite_schema WHERE type = 'table' AND "
		"name NOT IN ('meta', 'runs', 'files') AND name NOT LIKE "
		"'sqlite_%' AND name IN (SELECT name FROM src.sqlite_schema "
		"WHERE type = 'table') ORDER BY name = 'findings', name");
	int rc, err = 0;

	if (!st)
		return -1;
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		if (!strcmp(t, "findings"))
			err = db_exec(db, "DELETE FROM temp.site_map") ||
			      db_exec(db, sql_site_map);
		err = err || copy_table(db, t);
		if (!strcmp(t, "allocators"))
			err = err || prefer_first_defined(db, t, "name");
		else if (!strcmp(t, "sleepers"))
			err = err || prefer_first_defined(db, t, "function");
	}
	sqlite3_finalize(st);
	return err ? -1 : 0;
}

/*
 * A path IN holds with other content than main (malloc'd), NULL when
 * none: then the two are not the same tree.  -EIO in *err on failure.
 */
static char *content_conflict(sqlite3 *db, int *err)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT s.path FROM src.files s JOIN main.files m USING (path) "
		"WHERE m.hash <> s.hash ORDER BY s.path LIMIT 1");
	char *path = NULL;
	int rc;

	*err = 0;
	if (!st) {
		*err = -EIO;
		return NULL;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		path = col_dup(st, 0);
	else if (rc != SQLITE_DONE)
		*err = -EIO;
	sqlite3_finalize(st);
	return path;
}

int db_merge_prepare(sqlite3 *db)
{
	return db_exec(db, "CREATE TEMP TABLE run_map (old INTEGER PRIMARY "
			   "KEY, new INTEGER); CREATE TEMP TABLE file_map (old "
			   "INTEGER PRIMARY KEY, new INTEGER); CREATE TEMP "
			   "TABLE site_map (old INTEGER PRIMARY KEY, new "
			   "INTEGER); CREATE TEMP TABLE site_keys (old INTEGER "
			   "PRIMARY KEY, path TEXT, line INTEGER, col INTEGER, "
			   "api TEXT)") ? -EIO : 0;
}

int db_merge_input(sqlite3 *db, const char *in, char **conflict)
{
	int i, rc = -EIO;

	*conflict = NULL;
	if (exec_bound(db, "ATTACH DATABASE ?1 AS src", in))
		return -EIO;
	if (db_begin(db))
		goto detach;
	*conflict = content_conflict(db, &rc);
	if (*conflict || rc) {
		rc = *conflict ? -EEXIST : rc;
		goto rollback;
	}
	rc = -EIO;
	for (i = 0; merge_setup[i]; i++)
		if (db_exec(db, merge_setup[i]))
			goto rollback;
	if (copy_tables(db) || db_exec(db, sql_repoint) || db_commit(db))
		goto rollback;
	rc = 0;
	goto detach;
rollback:
	db_rollback(db);
detach:
	db_exec(db, "DETACH DATABASE src");
	return rc;
}

/* The merge itself is a run too, so that the database says it happened. */
int db_merge_record(sqlite3 *db, const struct db_identity *id,
		    char *const *in, int n)
{
	char *inputs = db_json_array(db, in, n);
	/* json_object('inputs', json(inputs)): the array is SQLite's own */
	char *options = xasprintf("{\"inputs\":%s}", inputs);
	struct db_run r = {
		.command = "merge",
		.tree = id->tree,
		.kernel_version = id->version,
		.git_head = id->head,
		.arch = id->arch,
		.options = options,
		.files_total = db_scalar(db, "SELECT count(*) FROM files", -1),
	};
	struct db_run_files f = { -1, -1, -1, -1 };
	long long run = db_run_record(db, &r, "complete", &f);

	free(options);
	free(inputs);
	return run < 0 ? -EIO : 0;
}
