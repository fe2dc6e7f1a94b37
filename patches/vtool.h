/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_VTOOL_H
#define GFPAUDIT_PATCHES_VTOOL_H

/* Internal to validate: the tool runs (vtool.c) the checks compare. */

#include "patches/validate.h"

struct vkbuild;
struct vincmap;

struct vctx {
	const struct vopts *o;
	char *scratch;
	char *shim;
	char *resource_include; /* clang's own stddef.h etc. */
	int configured;		/* the tree has include/generated */
	int have_clang, have_sparse, have_perl;
	char *checkpatch;
	struct vkbuild *kb;	/* sparse through kbuild, configured trees */
	struct vincmap *incmap; /* the tree's #include lines, once read */
	struct vkmemo *kmemo;	/* the last kbuild "after" run (vkcheck.c) */
	vfetch_fn *fetch;	/* a file's content at a scratch revision */
	void *fetch_arg;
};

/* A .c file's includer, the way vinclude_find() found it. */
struct vincluder {
	char *path;	/* the includer, relative to the tree */
	char *spelled;	/* the #include's name ("selftests/intel_uncore.c") */
	int line;	/* of the #include */
	char **defines; /* "-DCONFIG_X=1" for the options guarding it */
	int ndefines;
};

/*
 * What is compiled to check a touched .c: its before and after copies,
 * or, through inc, copies of the .c that includes it, beside them (so
 * that its #include "..." finds them).
 */
struct vunit {
	const char *path;   /* the touched file, relative to the tree */
	const char *src[2]; /* its copies, before and after the series */
	struct vincluder *inc;
	char *tu[2];	  /* with inc: the includer's copies */
	char *spelled[2]; /* with inc: the copies as its #include names them */
	int entered;	  /* with inc: the includer compiles the file */
	const char *why_direct; /* on a configured tree: why not kbuild */
};

/*
 * The kbuild checks (vkcheck.c): build objs (at most VK_MAX_OBJS) with
 * the tree's kbuild, path of p at its before and after content, and
 * compare the compiler's and sparse's diagnostics.  objs are the file's
 * own object, or objects whose kbuild record shows they include it.
 * Adds the compile and sparse rows; returns 1 when sparse is left to
 * the direct call (make did not get to it), else 0.
 */
#define VK_MAX_OBJS 3
int vkcheck_objects(struct vctx *c, const struct vpatch *p, int k,
		    const char *before_file, const char *after_file,
		    char **objs, int nobj, struct vresults *r);
void vkmemo_free(struct vkmemo *m);

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

/*
 * The diagnostics of after that before lacks, by normalised message, as a
 * multiset; the first three described into detail.  Their number.
 */
int vdiags_new(const struct vctx *c, const struct diags *before,
	       const struct diags *after, const struct vpatch *p, int k,
	       struct strbuf *detail);

enum tool { TOOL_CLANG, TOOL_SPARSE, TOOL_CPP };

/*
 * Run the tool on u's before (after = 0) or after copy until no header is
 * missing: clang's errors or sparse's warnings and errors about the file
 * into d (those the includer gets, with inc, as "INCLUDER:LINE: msg" and
 * line 0), the preprocessed text (TOOL_CPP) into pp.  *shims counts the
 * headers shimmed.  Returns -1 when it could not run.
 */
int run_tool(struct vctx *c, enum tool t, const struct vunit *u, int after,
	     struct diags *d, int *shims, struct strbuf *pp);

/* The includer of a .c file (vinclude.c). */

/* DIR/NAME with "." and ".." resolved (malloc'd); NULL above the tree. */
char *vinclude_resolve(const char *dir, const char *name);
/*
 * The "-DCONFIG_X=1" options (into *defines, malloc'd) of the #if,
 * #ifdef and #elif branches that line LINE of buf is in, but those
 * negated (`!IS_ENABLED(CONFIG_X)`), #ifndef and #else; their number.
 */
int vinclude_guards(const char *buf, size_t len, int line, char ***defines);
/*
 * The .c file of the tree that #includes PATH (relative to its own
 * directory; the first by name); the tree's `#include "....c"` lines are
 * read once per context.  Returns 0 with inc filled, or -1.
 */
int vinclude_find(struct vctx *c, const char *path, struct vincluder *inc);
void vincluder_free(struct vincluder *inc);
/*
 * The .c files of the tree that #include path directly, "X" relative to
 * their own directory or, for a header of include/ or of arch's
 * include/, <X> (malloc'd, into *users), nearest to path's directory
 * first, then by name; their number.
 */
int vinclude_users(struct vctx *c, const char *path, const char *arch,
		   char ***users);
void vincmap_free(struct vincmap *m);

#endif
