/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_DB_MERGE_H
#define GFPAUDIT_DB_MERGE_H

#include <sqlite3.h>

/*
 * Folding gfpaudit databases into one (`gfpaudit merge`): the SQL.  The
 * command (cli/cmd_merge.c) parses its options, opens the databases,
 * prints and picks the exit code; these return 0 or a negative errno:
 * -EIO for a database error, printed here as db_exec() prints one.
 */

/* What makes two databases the same tree, from their latest run. */
struct db_identity {
	char *tree, *version, *head, *arch;
	char *shards; /* N of the K/N shards, or NULL */
	long long runs;
};

/* DB's identity (zeroed when it has no run); 0 or -EIO. */
int db_identity_load(sqlite3 *db, struct db_identity *id);
void db_identity_free(struct db_identity *id);

/*
 * NULL when A and B are the same tree, else which field differs: "tree",
 * "kernel version", "git HEAD", "arch" or "shard count".
 */
const char *db_identity_diff(const struct db_identity *a,
			     const struct db_identity *b);
/* ID's value of such a field, "none" when it has none. */
const char *db_identity_field(const struct db_identity *id,
			      const char *what);

/* Make DB, the output, ready for db_merge_input(); 0 or -EIO. */
int db_merge_prepare(sqlite3 *db);

/*
 * Merge the database file IN into DB in one transaction: rows already
 * there are not copied twice, ids are remapped, a file both hold is kept
 * from the one that parsed it best.  0; -EEXIST when IN holds a file DB
 * holds with other content (not the same tree: *conflict is its path,
 * malloc'd, and nothing was merged); -EIO.
 */
int db_merge_input(sqlite3 *db, const char *in, char **conflict);

/*
 * Record the merge of the N inputs IN as a run of DB (complete, started
 * and finished now), with ID's tree; 0 or -EIO.
 */
int db_merge_record(sqlite3 *db, const struct db_identity *id,
		    char *const *in, int n);

#endif
