/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_SCANINT_H
#define GFPAUDIT_SCANINT_H

/*
 * Inside the scan: the job queue of scan.c, shared with the passes that
 * learn allocators (learn.c).  Not for other stages.
 */

#include "analyzer/analyzer.h"
#include "analyzer/fileproc.h"
#include "analyzer/fsenum.h"
#include "analyzer/scope.h"

#include <sqlite3.h>

/* Rounds of learning wrappers of wrappers (drm_malloc_ab -> kmalloc). */
#define MAX_LEARNED_PASSES 8

struct job {
	char *path;
	size_t idx; /* in the scan's file list, for its marks */
	const struct file_stamp *old; /* NULL: new file or forced */
	/*
	 * Allocated by the worker that takes the job and freed once written:
	 * a result is 2.5 KB, and an array of 55k of them in place cost a
	 * no-change re-scan of 6.1 a fifth of its time in page faults.
	 */
	struct file_result *res;
	int ready;
	int same_stamp; /* unchanged by its stamp: no result at all */
};

struct counts {
	size_t total, parsed, unchanged, failed, uses, sites, clang;
	size_t deferred; /* results left for later (file_result.deferred) */
	size_t done; /* written (or unchanged): for the progress bar */
	double t0;   /* when the scan started, for the rate */
	int show;    /* draw the progress bar */
};

/*
 * What the scan keeps per file of its list (indexed like it): the
 * identifier set of each file read (whole-tree scans), and which files
 * were deferred (file_result.deferred) and are not analysed yet.
 */
enum { DEFER_NONE, DEFER_MAIN, DEFER_PASS };

struct scan_marks {
	struct name_sig *sigs;	 /* NULL: none kept */
	unsigned char *deferred; /* NULL: nothing is deferred */
};

/*
 * Analyse JOBS on N threads, writing results as they come in, in order.
 * A deferred result is not written: its file is marked WHY in MARKS.
 */
int run_jobs(const struct scan_env *env, sqlite3 *db, long long run_id,
	     struct job *jobs, size_t njobs, int nthreads,
	     struct scan_marks *marks, int why, struct counts *c);

/* TREE/REL's text, as read_whole_file() gives it; 0, or -1 with errno. */
int read_tree_file(const char *tree, const char *rel, char **buf,
		   size_t *len);
int in_shard(const char *path, int k, int n);
int in_paths(const char *path, const struct scan_opts *o);

/* learn.c */
void learn_outside(struct scan_env *env, sqlite3 *db,
		   const struct file_list *fl, const struct scan_opts *o);
size_t learn_for_scope(struct scan_env *env, const struct file_list *fl,
		       struct scope *sc, const struct scan_opts *o);
/*
 * The table size from which learned names are new to the files analysed
 * so far: all but the builtin ones when the last scan was killed before
 * its passes ran (their callers may not have been re-analysed).
 */
size_t learned_since(const struct scan_env *env, sqlite3 *db);
int learned_passes(struct scan_env *env, sqlite3 *db, long long run_id,
		   const struct file_list *fl, struct scan_marks *marks,
		   const struct scan_opts *o, int nthreads, size_t before,
		   size_t *reanalysed);
int analyse_deferred(struct scan_env *env, sqlite3 *db, long long run_id,
		     const struct file_list *fl, struct scan_marks *marks,
		     int nthreads, struct counts *c, size_t *reanalysed);

#endif
