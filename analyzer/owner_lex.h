/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_OWNER_LEX_H
#define GFPAUDIT_OWNER_LEX_H

/*
 * Ownership from the tokens alone, for sites the AST does not have (an
 * inactive #if branch, a call the single-file parse dropped because it
 * could not type an argument) and for the wrapper learner, which must
 * decide the same way at every depth.  No paths: a free anywhere after
 * the allocation in the function counts (the site's confidence says
 * `lexical`).  owner_lex.c follows variables, owner_place.c places
 * (lex_store_freed, lex_out_param), lexpath.c decides what is reached.
 */

#include "analyzer/lexscan.h"
#include "analyzer/owner.h"

/* 1 when token I of LF exists and is spelled S. */
int lex_tok_is(const struct lexfile *lf, long i, const char *s);
/* The same for the N bytes at S (a name inside a longer text). */
int lex_tok_eq(const struct lexfile *lf, long i, const char *s, size_t n);

/* The `(` that the `)` at token J closes, or -1; the same for `{`. */
long lex_paren_open(const struct lexfile *lf, long j);
long lex_brace_open(const struct lexfile *lf, long j);
/* The `(` of `if (...)` when the `)` at token J closes one, else -1. */
long lex_if_open(const struct lexfile *lf, long j);
/*
 * Where the body of the innermost loop that holds token K opens (its `{`,
 * or the header's `)` for a one-statement body), -1 outside loops; START
 * is the function's `{`.  lex_loop_close(): where that body ends.
 */
long lex_loop_of(const struct lexfile *lf, long k, long start);
long lex_loop_close(const struct lexfile *lf, long o, long end);
/* The `)` that closes the `(` at token I, looked for before END, or END. */
long lex_paren_close(const struct lexfile *lf, long i, long end);
/*
 * `*out = &p[0];`, `per_cpu(ptr, cpu) = &stack[SIZE];` with P at token
 * K: an element's address stored (not in a local: `sgs[i] = &sg[i]`,
 * a scratch array of the function, or `params.rss = &rss[i]`).
 */
int lex_element_store(const struct lexfile *lf, long k);
/* The token after the statement that starts at K (before END). */
long lex_stmt_end(const struct lexfile *lf, long k, long end);
/*
 * Is the `else` at K the other branch of an `if` whose then-branch holds
 * token I?  The token after that branch, else -1.
 */
long lex_else_skip(const struct lexfile *lf, long k, long i, long end);

/* The token at LINE:COL (a site's allocator name), or -1. */
long lex_tok_at(const struct lexfile *lf, unsigned line, unsigned col);

/*
 * Token reading (lextok.c).  The token before and after I, comments
 * skipped; before a cast `(T *)` ending at J; whether tokens A and B are
 * spelled alike; the first token of the left side of the `=` at J; past
 * what opens a statement before its expression (`if (...)`, `else`, a
 * loop macro's `(...)`, a label) from START up to J.
 */
long lex_prev(const struct lexfile *lf, long i);
long lex_next(const struct lexfile *lf, long i);
long lex_before_cast(const struct lexfile *lf, long j);
int lex_same_tok(const struct lexfile *lf, long a, long b);
long lex_stmt_start(const struct lexfile *lf, long j);
long lex_past_control(const struct lexfile *lf, long start, long j);

/*
 * How the call whose name is token I is consumed: LEX_RETURN (`return
 * call(...)`, casts skipped), LEX_STORE (`x->f = call(...)`, `*out =`,
 * `a[i] =`), LEX_VAR (`v = call(...)`, `T *v = call(...)`: *VAR gets the
 * token of v) or LEX_OTHER.
 */
enum lex_use { LEX_OTHER, LEX_RETURN, LEX_STORE, LEX_VAR };
enum lex_use lex_consumer(const struct lexfile *lf, long i, long *var);

/* Token index of `return VAR ;` in FN's body after token FROM, or -1. */
long lex_returns_var(const struct lexfile *lf, const struct lex_func *fn,
		     long from, long var);

/*
 * The text of argument ARG of the call whose name is token CALL, its
 * tokens joined by blanks (malloc'd), or NULL.
 */
char *lex_arg_text(const struct lexfile *lf, long call, int arg);
/*
 * Is the left side of the `=` before token I a member or element of a
 * local array or structure (`t.rx_buf = buf`, `pages[n] = page`)?  That
 * is no store: the object is still held here.
 */
int lex_local_aggregate(const struct lexfile *lf, long i);

/*
 * Whether the call whose name is token K may sleep (a sleeper, or an
 * allocator whose flags, read from the tokens, allow direct reclaim).
 */
int lex_call_may_sleep(struct walk_ctx *w, long k);

/*
 * The left side of `LHS = X` (X at token I), blanks dropped (malloc'd);
 * of `LHS = p = X`, the first.
 */
char *lex_lhs_text(const struct lexfile *lf, long i);
/*
 * `x->priv = p = kzalloc(...)` with the call at token I: the token of p,
 * the variable the statement also assigns it to, else -1.
 */
long lex_chain_var(const struct lexfile *lf, long i);
/*
 * A site stored at once in a place (`d->buf = alloc()`) that the
 * function frees on every path after it: scoped, with the free as R's
 * evidence; else R as it is.
 */
void lex_store_freed(struct walk_ctx *w, const struct site *s,
		     struct owner *r);
/*
 * VAR at token K as the whole argument of `convert` calls of
 * data/lifetime.txt, nested (`kasan_reset_tag(page_address(page))`): the
 * outermost call's name token, and in *END the token after its `)`;
 * else -1.
 */
long lex_converted(struct walk_ctx *w, const struct lexfile *lf, long k,
		   long *end);
/*
 * A site whose allocator hands its object back through its ARG-th
 * argument (`alloc_cpumask_var(&mask, gfp)`): R from following the
 * local variable named there to its free, store or return.
 */
void lex_out_param(struct walk_ctx *w, const struct site *s, int arg,
		   struct owner *r);

/*
 * The structure an argument names (`&stream->head`: "stream->head"), or
 * NULL when it names none through a variable; malloc'd.
 */
char *holder_text(const char *arg);
/*
 * R is `stored` in TARGET (`mr->mem.buf`, `evt->buf`): when the
 * function returns the holder (`return evt;`, `return &mr->ibmr;`), the
 * buffer goes back to the caller with it: `returned`.
 */
void holder_returned(struct walk_ctx *w, const struct site *s,
		     const char *target, struct owner *r);

/*
 * A site in a #define's body (token I): what the macro's user gets
 * (owner_macro.c).
 */
void owner_macro(struct walk_ctx *w, const struct lexfile *lf, long i,
		 struct owner *r);
/* Fill R for the site S (call name at LINE:COL) from W's tokens. */
void owner_lexical(struct walk_ctx *w, const struct site *s, struct owner *r);
/*
 * The same for the site whose call is named at token I, in the body of
 * FN (a function of the file, or one a #define's body defines).
 */
void lex_in_function(struct walk_ctx *w, const struct lexfile *lf,
		     const struct lex_func *fn, long i, struct owner *r);

#endif
