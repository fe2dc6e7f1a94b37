// SPDX-License-Identifier: GPL-2.0
/*
 * Learned allocators (smatch's function database, for allocation): a
 * function that takes a gfp_t, passes it to an allocator and returns the
 * result (drm_malloc_gfp, alloc_loc_track) becomes an allocator itself,
 * so that the scan's next pass makes its callers sites.  A function that
 * frees its first parameter (directly or through another such function of
 * its TU) becomes a free function, which the lifetime analysis of later
 * files and scans then recognises.
 */
#include "analyzer/ast.h"
#include "analyzer/owner.h"
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

/* Index of the first parameter of FN that TEXT mentions, or -1. */
static int param_in(CXCursor fn, const char *text)
{
	int i, n = clang_Cursor_getNumArguments(fn);

	for (i = 0; i < n && text; i++) {
		char *p = ast_name(clang_Cursor_getArgument(fn, (unsigned)i));
		int hit = text_mentions(text, p);

		free(p);
		if (hit)
			return i;
	}
	return -1;
}

static void wrapper_site(struct walk_ctx *w, struct site *s, CXCursor call,
			 CXCursor fn)
{
	const struct alloc_fn *a = lookup(w, s->api), *self;
	const struct owner *o;
	char *gfp;
	int gfp_arg;

	if (!a || a->kind != AK_ALLOC || clang_Cursor_isNull(fn) ||
	    !s->function)
		return;
	self = lookup(w, s->function);
	if (self && !self->learned)
		return;
	gfp_arg = ast_gfp_param(w, fn, &gfp);
	if (gfp_arg < 0)
		return;
	o = owner_of(w, s, call, fn);
	if (o && !strcmp(o->lifetime, "returned") &&
	    (text_mentions(s->flags, gfp) ||
	     text_mentions(s->flags_resolved, gfp)))
		emit_allocator(w, s->function, "alloc", a->family, gfp_arg,
			       param_in(fn, s->size), s->api, ast_line(fn));
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
		emit_allocator(w, f->name, "free", via ? via->family : NULL, -1,
			       -1, f->frees_param, f->line);
	}
}

static const struct classifier wrapper_classifier = {
	.name = "wrappers",
	.site = wrapper_site,
	.tu_end = wrapper_tu_end,
};

REGISTER_CLASSIFIER(wrapper_classifier)
