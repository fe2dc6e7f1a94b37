// SPDX-License-Identifier: GPL-2.0
/*
 * Learned allocators (smatch's function database, for allocation): a
 * function that takes a gfp_t, passes it to an allocator and returns the
 * result (drm_malloc_gfp, alloc_loc_track) becomes an allocator itself,
 * so that the scan's next pass makes its callers sites.  A function that
 * frees its first parameter (directly or through another such function of
 * its TU) becomes a free function, which the lifetime analysis of later
 * files and scans then recognises.
 *
 * Allocation wrappers are recognised from the tokens, the same at every
 * depth: `return alloc(..., gfp)` or `p = alloc(..., gfp); ... return p;`.
 * That keeps a sharded scan equal to a whole one: a shard learns the
 * wrappers of the files it does not scan with the lexical tier
 * (analyzer/scan.c), and gets the same set as the whole scan.
 */
#include "analyzer/ast.h"
#include "analyzer/lexscan.h"
#include "analyzer/owner_lex.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "analyzer/walker.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static const struct alloc_fn *lookup(struct walk_ctx *w, const char *name)
{
	return w->allocs && name ? alloc_lookup(w->allocs, name, strlen(name))
				 : NULL;
}

/* Is the call at token I returned by FN, directly or through a variable? */
static int returned(const struct lexfile *lf, long i, const struct lex_func *fn)
{
	long var;

	switch (lex_consumer(lf, i, &var)) {
	case LEX_RETURN:
		return 1;
	case LEX_VAR:
		return lex_returns_var(lf, fn, i, var) >= 0;
	default:
		return 0;
	}
}

/*
 * FN's parameters from its tokens: the index of the one declared gfp_t
 * (its name into *GFP) and the index of the first one TEXT mentions.
 */
static int params(const struct lexfile *lf, const struct lex_func *fn,
		  char **gfp, const char *text, int *mentioned)
{
	unsigned i = fn->name_tok + 1, last_ident = 0;
	int depth = 0, n = 0, gfp_arg = -1, is_gfp = 0;

	*gfp = NULL;
	*mentioned = -1;
	for (; i < fn->body_open; i++) {
		const struct tok *t = &lf->toks[i];
		int close = lex_tok_is(lf, i, ")"),
		    comma = lex_tok_is(lf, i, ",");

		if (lex_tok_is(lf, i, "(") && !depth++)
			continue;
		if ((close && --depth == 0) || (comma && depth == 1)) {
			if (last_ident) {
				const struct tok *p = &lf->toks[last_ident];
				char *name = xstrndup(lf->buf + p->off, p->len);

				if (is_gfp && gfp_arg < 0) {
					gfp_arg = n;
					*gfp = xstrdup(name);
				}
				if (*mentioned < 0 && text_mentions(text, name))
					*mentioned = n;
				free(name);
			}
			n++;
			last_ident = 0;
			is_gfp = 0;
			if (close)
				break;
			continue;
		}
		if (t->kind == TK_IDENT && depth == 1) {
			if (lex_tok_is(lf, i, "gfp_t"))
				is_gfp = 1;
			else
				last_ident = i;
		}
	}
	return gfp_arg;
}

static void wrapper_site(struct walk_ctx *w, struct site *s, CXCursor call,
			 CXCursor fn_cursor)
{
	const struct alloc_fn *a = lookup(w, s->api), *self;
	const struct lexfile *lf = w->lf;
	const struct lex_func *fn;
	char *gfp, *name;
	long i;
	int gfp_arg, size_arg;

	(void)call;
	(void)fn_cursor;
	if (!a || a->kind != AK_ALLOC || !lf || s->in_disabled_branch ||
	    (i = lex_tok_at(lf, s->line, s->col)) < 0 || lf->toks[i].fn < 0)
		return;
	fn = &lf->funcs[lf->toks[i].fn];
	name = fn->name;
	self = lookup(w, name);
	if ((self && !self->learned) || !returned(lf, i, fn))
		return;
	gfp_arg = params(lf, fn, &gfp, s->size, &size_arg);
	if (gfp_arg >= 0 && (text_mentions(s->flags, gfp) ||
			     text_mentions(s->flags_resolved, gfp)))
		emit_allocator(w, name, "alloc", a->family, gfp_arg, size_arg,
			       s->api, lf->toks[fn->name_tok].line);
	free(gfp);
}

static void wrapper_tu_end(struct walk_ctx *w)
{
	const struct tu_facts *t;
	size_t i;

	if (!w->tu)
		return;
	t = tu_facts_get(w);
	for (i = 0; i < tu_fact_count(t); i++) {
		const struct fn_fact *f = tu_fact_at(t, i);
		const struct alloc_fn *self = lookup(w, f->name), *via;

		if (!f->frees_param || (self && !self->learned))
			continue;
		via = lookup(w, f->frees_param);
		/*
		 * Family "macro" marks a free macro (lexsites.c), which a
		 * walk takes as a free; a function that calls one is not.
		 */
		emit_allocator(w, f->name, "free",
			       via && strcmp(via->family, "macro") ?
				       via->family :
				       NULL,
			       -1, -1, f->frees_param, f->line);
	}
}

/* listed in analyzer/check_list.h */
const struct classifier wrapper_classifier = {
	.name = "wrappers",
	.site = wrapper_site,
	.tu_end = wrapper_tu_end,
};

