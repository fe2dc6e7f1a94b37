// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit check: kbuild's CHECK= drop-in for sparse.
 *
 *	make C=1 CHECK="gfpaudit check --db $PWD/gfpaudit.db"
 *
 * kbuild runs the checker once per compiled file, in the object tree, as
 * "$(CHECK) $(CHECKFLAGS) $(c_flags) file.c".  We keep the flags libclang
 * needs (cli/check_args.c), analyze that one file with exactly those flags
 * into the database, and print the file's findings on stderr in gcc's
 * format, as sparse prints its warnings.  Like sparse, findings never fail
 * the build: the exit status is 0 unless the command line or the database
 * is unusable.  Under make -j several checkers write the same database;
 * WAL, the busy timeout and BEGIN IMMEDIATE (db/db.c) serialise them.
 */
#include "analyzer/analyzer.h"
#include "cli/check_args.h"
#include "cli/cli.h"
#include "db/db.h"
#include "db/runs.h"
#include "lib/ktree.h"
#include "lib/util.h"
#include "reports/report.h"
#include "rules/eval.h"
#include "rules/rule.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Attempts when the database stays busy beyond the busy timeout. */
#define BUSY_RETRIES 5

const char usage_check[] =
	"usage: gfpaudit check [--db FILE] [--tree DIR] [--verbose]\n"
	"                      [sparse/compiler flags...] FILE.c...\n"
	"\n"
	"A drop-in for sparse as kbuild's checker:\n"
	"  make C=1 CHECK=\"gfpaudit check --db $PWD/gfpaudit.db\"\n"
	"(C=2 checks every file, not only recompiled ones).  Analyzes each\n"
	"FILE with the compiler flags given, appends the results to the\n"
	"database and prints the file's findings on stderr, gcc-style.\n"
	"Sparse-only flags and gcc flags libclang rejects are ignored.\n"
	"Exits 0 when the file was analyzed, findings or not.\n"
	"\n"
	"  --db FILE    the database (created if missing; default\n"
	"               ./gfpaudit.db)\n"
	"  --tree DIR   the kernel source tree (default: kbuild's\n"
	"               $abs_srctree or $srctree, else the current directory)\n"
	"  --verbose    say which flags were dropped\n";

/* The tree root: --tree, kbuild's exported srctree, or the cwd. */
static char *find_tree(const char *opt)
{
	const char *t = opt;
	char *real;

	if (!t)
		t = getenv("abs_srctree");
	if (!t || !*t)
		t = getenv("srctree");
	if (!t || !*t)
		t = ".";
	real = realpath(t, NULL);
	if (!real)
		error_msg("check: tree %s: %s", t, strerror(errno));
	return real;
}

/* FILE relative to TREE, or NULL after saying why. */
static char *relative_to_tree(const char *tree, const char *file)
{
	char *real = realpath(file, NULL), *rel;
	size_t n = strlen(tree);

	if (!real) {
		error_msg("check: %s: %s", file, strerror(errno));
		return NULL;
	}
	if (strncmp(real, tree, n) || real[n] != '/') {
		error_msg("check: %s: not inside the tree %s (use --tree)",
			  file, tree);
		free(real);
		return NULL;
	}
	rel = xstrdup(real + n + 1);
	free(real);
	return rel;
}

static void print_dropped(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (argv[i][0] == '-' && check_flag_dropped(argv[i]))
			fprintf(stderr, "%s check: ignoring %s\n", progname,
				argv[i]);
}

/* The check's own `runs` row; 0 when it could not be written. */
static long long begin_run(sqlite3 *db, const char *tree, const char *rel,
			   const struct check_args *a)
{
	struct strbuf args = STRBUF_INIT;
	struct kversion kv;
	char head[41];
	const char *opts[6];
	char *options;
	struct db_run r = {
		.command = "check",
		.tree = tree,
		.kernel_version = ktree_version(tree, &kv) ? NULL : kv.text,
		.git_head = ktree_git_head(tree, head) ? NULL : head,
		.arch = a->arch,
		.files_total = 1,
	};
	long long id = 0;
	int i;

	for (i = 0; i < a->nclang; i++)
		sb_addf(&args, "%s%s", i ? " " : "", a->clang[i]);
	opts[0] = "db";
	opts[1] = a->db;
	opts[2] = "file";
	opts[3] = rel;
	opts[4] = "clang_args";
	opts[5] = args.buf ? args.buf : "";
	options = db_json_object(db, opts, 3);
	r.options = options;
	if (options)
		id = db_run_open(db, &r);
	if (id <= 0) {
		error_msg("check: %s: %s", a->db, sqlite3_errmsg(db));
		id = 0;
	}
	free(options);
	sb_release(&args);
	return id;
}

static void end_run(sqlite3 *db, long long id, int ok,
		    const struct analyzer_file_report *r)
{
	int failed = !ok || !r->parse_mode || !strcmp(r->parse_mode, "failed");
	struct db_run_files f = {
		.total = -1, /* 1 since the start */
		.parsed = !failed,
		.unchanged = 0,
		.failed = failed,
	};

	if (db_run_close(db, id, ok ? "complete" : "failed", &f))
		error_msg("check: %s", sqlite3_errmsg(db));
}

static int is_busy(sqlite3 *db)
{
	int e = sqlite3_errcode(db);

	return e == SQLITE_BUSY || e == SQLITE_LOCKED;
}

/*
 * Analyze one file with the kept flags into DB; retried when the database
 * stayed locked past the busy timeout (many checkers, a slow disk), so
 * that no checker's rows are lost.  Returns an exit code.
 */
static int analyze_file(sqlite3 *db, const char *tree, const char *rel,
			const struct check_args *a,
			struct analyzer_file_report *rep, long long *run_out)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	long long run = 0;
	int rc = EXIT_INTERNAL, attempt;

	for (attempt = 0; attempt < BUSY_RETRIES; attempt++) {
		if (!run)
			run = begin_run(db, tree, rel, a);
		if (run)
			rc = analyzer_exit(analyzer_check_file(db, run, tree,
						rel, a->clang, a->nclang, rep));
		if (run && rc != EXIT_INTERNAL)
			break;
		if (!is_busy(db))
			break;
		nanosleep(&pause, NULL);
		pause.tv_nsec = pause.tv_nsec * 2 % 1000000000;
	}
	if (run)
		end_run(db, run, rc == EXIT_OK, rep);
	*run_out = run;
	return run ? rc : EXIT_INTERNAL;
}

/* The hits of rule R in file REL replace R's earlier findings there. */
static int store_file_hits(sqlite3 *db, const struct rule *r,
			   const struct rule_hit *hits, int n, const char *rel,
			   long long run)
{
	sqlite3_stmt *del = db_prepare(db,
		"DELETE FROM findings WHERE rule = ?1 AND path = ?2");
	sqlite3_stmt *ins = db_prepare(db,
		"INSERT OR REPLACE INTO findings (rule, severity, path, line, "
		"col, message, suggestion, site_id, run_id) VALUES (?1, ?2, "
		"?3, ?4, ?5, ?6, ?7, nullif(?8, 0), ?9)");
	int i, rc = del && ins ? 0 : -1;

	if (!rc) {
		sqlite3_bind_text(del, 1, r->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(del, 2, rel, -1, SQLITE_STATIC);
		rc = sqlite3_step(del) == SQLITE_DONE ? 0 : -1;
	}
	for (i = 0; i < n && !rc; i++) {
		if (strcmp(hits[i].path, rel))
			continue;
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, r->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, hits[i].match->severity, -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, rel, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 4, hits[i].line);
		sqlite3_bind_int(ins, 5, hits[i].col);
		sqlite3_bind_text(ins, 6, hits[i].message, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 7, hits[i].suggestion, -1,
				  SQLITE_STATIC);
		sqlite3_bind_int64(ins, 8, hits[i].site_id);
		sqlite3_bind_int64(ins, 9, run);
		rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return rc;
}

/*
 * Run the rules that apply to the tree's kernel over the database and
 * store their findings in REL (only those: other files' findings belong
 * to their own checks), as sparse reports a file's warnings when it
 * checks it.  Without a rules directory there is nothing to run.
 */
static int rule_findings(sqlite3 *db, const char *tree, const char *rel,
			 long long run)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	char *dir = rule_default_dir();
	struct rule_hit **hits;
	struct rule *rules = NULL;
	struct kversion kv;
	struct stat st;
	int n = 0, i, *nhits, have_kv, rc = 0, attempt;

	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		rules_load_dir(dir, &rules, &n);
	free(dir);
	have_kv = ktree_version(tree, &kv) == 0;
	hits = xcalloc((size_t)n + 1, sizeof(*hits));
	nhits = xcalloc((size_t)n + 1, sizeof(*nhits));
	/* Evaluate first (reads), then write all in one short transaction. */
	for (i = 0; i < n && !rc; i++) {
		nhits[i] = -1;
		if (rules[i].nmatches &&
		    (!have_kv || rule_applies(&rules[i], &kv)))
			rc = (nhits[i] = rule_eval(db, &rules[i], &hits[i])) < 0;
	}
	for (attempt = 0; !rc && n && attempt < BUSY_RETRIES; attempt++) {
		rc = db_begin(db);
		for (i = 0; i < n && !rc; i++)
			if (nhits[i] >= 0)
				rc = store_file_hits(db, &rules[i], hits[i],
						     nhits[i], rel, run);
		if (!rc && !db_commit(db))
			break;
		db_rollback(db);
		if (!is_busy(db))
			break;
		rc = 0;
		nanosleep(&pause, NULL);
	}
	for (i = 0; i < n; i++)
		rule_hits_free(hits[i], nhits[i] > 0 ? nhits[i] : 0);
	free(hits);
	free(nhits);
	rules_free(rules, n);
	if (rc)
		error_msg("check: %s: rule findings not stored: %s", rel,
			  sqlite3_errmsg(db));
	return rc;
}

static int check_one(sqlite3 *db, const char *tree, const char *file,
		     const struct check_args *a)
{
	struct analyzer_file_report rep;
	struct strbuf sb = STRBUF_INIT;
	char *rel = relative_to_tree(tree, file);
	long long run = 0;
	int rc;

	if (!rel)
		return EXIT_USAGE;
	memset(&rep, 0, sizeof(rep));
	rc = analyze_file(db, tree, rel, a, &rep, &run);
	if (rc == EXIT_OK && rule_findings(db, tree, rel, run))
		rc = EXIT_INTERNAL;
	if (rc == EXIT_OK && report_gcc(db, rel, &sb, NULL) == 0 && sb.len)
		fwrite(sb.buf, 1, sb.len, stderr);
	if (rc == EXIT_OK && a->verbose)
		fprintf(stderr, "%s check: %s: %s, %zu flag uses, %zu sites\n",
			progname, rel, rep.parse_mode ? rep.parse_mode : "?",
			rep.nflag_uses, rep.nsites);
	analyzer_file_report_free(&rep);
	sb_release(&sb);
	free(rel);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a;
	const char *bad, *why;
	sqlite3 *db;
	char *tree;
	int i, rc = EXIT_OK;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(usage_check, stdout);
		return EXIT_OK;
	}
	if (check_parse_argv(argc, argv, &a, &bad, &why))
		return usage_error("check", "%s: %s", bad, why);
	/* kbuild passes its ARCH (x86_64, i386...) as sparse's --arch= */
	if (a.arch && arch_error("check", a.arch, 1)) {
		check_args_release(&a);
		return EXIT_USAGE;
	}
	if (a.verbose)
		print_dropped(argc, argv);
	tree = find_tree(a.tree);
	if (!tree) {
		check_args_release(&a);
		return EXIT_USAGE;
	}
	db = db_open(a.db, DB_READWRITE);
	if (!db) {
		free(tree);
		check_args_release(&a);
		return EXIT_USAGE;
	}
	for (i = 0; i < a.nfiles; i++) {
		int r = check_one(db, tree, a.files[i], &a);

		if (r > rc)
			rc = r;
	}
	db_close(db);
	free(tree);
	check_args_release(&a);
	return rc;
}
