// SPDX-License-Identifier: GPL-2.0
/*
 * The token scan's structure pass: preprocessor directives (with the
 * three-valued #if evaluator behind in_disabled_branch and the file's own
 * #defines), braces and function definitions.  Raw tokens see both sides
 * of an #if/#else, so an #else branch starts from the brace state of its
 * #if and #endif continues with the state the first branch ended in (the
 * ctags approach).
 */
#include "analyzer/lexint.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COND 64

struct brace {
	unsigned char kind;
	int fn;
};

struct bstack {
	struct brace *v;
	size_t n, alloc;
};

struct cond {
	int active, taken, parent_active;
	struct bstack at_if, first_end;
	int have_first;
};

static void bs_push(struct bstack *b, unsigned char kind, int fn)
{
	if (b->n == b->alloc) {
		b->alloc = b->alloc ? b->alloc * 2 : 16;
		b->v = xrealloc(b->v, b->alloc * sizeof(*b->v));
	}
	b->v[b->n].kind = kind;
	b->v[b->n++].fn = fn;
}

static void bs_copy(struct bstack *dst, const struct bstack *src)
{
	dst->n = 0;
	while (dst->n < src->n)
		bs_push(dst, src->v[dst->n].kind, src->v[dst->n].fn);
}


struct pass {
	struct lexfile *lf;
	const struct menv_ctx *ctx;
	struct bstack braces;
	struct cond conds[MAX_COND];
	int nconds;
	int disabled; /* number of levels known inactive */
};

static int cur_active(const struct pass *p)
{
	int i, a = 1;

	for (i = 0; i < p->nconds; i++) {
		if (p->conds[i].active == 0)
			return 0;
		if (p->conds[i].active < 0)
			a = -1;
	}
	return a;
}

static unsigned directive_end_off(const struct lexfile *lf, unsigned off)
{
	unsigned p = off;

	while (p < lf->len) {
		if (lf->buf[p] == '\n') {
			unsigned q = p;

			if (q > off && lf->buf[q - 1] == '\r')
				q--;
			if (q > off && lf->buf[q - 1] == '\\') {
				p++;
				continue;
			}
			return p;
		}
		p++;
	}
	return (unsigned)lf->len;
}

static void add_dir(struct lexfile *lf, struct directive *d)
{
	lf->dirs = xrealloc(lf->dirs, (lf->ndirs + 1) * sizeof(*d));
	lf->dirs[lf->ndirs++] = *d;
}

/* The condition text of an #if/#elif directive, cleaned. */
static char *cond_text(const struct lexfile *lf, const struct directive *d,
		       unsigned kw)
{
	unsigned start = lf->toks[kw].off + lf->toks[kw].len;
	unsigned end = lf->toks[d->end - 1].off + lf->toks[d->end - 1].len;

	if (d->end - 1 == kw)
		return xstrdup("");
	return pp_clean(lf->buf + start, end - start);
}

static int eval_dir_cond(struct pass *p, const struct directive *d,
			 unsigned kw)
{
	struct lexfile *lf = p->lf;
	char *text;
	int v;

	if (!strcmp(d->kind, "ifdef") || !strcmp(d->kind, "ifndef")) {
		unsigned n = kw + 1;

		if (n >= d->end || !lx_is_word(lf, n))
			return -1;
		text = xasprintf("%sdefined(%.*s)",
				 d->kind[2] == 'n' ? "!" : "",
				 (int)lf->toks[n].len, lf->buf + lf->toks[n].off);
	} else {
		text = cond_text(lf, d, kw);
	}
	v = menv_eval_cond(p->ctx, text, strlen(text));
	free(text);
	return v;
}

static void do_conditional(struct pass *p, const struct directive *d,
			   unsigned kw)
{
	const char *k = d->kind;
	struct cond *c;

	if (!strcmp(k, "if") || !strcmp(k, "ifdef") || !strcmp(k, "ifndef")) {
		int parent = cur_active(p), v = eval_dir_cond(p, d, kw);

		if (p->nconds == MAX_COND)
			return;
		c = &p->conds[p->nconds++];
		c->parent_active = parent;
		c->active = parent == 0 || v == 0 ? 0 :
			    (parent < 0 || v < 0) ? -1 : 1;
		c->taken = v == 1 && parent != 0;
		c->have_first = 0;
		bs_copy(&c->at_if, &p->braces);
		c->first_end.n = 0;
	} else if ((!strcmp(k, "elif") || !strcmp(k, "else") ||
		    !strcmp(k, "elifdef") || !strcmp(k, "elifndef")) &&
		   p->nconds) {
		int v = !strcmp(k, "else") ? 1 : eval_dir_cond(p, d, kw);

		c = &p->conds[p->nconds - 1];
		if (!c->have_first) {
			bs_copy(&c->first_end, &p->braces);
			c->have_first = 1;
		}
		bs_copy(&p->braces, &c->at_if);
		if (c->parent_active == 0 || c->taken || v == 0)
			c->active = 0;
		else
			c->active = (v < 0 || c->active < 0 ||
				     c->parent_active < 0) ? -1 : 1;
		if (v == 1 && c->active == 1)
			c->taken = 1;
	} else if (!strcmp(k, "endif") && p->nconds) {
		c = &p->conds[--p->nconds];
		if (c->have_first)
			bs_copy(&p->braces, &c->first_end);
	}
}

static void do_define(struct pass *p, struct directive *d, unsigned kw)
{
	struct lexfile *lf = p->lf;
	unsigned n = kw + 1, b;
	int active = cur_active(p), fn_like = 0;
	const char *body;
	size_t blen = 0;

	if (n >= d->end || !lx_is_word(lf, n))
		return;
	d->name = (int)n;
	b = n + 1;
	if (b < d->end && lx_is_punct(lf, b, "(") &&
	    lf->toks[b].off == lf->toks[n].off + lf->toks[n].len) {
		fn_like = 1;
		while (b < d->end && !lx_is_punct(lf, b, ")"))
			b++;
		b++;
	}
	d->body = b;
	if (!strcmp(d->kind, "undef")) {
		const struct mdef *old = menv_get(&lf->local,
						  lf->buf + lf->toks[n].off,
						  lf->toks[n].len);

		if (active == 1 && old && old->state == MDEF_DEFINED &&
		    old->body)
			menv_set(&lf->undone, lf->buf + lf->toks[n].off,
				 lf->toks[n].len, old->body, strlen(old->body),
				 MDEF_DEFINED, old->function_like);
		if (active == 1)
			menv_set(&lf->local, lf->buf + lf->toks[n].off,
				 lf->toks[n].len, NULL, 0, MDEF_UNDEF, 0);
		return;
	}
	if (active == 0)
		return;
	body = lf->buf + lf->toks[n].off + lf->toks[n].len;
	if (b < d->end) {
		body = lf->buf + lf->toks[b].off;
		blen = lf->toks[d->end - 1].off + lf->toks[d->end - 1].len -
		       lf->toks[b].off;
	}
	menv_set(&lf->local, lf->buf + lf->toks[n].off, lf->toks[n].len, body,
		 blen, active == 1 ? MDEF_DEFINED : MDEF_MAYBE, fn_like);
}

/* Token I is a '#' starting a line: record the directive, return its end. */
static unsigned do_directive(struct pass *p, unsigned i)
{
	struct lexfile *lf = p->lf;
	struct directive d = { i, i + 1, "", -1, 0 };
	unsigned end = directive_end_off(lf, lf->toks[i].off), j = i;
	unsigned kw = i + 1;
	int dir = (int)lf->ndirs, dis;

	while (j < lf->ntoks && lf->toks[j].off < end) {
		const struct tok *t = &lf->toks[j];

		/* A comment running past the line end extends the line. */
		if (t->kind == TK_COMMENT && t->off + t->len > end)
			end = directive_end_off(lf, t->off + t->len);
		j++;
	}
	d.end = j;
	while (kw < d.end && lf->toks[kw].kind == TK_COMMENT)
		kw++;
	if (kw < d.end && lx_is_word(lf, kw))
		snprintf(d.kind, sizeof(d.kind), "%.*s",
			 (int)lf->toks[kw].len, lf->buf + lf->toks[kw].off);
	/* The directive line itself belongs to the enclosing state. */
	dis = cur_active(p) == 0;
	if (!strcmp(d.kind, "define") || !strcmp(d.kind, "undef"))
		do_define(p, &d, kw);
	else
		do_conditional(p, &d, kw);
	if (!strcmp(d.kind, "if") || !strcmp(d.kind, "ifdef") ||
	    !strcmp(d.kind, "ifndef") || !strcmp(d.kind, "endif"))
		; /* keep the enclosing state computed above */
	else if (strcmp(d.kind, "define") && strcmp(d.kind, "undef"))
		dis = p->nconds && p->conds[p->nconds - 1].parent_active == 0;
	add_dir(lf, &d);
	for (j = d.first; j < d.end; j++) {
		lf->toks[j].dir = dir;
		lf->toks[j].disabled = (unsigned char)dis;
		lf->toks[j].fn = -1;
		lf->toks[j].brace = BR_NONE;
	}
	return d.end;
}

static int is_allcaps(const struct lexfile *lf, unsigned i)
{
	const struct tok *t = &lf->toks[i];
	unsigned k;

	for (k = 0; k < t->len; k++) {
		char c = lf->buf[t->off + k];

		if (!(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
		    c != '_')
			return 0;
	}
	return 1;
}

/* At a file-scope '{': the function being defined, or -1. */
static int function_at(struct pass *p, unsigned i)
{
	struct lexfile *lf = p->lf;
	int j = lx_prev_code(lf, (int)i), open, n, guard = 0;
	struct lex_func f;

	while (j >= 0 && lx_is_punct(lf, j, ")") && guard++ < 8) {
		open = lx_match_back(lf, j);
		if (open < 0)
			return -1;
		n = lx_prev_code(lf, open);
		if (n < 0 || lf->toks[n].kind != TK_IDENT)
			return -1;
		j = lx_prev_code(lf, n);
		/* f(args) __acquires(x) {: skip the annotation. */
		if (j >= 0 && lx_is_punct(lf, j, ")"))
			continue;
		f.name_tok = (unsigned)n;
		/* SYSCALL_DEFINE2(memfd_create, ...): the name argument. */
		if (is_allcaps(lf, (unsigned)n)) {
			int a = lx_next_code(lf, open);

			if (a >= 0 && lf->toks[a].kind == TK_IDENT)
				f.name_tok = (unsigned)a;
		}
		f.name = xstrndup(lf->buf + lf->toks[f.name_tok].off,
				  lf->toks[f.name_tok].len);
		f.body_open = i;
		f.body_close = (unsigned)lf->ntoks;
		lf->funcs = xrealloc(lf->funcs,
				     (lf->nfuncs + 1) * sizeof(*lf->funcs));
		lf->funcs[lf->nfuncs] = f;
		return (int)lf->nfuncs++;
	}
	return -1;
}

static void open_brace(struct pass *p, unsigned i)
{
	struct lexfile *lf = p->lf;
	struct bstack *b = &p->braces;
	int prev = lx_prev_code(lf, (int)i), fn;
	unsigned char top = b->n ? b->v[b->n - 1].kind : BR_NONE;
	int topfn = b->n ? b->v[b->n - 1].fn : -1;

	if (prev >= 0 && lx_is_punct(lf, prev, "=")) {
		bs_push(b, BR_INIT, topfn);
	} else if (top == BR_INIT || top == BR_AGG) {
		bs_push(b, top, topfn);
	} else if (top == BR_NONE) {
		fn = prev >= 0 && lx_is_punct(lf, prev, ")") ? function_at(p, i) :
							   -1;
		if (fn >= 0)
			bs_push(b, BR_FUNC, fn);
		else if (prev >= 0 && lx_is_word(lf, prev))
			bs_push(b, BR_AGG, -1);
		else
			bs_push(b, BR_BLOCK, -1);
	} else {
		bs_push(b, BR_BLOCK, topfn);
	}
}

static void close_brace(struct pass *p, unsigned i)
{
	struct bstack *b = &p->braces;

	if (!b->n)
		return;
	b->n--;
	if (b->v[b->n].kind == BR_FUNC && b->v[b->n].fn >= 0)
		p->lf->funcs[b->v[b->n].fn].body_close = i;
}

void lx_structure_pass(struct lexfile *lf, const struct menv_ctx *ctx)
{
	struct pass p;
	unsigned i = 0;
	int k;

	memset(&p, 0, sizeof(p));
	p.lf = lf;
	p.ctx = ctx;
	while (i < lf->ntoks) {
		struct tok *t = &lf->toks[i];
		struct bstack *b = &p.braces;

		if (t->kind == TK_PUNCT && lx_tok_is(lf, i, "#") &&
		    (i == 0 || lf->toks[i - 1].line < t->line ||
		     lf->toks[i - 1].kind == TK_COMMENT)) {
			i = do_directive(&p, i);
			continue;
		}
		t->dir = -1;
		t->disabled = cur_active(&p) == 0;
		t->fn = b->n ? b->v[b->n - 1].fn : -1;
		t->brace = b->n ? b->v[b->n - 1].kind : BR_NONE;
		if (t->kind == TK_PUNCT && lx_tok_is(lf, i, "{"))
			open_brace(&p, i);
		else if (t->kind == TK_PUNCT && lx_tok_is(lf, i, "}"))
			close_brace(&p, i);
		i++;
	}
	for (k = 0; k < MAX_COND; k++) {
		free(p.conds[k].at_if.v);
		free(p.conds[k].first_end.v);
	}
	free(p.braces.v);
}

