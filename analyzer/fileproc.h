/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_FILEPROC_H
#define GFPAUDIT_FILEPROC_H

/* Analysing one file and writing its rows: shared by scan and check. */

#include "analyzer/emit.h"
#include "analyzer/gfpeval.h"
#include "analyzer/fnsum.h"
#include "analyzer/lexscan.h"
#include "analyzer/tables.h"
#include "analyzer/tu.h"
#include "lib/ktree.h"

#include <sqlite3.h>

/* Everything read-only that workers share. */
struct scan_env {
	char *tree; /* absolute */
	struct kversion kv;
	struct tracked_flags tracked;
	struct alloc_table allocs;
	struct name_set prefilter; /* tracked + allocator names */
	struct kconfig config;
	struct gfp_model gfp;
	struct ccdb *cc;
	const char *arch;
	enum parse_depth depth;
	const char *db_path; /* workers open it read-only for classifiers */
	char **defines;	     /* -D list of the tree's constants */
	int ndefines;
	/* Classifier knowledge (data/sleepers.txt, atomic.txt, lifetime.txt). */
	struct tracked_flags sleepers_builtin;
	/*
	 * data/sleepers.txt only: the sleepers learned by earlier runs are
	 * not read, so that a re-scan answers as a first scan does (the
	 * whole-tree summaries carry sleeping across files).
	 */
	struct name_set sleepers;
	struct name_set atomic[AT_KINDS];
	struct name_set lifetime[LT_KINDS];
	/*
	 * Set by a whole-tree scan: each file read gets its identifier
	 * filter (file_result.sig), kept by the writer for the learned
	 * passes.
	 */
	int want_sigs;
	/*
	 * Set while the files that may define an allocator are analysed
	 * first (scan.c): a file that would be parsed but cannot teach one
	 * is left for later (file_result.deferred), to be analysed once
	 * with the wrappers it calls known instead of again in a learned
	 * pass.
	 */
	int defer_plain;
};

/*
 * What the database recorded of a file at the last scan: its content hash,
 * and the size and modification time (ns) it had when it was read, if
 * that time was safely in the past (see process_file).
 */
struct file_stamp {
	char *hash;
	long long size, mtime_ns;
	int has_mtime;
};

struct file_result {
	char *path;
	char hash[17];
	long long size;
	long long mtime_ns; /* recorded as files.mtime_ns when has_mtime */
	int has_mtime;
	const char *parse_mode;
	int diagnostics;
	char *error;	/* file-level problem (still recorded) */
	int unchanged;	/* hash equal to the database's: nothing to do */
	int restamp;	/* unchanged, but its size/mtime stamp is new */
	int failed;	/* could not be read / parsed at all */
	int parsed;	/* went through libclang */
	int deferred;	/* scan_env.defer_plain: read, not analysed yet */
	struct lexfile lf;
	struct walk_emit emit;
	struct name_sig sig; /* when scan_env.want_sigs and it was read */
	struct fn_summaries fns; /* every file read, parsed or not */
};

/* sites.confidence of a site parsed at depth D (db/sites_cols.h). */
static inline const char *confidence_of(enum parse_depth d)
{
	return d == DEPTH_FULL ? "full_ast" :
	       d == DEPTH_SINGLE_FILE ? "single_file" : "lexical";
}

int scan_env_init(struct scan_env *e, const char *tree, const char *arch,
		  enum parse_depth depth, const char *cc_path,
		  const char *db_path);
void scan_env_free(struct scan_env *e);
/* Rebuild the prefilter after learned allocators were added. */
void scan_env_prefilter(struct scan_env *e);
/*
 * Could BUF, which names a prefilter name, define an allocator: an
 * allocator macro, or a gfp_t (a wrapper function)?  A superset of what
 * check_wrapper.c and lx_learn_macros() learn.
 */
int may_define_allocator(const struct scan_env *e, const char *buf,
			 size_t len);

/*
 * Analyse REL.  OLD (may be NULL): skip the file when its size and
 * modification time are those recorded (without reading it), else when
 * its content hash is the same.  ARGV/ARGC: explicit clang flags (check),
 * or NULL for the tier's.  RODB: read-only connection for classifiers
 * (may be NULL).
 */
void process_file(const struct scan_env *e, struct tu_parser *tp, sqlite3 *rodb,
		  const char *rel, const struct file_stamp *old,
		  const char *const *argv, int argc, struct file_result *r);
void file_result_free(struct file_result *r);

/* Replace REL's rows with R's, inside the caller's transaction. */
int write_result(sqlite3 *db, long long run_id, const struct file_result *r,
		 const struct tracked_flags *tf);

/*
 * The same for many files: the statements are prepared once by
 * result_writer_open() and finalized by result_writer_close(), which
 * must come before the database is closed.
 */
#define RESULT_WRITER_STMTS 15

struct result_writer {
	sqlite3 *db;
	sqlite3_stmt *st[RESULT_WRITER_STMTS];
};

int result_writer_open(struct result_writer *w, sqlite3 *db);
int result_writer_put(struct result_writer *w, long long run_id,
		      const struct file_result *r,
		      const struct tracked_flags *tf);
void result_writer_close(struct result_writer *w);

#endif
