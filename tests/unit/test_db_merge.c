// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for db/merge.c: the merge stage reports statuses (0,
 * -EEXIST with the conflicting path, -EIO) and leaves messages and exit
 * codes to the command; rows are copied once and ids remapped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "db/db.h"
#include "db/merge.h"
#include "lib/spawn.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[] = "/tmp/gfpaudit-unit-merge.XXXXXX";

/*
 * A one-file scan database NAME of tree TREE: file PATH with HASH and a
 * site in it; file and site ids start at ID so that a merge must remap.
 */
static char *shard(const char *name, const char *tree, const char *path,
		   const char *hash, int id)
{
	char *p = xasprintf("%s/%s", dir, name);
	sqlite3 *db = db_open(p, DB_READWRITE);
	char *sql = xasprintf(
		"INSERT INTO runs(command, tree, kernel_version, started_at) "
		"VALUES ('scan', '%s', '6.1.0', '2026-12-04T00:00:00Z');"
		"INSERT INTO files(id, path, hash, size, run_id, parse_mode) "
		"VALUES (%d, '%s', '%s', 1, 1, 'kbuild');"
		"INSERT INTO sites(id, file_id, path, line, col, api) "
		"VALUES (%d, %d, '%s', 3, 2, 'kmalloc');",
		tree, id, path, hash, id, id, path);

	assert_non_null(db);
	assert_int_equal(db_exec(db, sql), 0);
	free(sql);
	db_close(db);
	return p;
}

static long long count(sqlite3 *db, const char *table)
{
	char *sql = xasprintf("SELECT count(*) FROM %s", table);
	long long n = db_scalar(db, sql, -1);

	free(sql);
	return n;
}

static void test_merge_input(void **state)
{
	char *a = shard("a.db", "/t", "a.c", "1111", 5);
	char *b = shard("b.db", "/t", "b.c", "2222", 5);
	char *x = shard("x.db", "/t", "a.c", "ffff", 9);
	char *o = xasprintf("%s/out.db", dir);
	sqlite3 *db = db_open(o, DB_READWRITE);
	char *conflict = NULL;

	(void)state;
	assert_non_null(db);
	assert_int_equal(db_merge_prepare(db), 0);
	assert_int_equal(db_merge_input(db, a, &conflict), 0);
	assert_null(conflict);
	assert_int_equal(db_merge_input(db, b, &conflict), 0);
	assert_int_equal(count(db, "files"), 2);
	assert_int_equal(count(db, "sites"), 2);
	/* every site points at its own file, under the new ids */
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM sites s JOIN "
				       "files f ON f.id = s.file_id AND "
				       "f.path = s.path", -1), 2);
	/* the same input again adds nothing */
	assert_int_equal(db_merge_input(db, a, &conflict), 0);
	assert_int_equal(count(db, "files"), 2);
	assert_int_equal(count(db, "sites"), 2);
	assert_int_equal(count(db, "runs"), 1);
	/* other content for a.c: refused, named, nothing merged */
	assert_int_equal(db_merge_input(db, x, &conflict), -EEXIST);
	assert_non_null(conflict);
	assert_string_equal(conflict, "a.c");
	free(conflict);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM files WHERE "
				       "hash = 'ffff'", -1), 0);
	/* the merge as a run of its own */
	assert_int_equal(db_merge_record(db, &(struct db_identity){
					 .tree = "/t", .version = "6.1.0" },
					 (char *[]){ a, b }, 2), 0);
	assert_int_equal(db_scalar(db, "SELECT files_total FROM runs WHERE "
				       "command = 'merge'", -1), 2);
	db_close(db);
	free(a);
	free(b);
	free(x);
	free(o);
}

static void test_merge_missing_input(void **state)
{
	char *o = xasprintf("%s/out2.db", dir);
	char *in = xasprintf("%s/nonesuch/in.db", dir);
	sqlite3 *db = db_open(o, DB_READWRITE);
	char *conflict = NULL;

	(void)state;
	assert_non_null(db);
	assert_int_equal(db_merge_prepare(db), 0);
	assert_int_equal(db_merge_input(db, in, &conflict), -EIO);
	assert_null(conflict);
	db_close(db);
	free(o);
	free(in);
}

static void test_identity(void **state)
{
	char *a = shard("ia.db", "/t", "a.c", "1", 1);
	char *b = shard("ib.db", "/elsewhere", "a.c", "1", 1);
	struct db_identity ia, ib;
	sqlite3 *da = db_open(a, DB_READONLY), *dbb = db_open(b, DB_READONLY);

	(void)state;
	assert_int_equal(db_identity_load(da, &ia), 0);
	assert_int_equal(db_identity_load(dbb, &ib), 0);
	assert_int_equal(ia.runs, 1);
	assert_null(db_identity_diff(&ia, &ia));
	assert_string_equal(db_identity_diff(&ia, &ib), "tree");
	assert_string_equal(db_identity_field(&ib, "tree"), "/elsewhere");
	assert_string_equal(db_identity_field(&ib, "git HEAD"), "none");
	db_identity_free(&ia);
	db_identity_free(&ib);
	db_close(da);
	db_close(dbb);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_input),
		cmocka_unit_test(test_merge_missing_input),
		cmocka_unit_test(test_identity),
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
