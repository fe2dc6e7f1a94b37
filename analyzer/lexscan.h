/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_LEXSCAN_H
#define GFPAUDIT_LEXSCAN_H

/*
 * The discovery tier: given the tokens of one file (from libclang's
 * clang_tokenize, which lexes every #if branch and keeps comments), find
 * every tracked flag token and every allocation call, with the lexical
 * facts the sites table wants: enclosing function (SYSCALL_DEFINE bodies
 * included), enclosing #define, the flags argument as written, flags
 * passed through a local variable, and whether an #if branch is inactive.
 */

#include "analyzer/macroenv.h"
#include "analyzer/tables.h"
#include "analyzer/walker.h"

#include <stddef.h>

enum tok_kind { TK_PUNCT, TK_KEYWORD, TK_IDENT, TK_LITERAL, TK_COMMENT };

struct tok {
	unsigned off, len;
	unsigned line, col;
	unsigned char kind;
	unsigned char disabled; /* in an inactive #if branch */
	int dir;		/* index into lexfile.dirs, -1 outside */
	int fn;			/* index into lexfile.funcs, -1 outside */
	int brace;		/* innermost brace kind (enum brace_kind) */
};

enum brace_kind { BR_NONE, BR_FUNC, BR_BLOCK, BR_INIT, BR_AGG };

struct directive {
	unsigned first, end; /* token range [first, end) */
	char kind[12];	     /* define, if, ifdef, include, ... */
	int name;	     /* #define: token index of the name, else -1 */
	unsigned body;	     /* #define: first token of the body */
};

struct lex_func {
	char *name;
	unsigned name_tok;	   /* token of the name as written */
	unsigned body_open, body_close; /* token indexes of { and } */
};

struct flag_use {
	unsigned line, col;
	int flag; /* index into tracked_flags.names */
	const char *context;
	char *function, *macro, *call;
	int disabled;
};

struct lex_site {
	struct site s;
	unsigned tok;	  /* token index of the allocator name */
	unsigned off;	  /* its byte offset */
	int fn;		  /* lexfile.funcs index or -1 */
	const struct alloc_fn *afn;
};

struct lexfile {
	const char *path;
	const char *buf;
	size_t len;
	struct tok *toks;
	size_t ntoks;
	struct directive *dirs;
	size_t ndirs;
	struct lex_func *funcs;
	size_t nfuncs;
	struct flag_use *uses;
	size_t nuses, uses_alloc;
	struct lex_site *sites;
	size_t nsites, sites_alloc;
	struct macro_env local; /* the file's own #defines */
	/*
	 * The last definition of each name that an #undef later removed
	 * (`#define GFP (...)` inside a function, `#undef GFP` after it):
	 * what a site between the two reads, as `local` says at the end.
	 */
	struct macro_env undone;
	/*
	 * Function-like macros of this file whose body calls an allocator
	 * (`#define tmpbuf_alloc(sz) kmalloc(sz, GFP_TEMPORARY)`): learned
	 * allocators, so that their uses are sites too.  macro_line and
	 * macro_site give each one's definition line and body site.
	 */
	struct alloc_table macros;
	unsigned *macro_line;
	size_t *macro_site;
};

/* Compute line/col of every token from its offset (1-based, bytes). */
void lex_fill_lines(struct lexfile *lf);

/*
 * Structure pass, then flag uses and sites.  TRACKED, ALLOCS, TREE_ENV
 * and CONFIG are read-only and may be shared between threads.
 */
void lex_scan(struct lexfile *lf, const struct tracked_flags *tracked,
	      const struct alloc_table *allocs,
	      const struct macro_env *tree_env, const struct kconfig *config);

void lex_free(struct lexfile *lf);
/* Free the tokens, directives and functions; keep uses, sites, macros. */
void lex_drop_tokens(struct lexfile *lf);

/* Source text of tokens [a, b), comments dropped, whitespace normalised. */
char *lex_text(const struct lexfile *lf, unsigned a, unsigned b);

#endif
