// SPDX-License-Identifier: GPL-2.0
/*
 * sites.gfp_param: the enclosing function takes a gfp_t but the site
 * hard-codes its flags instead of passing it on (4.13's
 * kstrdup_quotable_cmdline(task, gfp) allocated with GFP_TEMPORARY).
 */
#include "analyzer/ast.h"
#include "analyzer/tables.h"
#include "analyzer/walker.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static void gfp_param_site(struct walk_ctx *w, struct site *s, CXCursor call,
			   CXCursor fn)
{
	const struct alloc_fn *a =
		w->allocs ? alloc_lookup(w->allocs, s->api, strlen(s->api))
			  : NULL;
	char *param;

	(void)call;
	/* A cache's flags argument is slab flags, not a gfp mask. */
	if (clang_Cursor_isNull(fn) || s->gfp_arg < 0 || !s->flags ||
	    (a && a->kind != AK_ALLOC))
		return;
	if (ast_gfp_param(w, fn, &param) < 0)
		return;
	if (!text_mentions(s->flags, param) &&
	    !text_mentions(s->flags_resolved, param))
		s->gfp_param = param;
	else
		free(param);
}

static const struct classifier gfp_param_classifier = {
	.name = "gfp_param",
	.site = gfp_param_site,
};

REGISTER_CLASSIFIER(gfp_param_classifier)
