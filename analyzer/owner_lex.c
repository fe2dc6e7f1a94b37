// SPDX-License-Identifier: GPL-2.0
/*
 * Token-level ownership (owner_lex.h).
 */
#include "analyzer/owner_lex.h"
#include "analyzer/owner_int.h"
#include "analyzer/owner_wrapfree.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * Does the code before the `label:` whose ':' is token P not fall
 * through to it: `return 0; out:` (only a goto gets there)?  Also when
 * no statement ends right before it.
 */
static int jumps_before(const struct lexfile *lf, long p)
{
	long end = lex_prev(lf, lex_prev(lf, p)), st;

	if (lex_tok_is(lf, end, "}"))
		return 0;
	if (!lex_tok_is(lf, end, ";"))
		return 1;
	st = lex_stmt_start(lf, end);
	return st < 0 || is_jump_keyword(lf->buf + lf->toks[st].off,
					 lf->toks[st].len);
}

/* The label `NAME:` that the goto at G jumps to, in G's function, or -1. */
static long label_of(const struct lexfile *lf, long g)
{
	long l;

	for (l = (long)lf->funcs[lf->toks[g].fn].body_open + 1;
	     l + 1 < (long)lf->ntoks && lf->toks[l].fn == lf->toks[g].fn; l++)
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

	for (k = l + 2; k < (long)lf->ntoks && lf->toks[k].fn == lf->toks[l].fn;
	     k++) {
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

	if (!lex_tok_is(lf, p, ")") || (o = lex_paren_open(lf, p)) < 1 ||
	    !lex_tok_is(lf, lex_prev(lf, o), "if") ||
	    !lex_tok_is(lf, call + 1, "(") ||
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
	return names ? lex_prev(lf, lex_prev(lf, o)) : p;
}

/*
 * Is the `}` at K the end of a branch of an `if` (`if (c) { ... }`,
 * `else { ... }`)?  What follows it runs whenever the branch ends without
 * a jump, unlike the end of a loop's body (each turn's object).
 */
static int if_block_end(const struct lexfile *lf, long k)
{
	long o, b;
	int depth = 0;

	for (o = k; o >= 0; o--)
		if (lex_tok_is(lf, o, "}"))
			depth++;
		else if (lex_tok_is(lf, o, "{") && !--depth)
			break;
	if (o <= 0)
		return 0;
	b = lex_prev(lf, o);
	if (lex_tok_is(lf, b, "else"))
		return 1;
	return lex_tok_is(lf, b, ")") && (b = lex_paren_open(lf, b)) > 0 &&
	       lex_tok_is(lf, lex_prev(lf, b), "if");
}

/*
 * Is the call at token TO a statement of its own in the block of the
 * token FROM, reached whenever FROM is (`use(buf); kfree(buf);`), rather
 * than under a condition (`if (send(skb)) kfree_skb(skb);`)?  A label
 * right before it (`out: kfree(buf);`) is no condition: the code before
 * falls through to it, and a `goto` in between jumps there too; nor is a
 * test of the object's own presence (past_null_guard()).
 */
static int unconditional_after(const struct lexfile *lf, long from, long to)
{
	long k, p = lex_prev(lf, to);
	int depth = 0;

	/* `#ifdef CONFIG_X` right before it is no statement */
	while (p > 0 && lf->toks[p].dir >= 0)
		p = lex_prev(lf, p);

	for (k = from; k < to; k++) {
		if (lex_tok_is(lf, k, "{"))
			depth++;
		else if (lex_tok_is(lf, k, "}") && --depth < 0 &&
			 !if_block_end(lf, k))
			return 0;
		else if (depth < 0)
			depth = 0; /* on after the `if` the call was made in */
		else if (!depth && lex_tok_is(lf, k, "return") &&
			 (lex_tok_is(lf, lex_prev(lf, k), ";") ||
			  lex_tok_is(lf, lex_prev(lf, k), "{") ||
			  lex_tok_is(lf, lex_prev(lf, k), "}") ||
			  lex_tok_is(lf, lex_prev(lf, k), ":")))
			return 0; /* `return 0; err: kfree(p);`: a goto's */
	}
	if (depth || goto_past(lf, from, to))
		return 0;
	p = past_null_guard(lf, p, to);
	while (p > 1 && lex_tok_is(lf, p, ":") &&
	       lf->toks[lex_prev(lf, p)].kind == TK_IDENT && !jumps_before(lf, p))
		p = lex_prev(lf, lex_prev(lf, p)); /* `label:` */
	return lex_tok_is(lf, p, ";") || lex_tok_is(lf, p, "}");
}

/*
 * Does the call at token I pass VAR as its ARG-th argument (casts ok),
 * or with MEMBER, `&VAR->...`?
 */
static int passes_as(const struct lexfile *lf, long i, int arg, long var,
		     int member)
{
	long j;
	int depth = 0, n = 0;

	for (j = i + 2; (size_t)j < lf->ntoks; j++) {
		if (lex_tok_is(lf, j, "("))
			depth++;
		else if (lex_tok_is(lf, j, ")") && !depth--)
			return 0;
		else if (!depth && lex_tok_is(lf, j, ","))
			n++;
		else if (n == arg && !member && lex_same_tok(lf, j, var) &&
			 (lex_tok_is(lf, j + 1, ",") ||
			  lex_tok_is(lf, j + 1, ")")))
			return 1;
		else if (n == arg && member && lex_tok_is(lf, j, "&") &&
			 lex_same_tok(lf, j + 1, var) && lex_tok_is(lf, j + 2, "->"))
			return 1;
	}
	return 0;
}

static int passes(const struct lexfile *lf, long i, int arg, long var)
{
	return passes_as(lf, i, arg, var, 0);
}

static int passes_member(const struct lexfile *lf, long i, int arg, long var)
{
	return passes_as(lf, i, arg, var, 1);
}

static char *call_at(const struct lexfile *lf, long i)
{
	return xasprintf("%.*s() at line %u", (int)lf->toks[i].len,
			 lf->buf + lf->toks[i].off, lf->toks[i].line);
}

/*
 * Is the variable at token VAR one of FN's own (a local or parameter)?
 * Declared in the statement itself (`T *v = call()`, `unsigned long v =`),
 * or named earlier in the function, parameters included.  A plain
 * `v = call()` naming v for the first time assigns a global or
 * file-scope static: a store.
 */
static int local_var(const struct lexfile *lf, const struct lex_func *fn,
		     long var)
{
	long p = lex_prev(lf, var), k;

	/* a type before it; `else v = ...` is a statement, not a type */
	if (p >= 0 && (lf->toks[p].kind == TK_IDENT ||
		       (lf->toks[p].kind == TK_KEYWORD &&
			!lex_tok_is(lf, p, "else") &&
			!lex_tok_is(lf, p, "do")) ||
		       lex_tok_is(lf, p, "*") || lex_tok_is(lf, p, ",")))
		return 1;
	for (k = fn->name_tok + 1; k < var; k++)
		if (lex_same_tok(lf, k, var))
			return 1;
	return 0;
}

/*
 * The ARG-th argument of the call at token CALL: its first token (or
 * -1), and in *END the `,` or `)` after it.
 */
static long arg_span(const struct lexfile *lf, long call, int arg, long *end)
{
	long j, first = -1;
	int depth = 0, n = 0;

	for (j = call + 2; (size_t)j < lf->ntoks; j++) {
		if (lex_tok_is(lf, j, "(")) {
			depth++;
		} else if (lex_tok_is(lf, j, ")") && !depth--) {
			break;
		} else if (!depth && lex_tok_is(lf, j, ",")) {
			if (n++ == arg)
				break;
			continue;
		}
		if (n == arg && first < 0)
			first = j;
	}
	*end = j;
	return first;
}

/*
 * Does the call at token CALL pass, as its ARG-th argument, an address
 * inside VAR's object: `&var->dev`, `&var[i].node`, and not
 * `&var->i2c->dev` (inside another object)?
 */
static int passes_inside(const struct lexfile *lf, long call, int arg,
			 long var)
{
	long end, j = arg_span(lf, call, arg, &end);

	if (j < 0 || end - j < 3 || !lex_tok_is(lf, j, "&") ||
	    !lex_same_tok(lf, j + 1, var) ||
	    !(lex_tok_is(lf, j + 2, "->") || lex_tok_is(lf, j + 2, "[") ||
	      lex_tok_is(lf, j + 2, ".")))
		return 0;
	for (j += 3; j < end; j++)
		if (lex_tok_is(lf, j, "->"))
			return 0;
	return 1;
}

char *lex_arg_text(const struct lexfile *lf, long call, int arg)
{
	struct strbuf sb = STRBUF_INIT;
	long j, end;

	for (j = arg_span(lf, call, arg, &end); j >= 0 && j < end; j++) {
		if (lf->toks[j].kind == TK_COMMENT)
			continue;
		if (sb.len)
			sb_addc(&sb, ' ');
		sb_add(&sb, lf->buf + lf->toks[j].off, lf->toks[j].len);
	}
	return sb.len ? sb_detach(&sb) : (sb_release(&sb), NULL);
}

/* The first argument of the call at K but KEPT that names a holder. */
static char *holder_of_call(const struct lexfile *lf, long k, int kept)
{
	char *t, *h = NULL;
	int a;

	for (a = 0; a < 6 && !h; a++) {
		if (a == kept || !(t = lex_arg_text(lf, k, a)))
			continue;
		h = holder_text(t);
		free(t);
	}
	return h;
}

char *holder_text(const char *arg)
{
	size_t k = arg[0] == '&', e, n = 0;
	char *h;

	while (arg[k] == ' ')
		k++;
	if (!is_ident_start((unsigned char)arg[k]))
		return NULL;
	for (e = k; is_ident_char((unsigned char)arg[e]); e++)
		;
	while (arg[e] == ' ')
		e++;
	if (strncmp(arg + e, "->", 2) && arg[e] != '.')
		return NULL;
	/* the tokens' text without the blanks between them */
	h = xmalloc(strlen(arg + k) + 1);
	for (e = k; arg[e]; e++)
		if (arg[e] != ' ')
			h[n++] = arg[e];
	h[n] = 0;
	return h;
}

int lex_call_may_sleep(struct walk_ctx *w, long k)
{
	const struct lexfile *lf = w->lf;
	const struct tok *t = &lf->toks[k];
	const struct alloc_fn *a =
		w->allocs ? alloc_lookup(w->allocs, lf->buf + t->off, t->len)
			  : NULL;
	char *name = xstrndup(lf->buf + t->off, t->len);
	char *gfp = a && a->kind == AK_ALLOC && a->gfp_arg >= 0
			    ? lex_arg_text(lf, k, a->gfp_arg)
			    : NULL;
	int yes = call_may_sleep(w, name, gfp);

	free(gfp);
	free(name);
	return yes;
}

/*
 * The answers if every function the object is handed to borrows it
 * ("ab": returned or freed later here, else unknown) or frees it ("af":
 * the first hand-over), for the summaries step (summaries_param.c).
 */
static char *handed_json(const struct lexfile *lf, long handed, long ret,
			 long freed, unsigned line, const struct held_call *esc,
			 const long *esc_tok, int nesc)
{
	struct strbuf sb = STRBUF_INIT;
	char *ev;
	int i;

	/* the tokens' answers follow no path (summaries_param.c) */
	sb_adds(&sb, ",\"lex\":1");
	if (ret >= 0) {
		ev = xasprintf("returned at line %u", lf->toks[ret].line);
		esc_answer(&sb, "ab", "returned", ev, lf->toks[ret].line);
	} else if (freed >= 0) {
		ev = call_at(lf, freed);
		esc_answer(&sb, "ab", "scoped", ev, lf->toks[freed].line);
	} else {
		ev = NULL;
		esc_answer(&sb, "ab", "unknown", NULL, line);
	}
	free(ev);
	ev = call_at(lf, handed);
	esc_answer(&sb, "af", "scoped", ev, lf->toks[handed].line);
	free(ev);
	/* only ESC[i] frees it: freed there, unless returned */
	for (i = 0; nesc > 1 && i < nesc && i < MAX_ESC_ONE; i++) {
		char *k = xasprintf("f:%s", esc[i].name);

		if (ret >= 0) {
			ev = xasprintf("returned at line %u",
				       lf->toks[ret].line);
			esc_answer(&sb, k, "returned", ev, lf->toks[ret].line);
		} else {
			ev = call_at(lf, esc_tok[i]);
			esc_answer(&sb, k, "scoped", ev,
				   lf->toks[esc_tok[i]].line);
		}
		free(ev);
		free(k);
	}
	return sb_detach(&sb);
}

/*
 * Is the place the `=` before token K writes inside the object K names
 * (`p->self = p;`, `IPCB(skb)->x = skb;`)?  Wrapping calls are skipped
 * to their first argument.
 */
static int lhs_inside(const struct lexfile *lf, long k)
{
	long j = lex_before_cast(lf, lex_prev(lf, k)), t;

	t = lex_past_control(lf, lex_stmt_start(lf, j), j);
	while (t >= 0 && t < j) {
		if (lex_tok_is(lf, t, "(") || lex_tok_is(lf, t, "*"))
			t++;
		else if (lf->toks[t].kind == TK_IDENT &&
			 lex_tok_is(lf, t + 1, "(") && !lex_same_tok(lf, t, k))
			t += 2;
		else
			break;
	}
	return t >= 0 && t < j && lex_same_tok(lf, t, k) &&
	       (lex_tok_is(lf, t + 1, "->") || lex_tok_is(lf, t + 1, ".") ||
		lex_tok_is(lf, t + 1, "[") || lex_tok_is(lf, t + 1, ")"));
}

/*
 * Is the `=` before token K a store: a member, `*out`, or a name the
 * function does not declare (a global), and no stack aggregate, nor a
 * place inside the object itself?
 */
static int lex_stored_at(const struct lexfile *lf, const struct lex_func *fn,
			 long k)
{
	long v;

	switch (lex_consumer(lf, k, &v)) {
	case LEX_STORE:
		return !lex_local_aggregate(lf, k) && !lhs_inside(lf, k);
	case LEX_VAR:
		return !local_var(lf, fn, v);
	default:
		return 0;
	}
}

/* `+ OFFSET;` at I: the object at an offset (`g = stack + SIZE;`). */
static int offset_end(const struct lexfile *lf, long i)
{
	/* `p + off;`, or an element's address `&p[0];` */
	int plus = lex_tok_is(lf, i, "+"),
	    elem = lex_tok_is(lf, i, "[") && lex_tok_is(lf, i - 2, "&");

	return (plus || elem) && (size_t)i + 3 < lf->ntoks &&
	       (lf->toks[i + 1].kind == TK_IDENT ||
		lf->toks[i + 1].kind == TK_LITERAL) &&
	       (plus ? lex_tok_is(lf, i + 2, ";")
		     : lex_tok_is(lf, i + 2, "]") && lex_tok_is(lf, i + 3, ";"));
}

/* lex_element_store() (owner_lex.h) */
int lex_element_store(const struct lexfile *lf, long k)
{
	const struct lex_func *fn;
	long s;

	if (k < 2 || lf->toks[k].fn < 0 || !lex_tok_is(lf, k - 1, "&") ||
	    !lex_tok_is(lf, k - 2, "=") || !offset_end(lf, k + 1))
		return 0;
	fn = &lf->funcs[lf->toks[k].fn];
	if (!lex_stored_at(lf, fn, k - 1))
		return 0;
	s = lex_past_control(lf, lex_stmt_start(lf, k - 2), k - 2);
	while (s >= 0 && s < k && lf->toks[s].kind == TK_COMMENT)
		s++;
	/* not in a local: `sgs[i] = &sg[i]`, `params.rss = &rss[i]` */
	return !(s >= 0 && lf->toks[s].kind == TK_IDENT &&
		 (lex_tok_is(lf, s + 1, "[") || lex_tok_is(lf, s + 1, ".")) &&
		 local_var(lf, fn, s));
}

/*
 * VAR at token K as the whole argument of `convert` calls of
 * data/lifetime.txt, nested (`kasan_reset_tag(page_address(page))`): the
 * outermost call's name token, and in *END the token after its `)`;
 * else -1.
 */
static long converted(struct walk_ctx *w, const struct lexfile *lf, long k,
		      long *end)
{
	long c = -1, s = k, e = k;

	while (w->lifetime && s >= 2 && lex_tok_is(lf, s - 1, "(") &&
	       lf->toks[s - 2].kind == TK_IDENT &&
	       lex_tok_is(lf, e + 1, ")") &&
	       names_get(&w->lifetime[LT_CONVERT], lf->buf + lf->toks[s - 2].off,
			 lf->toks[s - 2].len) >= 0) {
		s -= 2;
		e++;
		c = s;
	}
	*end = e + 1;
	return c;
}

/* `return (unsigned long)VAR;` or `return (VAR);` at token K < END. */
static int returns_cast(const struct lexfile *lf, long k, long end, long var)
{
	long c;

	if (k + 4 >= end || !lex_tok_is(lf, k + 1, "("))
		return 0;
	if (lex_same_tok(lf, k + 2, var) && lex_tok_is(lf, k + 3, ")"))
		return lex_tok_is(lf, k + 4, ";");
	c = lex_paren_close(lf, k + 1, end);
	return c + 2 < end && lex_same_tok(lf, c + 1, var) &&
	       lex_tok_is(lf, c + 2, ";");
}

/*
 * Follow local VAR (assigned the call at token I) through the rest of
 * FN's tokens: stored (`x->f = var;`, `*out = var;`, a `store` function
 * of data/lifetime.txt), returned (`return var;`, `return &var->m;`)
 * or freed, in that precedence (stored on success and freed on failure
 * is stored).  Held across a sleep before the deciding token.
 */
static void lex_follow(struct walk_ctx *w, const struct lexfile *lf,
		       const struct lex_func *fn, long i, long var,
		       struct owner *r)
{
	long k, sleep = -1, store = -1, ret = -1, freed = -1, decide;
	long handed = -1, span, conv, cend;
	int a;
	struct held_call held[MAX_HELD], esc[MAX_HELD];
	long esc_tok[MAX_HELD];
	int nheld = 0, h, nesc = 0, over = 0, from_hand = 0, store_arg = -1;
	char *ans = NULL;

	for (k = i + 1; k < (long)fn->body_close; k++) {
		const struct tok *t = &lf->toks[k];
		char *name, *cn;
		int arg, sa;
		long past;

		/* the other branch of the `if` it was made in: not this path */
		if (lf->buf[t->off] == 'e' &&
		    (past = lex_else_skip(lf, k, i, (long)fn->body_close)) > k) {
			k = past - 1;
			continue;
		}

		if (lex_same_tok(lf, k, var) && store < 0 &&
		    (lex_tok_is(lf, k + 1, ";") || lex_tok_is(lf, k + 1, ",") ||
		     offset_end(lf, k + 1)) &&
		    (lex_tok_is(lf, k - 1, "&") && lex_tok_is(lf, k + 1, "[")
			     ? lex_element_store(lf, k)
			     : lex_stored_at(lf, fn, k)))
			store = k;
		/*
		 * `g = page_address(var);`, `return kasan_reset_tag(var);`:
		 * the object in another form
		 */
		if (lex_same_tok(lf, k, var) && (store < 0 || ret < 0) &&
		    (conv = converted(w, lf, k, &cend)) >= 0 &&
		    lex_tok_is(lf, cend, ";")) {
			if (lex_tok_is(lf, conv - 1, "return") && ret < 0)
				ret = conv - 1;
			else if (store < 0 && lex_stored_at(lf, fn, conv))
				store = k;
		}
		if (lex_tok_is(lf, k, "return") && ret < 0 &&
		    ((lex_same_tok(lf, k + 1, var) && lex_tok_is(lf, k + 2, ";")) ||
		     (lex_tok_is(lf, k + 1, "&") && lex_same_tok(lf, k + 2, var) &&
		      lex_tok_is(lf, k + 3, "->")) ||
		     returns_cast(lf, k, (long)fn->body_close, var)))
			ret = k;
		if (t->kind != TK_IDENT || !lex_tok_is(lf, k + 1, "("))
			continue;
		name = xstrndup(lf->buf + t->off, t->len);
		arg = call_frees(w, name);
		if (sleep < 0 && lex_call_may_sleep(w, k))
			sleep = k;
		else if (arg < 0)
			held_tok(w, held, &nheld, k);
		if (store < 0 &&
		    (sa = lifetime_store_arg(w->lifetime, name, t->len)) >= 0 &&
		    (passes(lf, k, sa, var) || passes_member(lf, k, sa, var))) {
			store = k;
			store_arg = sa;
		}
		/*
		 * handed, whole or an address inside it, to a function that
		 * is no borrower
		 */
		for (a = 0; arg < 0 && a < 6; a++) {
			int whole = passes(lf, k, a, var);

			if ((whole || passes_inside(lf, k, a, var)) &&
			    w->lifetime &&
			    !lifetime_borrows(w->lifetime, name, t->len) &&
			    !(w->allocs && alloc_lookup(w->allocs, name, t->len))) {
				if (handed < 0)
					handed = k;
				over |= nesc == MAX_HELD;
				esc_tok[nesc < MAX_HELD ? nesc : 0] = k;
				/* through a member: `.fn`, resolved later */
				cn = tok_call_name(lf, k);
				esc_add(w, esc, &nesc, cn, strlen(cn),
					(unsigned)a, !whole);
				free(cn);
				break;
			}
		}
		free(name);
		if (freed < 0 && arg >= 0 && passes(lf, k, arg, var))
			freed = k;
	}
	/*
	 * Handed to a function and never freed here, or freed only after
	 * (`if (send(skb)) kfree_skb(skb);`): the callee keeps it, as the
	 * path analysis decides with an AST.
	 */
	if (store < 0 && ret < 0 && handed >= 0 &&
	    (freed < 0 ||
	     (freed > handed && !unconditional_after(lf, handed, freed)))) {
		store = handed;
		from_hand = 1;
	}
	decide = store >= 0 ? store : ret >= 0 ? ret : freed;
	if (decide < 0) {
		for (h = 0; h < nheld; h++)
			free(held[h].name);
		for (h = 0; h < nesc; h++)
			free(esc[h].name);
		return;
	}
	if (from_hand && !over && nesc)
		ans = handed_json(lf, handed, ret, freed, lf->toks[handed].line,
				  esc, esc_tok, nesc);
	r->lifetime = store >= 0 ? "stored" : ret >= 0 ? "returned" : "scoped";
	r->line = lf->toks[decide].line;
	if (store_arg >= 0 && !from_hand) /* list_add(new, &d->head) */
		r->target = holder_of_call(lf, store, store_arg);
	if (freed == decide)
		r->evidence = call_at(lf, decide);
	else if (store >= 0 && store == handed)
		r->evidence = xasprintf("passed to %.*s() at line %u",
					(int)lf->toks[handed].len,
					lf->buf + lf->toks[handed].off, r->line);
	else
		r->evidence = xasprintf("%s at line %u",
					store >= 0 ? "stored" : "returned",
					r->line);
	/*
	 * Held up to the store or return that hands it over (a free on a
	 * later error path does not extend it: the labelling brief's span).
	 */
	span = decide;
	r->held_across_sleep = sleep >= 0 && sleep < span;
	if (r->held_across_sleep) {
		r->sleep_evidence = call_at(lf, sleep);
	} else {
		/* the calls before the span's end, for the summaries */
		for (h = nheld; h > 0 && held[h - 1].line > lf->toks[span].line;
		     h--)
			;
		r->held_calls = held_json(held, h, 0);
	}
	if (ans) {
		/* the hand-overs and the answers, after the held calls */
		struct strbuf sb = STRBUF_INIT;

		esc_json(&sb, r->held_calls, esc, nesc);
		esc_answer(&sb, "lt", r->lifetime, r->evidence, r->line);
		sb_adds(&sb, ans);
		sb_addc(&sb, '}');
		free(ans);
		r->held_calls = sb_detach(&sb);
	}
	for (h = 0; h < nheld; h++)
		free(held[h].name);
	for (h = 0; h < nesc; h++)
		free(esc[h].name);
}

void holder_returned(struct walk_ctx *w, const struct site *s,
		     const char *target, struct owner *r)
{
	const struct lexfile *lf = w->lf;
	const struct lex_func *fn;
	size_t n = 0;
	long i, k;

	if (!lf || !target || !r->lifetime || strcmp(r->lifetime, "stored"))
		return;
	while (is_ident_char((unsigned char)target[n]))
		n++;
	if (!n || (strncmp(target + n, "->", 2) && target[n] != '.' &&
		   target[n] != '['))
		return;
	if ((i = lex_tok_at(lf, s->line, s->col)) < 0 || lf->toks[i].fn < 0)
		return;
	fn = &lf->funcs[lf->toks[i].fn];
	for (k = i; k + 2 < (long)fn->body_close; k++) {
		long v = k + 1;

		if (!lex_tok_is(lf, k, "return"))
			continue;
		if (lex_tok_is(lf, v, "&"))
			v++;
		if (lf->toks[v].len != n ||
		    memcmp(lf->buf + lf->toks[v].off, target, n) ||
		    !(lex_tok_is(lf, v + 1, ";") ||
		      (v > k + 1 && lex_tok_is(lf, v + 1, "->"))))
			continue;
		free(r->evidence);
		r->evidence = xasprintf("stored in %s, returned with %.*s at "
					"line %u",
					target, (int)n, target,
					lf->toks[k].line);
		r->lifetime = "returned";
		r->line = lf->toks[k].line;
		return;
	}
}

/*
 * Is the `return` at token K the failure branch of a test of PLACE
 * (place_norm'd): `if (!w.node) return ...;`, or the last statement of
 * `if (!w.node) { ...; return ...; }`?
 */
static int null_return(const struct lexfile *lf, long k, const char *place)
{
	struct strbuf sb = STRBUF_INIT;
	long close = lex_prev(lf, k), open, j;
	int yes, depth = 0;

	if (lex_tok_is(lf, close, ";") || lex_tok_is(lf, close, "}")) {
		/* the block's `{`, when this return ends it */
		j = lex_stmt_end(lf, k, (long)lf->ntoks);
		if (j >= (long)lf->ntoks || !lex_tok_is(lf, j, "}"))
			return 0;
		for (open = k; open > 0; open--)
			if (lex_tok_is(lf, open, "}"))
				depth++;
			else if (lex_tok_is(lf, open, "{") && !depth--)
				break;
		close = lex_prev(lf, open);
	}
	if (!lex_tok_is(lf, close, ")") ||
	    (open = lex_paren_open(lf, close)) <= 0 ||
	    !lex_tok_is(lf, lex_prev(lf, open), "if"))
		return 0;
	for (j = open + 1; j < close; j++)
		if (lf->toks[j].kind != TK_COMMENT)
			sb_add(&sb, lf->buf + lf->toks[j].off, lf->toks[j].len);
	sb_addc(&sb, 0);
	yes = (sb.buf[0] == '!' && !strcmp(sb.buf + 1, place)) ||
	      (!strncmp(sb.buf, place, strlen(place)) &&
	       !strcmp(sb.buf + strlen(place), "==NULL"));
	sb_release(&sb);
	return yes;
}

/*
 * Does the `=` at K write OWN, the place the allocation's statement
 * wrote, as written (`queues[i]` again, not `uevent_env[1]` after
 * `uevent_env[0]`)?  NULL: the allocation wrote no place.
 */
static int reassigns(const struct lexfile *lf, long k, const char *own)
{
	long l = lex_prev(lf, k), st;
	size_t n;
	char *lhs;
	int same;

	if (!own || l < 0 || (size_t)k + 1 >= lf->ntoks)
		return 0;
	/*
	 * Every `=` of the function comes here: the text of its left side
	 * is built only when its last token ends OWN.
	 */
	n = strlen(own);
	if (lf->toks[l].len > n ||
	    memcmp(own + n - lf->toks[l].len, lf->buf + lf->toks[l].off,
		   lf->toks[l].len))
		return 0;
	lhs = lex_lhs_text(lf, k + 1);
	same = !strcmp(lhs, own);
	free(lhs);
	if (!same)
		return 0;
	/* `if (c) p = alloc(); else p = NULL;`: the other branch */
	st = lex_past_control(lf, lex_stmt_start(lf, k), k);
	return !lex_tok_is(lf, lex_prev(lf, st), "else") &&
	       !(lex_tok_is(lf, lex_prev(lf, st), "{") &&
		 lex_tok_is(lf, lex_prev(lf, lex_prev(lf, st)), "else"));
}

/*
 * An array's elements (PLACE `ptr[]`) filled in a loop at token I and
 * freed in a loop at FREED (`for (i = 0; i < n; i++) vfree(ptr[i]);`):
 * every element is freed when the freeing loop is reached on every path
 * from the end of the filling one, and the free is a statement of its
 * body.
 */
static int every_element_freed(const struct lexfile *lf,
			       const struct lex_func *fn, long i, long freed)
{
	long start = (long)fn->body_open, end = (long)fn->body_close;
	long lo = lex_loop_of(lf, i, start), fl = lex_loop_of(lf, freed, start);
	long from = lo >= 0 ? lex_loop_close(lf, lo, end) + 1 : i, kw;

	if (fl < 0 || fl <= from)
		return 0;
	if (lex_tok_is(lf, fl, "{")) {
		if (lex_prev(lf, freed) != fl &&
		    !unconditional_after(lf, fl + 1, freed))
			return 0;
		kw = lex_tok_is(lf, lex_prev(lf, fl), "do")
			     ? lex_prev(lf, fl)
			     : lex_paren_open(lf, lex_prev(lf, fl)) - 1;
	} else {
		if (lex_prev(lf, freed) != fl)
			return 0;
		kw = lex_paren_open(lf, fl) - 1;
	}
	return kw >= from && unconditional_after(lf, from, kw);
}

/*
 * `w.node = kasprintf(...)`, `s->req = alloc(...)` (token I): stored in a
 * place, a member of a structure on the stack (in a statement the parse
 * dropped: the structure's type is in a header) or on the heap.  Scoped
 * when a free of that place (R's target) follows, reached whenever the
 * allocation is (`out: skcipher_request_free(s->req);` at the end, no
 * goto past it): the function frees what it stored before it returns.
 * Else R stays as it is.
 */
static void lex_follow_place(struct walk_ctx *w, const struct lexfile *lf,
			     const struct lex_func *fn, long i,
			     struct owner *r)
{
	char *place = xstrdup(r->target), *name, *t, *own;
	struct held_call held[MAX_HELD];
	long k, freed = -1, sleep = -1;
	int nheld = 0, h, arg;

	place_norm(place);
	own = lex_lhs_text(lf, i);
	t = xstrdup(own);
	place_norm(t);
	if (strcmp(t, place)) {
		free(own);
		own = NULL; /* `&d->mask`, pskb_expand_head(skb, ...) */
	}
	free(t);
	for (k = i + 1; k < (long)fn->body_close && freed < 0; k++) {
		long past;

		/* the other branch of the `if` that made it: not its path */
		if ((past = lex_else_skip(lf, k, i, (long)fn->body_close)) > k) {
			k = past - 1;
			continue;
		}
		/* a path that returns holding it, but for the failed one */
		if (lex_tok_is(lf, k, "return") && !null_return(lf, k, place))
			break;
		/* the place set again (`queues[i] = swap(...)`): not ours */
		if (lex_tok_is(lf, k, "=") && reassigns(lf, k, own))
			break;
		if (lf->toks[k].kind != TK_IDENT || !lex_tok_is(lf, k + 1, "("))
			continue;
		name = xstrndup(lf->buf + lf->toks[k].off, lf->toks[k].len);
		arg = call_frees(w, name);
		free(name);
		if (arg >= 0 && (t = lex_arg_text(lf, k, arg))) {
			place_norm(t);
			if (!strcmp(t, place))
				freed = k;
			free(t);
		} else if (sleep < 0 && lex_call_may_sleep(w, k)) {
			sleep = k;
		} else if (arg < 0) {
			held_tok(w, held, &nheld, k);
		}
	}
	if (freed >= 0 &&
	    (unconditional_after(lf, i, freed) ||
	     (strstr(place, "[]") && every_element_freed(lf, fn, i, freed)))) {
		free(place);
		r->lifetime = "scoped";
		r->line = lf->toks[freed].line;
		free(r->evidence);
		r->evidence = call_at(lf, freed);
		free(r->target);
		r->target = NULL;
		r->held_across_sleep = sleep >= 0;
		free(r->sleep_evidence);
		r->sleep_evidence = NULL;
		free(r->held_calls);
		r->held_calls = NULL;
		if (sleep >= 0)
			r->sleep_evidence = call_at(lf, sleep);
		else
			r->held_calls = held_json(held, nheld, 0);
	} else {
		free(place);
	}
	free(own);
	for (h = 0; h < nheld; h++)
		free(held[h].name);
}

/* The token of the variable VAR in `&VAR`, the ARG-th argument at CALL. */
static long out_var(const struct lexfile *lf, long call, int arg)
{
	long j, end, v = -1;
	int n = 0;

	for (j = arg_span(lf, call, arg, &end); j >= 0 && j < end; j++) {
		if (lf->toks[j].kind == TK_COMMENT)
			continue;
		if (n++ == 1)
			v = j;
	}
	if (n != 2 || v < 1 || !lex_tok_is(lf, lex_prev(lf, v), "&") ||
	    lf->toks[v].kind != TK_IDENT)
		return -1;
	return v;
}

/* The allocation at token I lives in PLACE: stored, unless freed there. */
static void attach_to(struct walk_ctx *w, const struct lexfile *lf,
		      const struct lex_func *fn, long i, const struct site *s,
		      const char *place, struct owner *r)
{
	r->target = xstrdup(place);
	r->lifetime = "stored";
	r->held_across_sleep = 0;
	r->line = s->line;
	r->evidence = xasprintf("stored in %s at line %u", r->target, s->line);
	lex_follow_place(w, lf, fn, i, r);
}

void lex_out_param(struct walk_ctx *w, const struct site *s, int arg,
		   struct owner *r)
{
	const struct lexfile *lf = w->lf;
	const struct lex_func *fn;
	long i, var;
	char *t;

	if (!lf || (i = lex_tok_at(lf, s->line, s->col)) < 0 ||
	    lf->toks[i].fn < 0 || !(t = lex_arg_text(lf, i, arg)))
		return;
	if (!strcmp(t, "NULL")) {
		/* __alloc_pages_bulk(..., list, NULL): not through it */
		free(t);
		return;
	}
	fn = &lf->funcs[lf->toks[i].fn];
	free(r->evidence);
	r->evidence = NULL;
	free(r->target);
	r->target = NULL;
	free(r->sleep_evidence);
	r->sleep_evidence = NULL;
	free(r->held_calls);
	r->held_calls = NULL;
	r->lifetime = "unknown";
	r->held_across_sleep = -1;
	if (t[0] != '&') {
		/*
		 * pskb_expand_head(skb, ...): the new head is attached to
		 * the object the argument points to (a wrapper's out
		 * parameter the same): it lives there, freed with it when
		 * this function frees that.
		 */
		place_norm(t);
		attach_to(w, lf, fn, i, s, t, r);
		free(t);
		return;
	}
	var = out_var(lf, i, arg);
	if (var >= 0 && local_var(lf, fn, var)) {
		free(t);
		lex_follow(w, lf, fn, i, var, r);
		return;
	}
	/* `&global`, `&d->mask`: stored there, unless freed there too */
	place_norm(t + 1);
	attach_to(w, lf, fn, i, s, t + 1, r);
	free(t);
}

/* The path walk's `d->buf = alloc()`: lex_follow_place() on its tokens. */
void lex_store_freed(struct walk_ctx *w, const struct site *s,
		     struct owner *r)
{
	const struct lexfile *lf = w->lf;
	enum lex_use use;
	long i, var;

	if (!lf || !r->target || (i = lex_tok_at(lf, s->line, s->col)) < 0 ||
	    lf->toks[i].fn < 0)
		return;
	use = lex_consumer(lf, i, &var);
	/*
	 * `readbuf = vmalloc()` with readbuf a global or a static: the
	 * parse said the name it stored in lasts (R's target)
	 */
	if (use != LEX_STORE &&
	    (use != LEX_VAR || strlen(r->target) != lf->toks[var].len ||
	     memcmp(r->target, lf->buf + lf->toks[var].off,
		    lf->toks[var].len)))
		return;
	lex_follow_place(w, lf, &lf->funcs[lf->toks[i].fn], i, r);
}

void owner_lexical(struct walk_ctx *w, const struct site *s, struct owner *r)
{
	const struct lexfile *lf = w->lf;
	const struct lex_func *fn;
	long i, var;
	enum lex_use use;

	r->lifetime = "unknown";
	r->held_across_sleep = -1;
	if (!lf || (i = lex_tok_at(lf, s->line, s->col)) < 0)
		return;
	if (lf->toks[i].fn < 0) {
		if (lf->toks[i].dir >= 0)
			owner_macro(w, lf, i, r);
		return;
	}
	fn = &lf->funcs[lf->toks[i].fn];
	use = lex_consumer(lf, i, &var);
	if (use == LEX_RETURN || use == LEX_STORE)
		r->held_across_sleep = 0; /* handed over at once */
	if (use == LEX_RETURN) {
		r->lifetime = "returned";
		r->line = s->line;
		r->evidence = xasprintf("returned at line %u", s->line);
		return;
	}
	if (use == LEX_STORE) {
		r->lifetime = "stored";
		r->line = s->line;
		r->target = lex_lhs_text(lf, i);
		r->evidence = xasprintf("stored in %s at line %u", r->target,
					s->line);
		lex_follow_place(w, lf, fn, i, r);
		return;
	}
	if (use != LEX_VAR)
		return;
	if (!local_var(lf, fn, var)) {
		r->lifetime = "stored";
		r->held_across_sleep = 0;
		r->line = s->line;
		r->target = xstrndup(lf->buf + lf->toks[var].off,
				     lf->toks[var].len);
		r->evidence = xasprintf("stored in %s at line %u", r->target,
					s->line);
		lex_follow_place(w, lf, fn, i, r);
		return;
	}
	lex_follow(w, lf, fn, i, var, r);
}
