// SPDX-License-Identifier: GPL-2.0
/*
 * Token-level places (owner_lex.h): a buffer stored in a member, a
 * global or through an out-parameter, followed to the free of that
 * place, when the function makes one.
 */
#include "analyzer/owner_lex.h"
#include "analyzer/owner_int.h"
#include "analyzer/owner_wrapfree.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * Is the `return` at token K the failure branch of a test of PLACE
 * (place_norm'd): `if (!w.node) return ...;`, or the last statement of
 * `if (!w.node) { ...; return ...; }`?
 */
static int null_return(const struct lexfile *lf, long k, const char *place)
{
	struct strbuf sb = STRBUF_INIT;
	long close = lex_prev(lf, k), open, j;
	int yes;

	if (lex_tok_is(lf, close, ";") || lex_tok_is(lf, close, "}")) {
		/* the block's `{`, when this return ends it */
		j = lex_stmt_end(lf, k, (long)lf->ntoks);
		if (j >= (long)lf->ntoks || !lex_tok_is(lf, j, "}"))
			return 0;
		if ((open = lex_brace_open(lf, j)) <= 0)
			return 0;
		close = lex_prev(lf, open);
	}
	if ((open = lex_if_open(lf, close)) < 0)
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
		    !lex_unconditional_after(lf, fl + 1, freed))
			return 0;
		kw = lex_tok_is(lf, lex_prev(lf, fl), "do")
			     ? lex_prev(lf, fl)
			     : lex_paren_open(lf, lex_prev(lf, fl)) - 1;
	} else {
		if (lex_prev(lf, freed) != fl)
			return 0;
		kw = lex_paren_open(lf, fl) - 1;
	}
	return kw >= from && lex_unconditional_after(lf, from, kw);
}

/*
 * The free call at token K, of what the statement at token I stored,
 * under a condition and followed by a `return` (`if (too_big) {
 * vfree(d.buf); return -ENOMEM; }`): a path that ends having freed it.
 * The token after that `return`'s statement, else -1.
 */
static long freed_then_return(const struct lexfile *lf, long k, long i,
			      const struct lex_func *fn)
{
	long end = (long)fn->body_close, next, p = lex_prev(lf, k);

	/* `if (c) vfree(p); return ...;`: the return is not c's alone */
	if ((!lex_tok_is(lf, p, ";") && !lex_tok_is(lf, p, "{") &&
	     !lex_tok_is(lf, p, "}")) ||
	    lex_unconditional_after(lf, i, k))
		return -1;
	next = lex_stmt_end(lf, k, end);
	if (next >= end || !lex_tok_is(lf, next, "return"))
		return -1;
	return lex_stmt_end(lf, next, end);
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
void lex_follow_place(struct walk_ctx *w, const struct lexfile *lf,
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
			if (!strcmp(t, place) &&
			    (past = freed_then_return(lf, k, i, fn)) > k)
				k = past - 1; /* that path is done with it */
			else if (!strcmp(t, place))
				freed = k;
			free(t);
		} else if (sleep < 0 && lex_call_may_sleep(w, k)) {
			sleep = k;
		} else if (arg < 0) {
			held_tok(w, held, &nheld, k);
		}
	}
	if (freed >= 0 &&
	    (lex_unconditional_after(lf, i, freed) ||
	     (strstr(place, "[]") && every_element_freed(lf, fn, i, freed)))) {
		free(place);
		r->lifetime = "scoped";
		r->line = lf->toks[freed].line;
		free(r->evidence);
		r->evidence = lex_call_at(lf, freed);
		free(r->target);
		r->target = NULL;
		r->held_across_sleep = sleep >= 0;
		free(r->sleep_evidence);
		r->sleep_evidence = NULL;
		free(r->held_calls);
		r->held_calls = NULL;
		if (sleep >= 0)
			r->sleep_evidence = lex_call_at(lf, sleep);
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

	for (j = lex_arg_span(lf, call, arg, &end); j >= 0 && j < end; j++) {
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
	if (var >= 0 && lex_local_var(lf, fn, var)) {
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
