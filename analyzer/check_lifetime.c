// SPDX-License-Identifier: GPL-2.0
/*
 * sites.lifetime: how long the memory is held (owner.h does the work; from
 * the tokens when the AST does not have the call: confidence `lexical`).
 */
#include "analyzer/owner.h"
#include "analyzer/walker.h"
#include "lib/util.h"

static void lifetime_site(struct walk_ctx *w, struct site *s, CXCursor call,
			  CXCursor fn)
{
	const struct owner *o = owner_of(w, s, call, fn);

	s->lifetime = o->lifetime;
	s->lifetime_evidence = o->evidence ? xstrdup(o->evidence) : NULL;
	s->lifetime_line = o->line;
}

/* listed in analyzer/check_list.h */
const struct classifier lifetime_classifier = {
	.name = "lifetime",
	.site = lifetime_site,
	.summaries = 1,
};

