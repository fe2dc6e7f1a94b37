// SPDX-License-Identifier: GPL-2.0
/*
 * A buffer stored or returned early is still the function's to free on
 * its error paths (owner_errpath.h).  The path walk ends the span at the
 * store; here the tokens after the allocation are read for a call that
 * may sleep followed, on a path from it, by a free of the buffer: the
 * variable it was assigned to or the place it was stored in.  A path
 * from the call to the free: a `goto` after the call to a label at or
 * before the free, or no `return` between them.
 */
#include "analyzer/owner_errpath.h"
#include "analyzer/lexscan.h"
#include "analyzer/names.h"
#include "analyzer/owner_lex.h"
#include "analyzer/owner_wrapfree.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "analyzer/walker.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FREES 16
#define MAX_CALLS 32
#define MAX_NAMES 8

static int is_call(const struct lexfile *lf, long k)
{
	return lf->toks[k].kind == TK_IDENT && lex_tok_is(lf, k + 1, "(");
}

/* NAME is one of the N NAMES already? */
static int known(char **names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* Which of the NAMES does the free call at K free (its argument ARG)? */
static int frees_one_of(const struct lexfile *lf, long k, int arg,
			char **names, int n)
{
	char *t = lex_arg_text(lf, k, arg);
	int i;

	if (!t)
		return -1;
	place_norm(t);
	for (i = 0; i < n && strcmp(names[i], t); i++)
		;
	free(t);
	return i < n ? i : -1;
}

/* The free function called at K, or NULL. */
static const struct alloc_fn *free_at(const struct walk_ctx *w,
				      const struct lexfile *lf, long k)
{
	const struct alloc_fn *a;

	if (!w->allocs || !is_call(lf, k))
		return NULL;
	a = alloc_lookup(w->allocs, lf->buf + lf->toks[k].off,
			 lf->toks[k].len);
	return a && a->kind == AK_FREE ? a : NULL;
}

/* Is there a `return` between tokens A and B (both left out)? */
static int returns_between(const struct lexfile *lf, long a, long b)
{
	long m;

	for (m = a + 1; m < b; m++)
		if (lex_tok_is(lf, m, "return"))
			return 1;
	return 0;
}

/* A path from token S to token F: through a goto, or with no return. */
static int reaches(const struct lexfile *lf, long s, long f)
{
	long g, l;

	if (!returns_between(lf, s, f))
		return 1;
	for (g = s + 1; g + 1 < f; g++) {
		if (!lex_tok_is(lf, g, "goto") ||
		    lf->toks[g + 1].kind != TK_IDENT)
			continue;
		/* the label `name :` after the goto, at or before the free */
		for (l = g + 2; l + 1 <= f; l++)
			if (lf->toks[l].len == lf->toks[g + 1].len &&
			    !memcmp(lf->buf + lf->toks[l].off,
				    lf->buf + lf->toks[g + 1].off,
				    lf->toks[l].len) &&
			    lex_tok_is(lf, l + 1, ":") &&
			    !returns_between(lf, l + 1, f))
				return 1;
	}
	return 0;
}

/* JSON string contents: the evidence has no control characters. */
static void json_add(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_addc(sb, '\\');
		sb_addc(sb, *s);
	}
}

static void set_slept(struct owner *r, char *ev)
{
	r->held_across_sleep = 1;
	free(r->sleep_evidence);
	r->sleep_evidence = ev;
	/*
	 * The summaries step answers from held_calls: its base is this
	 * answer now, with the evidence to give back.
	 */
	if (r->held_calls && !strncmp(r->held_calls, "{\"base\":0,", 10)) {
		struct strbuf sb = STRBUF_INIT;

		sb_adds(&sb, "{\"base\":1,\"ev\":\"");
		json_add(&sb, ev);
		sb_adds(&sb, "\",");
		sb_adds(&sb, r->held_calls + 10);
		free(r->held_calls);
		r->held_calls = sb_detach(&sb);
	}
}

/*
 * No call known here to sleep: the calls with a path to a free of the
 * buffer go into held_calls, for the summaries step to answer over the
 * whole tree (a sleep several calls down, in another file).
 */
static void add_calls(struct owner *r, const struct lexfile *lf,
		      const long *calls, int n)
{
	struct strbuf sb = STRBUF_INIT;
	const char *h = r->held_calls, *at = NULL;
	int i;

	if (!n)
		return;
	if (h) {
		at = strstr(h, "\"calls\":[");
		if (!at || *h != '{')
			return;
		at += strlen("\"calls\":[");
		sb_addc(&sb, '{');
		if (!strstr(h, "\"base\":"))
			sb_adds(&sb, "\"base\":0,");
		sb_add(&sb, h + 1, (size_t)(at - h - 1));
	} else {
		sb_adds(&sb, "{\"base\":0,\"calls\":[");
	}
	for (i = 0; i < n; i++)
		sb_addf(&sb, "%s[\"%.*s\",%u]", i ? "," : "",
			(int)lf->toks[calls[i]].len,
			lf->buf + lf->toks[calls[i]].off,
			lf->toks[calls[i]].line);
	if (at) {
		if (*at != ']')
			sb_addc(&sb, ',');
		sb_adds(&sb, at);
	} else {
		sb_adds(&sb, "]}");
	}
	free(r->held_calls);
	r->held_calls = sb_detach(&sb);
}

/*
 * The places a name of NAMES is copied to after token K, up to END:
 * `d->buf = p;`, each of `a = b = p;`.  The error path frees the buffer
 * under any of them (`free_pages((unsigned long)conn->data, ...)`).
 */
static void add_stores(const struct lexfile *lf, long k, long end,
		       char **names, int *n)
{
	long t, e, b;
	int i, nn = *n;

	for (t = k + 1; t < end && *n < MAX_NAMES; t++) {
		if (lf->toks[t].kind != TK_IDENT ||
		    !lex_tok_is(lf, t - 1, "=") || !lex_tok_is(lf, t + 1, ";"))
			continue;
		for (i = 0; i < nn && !lex_tok_is(lf, t, names[i]); i++)
			;
		if (i == nn)
			continue;
		/* each `place =` before it, right to left */
		for (e = t - 1; lex_tok_is(lf, e, "=") && *n < MAX_NAMES;
		     e = b) {
			struct strbuf sb = STRBUF_INIT;
			long m;

			for (b = e - 1; b > k && !lex_tok_is(lf, b, "=") &&
					!lex_tok_is(lf, b, ";") &&
					!lex_tok_is(lf, b, "{") &&
					!lex_tok_is(lf, b, "}") &&
					!lex_tok_is(lf, b, ")") &&
					!lex_tok_is(lf, b, ":");
			     b--)
				;
			for (m = b + 1; m < e; m++)
				if (lf->toks[m].kind != TK_COMMENT)
					sb_add(&sb, lf->buf + lf->toks[m].off,
					       lf->toks[m].len);
			if (!sb.len) {
				sb_release(&sb);
				break;
			}
			place_norm(sb.buf);
			if (known(names, *n, sb.buf))
				sb_release(&sb);
			else
				names[(*n)++] = sb_detach(&sb);
		}
	}
}

/*
 * A place whose root is a local set before token K from another place
 * (`rcb = priv->rcb[i]; rcb->urb = alloc();`) is also that place
 * (`priv->rcb[]->urb`), the name a teardown helper frees it under.
 */
static void add_origins(const struct lexfile *lf, long start, long k,
			char **names, int *n)
{
	int i, nn = *n;
	long j, e;

	for (i = 0; i < nn && *n < MAX_NAMES; i++) {
		size_t len = 0;

		while (is_ident_char((unsigned char)names[i][len]))
			len++;
		if (!len || !names[i][len])
			continue; /* a bare variable: its copies are add_stores' */
		for (j = k - 1; j > start; j--) {
			struct strbuf sb = STRBUF_INIT;
			char *x;

			if (!lex_tok_eq(lf, j, names[i], len) ||
			    !lex_tok_is(lf, j + 1, "=") ||
			    lex_tok_is(lf, j - 1, ".") ||
			    lex_tok_is(lf, j - 1, "->"))
				continue;
			for (e = j + 2; e < k && !lex_tok_is(lf, e, ";") &&
					!lex_tok_is(lf, e, "(");
			     e++)
				if (lf->toks[e].kind != TK_COMMENT)
					sb_add(&sb, lf->buf + lf->toks[e].off,
					       lf->toks[e].len);
			if (!lex_tok_is(lf, e, ";") || !sb.len) {
				sb_release(&sb);
				break; /* set from a call: no place */
			}
			place_norm(sb.buf);
			x = place_join(sb.buf, names[i] + len);
			sb_release(&sb);
			if (known(names, *n, x))
				free(x);
			else
				names[(*n)++] = x;
			break;
		}
	}
}

void errpath_sleep(struct walk_ctx *w, const struct site *s,
		   struct owner *r)
{
	const struct lexfile *lf = w->lf;
	const struct lex_func *fn;
	char *names[MAX_NAMES];
	long frees[MAX_FREES], calls[MAX_CALLS], k, var = -1, end, sl, f, lo;
	int every[MAX_FREES]; /* the free reaches the earlier iterations' */
	int n = 0, nf, ncalls = 0, j;

	if (!lf || r->held_across_sleep != 0 || !r->lifetime ||
	    (strcmp(r->lifetime, "stored") && strcmp(r->lifetime, "returned")))
		return;
	if ((k = lex_tok_at(lf, s->line, s->col)) < 0 || lf->toks[k].fn < 0)
		return;
	fn = &lf->funcs[lf->toks[k].fn];
	end = (long)fn->body_close;
	switch (lex_consumer(lf, k, &var)) {
	case LEX_VAR:
		if (var >= 0)
			names[n++] = xstrndup(lf->buf + lf->toks[var].off,
					      lf->toks[var].len);
		break;
	case LEX_STORE:
		names[n] = lex_lhs_text(lf, k);
		place_norm(names[n++]);
		var = lex_chain_var(lf, k);
		if (var >= 0)
			names[n++] = xstrndup(lf->buf + lf->toks[var].off,
					      lf->toks[var].len);
		break;
	default:
		break;
	}
	if (r->target && !strpbrk(r->target, "( ")) {
		names[n] = xstrdup(r->target);
		place_norm(names[n]);
		if (known(names, n, names[n]))
			free(names[n]);
		else
			n++;
	}
	if (n)
		add_stores(lf, k, end, names, &n);
	add_origins(lf, (long)fn->body_open, k, names, &n);
	/*
	 * The frees of it after the allocation (most sites have none):
	 * by a free function, or by a teardown helper of this file.
	 */
	nf = 0;
	for (f = k + 1; n && f < end && nf < MAX_FREES; f++) {
		const struct alloc_fn *a = free_at(w, lf, f);
		int which = a ? frees_one_of(lf, f, a->ptr_arg, names, n) : -1;

		if (which < 0 && is_call(lf, f))
			which = wrapper_frees(w, f, names, n);
		if (which < 0)
			continue;
		/*
		 * Does it free the earlier iterations' buffers too: an
		 * array's elements, or each one in a loop of its own?  A
		 * variable freed in the allocation's loop is the new one.
		 */
		lo = lex_loop_of(lf, f, (long)fn->body_open);
		every[nf] = strchr(names[which], '[') ||
			    (lo >= 0 &&
			     (k < lo || k > lex_loop_close(lf, lo, end)));
		frees[nf++] = f;
	}
	/*
	 * In a loop, the allocation itself runs again while this buffer
	 * is held: a sleep when its flags allow one, and the free of the
	 * array's elements on a path from it (`p[i] = alloc(); if (!p[i])
	 * goto undo_all;`).  A variable freed there is the new buffer.
	 */
	if (nf && lex_loop_of(lf, k, (long)fn->body_open) >= 0 &&
	    (lex_call_may_sleep(w, k) ||
	     (s->flags_via && gfp_text_may_sleep(s->flags_resolved))))
		for (j = 0; j < nf; j++)
			if (every[j] && reaches(lf, k, frees[j])) {
				set_slept(r, xasprintf(
					"%.*s() again in the loop at line %u, "
					"then %.*s() at line %u on an error "
					"path",
					(int)lf->toks[k].len,
					lf->buf + lf->toks[k].off,
					lf->toks[k].line,
					(int)lf->toks[frees[j]].len,
					lf->buf + lf->toks[frees[j]].off,
					lf->toks[frees[j]].line));
				goto out;
			}
	/*
	 * The first call that may sleep with a path to one of them; the
	 * other calls with such a path, for the summaries step.
	 */
	for (sl = k + 1; nf && sl < frees[nf - 1]; sl++) {
		int sleeps;

		/* a helper that frees may sleep first: only a free is none */
		if (!is_call(lf, sl) || free_at(w, lf, sl))
			continue;
		sleeps = lex_call_may_sleep(w, sl);
		for (j = 0; j < nf; j++) {
			long f2 = frees[j];

			if (f2 <= sl || !reaches(lf, sl, f2))
				continue;
			if (!sleeps) {
				if (ncalls < MAX_CALLS)
					calls[ncalls++] = sl;
				break;
			}
			set_slept(r, xasprintf(
				"%.*s() at line %u, then %.*s() at line %u on "
				"an error path",
				(int)lf->toks[sl].len, lf->buf + lf->toks[sl].off,
				lf->toks[sl].line, (int)lf->toks[f2].len,
				lf->buf + lf->toks[f2].off, lf->toks[f2].line));
			goto out;
		}
	}
	add_calls(r, lf, calls, ncalls);
out:
	for (j = 0; j < n; j++)
		free(names[j]);
}
