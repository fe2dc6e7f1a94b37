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
#include "analyzer/owner_lex.h"
#include "analyzer/tables.h"
#include "analyzer/walker.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 6
#define MAX_FREES 16
#define MAX_CALLS 32

static int is_call(const struct lexfile *lf, long k)
{
	return lf->toks[k].kind == TK_IDENT && lex_tok_is(lf, k + 1, "(");
}

/* TEXT without its blanks, in place. */
static void squeeze(char *t)
{
	char *d = t;

	for (; *t; t++)
		if (*t != ' ')
			*d++ = *t;
	*d = 0;
}

/* Does the free call at K take one of the NAMES (blanks dropped)? */
static int frees_one_of(const struct lexfile *lf, long k, char **names,
			int n)
{
	int a, i, hit = 0;

	for (a = 0; a < MAX_ARGS && !hit; a++) {
		char *t = lex_arg_text(lf, k, a);

		if (!t)
			break;
		squeeze(t);
		for (i = 0; i < n && !hit; i++)
			hit = !strcmp(t, names[i]);
		free(t);
	}
	return hit;
}

static int is_free(const struct walk_ctx *w, const struct lexfile *lf,
		   long k)
{
	const struct alloc_fn *a;

	if (!w->allocs || !is_call(lf, k))
		return 0;
	a = alloc_lookup(w->allocs, lf->buf + lf->toks[k].off,
			 lf->toks[k].len);
	return a && a->kind == AK_FREE;
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

void errpath_sleep(struct walk_ctx *w, const struct site *s,
		   struct owner *r)
{
	const struct lexfile *lf = w->lf;
	const struct lex_func *fn;
	char *names[2];
	long frees[MAX_FREES], calls[MAX_CALLS], k, var = -1, end, sl, f;
	int n = 0, nf, ncalls = 0, i, j;

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
		squeeze(names[n++]);
		break;
	default:
		break;
	}
	if (r->target && !strpbrk(r->target, "( ") && n < 2 &&
	    (!n || strcmp(r->target, names[0])))
		names[n++] = xstrdup(r->target);
	/* the frees of it after the allocation (most sites have none) */
	nf = 0;
	for (f = k + 1; n && f < end && nf < MAX_FREES; f++)
		if (is_free(w, lf, f) && frees_one_of(lf, f, names, n))
			frees[nf++] = f;
	/*
	 * The first call that may sleep with a path to one of them; the
	 * other calls with such a path, for the summaries step.
	 */
	for (sl = k + 1; nf && sl < frees[nf - 1]; sl++) {
		int sleeps;

		if (!is_call(lf, sl) || is_free(w, lf, sl))
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
	for (i = 0; i < n; i++)
		free(names[i]);
}
