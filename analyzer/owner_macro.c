// SPDX-License-Identifier: GPL-2.0
/*
 * Allocations in a #define's body.  The code that uses the macro gets
 * what the body leaves, as the caller of a wrapper function gets what the
 * wrapper returns:
 *   - a body whose value is the call itself,
 *     `((char *)__get_free_pages(GFP_KERNEL, (order)))`, or a statement
 *     expression that ends in the variable the call set,
 *     `({ page = alloc_page_vma(...); if (page) ...; page; })`: returned;
 *   - a body that writes the object into a member or element,
 *     `(heap)->data = kvmalloc(...)`: stored.
 * A body that defines a whole function (`static ssize_t name##_show(...)
 * { ... }`) is read as a function of the file is by the token tier: the
 * object's fate is in that function's code, the same in every expansion
 * but for the names pasted into it.
 */
#include "analyzer/owner_lex.h"
#include "analyzer/tables.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* The brace at B opens a function body (not `({`, `do {`, `if (c) {`). */
static int opens_function(const struct lexfile *lf, long b)
{
	long p = lex_prev(lf, b), o;

	if (!lex_tok_is(lf, p, ")"))
		return 0;
	o = lex_prev(lf, lex_paren_open(lf, p));
	return !(lex_tok_is(lf, o, "if") || lex_tok_is(lf, o, "for") ||
		 lex_tok_is(lf, o, "while") || lex_tok_is(lf, o, "switch"));
}

/*
 * Is the call named at I the whole value of the body [FIRST, END): only
 * opening parentheses and casts before it, only `)` and `;` after it?
 */
static int whole_value(const struct lexfile *lf, long first, long end, long i)
{
	long k = first, c;

	while (k < i) {
		if (!lex_tok_is(lf, k, "("))
			return 0;
		c = lex_paren_close(lf, k, i);
		k = c < i ? c + 1 : k + 1; /* a cast, or a parenthesis around */
	}
	c = lex_paren_close(lf, i + 1, end);
	for (k = c + 1; k < end; k++)
		if (lf->toks[k].kind != TK_COMMENT && !lex_tok_is(lf, k, ")") &&
		    !lex_tok_is(lf, k, ";"))
			return 0;
	return c < end;
}

/* Is token K a call of a `store` function with VAR among its arguments? */
static int stored_by_call(struct walk_ctx *w, const struct lexfile *lf,
			  long k, long end, long var)
{
	const struct tok *t = &lf->toks[k];
	long c, a;

	if (t->kind != TK_IDENT || !lex_tok_is(lf, k + 1, "(") ||
	    names_get(&w->lifetime[LT_STORE], lf->buf + t->off, t->len) < 0)
		return 0;
	c = lex_paren_close(lf, k + 1, end);
	for (a = k + 2; a < c; a++)
		if (lex_same_tok(lf, a, var))
			return 1;
	return 0;
}

/*
 * `({ ...; VAR = alloc(...); ...; VAR; })`: the statement expression's
 * value is VAR, and nothing in between hands VAR to a `store` function.
 */
static int tail_value(struct walk_ctx *w, const struct lexfile *lf,
		      long first, long end, long i, long var)
{
	long e = lex_prev(lf, end), k;

	if (var < 0 || !lex_tok_is(lf, first, "(") ||
	    !lex_tok_is(lf, first + 1, "{") || !lex_tok_is(lf, e, ")"))
		return 0;
	e = lex_prev(lf, e);
	if (!lex_tok_is(lf, e, "}"))
		return 0;
	e = lex_prev(lf, e);
	if (!lex_tok_is(lf, e, ";"))
		return 0;
	e = lex_prev(lf, e);
	if (lf->toks[e].kind != TK_IDENT || !lex_same_tok(lf, e, var))
		return 0;
	for (k = i; k < e; k++)
		if (stored_by_call(w, lf, k, e, var))
			return 0;
	return 1;
}

/*
 * `x->m = alloc()` / `a[i] = alloc()` within the body that starts at
 * FIRST: the left side's text (malloc'd), or NULL.  The text stops at
 * the body's start: a one-statement body has nothing before its place
 * but the #define itself.
 */
static char *member_store(const struct lexfile *lf, long first, long i)
{
	long j = lex_before_cast(lf, lex_prev(lf, i)), k, start = first;
	int member = 0;

	if (j < first || !lex_tok_is(lf, j, "="))
		return NULL;
	for (k = lex_prev(lf, j); k >= first; k = lex_prev(lf, k)) {
		if (lex_tok_is(lf, k, ";") || lex_tok_is(lf, k, "{") ||
		    lex_tok_is(lf, k, "}") || lex_tok_is(lf, k, ",")) {
			start = k + 1;
			break;
		}
		member |= lex_tok_is(lf, k, "->") || lex_tok_is(lf, k, ".") ||
			  lex_tok_is(lf, k, "[");
	}
	return member ? lex_text(lf, (unsigned)start, (unsigned)j) : NULL;
}

/*
 * The site at token I in the function whose body the `{` at B opens, in
 * a #define's body ending at END: the function as the token tier reads
 * one of the file's, its name the token before the parameter list.
 */
static void in_defined_function(struct walk_ctx *w, const struct lexfile *lf,
				long b, long end, long i, struct owner *r)
{
	struct lex_func fn = {NULL, 0, (unsigned)b, 0};
	/* the `}` that closes the body (a loop's or any braced one's) */
	long c = lex_loop_close(lf, b, end);
	long o = lex_paren_open(lf, lex_prev(lf, b));

	if (c >= end || c < i || o <= 0)
		return;
	fn.name_tok = (unsigned)lex_prev(lf, o);
	fn.body_close = (unsigned)c;
	lex_in_function(w, lf, &fn, i, r);
}

void owner_macro(struct walk_ctx *w, const struct lexfile *lf, long i,
		 struct owner *r)
{
	const struct directive *d = &lf->dirs[lf->toks[i].dir];
	long first = d->body, end = d->end, k, var;
	char *name, *place;

	if (d->name < 0 || first <= d->name || (long)first > i)
		return;
	for (k = first; k < i; k++)
		if (lex_tok_is(lf, k, "{") && opens_function(lf, k)) {
			in_defined_function(w, lf, k, end, i, r);
			return;
		}
	name = lex_text(lf, (unsigned)d->name, (unsigned)d->name + 1);
	lex_consumer(lf, i, &var);
	if (whole_value(lf, first, end, i) ||
	    tail_value(w, lf, first, end, i, var)) {
		r->lifetime = "returned";
		r->evidence = xasprintf("the value of macro %s (line %u)",
					name, lf->toks[d->name].line);
		r->line = lf->toks[d->name].line;
		r->held_across_sleep = 0;
	} else if ((place = member_store(lf, first, i))) {
		r->lifetime = "stored";
		r->target = place;
		r->evidence = xasprintf("stored in %s in macro %s at line %u",
					r->target, name, lf->toks[i].line);
		r->line = lf->toks[i].line;
		r->held_across_sleep = 0;
	}
	free(name);
}
