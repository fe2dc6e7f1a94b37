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
#include "cli/check_args.h"
#include "cli/cli.h"
#include "db/db.h"
#include "lib/util.h"
#include "reports/report.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * Analyze one file with FLAGS into DB.  Returns 0, 1 when the file could
 * not be parsed (recorded; not fatal), -1 on a database error.
 */
static int analyze_file(sqlite3 *db, const char *tree, const char *rel,
			const struct check_args *a)
{
	(void)db;
	(void)tree;
	(void)a;
	error_msg("check: %s: the one-file analyzer is not built yet "
		  "(issue 3)", rel);
	return -1;
}

static int check_one(sqlite3 *db, const char *tree, const char *file,
		     const struct check_args *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *rel = relative_to_tree(tree, file);
	int rc;

	if (!rel)
		return EXIT_USAGE;
	rc = analyze_file(db, tree, rel, a);
	if (rc < 0) {
		free(rel);
		return EXIT_INTERNAL;
	}
	if (report_gcc(db, rel, &sb, NULL) == 0 && sb.len)
		fwrite(sb.buf, 1, sb.len, stderr);
	sb_release(&sb);
	free(rel);
	return EXIT_OK;
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
