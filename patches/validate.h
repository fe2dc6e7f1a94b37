/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_VALIDATE_H
#define GFPAUDIT_PATCHES_VALIDATE_H

#include "lib/util.h"

#include <sqlite3.h>

/* One check's outcome (a row of `validations`). */
struct vresult {
	char *patch;	    /* file name, NULL for series-wide checks */
	char *path;	    /* source file, NULL for per-patch checks */
	const char *check;  /* apply, compile, sparse, checkpatch, impact */
	const char *result; /* pass, fail, inconclusive, skip */
	char *detail;
};

struct vresults {
	struct vresult *v;
	int n;
};

void vres_add(struct vresults *r, const char *patch, const char *path,
	      const char *check, const char *result, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void vres_free(struct vresults *r);

/*
 * Per touched file, the worst result of its checks (in all patches):
 * fail, then inconclusive, then pass; a file whose every check was
 * skipped (a header, a missing tool) is not checked.
 */
struct vsummary {
	int files, pass, fail, inconclusive, unchecked;
};
void vres_summary(const struct vresults *r, struct vsummary *s);

/* A patch file as validate sees it. */
struct vpatch {
	char *file;   /* absolute path */
	char *name;   /* base name */
	char **paths; /* files it touches (new names) */
	int npaths;
	/* Added lines per touched file, new-file numbering: lines[k][0..]. */
	int **added;
	int *nadded;
	char **removed_defines; /* macros whose #define line it deletes */
	int nremoved;
	int applied;
	char before[41], after[41]; /* scratch commits around it */
};

/*
 * Parse a patch (mbox or plain diff) in buf: touched paths, added line
 * numbers, deleted #defines.  Pure.  Returns 0, or -1 with err set when a
 * path is unsafe (absolute, ..) or the text has no diff.
 */
int vpatch_parse(const char *buf, struct vpatch *p, char *err, size_t errlen);
void vpatch_free(struct vpatch *p);

/* 1 when line is among p's added lines of touched file k. */
int vpatch_touches_line(const struct vpatch *p, int k, int line);

struct vopts {
	const char *series; /* directory of the series */
	const char *tree;
	const char *arch; /* default arch for files outside arch/ */
	int no_compile, no_sparse, no_checkpatch, keep_work;
};

/* The compile/sparse/checkpatch checks, in vcheck.c. */
struct vctx;
/*
 * Write the content of path at revision rev of the scratch repository
 * (the tree's file when the series does not touch it) to dst; 0 or -1.
 */
typedef int vfetch_fn(void *arg, const char *rev, const char *path,
		      const char *dst);
struct vctx *vctx_new(const struct vopts *o, const char *scratch,
		      vfetch_fn *fetch, void *fetch_arg);
void vctx_free(struct vctx *c);
/*
 * Compare clang's errors (compile) and sparse's warnings (sparse) in
 * path between the before and after contents; new ones fail.
 */
void vcheck_file(struct vctx *c, const struct vpatch *p, int k,
		 const char *before_file, const char *after_file,
		 struct vresults *r);
/* checkpatch.pl on the patch; errors not also in its reverse fail. */
void vcheck_checkpatch(struct vctx *c, const struct vpatch *p,
		       const char *reverse_file, struct vresults *r);

/*
 * The outcome of validate_series(); the caller picks the exit code.
 * Errors are negative, after a one-line message.
 */
enum vstatus {
	VALIDATE_PASS = 0,	   /* every check passed or was skipped */
	VALIDATE_FAIL = 1,	   /* a check failed */
	VALIDATE_INCONCLUSIVE = 2, /* none failed, but one proved nothing */
	VALIDATE_BAD_INPUT = -1,   /* unreadable series, unsafe patch */
	VALIDATE_ERROR = -2,	   /* scratch directory, other internal */
};

/* What validate_series() did besides its results, for the caller. */
struct vstats {
	char *kept; /* the scratch repository, when kept; caller frees */
};

/*
 * Validate the series: results in r (also stored in db when non-NULL),
 * the rest in *st.  Returns an enum vstatus.
 */
int validate_series(const struct vopts *o, sqlite3 *db, struct vresults *r,
		    struct vstats *st);

#endif
