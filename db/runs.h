/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_DB_RUNS_H
#define GFPAUDIT_DB_RUNS_H

#include <sqlite3.h>

/*
 * The `runs` table (docs/schema.md): one row per scan, check or merge,
 * written only here.  A run is opened when its command starts, with
 * status 'running', and closed when it ends, so that a killed scan stays
 * visible as one that never finished.
 */
struct db_run {
	const char *command;	    /* "scan", "check", "merge" */
	const char *tree;	    /* the tree's real path */
	const char *kernel_version; /* NULL: unknown */
	const char *git_head;	    /* NULL: not a git tree */
	const char *arch;	    /* NULL: none given */
	const char *shard;	    /* "K/N", or NULL */
	const char *options;	    /* the command's options, JSON text */
	long long files_total;	    /* -1: not known when it starts */
};

/* A run's file counts when it ends; -1 leaves a count as it is. */
struct db_run_files {
	long long total, parsed, unchanged, failed;
};

/*
 * Insert R as a running run, started now.  Returns its id, or -1 with
 * SQLite's error left on DB for the caller to report (a statement that
 * does not prepare is reported here, as db_prepare() does).
 */
long long db_run_open(sqlite3 *db, const struct db_run *r);

/* End run ID now, with STATUS ("complete", "failed") and F's counts. */
int db_run_close(sqlite3 *db, long long id, const char *status,
		 const struct db_run_files *f);

/*
 * A run that is over as it starts (a merge): opened and closed with one
 * timestamp.  Returns its id or -1, as db_run_open().
 */
long long db_run_record(sqlite3 *db, const struct db_run *r,
			const char *status, const struct db_run_files *f);

/*
 * runs.options, built by SQLite's JSON functions so that every options
 * object is escaped alike: json_object() of NPAIRS key/value pairs of
 * text (a NULL value is JSON null), and a JSON array of N strings.
 * malloc'd; NULL when SQLite fails.
 */
char *db_json_object(sqlite3 *db, const char *const *kv, int npairs);
char *db_json_array(sqlite3 *db, char *const *v, int n);

#endif
