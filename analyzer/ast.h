/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_AST_H
#define GFPAUDIT_AST_H

/*
 * Small helpers over the libclang AST for the classifiers.  libclang 14
 * has no operator-kind query, so operators are read from the file's own
 * tokens (struct lexfile) at the operands' spelling locations, with a
 * type-based guess when the operator comes from a macro body.
 */

#include "analyzer/walker.h"

#include <clang-c/Index.h>

/* Up to AST_MAX_KIDS direct children of C; returns how many. */
#define AST_MAX_KIDS 8
unsigned ast_children(CXCursor c, CXCursor *kids);

/* C without parentheses, casts and implicit conversions around it. */
CXCursor ast_strip(CXCursor c);

/* Callee name of a CallExpr (malloc'd "" when it is not a plain name). */
char *ast_callee(CXCursor call);
/* Number of arguments of a CallExpr and the Nth one (null cursor). */
int ast_nargs(CXCursor call);
CXCursor ast_arg(CXCursor call, int n);

/* The declaration a DeclRefExpr names, or a null cursor. */
CXCursor ast_ref_decl(CXCursor c);
/* 1 when C (stripped) is a reference to the variable VAR. */
int ast_refers_to(CXCursor c, CXCursor var);
/* 1 when VAR is a local (automatic) variable or parameter. */
int ast_is_local(CXCursor var);

/* Spelling line of C's start (0 when unknown). */
unsigned ast_line(CXCursor c);
/* Spelling offsets of C's extent in the main file; 0 when not there. */
int ast_span(const struct walk_ctx *w, CXCursor c, unsigned *start,
	     unsigned *end);
/*
 * Keep ast_span()'s answers for W's TU from now on (until
 * ast_spans_free(): the cursors die with the TU).
 */
void ast_spans_init(struct walk_ctx *w);
void ast_spans_free(struct walk_ctx *w);

/*
 * The operator of a UnaryOperator or BinaryOperator as written ("!",
 * "*", "&", "=", "==", "!=", "&&", "||", ...), "" when unknown.
 */
const char *ast_operator(const struct walk_ctx *w, CXCursor c, char buf[4]);

/* Index of the first main-file token at or after OFF (lf->ntoks if none). */
unsigned ast_tok_at(const struct walk_ctx *w, unsigned off);

/* Source text of C as written in the main file, squeezed to one line. */
char *ast_text(const struct walk_ctx *w, CXCursor c);
/*
 * Is C, as written, a plain name (no `->`, `.`, `[` or leading `*`)?  A
 * single-file parse that cannot type `sit_i->segmap` (a struct of a
 * header) recovers with the bare `sit_i`: the tokens say what it was.
 */
int ast_spelled_plain(const struct walk_ctx *w, CXCursor c);

/* Index of the gfp_t parameter named in the function's declaration. */
int ast_gfp_param(const struct walk_ctx *w, CXCursor fn, char **name);
/* Index of the parameter named NAME (LEN bytes) of FN, or -1. */
int ast_param_index(CXCursor fn, const char *name, size_t len);

/* 1 when C was written in a macro body (spelling != expansion). */
int ast_from_macro(CXCursor c);
/* Expansion offsets of C's extent in the main file; 0 when not there. */
int ast_expansion_span(const struct walk_ctx *w, CXCursor c, unsigned *start,
		       unsigned *end);
/* Expansion offset of C's location. */
unsigned ast_expansion_offset(CXCursor c);

/*
 * The same AST node reached through two traversals (clang_equalCursors
 * also compares the parent the traversal came through).
 */
int ast_same(CXCursor a, CXCursor b);

/* 1 when C starts in an inactive #if branch of the main file. */
int ast_disabled(const struct walk_ctx *w, CXCursor c);

/*
 * Calls the AST lost: where a single-file parse dropped a statement it
 * could not type (`spin_lock(&dev->lock)` on a struct it has not seen),
 * its tokens still lie between the statements the AST kept.  Token
 * indexes of the `NAME (` calls in [START, END) outside braces (code in
 * braces there was conditional), at most MAX, skipping inactive #if
 * branches when SKIP_DISABLED.
 */
size_t ast_gap_calls(const struct walk_ctx *w, unsigned start, unsigned end,
		     int skip_disabled, unsigned *out, size_t max);
/*
 * Every call of the gap, inside braces and conditions too (a loop body
 * the parse dropped): for what may happen there, such as a sleep.
 */
size_t ast_gap_calls_all(const struct walk_ctx *w, unsigned start,
			 unsigned end, int skip_disabled, unsigned *out,
			 size_t max);
/* 1 when main-file token I is spelled S. */
int ast_tok_eq(const struct walk_ctx *w, unsigned i, const char *s);
/* The offset of the first main-file token in [START, END) spelled S, or 0. */
unsigned ast_gap_find(const struct walk_ctx *w, unsigned start,
		      unsigned end, const char *s);

/* The body (CompoundStmt) of a function definition, or a null cursor. */
CXCursor ast_body(CXCursor fn);

/* 1 when NAME occurs in TEXT (may be NULL) as a whole identifier. */
int text_mentions(const char *text, const char *name);

/* The name of FN (malloc'd). */
char *ast_name(CXCursor c);

#endif
