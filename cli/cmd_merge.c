// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit merge: fold shard databases (gfpaudit scan --shard K/N, or
 * databases of `check` runs) into one.
 *
 * Every input must describe the same tree: the same root, kernel version,
 * git HEAD and architecture in its latest run, the same shard count, and
 * the same content for every file two inputs both hold.  The SQL that
 * copies them is db/merge.c's; this file has the options, the checks of
 * the inputs, the messages and the exit codes.  Each input is merged in
 * one transaction; a new OUT is removed again when the merge fails.
 */
#include "analyzer/analyzer.h"
#include "cli/cli.h"
#include "cli/rules_after.h"
#include "db/db.h"
#include "db/merge.h"
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

/* Open IN read-only once, to refuse what is not a current gfpaudit db. */
static int check_input(const char *in, const struct stat *out_st,
		       struct db_identity *id)
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
	rc = db_identity_load(db, id);
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
			struct db_identity *first)
{
	struct db_identity id;
	const char *d;
	int i;

	for (i = 0; i < n; i++) {
		if (check_input(in[i], out_st, i ? &id : first))
			return -1;
		if (!i)
			continue;
		d = db_identity_diff(first, &id);
		if (d)
			error_msg("merge: %s: %s %s differs from %s in %s", in[i],
				  d, db_identity_field(&id, d),
				  db_identity_field(first, d), in[0]);
		db_identity_free(&id);
		if (d)
			return -1;
	}
	return 0;
}

static int setup_out(sqlite3 *db, const char *out, const struct db_identity *in)
{
	struct db_identity id;
	const char *d;
	int rc;

	if (db_merge_prepare(db))
		return EXIT_INTERNAL;
	if (db_identity_load(db, &id))
		return EXIT_INTERNAL;
	d = id.runs ? db_identity_diff(&id, in) : NULL;
	if (d)
		error_msg("merge: %s: %s %s differs from the inputs' %s", out, d,
			  db_identity_field(&id, d),
			  db_identity_field(in, d));
	rc = d ? EXIT_USAGE : EXIT_OK;
	db_identity_free(&id);
	return rc;
}

/*
 * Merge IN into OUT's DB.  Returns an exit code: a file IN holds with
 * other content than OUT is the user's input error.
 */
static int merge_one(sqlite3 *db, const char *in, const char *out)
{
	char *path;
	int rc = db_merge_input(db, in, &path);

	if (rc == -EEXIST)
		error_msg("merge: %s: %s differs from the same file in %s: "
			  "not the same tree", in, path, out);
	free(path);
	return !rc ? EXIT_OK : rc == -EEXIST ? EXIT_USAGE : EXIT_INTERNAL;
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
	struct db_identity first;
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
		db_identity_free(&first);
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
			      db_merge_record(db, &first, argv + 2, argc - 2) ||
			      db_commit(db)))
		rc = EXIT_INTERNAL;
	db_close(db);
	if (rc && created)
		remove_db(out);
	if (rc == EXIT_OK)
		rc = rules_after_run("merge", out, &ra);
	rules_after_free(&ra);
	db_identity_free(&first);
	return rc;
}
