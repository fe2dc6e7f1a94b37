/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_OWNER_INT_H
#define GFPAUDIT_OWNER_INT_H

/*
 * Internals shared by owner.c (the AST walk), owner_calls.c (what a
 * call does to the object, from the AST or from the tokens of a
 * statement the parse dropped) and the token tier (owner_lex.c,
 * owner_place.c, lexpath.c).
 */

#include "analyzer/owner.h"
#include "lib/util.h"

struct lex_func;

enum {
	OW_NONE = 1, /* not allocated yet on this path */
	OW_LIVE = 2, /* allocated, owned here */
	OW_DONE = 4, /* freed, stored or handed on */
	OW_NULL = 8, /* the allocation failed */
	OW_ESC = 16, /* passed to a function that may keep it */
	/*
	 * with OW_DONE: done by a store, so the pointer still names the
	 * object, and returning it hands the structure to the caller too
	 */
	OW_KEPT = 32,
	/*
	 * with OW_LIVE: past a test of the allocation's failure, on the
	 * branch where it did not fail
	 */
	OW_TESTED = 64,
};
#define OW_HELD (OW_LIVE | OW_ESC)

#define MAX_VARS 8
#define MAX_DEPTH 256
#define MAX_HELD 32
#define MAX_GUARDS 4

/* A call made while the object is held, not known here to sleep. */
struct held_call {
	char *name;
	unsigned line;
	/* a hand-over of an address inside the object (`&p->dev`) only */
	int inside;
};

struct fact {
	int seen;
	unsigned line;
	char *what;
};

struct own {
	struct walk_ctx *w;
	CXCursor call;
	CXCursor fn;		 /* the function the walk runs over */
	int active;		 /* the site is in an active #if branch */
	int ids;		 /* the allocation is an ID (ida_alloc) */
	int managed;		 /* ids or devm_*(): nothing leaks */
	/*
	 * a store of `x->m = p->n` that the parse kept as `x->m = p` (see
	 * member_value()) was seen; read_values: such a store is a value
	 */
	int member_read, read_values;
	CXCursor vars[MAX_VARS]; /* the variable and its aliases */
	int nvars;
	struct fact freed, stored, returned, leaked, escaped, slept;
	/*
	 * an error return that every path reaches with it live and tested:
	 * leaked there even when the success path stores it
	 */
	struct fact leaked_only;
	/* a sleep after a store (OW_KEPT), before a return of the object */
	struct fact slept_kept;
	/*
	 * freed by its own name after a store (`exts->actions = actions;
	 * ... kfree(actions);`), and whether any path still reached a
	 * return with it kept
	 */
	struct fact freed_kept;
	int kept_at_ret;
	/*
	 * a store function kept it (list_add(), usb_anchor_urb()): a
	 * reference of its own, which a later put does not end
	 */
	int kept_by_call;
	/*
	 * A store put it in what a parameter reaches (`s->private = it`,
	 * `dev_set_drvdata(&gdev->dev, card)`): the caller finds it there,
	 * so returning it as well hands over no ownership.
	 */
	int kept_in_param;
	int escaped_out; /* an escaped path reached a return */
	struct held_call held[MAX_HELD];
	int nheld;
	char *target;
	/*
	 * The structure a store call put it in, when it names one
	 * (`list_add(&d->list, &stream->head)`: "stream->head").
	 */
	char *holder;
	/*
	 * The conditions of the `if`s the allocation is made in (their
	 * text without blanks): a later test of the same condition is
	 * true exactly where it was made (`if (cmd & IOC_IN) kfree(p);`).
	 */
	char *guard[MAX_GUARDS];
	int nguards;
	/*
	 * The calls the object was handed to whole (held_call.line: the
	 * argument's index), for the summaries step; esc_bad: it escaped
	 * some other way (overwritten).  esc_mode: how a hand-over counts
	 * (ESC_KEEP, or as the callee borrowing it, freeing it, or, for
	 * ESC_ONE, freeing it when the callee is esc_one, else borrowing).
	 */
	struct held_call esc[MAX_HELD];
	int nesc, esc_bad, esc_mode;
	const char *esc_one;
};

enum { ESC_KEEP, ESC_BORROW, ESC_FREE, ESC_ONE };
/* Hand-overs whose "only this one frees it" answer is kept, at most. */
#define MAX_ESC_ONE 8

/* Which arguments of a call refer to the object (from the AST or tokens). */
struct call_args {
	int freed; /* the free function's pointer argument is the object */
	int best;  /* strongest arg_mentions() over the arguments */
	int arg;   /* the first argument that is the object itself */
	unsigned mask; /* bit I: argument I mentions the object */
};

void note(struct fact *f, unsigned line, char *what);
/* site.held_calls for the calls noted while held (NULL: none). */
char *held_calls_json(struct own *o, int base);
char *held_json(const struct held_call *h, int n, int base);
/* Add NAME at LINE to H (N of them, at most MAX_HELD) unless there. */
void held_add(struct walk_ctx *w, struct held_call *h, int *n,
	      const char *name, size_t len, unsigned line);
void esc_add(struct walk_ctx *w, struct held_call *h, int *n,
	     const char *name, size_t len, unsigned arg, int inside);
void held_free(struct own *o);
/* Free what a walk's state holds (held_free() and the facts). */
void own_release(struct own *o);
/* `.fn` for the call C through a member (`ops->fn(...)`), else NULL. */
char *call_member_name(struct own *o, CXCursor c);
/* The name of the call at token I: `.fn` for `x->fn(`, else its text. */
char *tok_call_name(const struct lexfile *lf, long i);
/* held_add() for the call whose name is token I (`.fn` for `x->fn(`). */
void held_tok(struct walk_ctx *w, struct held_call *h, int *n, long i);
/*
 * HELD_CALLS (taken) and the hand-overs, as an unclosed JSON object, for
 * esc_answer() to add the walk's answers to: ,"KEY":["lifetime",ev,line].
 */
void esc_json(struct strbuf *sb, char *held_calls,
	      const struct held_call *esc, int nesc);
void esc_answer(struct strbuf *sb, const char *key, const char *lifetime,
		const char *evidence, unsigned line);
unsigned to_done(unsigned st);
/* to_done() by a store: the object is kept, not gone (OW_KEPT). */
unsigned to_kept(unsigned st);
/*
 * A free or an allocator of the tables, whose kind decides what it does
 * with what it is passed; a wrapper learned from the tree is a function
 * like any other, whose summary says.
 */
int own_table_fn(struct walk_ctx *w, const char *name, size_t len);
/* Does the place TEXT (`&d->list`, `*out`, `s->priv`) start at a parameter? */
int own_param_rooted(const struct own *o, const char *text);
char *gfp_text_of(struct own *o, const char *callee, CXCursor call);
unsigned apply_call(struct own *o, const char *name, unsigned line,
		    const struct call_args *a, const char *gfp, unsigned st);
/* owner.c: C's text without blanks; the followed name spelled at Q. */
char *own_squeezed(struct own *o, CXCursor c);
size_t own_var_at(struct own *o, const char *q);
/* owner.c: follow V (an alias of the object) too */
void own_add_var(struct own *o, CXCursor v);
/*
 * owner.c: the local array or structure LHS (`t.buf`, `pages[i]`) is a
 * member or element of, else a null cursor; and is LHS a place that
 * outlives the function?  WRITTEN: LHS as written.
 */
CXCursor own_local_aggregate(const struct walk_ctx *w, CXCursor lhs,
			     CXCursor written);
int own_lasting_lvalue(const struct walk_ctx *w, CXCursor lhs,
		       CXCursor written);
/* owner.c: the flow domain's callbacks (flow.h struct flow_domain) */
int own_skip_domain(void *ctx, CXCursor c);
unsigned own_ev_domain(void *ctx, CXCursor c, unsigned st);
void own_br_domain(void *ctx, CXCursor c, unsigned st, unsigned *t,
		   unsigned *f);
void own_ret_domain(void *ctx, CXCursor stmt, unsigned st);
/* owner.c: is C `0` or `NULL`? */
int own_null_const(CXCursor c);
/* owner.c: the object's states after evaluating the expression C */
unsigned own_ev(struct own *o, CXCursor c, unsigned st);

/*
 * owner_guard.c: the conditions of the `if`s on PATH (N cursors, from
 * the function FN down to the allocation) whose then-branch holds it,
 * unless a variable they read is written after it; copied for another
 * walk of the same allocation; and a branch on C that tests one of
 * them (1, with *T and *F set) or not (0).
 */
void guards_of(struct own *o, const CXCursor *path, int n, CXCursor fn);
void guards_copy(struct own *o, const struct own *from);
int same_guard(struct own *o, CXCursor c, unsigned st, unsigned *t,
	       unsigned *f);

/*
 * lexpath.c: is the call at token TO a statement reached whenever token
 * FROM is (not under a condition, no return or goto past it)?
 */
int lex_unconditional_after(const struct lexfile *lf, long from, long to);
/*
 * The same, where the object was made at token ALLOC: the end of a loop
 * opened after it is no condition (each turn goes on past the loop).
 */
int lex_reached_after(const struct lexfile *lf, long alloc, long from,
		      long to);
/* owner_lex.c: "name() at line N" for the call at token I */
char *lex_call_at(const struct lexfile *lf, long i);
/* owner_lex.c: is the variable at token VAR one of FN's own? */
int lex_local_var(const struct lexfile *lf, const struct lex_func *fn,
		  long var);
/* owner_lex.c: the first token of argument ARG of CALL, *END after it */
long lex_arg_span(const struct lexfile *lf, long call, int arg, long *end);
/* owner_lex.c: local VAR, assigned the call at token I, followed */
void lex_follow(struct walk_ctx *w, const struct lexfile *lf,
		const struct lex_func *fn, long i, long var, struct owner *r);
/*
 * owner_place.c: R stored in a place at token I of FN (R's target):
 * scoped when FN frees that place on every path after it.
 */
void lex_follow_place(struct walk_ctx *w, const struct lexfile *lf,
		      const struct lex_func *fn, long i, struct owner *r);

/* flow_domain.gap: calls of statements the parse dropped */
unsigned gap_domain(void *ctx, unsigned start, unsigned end, unsigned st);

#endif
