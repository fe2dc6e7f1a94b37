// SPDX-License-Identifier: GPL-2.0
/*
 * sites.held_across_sleep, and learning the tree's sleeping functions:
 * every function of the TU that calls a known sleeper (data/sleepers.txt,
 * a sleeper learned by an earlier run, a sleeping allocation, or another
 * such function of the TU) goes to the `sleepers` table, so that the next
 * scan knows it across files.
 */
#include "analyzer/owner.h"
#include "analyzer/summaries.h"
#include "analyzer/tufacts.h"
#include "analyzer/walker.h"
#include "lib/util.h"

static void sleep_site(struct walk_ctx *w, struct site *s, CXCursor call,
		       CXCursor fn)
{
	const struct owner *o = owner_of(w, s, call, fn);

	s->held_across_sleep = o->held_across_sleep;
	s->sleep_evidence =
		o->sleep_evidence ? xstrdup(o->sleep_evidence) : NULL;
	s->held_calls = o->held_calls ? xstrdup(o->held_calls) : NULL;
}

/*
 * A single-file parse names a SYSCALL_DEFINE2(...) body after the macro:
 * no caller calls it by that name.
 */
static int macro_like(const char *name)
{
	for (; *name; name++)
		if (*name >= 'a' && *name <= 'z')
			return 0;
	return 1;
}

static void sleep_tu_end(struct walk_ctx *w)
{
	const struct tu_facts *t;
	size_t i;

	if (!w->tu)
		return;
	t = tu_facts_get(w);
	for (i = 0; i < tu_fact_count(t); i++) {
		const struct fn_fact *f = tu_fact_at(t, i);

		if (f->sleeps && !macro_like(f->name))
			emit_sleeper(w, f->name, f->sleeps, f->line);
	}
}

/* listed in analyzer/check_list.h */
const struct classifier sleep_classifier = {
	.name = "held_across_sleep",
	.site = sleep_site,
	.tu_end = sleep_tu_end,
	.summaries = 1,
};

