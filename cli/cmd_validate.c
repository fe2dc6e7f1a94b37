// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit validate: check a series written by `gfpaudit patch` (or by
 * hand) against the tree it is for; results go to the validations table
 * and are printed as a table.
 */
#include "cli/cli.h"
#include "db/db.h"
#include "patches/validate.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

const char usage_validate[] =
	"usage: gfpaudit validate [--db FILE] [--arch ARCH] [--no-compile]\n"
	"                         [--no-sparse] [--no-checkpatch] DIR TREE\n"
	"\n"
	"Apply the series in DIR (its *.patch files but the cover letter, in\n"
	"order) to a scratch copy of the files it touches in TREE, with git "
	"am;\n"
	"then, per touched .c file, compare clang's errors (compile) and\n"
	"sparse's warnings (sparse) before and after, with the file's own\n"
	"arch headers; run TREE's scripts/checkpatch.pl on each patch; and\n"
	"look for users left of any #define the series removes (impact).\n"
	"On a configured TREE, TREE's own kbuild builds each touched .c's\n"
	"object (make dir/file.o, C=2 for sparse), and a touched header\n"
	"through up to 3 objects of the .config that include it.\n"
	"A check that could not prove anything (the file does not compile\n"
	"as checked, sparse gave up on errors) is inconclusive, not pass.\n"
	"TREE is never written.  Exit 0 when every check passed or was\n"
	"skipped, 1 when one failed (named on stderr), 4 when none failed\n"
	"but one was inconclusive, 2 on bad input.\n"
	"\n"
	"  --db FILE        store results in its validations table\n"
	"                   (default ./gfpaudit.db)\n"
	"  --arch ARCH      headers for files outside arch/ (default x86)\n"
	"  --no-compile     skip the clang check\n"
	"  --no-sparse      skip the sparse check\n"
	"  --no-checkpatch  skip checkpatch.pl\n"
	"  --keep-work      keep the scratch repository\n";

/*
 * "checks: apply 3 pass, 0 fail, 0 inconclusive; compile ...": the rows
 * of each check kind, in the order the kinds first appear.
 */
static void print_kinds(const struct vresults *r)
{
	static const char *const results[] = {"pass", "fail", "inconclusive",
					      "skip", NULL};
	int i, j, k, n[4];

	printf("checks:");
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < i && strcmp(r->v[j].check, r->v[i].check); j++)
			;
		if (j < i)
			continue; /* counted at its first row */
		memset(n, 0, sizeof(n));
		for (j = i; j < r->n; j++)
			for (k = 0; results[k]; k++)
				if (!strcmp(r->v[j].check, r->v[i].check) &&
				    !strcmp(r->v[j].result, results[k]))
					n[k]++;
		printf("%s %s %d pass, %d fail, %d inconclusive", i ? ";" : "",
		       r->v[i].check, n[0], n[1], n[2]);
		if (n[3])
			printf(", %d skipped", n[3]);
	}
	printf("\n");
}

static void print_results(const struct vresults *r)
{
	size_t wp = 5, wf = 4, wc = 5, wr = 6;
	struct vsummary s;
	int i;

	for (i = 0; i < r->n; i++) {
		const struct vresult *v = &r->v[i];
		size_t lp = v->patch ? strlen(v->patch) : 1;
		size_t lf = v->path ? strlen(v->path) : 1;

		wp = lp > wp ? lp : wp;
		wf = lf > wf ? lf : wf;
		wc = strlen(v->check) > wc ? strlen(v->check) : wc;
		wr = strlen(v->result) > wr ? strlen(v->result) : wr;
	}
	printf("%-*s  %-*s  %-*s  %-*s  %s\n", (int)wp, "patch", (int)wf,
	       "file", (int)wc, "check", (int)wr, "result", "detail");
	for (i = 0; i < r->n; i++) {
		const struct vresult *v = &r->v[i];

		printf("%-*s  %-*s  %-*s  %-*s  %s\n", (int)wp,
		       v->patch ? v->patch : "-", (int)wf,
		       v->path ? v->path : "-", (int)wc, v->check, (int)wr,
		       v->result, v->detail);
	}
	vres_summary(r, &s);
	printf("\nfiles: %d pass, %d fail, %d inconclusive, %d not checked\n",
	       s.pass, s.fail, s.inconclusive, s.unchecked);
	print_kinds(r);
}

/* The exit code of validate_series()'s outcome (docs: exit codes). */
static int exit_code(int status)
{
	switch (status) {
	case VALIDATE_PASS:
		return EXIT_OK;
	case VALIDATE_FAIL:
		return EXIT_FINDINGS;
	case VALIDATE_INCONCLUSIVE:
		return EXIT_INCONCLUSIVE;
	case VALIDATE_BAD_INPUT:
		return EXIT_USAGE;
	default:
		return EXIT_INTERNAL;
	}
}

int cmd_validate(int argc, char **argv)
{
	static const struct option opts[] = {
		{"db", required_argument, NULL, 'd'},
		{"arch", required_argument, NULL, 'a'},
		{"no-compile", no_argument, NULL, 'C'},
		{"no-sparse", no_argument, NULL, 'S'},
		{"no-checkpatch", no_argument, NULL, 'P'},
		{"keep-work", no_argument, NULL, 'k'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct vopts o = {0};
	struct vresults r = {0};
	struct vstats vs;
	const char *dbpath = "gfpaudit.db";
	struct stat st;
	sqlite3 *db;
	int c, rc, i, fails = 0, inconclusive = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case 'a':
			o.arch = optarg;
			if (arch_error("validate", optarg, 0))
				return EXIT_USAGE;
			break;
		case 'C':
			o.no_compile = 1;
			break;
		case 'S':
			o.no_sparse = 1;
			break;
		case 'P':
			o.no_checkpatch = 1;
			break;
		case 'k':
			o.keep_work = 1;
			break;
		case 'h':
			fputs(usage_validate, stdout);
			return EXIT_OK;
		default:
			return bad_option("validate", argv);
		}
	}
	if (optind + 2 != argc)
		return usage_error("validate", "want DIR and TREE");
	o.series = argv[optind];
	o.tree = argv[optind + 1];
	if (stat(o.series, &st) || !S_ISDIR(st.st_mode))
		return usage_error("validate", "%s: not a directory", o.series);
	if (stat(o.tree, &st) || !S_ISDIR(st.st_mode))
		return usage_error("validate", "%s: not a directory", o.tree);
	if (access(dbpath, R_OK))
		return usage_error("validate", "%s: no such database", dbpath);
	db = db_open(dbpath, DB_READWRITE);
	if (!db)
		return EXIT_USAGE;
	rc = exit_code(validate_series(&o, db, &r, &vs));
	db_close(db);
	if (vs.kept)
		fprintf(stderr, "%s: scratch repository kept in %s\n",
			progname, vs.kept);
	free(vs.kept);
	if (rc == EXIT_USAGE || rc == EXIT_INTERNAL) {
		vres_free(&r);
		return rc;
	}
	print_results(&r);
	for (i = 0; i < r.n; i++)
		if (!strcmp(r.v[i].result, "fail")) {
			fails++;
			error_msg("validate: FAIL %s%s%s: %s: %s",
				  r.v[i].patch ? r.v[i].patch : "series",
				  r.v[i].path ? ": " : "",
				  r.v[i].path ? r.v[i].path : "", r.v[i].check,
				  r.v[i].detail);
		}
	for (i = 0; i < r.n; i++)
		inconclusive += !strcmp(r.v[i].result, "inconclusive");
	fprintf(stderr,
		"%s: validate: %d check%s, %d failed, %d inconclusive\n",
		progname, r.n, r.n == 1 ? "" : "s", fails, inconclusive);
	vres_free(&r);
	return rc;
}
