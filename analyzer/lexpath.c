// SPDX-License-Identifier: GPL-2.0
/*
 * Token-level paths (owner_int.h): is a later statement reached
 * whenever the allocation's is, across labels, gotos, tests of the
 * object's own presence and the branches of an `if`?
 */
#include "analyzer/owner_lex.h"
#include "analyzer/owner_int.h"
#include "analyzer/lexscan.h"

#include <limits.h>
#include <string.h>

/*
 * The token before K as a statement sees it: comments and the lines of
 * a directive (`#ifdef CONFIG_X`, `#endif`) between are no statement.
 */
static long prev_code(const struct lexfile *lf, long k)
{
	long p = lex_prev(lf, k);

	while (p > 0 && lf->toks[p].dir >= 0)
		p = lex_prev(lf, p);
	return p;
}

/*
 * Does the code before the `label:` whose ':' is token P not fall
 * through to it: `return 0; out:` (only a goto gets there)?  Also when
 * no statement ends right before it.
 */
static int jumps_before(const struct lexfile *lf, long p)
{
	long end = prev_code(lf, lex_prev(lf, p)), st;

	if (lex_tok_is(lf, end, "}"))
		return 0;
	if (!lex_tok_is(lf, end, ";"))
		return 1;
	st = lex_stmt_start(lf, end);
	return st < 0 || is_jump_keyword(lf->buf + lf->toks[st].off,
					 lf->toks[st].len);
}

/*
 * Is token K in the body that token G is in: the same function of the
 * file, or, for a function a #define defines (owner_macro.c), the same
 * directive?
 */
static int same_body(const struct lexfile *lf, long k, long g)
{
	const struct tok *a = &lf->toks[k], *b = &lf->toks[g];

	return b->fn >= 0 ? a->fn == b->fn : b->dir >= 0 && a->dir == b->dir;
}

/* The first token of the body token G is in, or -1. */
static long body_start(const struct lexfile *lf, long g)
{
	const struct tok *t = &lf->toks[g];

	if (t->fn >= 0)
		return (long)lf->funcs[t->fn].body_open + 1;
	return t->dir >= 0 ? (long)lf->dirs[t->dir].first : -1;
}

/* The label `NAME:` that the goto at G jumps to, in G's function, or -1. */
static long label_of(const struct lexfile *lf, long g)
{
	long l = body_start(lf, g);

	for (; l >= 0 && l + 1 < (long)lf->ntoks && same_body(lf, l, g); l++)
		if (lex_same_tok(lf, l, g + 1) && lex_tok_is(lf, l + 1, ":") &&
		    !lex_tok_is(lf, lex_prev(lf, l), "goto"))
			return l;
	return -1;
}

/* Are the calls at tokens A and B the same text (`kfree(init.name)`)? */
static int same_call(const struct lexfile *lf, long a, long b)
{
	long ea = lex_paren_close(lf, a + 1, (long)lf->ntoks), k;

	if (ea >= (long)lf->ntoks || !lex_same_tok(lf, a, b))
		return 0;
	for (k = 1; a + k <= ea; k++)
		if (b + k >= (long)lf->ntoks || !lex_same_tok(lf, a + k, b + k))
			return 0;
	return 1;
}

/*
 * From label L on, does the code do the call at TO again, or jump back
 * to a label at or before TO, before a `return` (`err: kfree(name);`,
 * `delete: undo(); goto free;`)?
 */
static int label_rejoins(const struct lexfile *lf, long l, long to)
{
	long k, t;

	for (k = l + 2; k < (long)lf->ntoks && same_body(lf, k, l); k++) {
		if (lex_tok_is(lf, k, "return"))
			return 0;
		if (same_call(lf, to, k))
			return 1;
		if (lex_tok_is(lf, k, "goto") &&
		    lf->toks[k + 1].kind == TK_IDENT &&
		    (t = label_of(lf, k)) >= 0 && t <= to)
			return 1;
	}
	return 0;
}

/*
 * The end of the failed allocation's check right after the statement of
 * token FROM (`if (!p) { ret = -ENOMEM; goto out; }`, `if (IS_ERR(p))
 * goto out;`): its last token, or FROM when there is none.  Its jumps
 * leave with nothing to free.
 */
static long null_check_end(const struct lexfile *lf, long from)
{
	long k = from, c, e, t, x;
	int depth = 0;

	for (; k < (long)lf->ntoks; k++) {
		if (lex_tok_is(lf, k, "("))
			depth++;
		else if (lex_tok_is(lf, k, ")") && --depth < 0)
			return from; /* `if (!(p = alloc()))`: the test itself */
		else if (!depth && lex_tok_is(lf, k, ";"))
			break;
	}
	t = lex_next(lf, k);
	if (!lex_tok_is(lf, t, "if") || !lex_tok_is(lf, lex_next(lf, t), "("))
		return from;
	c = lex_paren_close(lf, lex_next(lf, t), (long)lf->ntoks);
	x = lex_next(lf, lex_next(lf, t)); /* the condition's first token */
	if (!lex_tok_is(lf, x, "!") && !lex_tok_is(lf, x, "IS_ERR") &&
	    !lex_tok_is(lf, x, "IS_ERR_OR_NULL") &&
	    !(lex_tok_is(lf, x, "unlikely") &&
	      lex_tok_is(lf, lex_next(lf, lex_next(lf, x)), "!")) &&
	    !lex_tok_is(lf, lex_prev(lf, c), "NULL"))
		return from;
	if (!lex_tok_is(lf, lex_next(lf, c), "{")) {
		for (e = c + 1; e < (long)lf->ntoks && !lex_tok_is(lf, e, ";");)
			e++;
		return e;
	}
	for (e = c + 1, depth = 0; e < (long)lf->ntoks; e++)
		if (lex_tok_is(lf, e, "{"))
			depth++;
		else if (lex_tok_is(lf, e, "}") && !--depth)
			return e;
	return from;
}

/*
 * Does a `goto` between tokens FROM and TO, the failed allocation's
 * aside, jump to a label after TO whose code does not come back to what
 * TO does: a path that skips it?
 */
static int goto_past(const struct lexfile *lf, long from, long to)
{
	long g, l;

	for (g = null_check_end(lf, from) + 1; g + 1 < to; g++) {
		if (!lex_tok_is(lf, g, "goto") ||
		    lf->toks[g + 1].kind != TK_IDENT)
			continue;
		l = label_of(lf, g);
		if (l > to && !label_rejoins(lf, l, to))
			return 1;
	}
	return 0;
}

/* Is token K a name among the tokens (A, B)? */
static int name_among(const struct lexfile *lf, long k, long a, long b)
{
	for (a++; a < b; a++)
		if (lf->toks[a].kind == TK_IDENT && lex_same_tok(lf, a, k))
			return 1;
	return 0;
}

/*
 * P ends `if (p)`, `if (p != NULL)`, `if (!IS_ERR(p))` or `if (s->p)`
 * guarding the free call at token CALL of that same object (a test only
 * the object's own absence fails): the token before the `if`, else P.
 * `out: if (wksp != NULL) large_free(wksp);` frees on every path.
 */
static long past_null_guard(const struct lexfile *lf, long p, long call)
{
	long o, k, close;
	int names = 0;

	if ((o = lex_if_open(lf, p)) < 0 || !lex_tok_is(lf, call + 1, "(") ||
	    (close = lex_paren_close(lf, call + 1, (long)lf->ntoks)) >=
		    (long)lf->ntoks)
		return p;
	for (k = o + 1; k < p; k++) {
		const struct tok *t = &lf->toks[k];

		if (t->kind == TK_COMMENT)
			continue;
		if (t->kind == TK_IDENT) {
			if (!lex_tok_is(lf, k, "NULL") &&
			    !lex_tok_is(lf, k, "IS_ERR") &&
			    !lex_tok_is(lf, k, "IS_ERR_OR_NULL") &&
			    !name_among(lf, k, call + 1, close))
				return p;
			names++;
			continue;
		}
		/* `if (res.scratch)`, `if (s->buf)`: a member place too */
		if (!lex_tok_is(lf, k, "!=") && !lex_tok_is(lf, k, "!") &&
		    !lex_tok_is(lf, k, "(") && !lex_tok_is(lf, k, ")") &&
		    !lex_tok_is(lf, k, ".") && !lex_tok_is(lf, k, "->"))
			return p;
	}
	return names ? prev_code(lf, lex_prev(lf, o)) : p;
}

/*
 * The `(` of the innermost `if (...)` whose block `{ ... }` encloses
 * token K, or -1.
 */
static long enclosing_if(const struct lexfile *lf, long k)
{
	long o = k, p, c;

	for (;;) {
		int depth = 0;

		for (o = lex_prev(lf, o); o > 0; o = lex_prev(lf, o)) {
			if (lex_tok_is(lf, o, "}"))
				depth++;
			else if (lex_tok_is(lf, o, "{") && !depth--)
				break;
		}
		if (o <= 0 || lf->toks[o].fn < 0)
			return -1;
		p = lex_prev(lf, o);
		if ((c = lex_if_open(lf, p)) > 0)
			return c;
		/* out through an else's block; a loop's, a bare one stop */
		if (!lex_tok_is(lf, p, "else"))
			return -1;
	}
}

/*
 * Are the conditions opened at `(` A and B the same plain test (names,
 * `!`, `.`, `->`: no call, no assignment), as in `if (allocate) { ...
 * p = alloc(); }` and later `if (allocate) kfree(p);`?
 */
static int same_plain_test(const struct lexfile *lf, long a, long b)
{
	long ea = lex_paren_close(lf, a, (long)lf->ntoks);
	long eb = lex_paren_close(lf, b, (long)lf->ntoks), k;

	if (ea >= (long)lf->ntoks || ea - a != eb - b)
		return 0;
	for (k = 1; a + k < ea; k++) {
		const struct tok *t = &lf->toks[a + k];

		if (!lex_same_tok(lf, a + k, b + k) ||
		    (t->kind != TK_IDENT && !lex_tok_is(lf, a + k, "!") &&
		     !lex_tok_is(lf, a + k, ".") &&
		     !lex_tok_is(lf, a + k, "->")))
			return 0;
	}
	return k > 1;
}

/* Does the block opened by the `{` at O still run at token TO? */
static int block_encloses(const struct lexfile *lf, long o, long to)
{
	int depth = 0;

	for (; o < to; o++)
		if (lex_tok_is(lf, o, "{"))
			depth++;
		else if (lex_tok_is(lf, o, "}") && !--depth)
			return 0;
	return depth > 0;
}

/*
 * Is the `)` at P the end of a test that never fails where the
 * allocation at token FROM was made and the call at CALL frees its
 * object: the object's own presence (past_null_guard()), or the very
 * test the allocation is made under?
 */
static int always_taken(const struct lexfile *lf, long p, long from,
			long call)
{
	long o, e;

	if (past_null_guard(lf, p, call) != p)
		return 1;
	if ((o = lex_if_open(lf, p)) < 0)
		return 0;
	for (e = enclosing_if(lf, from); e > 0; e = enclosing_if(lf, e))
		if (same_plain_test(lf, e, o))
			return 1;
	return 0;
}

/*
 * Is the `}` at K the end of a branch of an `if` (`if (c) { ... }`,
 * `else { ... }`)?  What follows it runs whenever the branch ends without
 * a jump, unlike the end of a loop's body (each turn's object).
 */
static int if_block_end(const struct lexfile *lf, long k)
{
	long o = lex_brace_open(lf, k), b;

	if (o <= 0)
		return 0;
	b = lex_prev(lf, o);
	if (lex_tok_is(lf, b, "else"))
		return 1;
	return lex_if_open(lf, b) >= 0;
}

/*
 * Is the `}` at K the end of a loop's body opened after token ALLOC: a
 * loop the object was made before, which every turn leaves for what
 * follows (`for (...) { send(buf); } kfree(buf);`)?
 */
static int outer_loop_end(const struct lexfile *lf, long k, long alloc)
{
	long o = lex_brace_open(lf, k), b, po;

	if (o <= alloc)
		return 0;
	b = lex_prev(lf, o);
	if (lex_tok_is(lf, b, "do"))
		return 1;
	if (!lex_tok_is(lf, b, ")") || (po = lex_paren_open(lf, b)) <= 0)
		return 0;
	po = lex_prev(lf, po);
	return lex_tok_is(lf, po, "for") || lex_tok_is(lf, po, "while");
}

/*
 * Is the call at token TO a statement of its own in the block of the
 * token FROM, reached whenever FROM is (`use(buf); kfree(buf);`), rather
 * than under a condition (`if (send(skb)) kfree_skb(skb);`)?  A label
 * right before it (`out: kfree(buf);`) is no condition: the code before
 * falls through to it, and a `goto` in between jumps there too; nor is a
 * test of the object's own presence (past_null_guard()).
 */
int lex_unconditional_after(const struct lexfile *lf, long from, long to)
{
	return lex_reached_after(lf, LONG_MAX, from, to);
}

/* The same, where the object was made at ALLOC (owner_int.h). */
int lex_reached_after(const struct lexfile *lf, long alloc, long from,
		      long to)
{
	long k, p = prev_code(lf, to);
	int depth = 0;

	for (k = from; k < to; k++) {
		/*
		 * `if (sctx) { ...; kvfree(sctx->buf); }`: a block the
		 * path always enters is no condition
		 */
		if (lex_tok_is(lf, k, "{") &&
		    !(lex_tok_is(lf, prev_code(lf, k), ")") &&
		      always_taken(lf, prev_code(lf, k), from, to) &&
		      block_encloses(lf, k, to)))
			depth++;
		else if (lex_tok_is(lf, k, "}") && --depth < 0 &&
			 !if_block_end(lf, k) && !outer_loop_end(lf, k, alloc))
			return 0;
		else if (depth < 0)
			depth = 0; /* on after the `if` the call was made in */
		else if (!depth && lex_tok_is(lf, k, "return") &&
			 (lex_tok_is(lf, prev_code(lf, k), ";") ||
			  lex_tok_is(lf, prev_code(lf, k), "{") ||
			  lex_tok_is(lf, prev_code(lf, k), "}") ||
			  lex_tok_is(lf, prev_code(lf, k), ":")))
			return 0; /* `return 0; err: kfree(p);`: a goto's */
	}
	if (depth || goto_past(lf, from, to))
		return 0;
	if (always_taken(lf, p, from, to))
		p = prev_code(lf, lex_prev(lf, lex_paren_open(lf, p)));
	while (p > 1 && lex_tok_is(lf, p, ":") &&
	       lf->toks[lex_prev(lf, p)].kind == TK_IDENT && !jumps_before(lf, p))
		p = prev_code(lf, lex_prev(lf, p)); /* `label:` */
	return lex_tok_is(lf, p, ";") || lex_tok_is(lf, p, "}");
}
