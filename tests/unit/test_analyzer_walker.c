// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the walker: hook order, AST matching of sites, and that
 * classifier outputs and emit_*() rows reach the database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyzer/analyzer.h"
#include "analyzer/fileproc.h"
#include "analyzer/walker.h"
#include "db/db.h"
#include "lib/spawn.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct strbuf events = STRBUF_INIT;
static int calls_with_cursor, calls_without_cursor;

static void t_tu_begin(struct walk_ctx *w)
{
	sb_addf(&events, "tu_begin(%s) ", w->path);
}

static void t_function_begin(struct walk_ctx *w, CXCursor fn)
{
	CXString n = clang_getCursorSpelling(fn);

	(void)w;
	sb_addf(&events, "begin(%s) ", clang_getCString(n));
	clang_disposeString(n);
}

static void t_site(struct walk_ctx *w, struct site *s, CXCursor call,
		   CXCursor fn)
{
	sb_addf(&events, "site(%s,%s) ", s->api,
		clang_Cursor_isNull(fn) ? "-" : "fn");
	if (clang_Cursor_isNull(call))
		calls_without_cursor++;
	else
		calls_with_cursor++;
	if (!strcmp(s->api, "kzalloc")) {
		emit_finding(w, "test-walker", "note", s->line, s->col,
			     "seen by the test classifier", NULL);
		emit_allocator(w, "test_wrapper", "alloc", "slab", 1, 0,
			       "kzalloc", s->line);
		emit_sleeper(w, "test_sleeper", "msleep", s->line);
		emit_cache(w, s->line, s->col, "cachep", "test", "0", 1, 0,
			   NULL);
	}
}

static void t_function_end(struct walk_ctx *w, CXCursor fn)
{
	(void)w;
	(void)fn;
	sb_adds(&events, "end ");
}

static void t_tu_end(struct walk_ctx *w)
{
	(void)w;
	sb_adds(&events, "tu_end");
}

static const char *const interesting[] = { "msleep", NULL };

static const struct classifier test_classifier = {
	.name = "test-walker",
	.tu_begin = t_tu_begin,
	.function_begin = t_function_begin,
	.site = t_site,
	.function_end = t_function_end,
	.tu_end = t_tu_end,
	.interesting = interesting,
};

static char dir[] = "/tmp/gfpaudit-walker.XXXXXX";

static void put(const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", dir, rel);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static void test_hook_order_and_rows(void **state)
{
	struct scan_env env;
	struct file_result r;
	struct tu_parser tp;
	char *dbp = xasprintf("%s/w.db", dir);
	sqlite3 *db;

	(void)state;
	tu_parser_init(&tp);
	put("Makefile", "VERSION = 6\nPATCHLEVEL = 1\n");
	/*
	 * Declared in the file: a single-file parse drops calls whose
	 * arguments name undeclared identifiers (see docs/analyzer.md).
	 */
	put("a.c", "typedef unsigned int gfp_t;\n"
		   "#define GFP_KERNEL 0xcc0u\n"
		   "void *kzalloc(unsigned long size, gfp_t gfp);\n"
		   "#define get_buf() kmalloc(64, GFP_KERNEL)\n"
		   "int f(void)\n{\n\tvoid *p = kzalloc(8, GFP_KERNEL);\n"
		   "\treturn p != 0;\n}\n");
	assert_int_equal(scan_env_init(&env, dir, NULL, DEPTH_SINGLE_FILE,
				       NULL, NULL), 0);
	process_file(&env, &tp, NULL, "a.c", NULL, NULL, 0, &r);
	assert_string_equal(events.buf, "tu_begin(a.c) begin(f) site(kzalloc,fn) "
					"end site(kmalloc,-) tu_end");
	assert_int_equal(calls_with_cursor, 1);    /* kzalloc's CallExpr */
	assert_int_equal(calls_without_cursor, 1); /* the #define body */
	assert_string_equal(r.parse_mode, "single_file");
	db = db_open(dbp, DB_READWRITE);
	assert_non_null(db);
	assert_int_equal(db_begin(db), 0);
	assert_int_equal(write_result(db, 0, &r, &env.tracked), 0);
	assert_int_equal(db_commit(db), 0);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM sites", -1), 2);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM findings WHERE "
				       "rule = 'test-walker' AND site_id = "
				       "(SELECT id FROM sites WHERE api = "
				       "'kzalloc')", -1), 1);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM allocators WHERE "
				       "name = 'test_wrapper' AND origin = "
				       "'learned' AND path = 'a.c'", -1), 1);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM sleepers WHERE "
				       "function = 'test_sleeper'", -1), 1);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM caches", -1), 1);
	/* The call clang saw, and the never-expanded #define body. */
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM sites WHERE "
				       "confidence = 'single_file' AND "
				       "api = 'kzalloc'", -1), 1);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM sites WHERE "
				       "confidence = 'lexical' AND "
				       "api = 'kmalloc'", -1), 1);
	/* Writing the file again replaces its rows. */
	assert_int_equal(db_begin(db), 0);
	assert_int_equal(write_result(db, 0, &r, &env.tracked), 0);
	assert_int_equal(db_commit(db), 0);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM sites", -1), 2);
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM caches", -1), 1);
	db_close(db);
	file_result_free(&r);
	scan_env_free(&env);
	tu_parser_free(&tp);
	free(dbp);
}

/* A file with no site but a classifier's interesting name is parsed. */
static void test_interesting_names(void **state)
{
	struct scan_env env;
	struct file_result r;
	struct tu_parser tp;

	(void)state;
	tu_parser_init(&tp);
	put("b.c", "void f(void)\n{\n\tmsleep(10);\n}\n");
	put("c.c", "void g(void)\n{\n\tudelay(10);\n}\n");
	assert_int_equal(scan_env_init(&env, dir, NULL, DEPTH_SINGLE_FILE,
				       NULL, NULL), 0);
	process_file(&env, &tp, NULL, "b.c", NULL, NULL, 0, &r);
	assert_true(r.parsed);
	assert_string_equal(r.parse_mode, "single_file");
	file_result_free(&r);
	process_file(&env, &tp, NULL, "c.c", NULL, NULL, 0, &r);
	assert_false(r.parsed);
	assert_string_equal(r.parse_mode, "lexical");
	file_result_free(&r);
	scan_env_free(&env);
	tu_parser_free(&tp);
}

/* What one file of DIR gives, parsed on its own or after D.C. */
static void parse_one(const struct scan_env *env, const char *rel, int after,
		      struct file_result *r)
{
	struct tu_parser tp;
	struct file_result first;

	tu_parser_init(&tp);
	if (after) {
		process_file(env, &tp, NULL, "d.c", NULL, NULL, 0, &first);
		assert_true(first.parsed);
		file_result_free(&first);
	}
	process_file(env, &tp, NULL, rel, NULL, NULL, 0, r);
	tu_parser_free(&tp);
}

/*
 * A file re-parsed in the unit kept from another file (tu.c, one per
 * worker whatever the directory) gets what a unit of its own gives: the
 * same diagnostics and the same sites, in its own directory or another.
 * A single-file parse enters no header, so whether "here.h" is found
 * does not count (tu.c count_errors): what it would have declared is an
 * error either way.
 */
static void test_reparse_equals_parse(void **state)
{
	static const char text[] =
		"#include \"here.h\"\n#include \"missing.h\"\n"
		"void *f(unsigned long n)\n{\n\tvoid *p = kmalloc(n + here, 0);\n"
		"\tif (!p)\n\t\treturn undeclared;\n\tkfree(p);\n"
		"\treturn 0;\n}\n";
	const char *const rels[] = { "e.c", "sub/e.c" };
	struct scan_env env;
	char *sub = xasprintf("%s/sub", dir);
	int k;

	(void)state;
	assert_int_equal(mkdir(sub, 0755), 0);
	put("d.c", "void g(void)\n{\n\tkzalloc(8, 0);\n}\n");
	put("here.h", "int here;\n");
	put("e.c", text);
	put("sub/e.c", text);
	assert_int_equal(scan_env_init(&env, dir, NULL, DEPTH_SINGLE_FILE,
				       NULL, NULL), 0);
	for (k = 0; k < 2; k++) {
		struct file_result a, b;
		size_t i;

		parse_one(&env, rels[k], 0, &a);
		parse_one(&env, rels[k], 1, &b);
		assert_true(a.parsed && b.parsed);
		/* here and undeclared, in either directory. */
		assert_int_equal(a.diagnostics, 2);
		assert_int_equal(b.diagnostics, a.diagnostics);
		assert_int_equal(b.lf.nsites, a.lf.nsites);
		assert_int_equal(a.lf.nsites, 1);
		for (i = 0; i < a.lf.nsites; i++) {
			const struct site *x = &a.lf.sites[i].s,
					  *y = &b.lf.sites[i].s;

			assert_string_equal(y->api, x->api);
			assert_int_equal(y->depth, x->depth);
			assert_true(x->lifetime == y->lifetime ||
				    !strcmp(x->lifetime, y->lifetime));
		}
		file_result_free(&a);
		file_result_free(&b);
	}
	scan_env_free(&env);
	free(sub);
}

static void test_check_entry_point(void **state)
{
	char *dbp = xasprintf("%s/c.db", dir), *file = xasprintf("%s/a.c", dir);
	struct analyzer_file_report rep;
	const char *argv[] = { "-D__KERNEL__", "-DGFP_KERNEL=0xcc0u" };
	sqlite3 *db = db_open(dbp, DB_READWRITE);

	(void)state;
	assert_non_null(db);
	assert_int_equal(analyzer_check_file(db, 0, dir, file, argv, 2, &rep),
			 ANALYZER_OK);
	assert_string_equal(rep.path, "a.c");
	assert_int_equal(rep.nsites, 2);
	assert_string_equal(rep.parse_mode, "kbuild");
	assert_int_equal(rep.nfindings, 1);
	assert_string_equal(rep.findings[0].rule, "test-walker");
	assert_int_equal(db_scalar(db, "SELECT count(*) FROM sites WHERE "
				       "confidence = 'full_ast'", -1), 1);
	analyzer_file_report_free(&rep);
	/* Outside the tree: refused. */
	assert_int_equal(analyzer_check_file(db, 0, dir, "/etc/hostname", NULL,
					     0, &rep), ANALYZER_BAD_INPUT);
	db_close(db);
	free(dbp);
	free(file);
}

static int setup(void **state)
{
	(void)state;
	walker_append_classifier(&test_classifier);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *argv[] = { "rm", "-rf", dir, NULL };

	(void)state;
	return run_argv(argv, NULL) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_order_and_rows),
		cmocka_unit_test(test_interesting_names),
		cmocka_unit_test(test_reparse_equals_parse),
		cmocka_unit_test(test_check_entry_point),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
