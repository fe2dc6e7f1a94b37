/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ANALYZER_H
#define GFPAUDIT_ANALYZER_H

/*
 * The analyzer's entry points: a whole-tree scan (gfpaudit scan) and the
 * analysis of one file with exact compiler flags (gfpaudit check, run by
 * kbuild as CHECK=).  Both write the findings database: per file, in one
 * transaction, delete-then-insert keyed by the file's path.
 */

#include "analyzer/walker.h"
#include "lib/ktree.h"

#include <sqlite3.h>

struct scan_opts {
	const char *tree;	/* as given by the user */
	const char *db_path;
	int jobs;		/* 0: all online cores */
	const char *compile_commands; /* NULL: none */
	const char *arch;	/* NULL: host */
	int shard_k, shard_n;	/* 0/0: no sharding */
	enum parse_depth depth; /* deepest tier wanted */
	int force;		/* re-parse unchanged files too */
	int progress;		/* -1 auto (tty), 0 off, 1 on */
	char *options_json;	/* runs.options, built by the caller */
	/* Restrict the scan to these files/directories (relative to tree). */
	char **paths;
	int npaths;
	/*
	 * Scoped to these names (a replace rule's flags, `scan --rule`):
	 * only files that mention one, or already have rows, are analysed;
	 * the rest of the tree gets no rows.  nscope 0: the whole tree.
	 */
	char **scope;
	int nscope;
};

/*
 * What an analyzer stage tells its caller; the caller (cli/) maps it to
 * an exit code.  The stage has already printed the one-line error.
 */
enum analyzer_status {
	ANALYZER_OK = 0,
	ANALYZER_BAD_INPUT = -1, /* bad tree, path or options */
	ANALYZER_FAILED = -2,	 /* database or internal error */
};

/*
 * What a scan did, for the command's summary lines: filled in by
 * analyzer_scan() once the run is recorded (have_summary set), even
 * when it failed.  Free with scan_stats_free().
 */
struct scan_stats {
	int have_summary;
	char *tree;		/* absolute */
	struct kversion kv;
	size_t total, parsed, clang, unchanged, failed, reanalysed;
	double t_learn, t_total; /* seconds */
	long long flag_uses, sites; /* in the database after the run */
	/* A scoped scan (nscope != 0): */
	size_t out_of_scope;	/* files that name none of the scope */
	size_t defining;	/* of those, read for wrappers */
	size_t callees;		/* names the wrappers add */
	/*
	 * A re-scan (the database had summaries): the link step's
	 * meta summaries_last, "kept" or "SOLVED NEW CHANGED"; NULL on a
	 * first scan.
	 */
	char *summaries;
};

/*
 * Run a scan, filling *ST.  Returns an enum analyzer_status: 0, or
 * ANALYZER_BAD_INPUT / ANALYZER_FAILED after a one-line error.  Progress
 * and per-file errors are printed while it runs; the summary is not.
 */
int analyzer_scan(const struct scan_opts *o, struct scan_stats *st);
void scan_stats_free(struct scan_stats *st);

/*
 * One file, as `gfpaudit check` sees it.
 *
 * DB is open read-write; RUN_ID is the caller's `runs` row (or 0).  TREE
 * is the tree root (absolute or relative to the cwd), PATH the file
 * (absolute or relative to the cwd; it must lie inside TREE).  ARGV/ARGC
 * are the clang arguments to parse it with, without the file name
 * (kbuild's c_flags after the caller removed what clang cannot take);
 * ARGC 0 means "synthesize flags like scan --depth full".
 *
 * The file's rows (files, flag_uses, sites, caches, learned allocators,
 * sleepers, findings of scan/check runs) are replaced in one transaction
 * (BEGIN IMMEDIATE, so concurrent checkers queue on the busy timeout).
 * On success *OUT holds what was written, for gcc-style output; free it
 * with analyzer_file_report_free().  Returns an enum analyzer_status:
 * ANALYZER_OK, ANALYZER_BAD_INPUT (unreadable or binary file, path
 * outside the tree: one line printed) or ANALYZER_FAILED (database).
 */
struct check_finding {
	char *rule, *severity, *message;
	unsigned line, col;
};

struct analyzer_file_report {
	char *path;		/* relative to the tree */
	const char *parse_mode; /* files.parse_mode */
	int diagnostics;
	struct site *sites;	/* with the classifier outputs */
	size_t nsites;
	struct check_finding *findings;
	size_t nfindings;
	size_t nflag_uses;
};

int analyzer_check_file(sqlite3 *db, long long run_id, const char *tree,
			const char *path, const char *const *argv, int argc,
			struct analyzer_file_report *out);
void analyzer_file_report_free(struct analyzer_file_report *r);

/*
 * The classifiers' link steps (struct classifier.link): join what each
 * file recorded (`file_facts`) across files, for the whole database.
 * Scan and check run it after writing; a merge of shard databases runs
 * it on the result.  Call it inside a write transaction.  0, or -1
 * after a message.
 */
int analyzer_link(sqlite3 *db);

#endif
