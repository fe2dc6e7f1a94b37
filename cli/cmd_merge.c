// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit merge: fold shard databases (gfpaudit scan --shard K/N, or
 * databases of `check` runs) into one.
 *
 * Every input must describe the same tree: the same root, kernel version,
 * git HEAD and architecture in its latest run, the same shard count, and
 * the same content for every file two inputs both hold.  The copy is SQL:
 * the input is ATTACHed under a bound file name and each table copied
 * with INSERT ... SELECT, file, run and site ids remapped through temp
 * tables.  Column lists come from the schema itself, so a migration that
 * adds a column needs no change here.  Rows already present (by the
 * tables' UNIQUE keys, or equal in every column) are not copied twice.
 * Each input is merged in one transaction; a new OUT is removed again
 * when the merge fails.
 */
#include "analyzer/analyzer.h"
#include "cli/cli.h"
#include "cli/rules_after.h"
#include "db/db.h"
#include "db/runs.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char usage_merge[] =
	"usage: gfpaudit merge [--run-rules LIST|--no-rules] OUT.db IN.db...\n"
	"\n"
	"Merge the shard databases IN.db... into OUT.db (created if missing).\n"
	"All must come from the same tree (root, kernel version, git HEAD,\n"
	"arch, shard count); rows present in several inputs are kept once.\n"
	"Example, three shards with GNU parallel (docs/scale-out.md):\n"
	"  parallel gfpaudit scan --tree T --shard {}/3 --db s{}.db ::: 1 2 3\n"
	"  gfpaudit merge all.db s1.db s2.db s3.db\n"
	"\n"
	"  --run-rules LIST  when merged, evaluate only these rules\n"
	"                    (comma-separated; default: every rule that\n"
	"                    applies to the tree's kernel version)\n"
	"  --no-rules        do not evaluate the rules\n";

/* What makes two databases the same tree, from their latest run. */
struct identity {
	char *tree, *version, *head, *arch;
	char *shards; /* N of the K/N shards, or NULL */
	long long runs;
};

static char *col_dup(sqlite3_stmt *st, int c)
{
	const unsigned char *t = sqlite3_column_text(st, c);

	return t ? xstrdup((const char *)t) : NULL;
}

static int load_identity(sqlite3 *db, const char *schema, struct identity *id)
{
	char *sql = xasprintf(
		"SELECT tree, kernel_version, git_head, arch, "
		"(SELECT max(substr(shard, instr(shard, '/') + 1)) FROM "
		"%s.runs WHERE shard IS NOT NULL), "
		"(SELECT count(*) FROM %s.runs) "
		"FROM %s.runs ORDER BY id DESC LIMIT 1",
		schema, schema, schema);
	sqlite3_stmt *st = db_prepare(db, sql);
	int rc;

	free(sql);
	memset(id, 0, sizeof(*id));
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id->tree = col_dup(st, 0);
		id->version = col_dup(st, 1);
		id->head = col_dup(st, 2);
		id->arch = col_dup(st, 3);
		id->shards = col_dup(st, 4);
		id->runs = sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static void identity_free(struct identity *id)
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
static const char *identity_diff(const struct identity *a,
				 const struct identity *b)
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

static const char *field(const struct identity *id, const char *what)
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
		error_msg("merge: %s", sqlite3_errmsg(db));
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
		error_msg("merge: cannot read the columns of %s", table);
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
	/* Files: new paths are added; known paths keep their row. */
	"INSERT INTO main.files (path, hash, size, run_id, parse_mode, "
	"diagnostics, error, mtime_ns) SELECT path, hash, size, (SELECT new "
	"FROM temp.run_map WHERE old = s.run_id), parse_mode, diagnostics, "
	"error, mtime_ns "
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

/* Two inputs holding the same path with different content. */
static int content_conflict(sqlite3 *db, const char *in, const char *out)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT s.path FROM src.files s JOIN main.files m USING (path) "
		"WHERE m.hash <> s.hash ORDER BY s.path LIMIT 1");
	int conflict = 0;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		error_msg("merge: %s: %s differs from the same file in %s: "
			  "not the same tree", in, sqlite3_column_text(st, 0),
			  out);
		conflict = 1;
	}
	sqlite3_finalize(st);
	return conflict;
}

static int merge_one(sqlite3 *db, const char *in, const char *out)
{
	int i, rc = EXIT_INTERNAL, c;

	if (exec_bound(db, "ATTACH DATABASE ?1 AS src", in))
		return EXIT_INTERNAL;
	if (db_begin(db))
		goto detach;
	c = content_conflict(db, in, out);
	if (c) {
		rc = c > 0 ? EXIT_USAGE : EXIT_INTERNAL;
		goto rollback;
	}
	for (i = 0; merge_setup[i]; i++)
		if (db_exec(db, merge_setup[i]))
			goto rollback;
	if (copy_tables(db) || db_exec(db, sql_repoint) || db_commit(db))
		goto rollback;
	rc = EXIT_OK;
	goto detach;
rollback:
	db_rollback(db);
detach:
	db_exec(db, "DETACH DATABASE src");
	return rc;
}

/* Open IN read-only once, to refuse what is not a current gfpaudit db. */
static int check_input(const char *in, const struct stat *out_st,
		       struct identity *id)
{
	struct stat st;
	sqlite3 *db;
	int rc;

	if (out_st && stat(in, &st) == 0 && st.st_dev == out_st->st_dev &&
	    st.st_ino == out_st->st_ino) {
		error_msg("merge: %s: is the output database", in);
		return -1;
	}
	db = db_open(in, DB_READONLY);
	if (!db)
		return -1;
	rc = load_identity(db, "main", id);
	db_close(db);
	if (rc)
		return -1;
	if (!id->runs) {
		error_msg("merge: %s: no run recorded (not a scan database)",
			  in);
		return -1;
	}
	return 0;
}

static int check_inputs(int n, char **in, const struct stat *out_st,
			struct identity *first)
{
	struct identity id;
	const char *d;
	int i;

	for (i = 0; i < n; i++) {
		if (check_input(in[i], out_st, i ? &id : first))
			return -1;
		if (!i)
			continue;
		d = identity_diff(first, &id);
		if (d)
			error_msg("merge: %s: %s %s differs from %s in %s", in[i],
				  d, field(&id, d), field(first, d), in[0]);
		identity_free(&id);
		if (d)
			return -1;
	}
	return 0;
}

static int setup_out(sqlite3 *db, const char *out, const struct identity *in)
{
	struct identity id;
	const char *d;
	int rc;

	if (db_exec(db, "CREATE TEMP TABLE run_map (old INTEGER PRIMARY "
			"KEY, new INTEGER); CREATE TEMP TABLE file_map (old "
			"INTEGER PRIMARY KEY, new INTEGER); CREATE TEMP TABLE "
			"site_map (old INTEGER PRIMARY KEY, new INTEGER); CREATE TEMP "
			"TABLE site_keys (old INTEGER PRIMARY KEY, path TEXT, "
			"line INTEGER, col INTEGER, api TEXT)"))
		return EXIT_INTERNAL;
	if (load_identity(db, "main", &id))
		return EXIT_INTERNAL;
	d = id.runs ? identity_diff(&id, in) : NULL;
	if (d)
		error_msg("merge: %s: %s %s differs from the inputs' %s", out, d,
			  field(&id, d), field(in, d));
	rc = d ? EXIT_USAGE : EXIT_OK;
	identity_free(&id);
	return rc;
}

/* The merge itself is a run too, so that the database says it happened. */
static int record_merge(sqlite3 *db, const struct identity *id, int n,
			char **in)
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
	return run < 0 ? -1 : 0;
}

static void remove_db(const char *path)
{
	const char *suffix[] = { "", "-wal", "-shm", "-journal" };
	size_t i;

	for (i = 0; i < 4; i++) {
		char *p = xasprintf("%s%s", path, suffix[i]);

		unlink(p);
		free(p);
	}
}

int cmd_merge(int argc, char **argv)
{
	struct identity first;
	struct stat out_st;
	const char *out;
	struct rules_after ra = { 0 };
	int i, rc = EXIT_OK, created;
	sqlite3 *db;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(usage_merge, stdout);
		return EXIT_OK;
	}
	/* options first, then OUT.db and the inputs */
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "--no-rules")) {
			ra.off = 1;
		} else if (!strcmp(argv[1], "--run-rules") && argc > 2) {
			rules_after_add(&ra, argv[2]);
			argv++, argc--;
		} else {
			rules_after_free(&ra);
			return usage_error("merge", "unknown option '%s'",
					   argv[1]);
		}
		argv++, argc--;
	}
	if (rules_after_check("merge", &ra)) {
		rules_after_free(&ra);
		return EXIT_USAGE;
	}
	if (argc < 3)
		return usage_error("merge", "want OUT.db and at least one "
					    "IN.db");
	for (i = 1; i < argc; i++)
		if (argv[i][0] == '-')
			return usage_error("merge", "unknown option '%s'",
					   argv[i]);
	out = argv[1];
	created = stat(out, &out_st) != 0;
	if (check_inputs(argc - 2, argv + 2, created ? NULL : &out_st,
			 &first))
		return EXIT_USAGE;
	db = db_open(out, DB_READWRITE);
	if (!db) {
		identity_free(&first);
		return EXIT_USAGE;
	}
	rc = setup_out(db, out, &first);
	for (i = 2; rc == EXIT_OK && i < argc; i++) {
		rc = merge_one(db, argv[i], out);
		if (rc && !created && i > 2)
			error_msg("merge: %s: %d input(s) before %s were merged",
				  out, i - 2, argv[i]);
	}
	/* A cache in one shard may be shrunk from a file of another. */
	if (rc == EXIT_OK && (db_begin(db) || analyzer_link(db) ||
			      record_merge(db, &first, argc - 2, argv + 2) ||
			      db_commit(db)))
		rc = EXIT_INTERNAL;
	db_close(db);
	if (rc && created)
		remove_db(out);
	if (rc == EXIT_OK)
		rc = rules_after_run("merge", out, &ra);
	rules_after_free(&ra);
	identity_free(&first);
	return rc;
}
