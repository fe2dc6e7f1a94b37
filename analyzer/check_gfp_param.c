// SPDX-License-Identifier: GPL-2.0
/*
 * sites.gfp_param: the enclosing function takes a gfp_t but the site
 * hard-codes a base mask instead of passing it on (4.13's
 * kstrdup_quotable_cmdline(task, gfp) allocated with GFP_TEMPORARY).
 *
 * Flags computed from the parameter are passed on, even when they
 * restrict it: 6.1 mm/slab.c cache_grow_begin(cachep, flags, nodeid)
 * sets local_flags = flags & (GFP_CONSTRAINT_MASK|GFP_RECLAIM_MASK) and
 * allocates with local_flags & ~GFP_CONSTRAINT_MASK.  So the flags are
 * compared with the parameter and with every variable the function
 * assigns from it, transitively.  And flags without a base mask (a 0, a
 * mask read from a structure, GFP_CONSTRAINT_MASK alone) hard-code
 * nothing the parameter could stand in for.  Nor where the parameter is
 * the mask of the function's pages (mask_of_pages()): its small
 * allocations beside them keep their own flags on purpose; nor for the
 * fallback after an allocation with the parameter failed
 * (retry_of_param()).
 */
#include "analyzer/ast.h"
#include "analyzer/lexscan.h"
#include "analyzer/owner_lex.h"
#include "analyzer/tables.h"
#include "analyzer/walker.h"
#include "lib/gfpmask.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

struct derived {
	char **v;
	size_t n;
};

static int derived_has(const struct derived *d, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strlen(d->v[i]) == len && !memcmp(d->v[i], s, len))
			return 1;
	return 0;
}

static void derived_free(struct derived *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
}

static long next_code(const struct lexfile *lf, long i, long end)
{
	while (++i < end && lf->toks[i].kind == TK_COMMENT)
		;
	return i;
}

static long prev_code(const struct lexfile *lf, long i, long start)
{
	while (--i > start && lf->toks[i].kind == TK_COMMENT)
		;
	return i;
}

static int is_assign(const struct lexfile *lf, long i)
{
	static const char *const ops[] = {
		"=", "|=", "&=", "^=", "+=", "-=", "*=", "<<=", ">>=", NULL};
	int k;

	if (lf->toks[i].kind != TK_PUNCT)
		return 0;
	for (k = 0; ops[k]; k++)
		if (lex_tok_is(lf, i, ops[k]))
			return 1;
	return 0;
}

/*
 * Whether the right-hand side starting at token A (up to the `;` or `,`
 * that ends it, or the bracket that closes around it) names one of D.
 */
static int rhs_mentions(const struct lexfile *lf, long a, long end,
			const struct derived *d)
{
	int depth = 0;
	long j;

	for (j = a; j < end; j++) {
		const struct tok *t = &lf->toks[j];

		if (t->kind == TK_PUNCT) {
			if (lex_tok_is(lf, j, "(") || lex_tok_is(lf, j, "[") ||
			    lex_tok_is(lf, j, "{"))
				depth++;
			else if (lex_tok_is(lf, j, ")") ||
				 lex_tok_is(lf, j, "]") ||
				 lex_tok_is(lf, j, "}")) {
				if (depth-- == 0)
					return 0;
			} else if (!depth && (lex_tok_is(lf, j, ";") ||
					      lex_tok_is(lf, j, ",")))
				return 0;
		} else if (t->kind == TK_IDENT &&
			   derived_has(d, lf->buf + t->off, t->len)) {
			return 1;
		}
	}
	return 0;
}

/*
 * D holds the parameter; add every variable FN assigns (`v = ...`,
 * `gfp_t v = ...`, `v |= ...`) from a name D holds, until none is new.
 * Flow-insensitive on purpose: an assignment anywhere in the function (a
 * loop may bring it back before the call) makes the variable follow the
 * caller's flags, and a site then gets no finding rather than a wrong one.
 */
static void derived_names(const struct lexfile *lf, const struct lex_func *fn,
			  struct derived *d)
{
	long end = (long)fn->body_close, j, op, pv;
	int changed = 1;

	while (changed) {
		changed = 0;
		for (j = (long)fn->body_open + 1; j < end; j++) {
			const struct tok *t = &lf->toks[j];

			if (t->kind != TK_IDENT || t->dir >= 0 ||
			    derived_has(d, lf->buf + t->off, t->len))
				continue;
			op = next_code(lf, j, end);
			if (op >= end || !is_assign(lf, op))
				continue;
			/* A member (`s->gfp = gfp`) is not a variable. */
			pv = prev_code(lf, j, (long)fn->body_open);
			if (lex_tok_is(lf, pv, ".") || lex_tok_is(lf, pv, "->"))
				continue;
			if (!rhs_mentions(lf, op + 1, end, d))
				continue;
			d->v = xrealloc(d->v, (d->n + 1) * sizeof(char *));
			d->v[d->n++] = xstrndup(lf->buf + t->off, t->len);
			changed = 1;
		}
	}
}

/* Do the site's flags name one of D (the parameter and its derived)? */
static int derives_from(const struct site *s, const struct derived *d)
{
	size_t k;

	for (k = 0; k < d->n; k++)
		if (text_mentions(s->flags, d->v[k]) ||
		    text_mentions(s->flags_resolved, d->v[k]))
			return 1;
	return 0;
}

/* Do the arguments of the call whose `(` is token OPEN name one of D? */
static int args_mention(const struct lexfile *lf, long open, long end,
			const struct derived *d)
{
	int depth = 0;
	long j;

	for (j = open; j < end; j++) {
		const struct tok *t = &lf->toks[j];

		if (lex_tok_is(lf, j, "("))
			depth++;
		else if (lex_tok_is(lf, j, ")") && --depth == 0)
			return 0;
		else if (t->kind == TK_IDENT &&
			 derived_has(d, lf->buf + t->off, t->len))
			return 1;
	}
	return 0;
}

/*
 * Is the parameter the mask of the function's pages: passed (itself or
 * a variable made from it) to a page allocator, or to a DMA allocator
 * of a size (dma_alloc_coherent(), not a pool's objects)?  Then the
 * function's own bookkeeping allocated with a fixed mask is deliberate:
 * 6.1 __iommu_dma_alloc_pages() takes gfp for the pages (with
 * __GFP_HIGHMEM added) and kvzalloc()s the page array with GFP_KERNEL.
 * An object allocator given the parameter beside a hard-coded one
 * (dma_pool_zalloc(flags) and kzalloc(GFP_ATOMIC)) stays a finding.
 */
static int mask_of_pages(const struct walk_ctx *w, const struct lex_func *fn,
			 const struct derived *d)
{
	const struct lexfile *lf = w->lf;
	long end = (long)fn->body_close, j;

	if (!w->allocs)
		return 0;
	for (j = (long)fn->body_open + 1; j + 1 < end; j++) {
		const struct tok *t = &lf->toks[j];
		const struct alloc_fn *a;

		if (t->kind != TK_IDENT || !lex_tok_is(lf, j + 1, "("))
			continue;
		a = alloc_lookup(w->allocs, lf->buf + t->off, t->len);
		if (!a || a->kind != AK_ALLOC || !a->family ||
		    !(!strcmp(a->family, "page") ||
		      (!strcmp(a->family, "dma") && a->size_arg >= 0)))
			continue;
		if (args_mention(lf, j + 1, end, d))
			return 1;
	}
	return 0;
}

static int has_base_mask(const char *text)
{
	return text && gfp_count_base_masks(text, strlen(text), NULL) > 0;
}

/* The variable `v = api(...)` at call token K assigns, or -1. */
static long assigned_to(const struct lexfile *lf, long k, long start)
{
	long eq = prev_code(lf, k, start), v;

	if (eq <= start || !lex_tok_is(lf, eq, "="))
		return -1;
	v = prev_code(lf, eq, start);
	return v > start && lf->toks[v].kind == TK_IDENT ? v : -1;
}

static int same_tok(const struct lexfile *lf, long a, long b)
{
	return lf->toks[a].len == lf->toks[b].len &&
	       !memcmp(lf->buf + lf->toks[a].off, lf->buf + lf->toks[b].off,
		       lf->toks[a].len);
}

/*
 * Is the site (callee token K) a retry: the same allocator, given the
 * parameter, assigned the same variable earlier in the function?  Then
 * the fixed mask is the fallback after the caller's failed (6.1
 * dm-snap.c: `e = kmem_cache_alloc(c, gfp); if (!e && gfp == GFP_NOIO)
 * e = kmem_cache_alloc(c, GFP_ATOMIC);`).  A scratch buffer and a
 * result in two variables are two allocations, not a retry.
 */
static int retry_of_param(const struct lexfile *lf, const struct lex_func *fn,
			  long k, const struct derived *d)
{
	long start = (long)fn->body_open, v = assigned_to(lf, k, start), j;

	if (v < 0)
		return 0;
	for (j = start + 1; j < k; j++) {
		long u;

		if (!same_tok(lf, j, k) || !lex_tok_is(lf, j + 1, "("))
			continue;
		u = assigned_to(lf, j, start);
		if (u >= 0 && same_tok(lf, u, v) &&
		    args_mention(lf, j + 1, (long)fn->body_close, d))
			return 1;
	}
	return 0;
}

static void gfp_param_site(struct walk_ctx *w, struct site *s, CXCursor call,
			   CXCursor fn)
{
	const struct alloc_fn *a =
		w->allocs ? alloc_lookup(w->allocs, s->api, strlen(s->api))
			  : NULL;
	const struct lexfile *lf = w->lf;
	const struct lex_func *f = NULL;
	struct derived d = {NULL, 0};
	char *param;
	long i = -1;

	(void)call;
	/* A cache's flags argument is slab flags, not a gfp mask. */
	if (clang_Cursor_isNull(fn) || s->gfp_arg < 0 || !s->flags ||
	    (a && a->kind != AK_ALLOC))
		return;
	if (!has_base_mask(s->flags) && !has_base_mask(s->flags_resolved))
		return;
	if (ast_gfp_param(w, fn, &param) < 0)
		return;
	d.v = xmalloc(sizeof(char *));
	d.v[d.n++] = param;
	/* without the function's tokens: the parameter itself only */
	if (lf && (i = lex_tok_at(lf, s->line, s->col)) >= 0 &&
	    lf->toks[i].fn >= 0) {
		f = &lf->funcs[lf->toks[i].fn];
		derived_names(lf, f, &d);
	}
	if (!derives_from(s, &d) &&
	    !(f && (mask_of_pages(w, f, &d) || retry_of_param(lf, f, i, &d))))
		s->gfp_param = xstrdup(param);
	derived_free(&d);
}

/* listed in analyzer/check_list.h */
const struct classifier gfp_param_classifier = {
	.name = "gfp_param",
	.site = gfp_param_site,
};

