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

/* The ARG-th argument of the call at I as a put's own object. */
static int put_place_at(const struct lexfile *lf, long i, int arg)
{
	char *t = lex_arg_text(lf, i, arg);
	int yes = t && lifetime_put_place(t) > 0;

	free(t);
	return yes;
}

char *lex_call_at(const struct lexfile *lf, long i)
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
int lex_local_var(const struct lexfile *lf, const struct lex_func *fn,
		     long var)
{
	long p = lex_prev(lf, var), k;

	/*
	 * `#ifdef CONFIG_X` on the line before is no type (but within a
	 * #define's body the tokens before are that body's)
	 */
	while (p > 0 && lf->toks[p].dir >= 0 &&
	       lf->toks[p].dir != lf->toks[var].dir)
		p = lex_prev(lf, p);
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
long lex_arg_span(const struct lexfile *lf, long call, int arg, long *end)
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
	long end, j = lex_arg_span(lf, call, arg, &end);

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

	for (j = lex_arg_span(lf, call, arg, &end); j >= 0 && j < end; j++) {
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
		ev = lex_call_at(lf, freed);
		esc_answer(&sb, "ab", "scoped", ev, lf->toks[freed].line);
	} else {
		ev = NULL;
		esc_answer(&sb, "ab", "unknown", NULL, line);
	}
	free(ev);
	ev = lex_call_at(lf, handed);
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
			ev = lex_call_at(lf, esc_tok[i]);
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
		return !lex_local_var(lf, fn, v);
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
		 lex_local_var(lf, fn, s));
}

long lex_converted(struct walk_ctx *w, const struct lexfile *lf, long k,
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
 * Is the free call at K on a branch that leaves the function: `if (err)
 * { kfree(p); return err; }`?  Its statement is followed by a return or
 * a goto that ends a braced then- or else-block.  The path that goes on
 * past that block still holds the object, so such a free does not end it
 * for what follows (a hand-over, a store or a return there decides).
 */
static int exit_free(const struct lexfile *lf, long k, long end)
{
	long e = lex_stmt_end(lf, k, end), o, p;

	if (e >= end ||
	    !(lex_tok_is(lf, e, "return") || lex_tok_is(lf, e, "goto")))
		return 0;
	e = lex_stmt_end(lf, e, end);
	if (e >= end || !lex_tok_is(lf, e, "}") ||
	    (o = lex_brace_open(lf, e)) <= 0)
		return 0;
	p = lex_prev(lf, o);
	return lex_if_open(lf, p) >= 0 || lex_tok_is(lf, p, "else");
}

/*
 * Follow local VAR (assigned the call at token I) through the rest of
 * FN's tokens: stored (`x->f = var;`, `*out = var;`, a `store` function
 * of data/lifetime.txt), returned (`return var;`, `return &var->m;`)
 * or freed, in that precedence (stored on success and freed on failure
 * is stored; a free on an early exit, exit_free(), decides only when
 * nothing else does).  Held across a sleep before the deciding token.
 */
void lex_follow(struct walk_ctx *w, const struct lexfile *lf,
		const struct lex_func *fn, long i, long var, struct owner *r)
{
	long k, sleep = -1, store = -1, ret = -1, freed = -1, decide;
	long exit_freed = -1;
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
		    (conv = lex_converted(w, lf, k, &cend)) >= 0 &&
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
			    lifetime_put_arg(w->lifetime, name, t->len) < 0 &&
			    !own_table_fn(w, name, t->len)) {
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
		if (freed < 0 && arg >= 0 && passes(lf, k, arg, var)) {
			if (exit_free(lf, k, (long)fn->body_close)) {
				if (exit_freed < 0)
					exit_freed = k;
			} else {
				freed = k;
			}
		}
		/* kref_put(&var->kref, release): its reference dropped */
		if (freed < 0 &&
		    (arg = lifetime_put_arg(w->lifetime, lf->buf + t->off,
					    t->len)) >= 0 &&
		    (passes(lf, k, arg, var) || passes_member(lf, k, arg, var)) &&
		    put_place_at(lf, k, arg))
			freed = k;
	}
	/*
	 * Handed to a function and never freed here, or freed only after
	 * (`if (send(skb)) kfree_skb(skb);`): the callee keeps it, as the
	 * path analysis decides with an AST.
	 */
	if (store < 0 && ret < 0 && handed >= 0 &&
	    (freed < 0 ||
	     (freed > handed && !lex_reached_after(lf, i, handed, freed)))) {
		store = handed;
		from_hand = 1;
	}
	/*
	 * Scoped: the first free in the text names it, as the path walk's
	 * first does, an early exit's too; the span runs to the free of the
	 * path that goes on (held until there).
	 */
	span = freed;
	if (exit_freed >= 0 && (freed < 0 || exit_freed < freed))
		freed = exit_freed;
	if (span < 0)
		span = freed;
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
	else if (store >= 0 && !from_hand &&
		 lex_tok_is(lf, lex_prev(lf, store), "="))
		/* `page->addr = var;`: returning page returns it */
		r->target = lex_lhs_text(lf, store);
	if (freed == decide)
		r->evidence = lex_call_at(lf, decide);
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
	 * later error path does not extend it: the labelling brief's span),
	 * and across the call it is handed to, as the path walk holds it
	 * (`sp = get_sp(vha, fcport, GFP_KERNEL)` allocates before it keeps).
	 */
	if (decide != freed)
		span = decide;
	r->held_across_sleep = sleep >= 0 &&
			       (sleep < span || (from_hand && sleep == span));
	if (r->held_across_sleep) {
		r->sleep_evidence = lex_call_at(lf, sleep);
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

/* Past a cast at token I (`(void *)`, `(struct x *)`), else I. */
static long past_cast(const struct lexfile *lf, long i)
{
	long j = i + 1;

	if (!lex_tok_is(lf, i, "("))
		return i;
	while ((size_t)j < lf->ntoks &&
	       (lf->toks[j].kind == TK_IDENT || lf->toks[j].kind == TK_KEYWORD ||
		lex_tok_is(lf, j, "*")))
		j++;
	return j > i + 1 && lex_tok_is(lf, j, ")") && lex_tok_is(lf, j - 1, "*") ?
		       j + 1 :
		       i;
}

/*
 * Is the holder (the N bytes of TARGET) made by an allocation of the
 * function FN (`h = kzalloc(...)`), not found or handed in?
 */
static int holder_made_here(struct walk_ctx *w, const struct lexfile *lf,
			    const struct lex_func *fn, const char *target,
			    size_t n)
{
	const struct alloc_fn *a;
	long j, c;

	if (!w->allocs)
		return 0;
	for (j = (long)fn->body_open + 1; j + 3 < (long)fn->body_close; j++) {
		if (!lex_tok_eq(lf, j, target, n) ||
		    !lex_tok_is(lf, j + 1, "=") || lex_tok_is(lf, j - 1, "->") ||
		    lex_tok_is(lf, j - 1, "."))
			continue;
		c = past_cast(lf, j + 2);
		a = lf->toks[c].kind == TK_IDENT && lex_tok_is(lf, c + 1, "(") ?
			    alloc_lookup(w->allocs, lf->buf + lf->toks[c].off,
					 lf->toks[c].len) :
			    NULL;
		if (a && a->kind == AK_ALLOC)
			return 1;
	}
	return 0;
}

/*
 * Is token V the holder (the N bytes of TARGET) as a returned value
 * reads it: `h;`, `&h->base;`, `&(h->base);` (after the `return` at K),
 * or a local set from it in the function FN before (`obj =
 * &omap_obj->base; ... return obj;`) when this function made the
 * holder (a found one, `info` of a list walk, stays where it is)?
 */
static int returns_holder(struct walk_ctx *w, const struct lexfile *lf,
			  const struct lex_func *fn, long k, long v,
			  const char *target, size_t n)
{
	long j, e;
	int amp = 0;

	v = past_cast(lf, v);
	if (lex_tok_is(lf, v, "&")) {
		amp = 1;
		v++;
		if (lex_tok_is(lf, v, "("))
			v++;
	}
	if (lex_tok_eq(lf, v, target, n))
		return lex_tok_is(lf, v + 1, ";") ||
		       (amp && lex_tok_is(lf, v + 1, "->"));
	if (amp || lf->toks[v].kind != TK_IDENT ||
	    !lex_tok_is(lf, v + 1, ";") ||
	    !holder_made_here(w, lf, fn, target, n))
		return 0;
	/* `x = h;`, `x = &h->m;` as a statement of its own */
	for (j = (long)fn->body_open + 1; j + 3 < k; j++) {
		if (!lex_same_tok(lf, j, v) || !lex_tok_is(lf, j + 1, "=") ||
		    !(lex_tok_is(lf, j - 1, ";") || lex_tok_is(lf, j - 1, "{") ||
		      lex_tok_is(lf, j - 1, "}")))
			continue;
		e = past_cast(lf, j + 2);
		amp = lex_tok_is(lf, e, "&");
		e += amp;
		if (lex_tok_eq(lf, e, target, n) &&
		    (amp ? lex_tok_is(lf, e + 1, "->")
			 : lex_tok_is(lf, e + 1, ";")))
			return 1;
	}
	return 0;
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
	/*
	 * A parameter (`fe->tuner_priv = priv; return fe;`): the caller
	 * has the holder already and finds the object there (stored), as
	 * for a store into it followed by a return of the object itself.
	 */
	for (k = fn->name_tok + 1; k < (long)fn->body_open; k++)
		if (lex_tok_eq(lf, k, target, n))
			return;
	for (k = i; k + 2 < (long)fn->body_close; k++) {
		if (!lex_tok_is(lf, k, "return") ||
		    !returns_holder(w, lf, fn, k, k + 1, target, n))
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

void owner_lexical(struct walk_ctx *w, const struct site *s, struct owner *r)
{
	const struct lexfile *lf = w->lf;
	long i;

	r->lifetime = "unknown";
	r->held_across_sleep = -1;
	if (!lf || (i = lex_tok_at(lf, s->line, s->col)) < 0)
		return;
	if (lf->toks[i].fn < 0) {
		if (lf->toks[i].dir >= 0)
			owner_macro(w, lf, i, r);
		return;
	}
	lex_in_function(w, lf, &lf->funcs[lf->toks[i].fn], i, r);
}

void lex_in_function(struct walk_ctx *w, const struct lexfile *lf,
		     const struct lex_func *fn, long i, struct owner *r)
{
	unsigned line = lf->toks[i].line;
	long var;
	enum lex_use use;

	use = lex_consumer(lf, i, &var);
	if (use == LEX_RETURN || use == LEX_STORE)
		r->held_across_sleep = 0; /* handed over at once */
	if (use == LEX_RETURN) {
		r->lifetime = "returned";
		r->line = line;
		r->evidence = xasprintf("returned at line %u", line);
		return;
	}
	if (use == LEX_STORE) {
		r->lifetime = "stored";
		r->line = line;
		r->target = lex_lhs_text(lf, i);
		r->evidence = xasprintf("stored in %s at line %u", r->target,
					line);
		lex_follow_place(w, lf, fn, i, r);
		return;
	}
	if (use != LEX_VAR)
		return;
	if (!lex_local_var(lf, fn, var)) {
		r->lifetime = "stored";
		r->held_across_sleep = 0;
		r->line = line;
		r->target = xstrndup(lf->buf + lf->toks[var].off,
				     lf->toks[var].len);
		r->evidence = xasprintf("stored in %s at line %u", r->target,
					line);
		lex_follow_place(w, lf, fn, i, r);
		return;
	}
	lex_follow(w, lf, fn, i, var, r);
}
