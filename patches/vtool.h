/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_VTOOL_H
#define GFPAUDIT_PATCHES_VTOOL_H

/* Internal to validate: the tool runs (vtool.c) the checks compare. */

#include "patches/validate.h"

struct vkbuild;

struct vctx {
	const struct vopts *o;
	char *scratch;
	char *shim;
	char *resource_include; /* clang's own stddef.h etc. */
	int configured;		/* the tree has include/generated */
	int have_clang, have_sparse, have_perl;
	char *checkpatch;
	struct vkbuild *kb; /* sparse through kbuild, configured trees */
};

/* A diagnostic about the checked file: its line and its message. */
struct diag {
	int line;
	char *msg;
};

struct diags {
	struct diag *d;
	int n;
	int errors; /* error lines of the run, about any file */
	int status; /* the tool's exit status (128 + N: killed by signal N) */
};

void diags_free(struct diags *d);

/*
 * Parse "FILE:LINE:COL: KIND: MSG" lines about file itself into d; a
 * missing header ("'x.h' file not found" / "unable to open 'x.h'") goes
 * to *missing when missing is not NULL.
 */
void parse_diags(const char *out, const char *file, const char *kind,
		 struct diags *d, char **missing);

/* The number of " error: " lines of a tool's output, about any file. */
int count_errors(const char *out);

/*
 * A diagnostic's message as the before and after runs are compared
 * (malloc'd): without the directory prefixes given (NULL-terminated: the
 * before/ and after/ copies, the tree), which differ between the runs,
 * and without the line numbers after a file name (`slab.c:1094:5`),
 * which the series shifts.  6.1 mm/slab.c's "symbol 'ret' has multiple
 * initializers (originally initialized at .../after/mm/slab.c:1094)" is
 * then the same warning before and after.
 */
char *diag_normalise(const char *msg, const char *const *prefixes);

enum tool { TOOL_CLANG, TOOL_SPARSE, TOOL_CPP };

/*
 * Run the tool on file (the copy of path, before or after the series)
 * until no header is missing: clang's errors or sparse's warnings and
 * errors about file into d, the preprocessed text (TOOL_CPP) into pp.
 * *shims counts the headers shimmed.  Returns -1 when it could not run.
 */
int run_tool(struct vctx *c, enum tool t, const char *file, const char *path,
	     int after, struct diags *d, int *shims, struct strbuf *pp);

#endif
