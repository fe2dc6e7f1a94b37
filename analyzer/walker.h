/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_WALKER_H
#define GFPAUDIT_WALKER_H

/*
 * The shared walker and the classifier hook interface (smatch-style).
 *
 * The walker (analyzer/walker.c) visits one parsed translation unit,
 * finds every allocation call and builds a `struct site` for it.  Each
 * classifier is its own analyzer/check_*.c file that fills some of the
 * site's classification fields from its hooks; analyzer/check_list.h
 * lists them in the order they run (adding one is a file and a line
 * there, never a change to the walker).
 *
 * Hook order for one translation unit:
 *	tu_begin
 *	for each function definition with at least one site:
 *		function_begin(fn)
 *		site(s, call, fn)   for each site in the function, in order
 *		function_end(fn)
 *	tu_end
 * Sites outside any function (file-scope initialisers, macro bodies seen
 * only as #define text) reach site() with clang_Cursor_isNull(fn) true.
 *
 * As implemented (analyzer/walker.c): the functions are the AST's
 * FunctionDecl definitions in the main file (none at DEPTH_LEXICAL, whose
 * TU skips bodies), in file order; a site belongs to the function whose
 * extent holds it.  `call` is the site's CallExpr, matched by the spelling
 * location of the call (so a call written in a #define body is matched
 * through one of its expansions), or a null cursor when the AST has none
 * (inactive #if branch, a call the single-file parse dropped); s->depth
 * then says DEPTH_LEXICAL.  Sites in a function without an AST cursor
 * come after the functions, with a null fn, in file order.  s->function
 * always holds the lexical name (the SYSCALL_DEFINE name argument), or at
 * DEPTH_FULL the name clang gives the function.
 */

#include <clang-c/Index.h>
#include <sqlite3.h>

#include "lib/ktree.h"

struct alloc_table;
struct lexfile;
struct name_set;
struct tu_facts;

/* How much of the AST a classifier can rely on (sites.confidence). */
enum parse_depth {
	DEPTH_LEXICAL = 0, /* tokens only (file could not be parsed) */
	DEPTH_SINGLE_FILE, /* CXTranslationUnit_SingleFileParse: no types */
	DEPTH_FULL,	   /* full translation unit with the tree's flags */
};

/*
 * One row of the `sites` table, before it is written; db/sites_cols.h
 * says which field goes to which column.
 */
struct site {
	/* Filled by the walker. */
	char *path; /* relative to the tree root */
	unsigned line, col;
	char *function; /* enclosing function, NULL at file scope */
	char *api;
	const char *api_origin; /* "builtin" or "learned" */
	int gfp_arg;		/* index of the gfp argument, -1 if none */
	char *flags;		/* gfp argument's source text as written */
	unsigned flags_line, flags_col;
	char *flags_via;      /* local variable the flags came through */
	char *flags_resolved; /* expression after resolving flags_via */
	char *flags_used;     /* the flags it allocates with (flags_used()) */
	int mask_known;
	unsigned long long gfp_mask; /* evaluated with the tree's headers */
	const char *migratetype;     /* unmovable|reclaimable|movable */
	char *size;		     /* size argument's source text */
	int size_known;
	long long size_const;
	char *macro; /* macro the call was expanded from, if any */
	int in_disabled_branch;
	/*
	 * What the classifiers can see of this site: the TU's depth when
	 * the walker found its CallExpr (call cursor not null), else
	 * DEPTH_LEXICAL.  Written as sites.confidence.
	 */
	enum parse_depth depth;

	/* Filled by classifiers; NULL / -1 mean "not classified". */
	/* site_lifetime_names[] (db/labels.h); the database refuses others */
	const char *lifetime;
	char *lifetime_evidence;
	unsigned lifetime_line;
	int held_across_sleep; /* 1, 0, -1 unknown */
	char *sleep_evidence;
	/*
	 * When held_across_sleep is not 1: the calls the buffer is held
	 * across, as JSON for the summaries step, which knows more of them
	 * once the whole tree is in (check_sleep.c).
	 */
	char *held_calls;
	const char *context; /* site_context_names[] (db/labels.h) */
	char *context_evidence;
	char *gfp_param;
	int flag_effective; /* 1, 0, -1 unknown */
	char *flag_effective_reason;
};

struct walk_ctx {
	CXTranslationUnit tu;
	CXFile file;	  /* the main file */
	const char *path; /* relative path of the main file */
	const char *tree; /* absolute tree root */
	const struct kversion *kv;
	/* the tree's direct-reclaim bit (gfpeval.h), 0 unknown */
	unsigned long long direct_reclaim;
	enum parse_depth depth;
	/*
	 * Read-only view of the database for cross-function facts
	 * (sleepers, allocators, caches); may be NULL in unit tests.
	 */
	sqlite3 *db;
	/* Rows a classifier wants written besides the sites themselves. */
	struct walk_emit *emit;
	/*
	 * Shared read-only knowledge (may be NULL in unit tests): the
	 * file's tokens (analyzer/lexscan.h), the allocator and free
	 * functions (builtin, and the learned allocators), the functions
	 * known to sleep (data/sleepers.txt), and the
	 * knowledge files data/atomic.txt and data/lifetime.txt, one
	 * name set per kind (enum atomic_kind, enum lifetime_kind in
	 * analyzer/tables.h).
	 */
	const struct lexfile *lf;
	const struct alloc_table *allocs;
	const struct name_set *sleepers;
	const struct name_set *atomic;	/* [AT_KINDS] */
	const struct name_set *lifetime; /* [LT_KINDS] */
	/*
	 * Per-TU results of the shared analyses (analyzer/tufacts.h),
	 * computed on first use; the walker frees them after tu_end.
	 */
	struct tu_facts *facts;
	/* ast_span()'s answers for this TU's cursors (analyzer/ast.c) */
	struct ast_spans *spans;
};

/*
 * Extra rows a classifier produces (learned wrappers, sleepers, caches,
 * findings); the scan writes them in the file's transaction.
 */
void emit_allocator(struct walk_ctx *w, const char *name, const char *kind,
		    const char *family, int gfp_arg, int size_arg,
		    const char *via, unsigned line);
void emit_sleeper(struct walk_ctx *w, const char *function,
		  const char *evidence, unsigned line);
void emit_cache(struct walk_ctx *w, unsigned line, unsigned col,
		const char *variable, const char *name, const char *flags,
		int reclaimable, int has_shrinker, const char *evidence);
void emit_finding(struct walk_ctx *w, const char *rule,
		  const char *severity, unsigned line, unsigned col,
		  const char *message, const char *suggestion);
/*
 * A fact about the file (`file_facts`: KIND, NAME, the enclosing
 * FUNCTION or NULL, LINE) that a classifier's link step joins with other
 * files' facts once the whole tree is in the database.
 */
void emit_fact(struct walk_ctx *w, const char *kind, const char *name,
	       const char *function, unsigned line);

struct classifier {
	const char *name;
	void (*tu_begin)(struct walk_ctx *w);
	void (*function_begin)(struct walk_ctx *w, CXCursor fn);
	void (*site)(struct walk_ctx *w, struct site *s, CXCursor call,
		     CXCursor fn);
	void (*function_end)(struct walk_ctx *w, CXCursor fn);
	void (*tu_end)(struct walk_ctx *w);
	/*
	 * Optional, NULL-terminated: identifiers that make a file worth
	 * parsing for this classifier even when it has no site (say
	 * "register_shrinker", "msleep").  The scan's prefilter skips files
	 * that mention none of the tracked flags, allocators and these.
	 */
	const char *const *interesting;
	/*
	 * Optional: runs once the scanned files are in the database (after
	 * a scan, a check and a merge), in a write transaction, to join
	 * facts across files (a cache created in one file and shrunk in
	 * another).  It must recompute everything it sets, so that it
	 * gives the same result however the files were scanned.
	 */
	int (*link)(sqlite3 *db);
	/*
	 * Its answers also come from the whole-tree summaries step
	 * (summaries.h): that step runs, once and after the links, when any
	 * classifier of the scan says so, and sets only the columns of those
	 * that ran (a disabled one's stay NULL).
	 */
	int summaries;
};

/*
 * The classifiers are listed, in order, in analyzer/check_list.h.
 * classifiers_select() keeps those ENABLE names (comma-separated; NULL:
 * all) but the DISABLE ones; it returns NULL, or the first name that is
 * no classifier (nothing changed then).  classifier_name(i) is the i-th
 * of the list, NULL past its end.
 */
const char *classifiers_select(const char *enable, const char *disable);
const char *classifier_name(int i);
/* For tests: run C after the listed ones. */
void walker_append_classifier(const struct classifier *c);

/*
 * Free the strings of a site (all char * fields: the SV_STR columns of
 * db/sites_cols.h).  Classifiers must put malloc'd strings (or NULL) in
 * the char * fields they fill.
 */
void site_release(struct site *s);


#endif
